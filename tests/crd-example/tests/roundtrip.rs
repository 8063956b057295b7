//! Realistic objects for every generated resource: JSON → typed struct → JSON gives the same
//! value, and list items without `apiVersion`/`kind` decode too.

use std::collections::BTreeSet;
use std::path::Path;

use kube_informers::k8s_openapi::Resource;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Decodes `value` as `T` and encodes it again.
fn roundtrip<T: DeserializeOwned + Serialize + Resource>(value: &Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    let mut item = value.clone();
    if let Some(object) = item.as_object_mut() {
        object.remove("apiVersion");
        object.remove("kind");
    }
    let from_item: T = serde_json::from_value(item).map_err(|e| format!("as a list item: {e}"))?;
    let again = serde_json::to_value(&from_item).map_err(|e| e.to_string())?;
    let encoded = serde_json::to_value(&typed).map_err(|e| e.to_string())?;
    if again != encoded {
        return Err("a list item without apiVersion/kind decodes differently".into());
    }
    Ok(encoded)
}

macro_rules! resources {
    ($($ty:ty),* $(,)?) => {
        /// `(apiVersion, kind)` of every resource under test.
        fn all() -> BTreeSet<(&'static str, &'static str)> {
            [$((<$ty as Resource>::API_VERSION, <$ty as Resource>::KIND)),*].into_iter().collect()
        }

        fn dispatch(api_version: &str, kind: &str, value: &Value) -> Option<Result<Value, String>> {
            $(
                if api_version == <$ty as Resource>::API_VERSION && kind == <$ty as Resource>::KIND {
                    return Some(roundtrip::<$ty>(value));
                }
            )*
            None
        }
    };
}

resources!(
    crd_example::crds::acid_zalan_do::v1::Postgresql,
    crd_example::crds::apiextensions_crossplane_io::v1::CompositeResourceDefinition,
    crd_example::crds::apiextensions_crossplane_io::v1::Composition,
    crd_example::crds::apiextensions_crossplane_io::v1beta1::EnvironmentConfig,
    crd_example::crds::apiextensions_crossplane_io::v2::CompositeResourceDefinition,
    crd_example::crds::argoproj_io::v1alpha1::AppProject,
    crd_example::crds::argoproj_io::v1alpha1::Application,
    crd_example::crds::argoproj_io::v1alpha1::ApplicationSet,
    crd_example::crds::argoproj_io::v1alpha1::NonStatusSubResource,
    crd_example::crds::argoproj_io::v1alpha1::Rollout,
    crd_example::crds::argoproj_io::v1alpha1::StatusSubResource,
    crd_example::crds::argoproj_io::v1alpha1::WorkflowTemplate,
    crd_example::crds::bootstrap_cluster_x_k8s_io::v1beta1::KubeadmConfig,
    crd_example::crds::bootstrap_cluster_x_k8s_io::v1beta2::KubeadmConfig,
    crd_example::crds::cert_manager_io::v1::Certificate,
    crd_example::crds::cert_manager_io::v1::ClusterIssuer,
    crd_example::crds::cert_manager_io::v1::Issuer,
    crd_example::crds::cluster_x_k8s_io::v1beta1::ClusterClass,
    crd_example::crds::cluster_x_k8s_io::v1beta2::ClusterClass,
    crd_example::crds::gateway_networking_k8s_io::v1::Gateway,
    crd_example::crds::gateway_networking_k8s_io::v1::HTTPRoute,
    crd_example::crds::gateway_networking_k8s_io::v1::ReferenceGrant,
    crd_example::crds::gateway_networking_k8s_io::v1beta1::Gateway,
    crd_example::crds::gateway_networking_k8s_io::v1beta1::HTTPRoute,
    crd_example::crds::gateway_networking_k8s_io::v1beta1::ReferenceGrant,
    crd_example::crds::keda_sh::v1alpha1::ScaledObject,
    crd_example::crds::monitoring_coreos_com::v1::Prometheus,
    crd_example::crds::monitoring_coreos_com::v1::PrometheusRule,
    crd_example::crds::monitoring_coreos_com::v1::ServiceMonitor,
    crd_example::crds::monitoring_coreos_com::v1alpha1::AlertmanagerConfig,
    crd_example::crds::monitoring_coreos_com::v1beta1::AlertmanagerConfig,
    crd_example::crds::source_toolkit_fluxcd_io::v1::GitRepository,
    crd_example::crds::source_toolkit_fluxcd_io::v1beta1::GitRepository,
    crd_example::crds::source_toolkit_fluxcd_io::v1beta2::GitRepository,
    crd_example::golden::example_com::v1::Widget,
    crd_example::golden::example_com::v1beta1::Widget,
    crd_example::golden::tools_example_org::v2::Gadget,
);

#[test]
fn every_fixture_round_trips_and_every_resource_has_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut covered = BTreeSet::new();
    let mut failures = Vec::new();
    for file in &files {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let api_version = value["apiVersion"].as_str().unwrap().to_owned();
        let kind = value["kind"].as_str().unwrap().to_owned();
        match dispatch(&api_version, &kind, &value) {
            None => failures.push(format!(
                "{}: no type for {api_version} {kind}",
                file.display()
            )),
            Some(Err(e)) => failures.push(format!("{}: {e}", file.display())),
            Some(Ok(encoded)) if encoded != value => failures.push(format!(
                "{}: round trip changed the object\n  in:  {value}\n  out: {encoded}",
                file.display()
            )),
            Some(Ok(_)) => {
                covered.insert((api_version, kind));
            }
        }
    }
    let missing: Vec<_> = all()
        .into_iter()
        .filter(|(a, k)| !covered.contains(&((*a).to_owned(), (*k).to_owned())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        missing.is_empty(),
        "resources without a fixture: {missing:?}"
    );
}

#[test]
fn unknown_enum_values_decode_and_round_trip() {
    use crd_example::golden::example_com::v1::{Widget, WidgetSpecType};
    let value = serde_json::json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default"},
        "spec": {"size": 1, "type": "hexagonal"}
    });
    let widget: Widget = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(
        widget.spec.r#type,
        WidgetSpecType::Other("hexagonal".into())
    );
    assert_eq!(serde_json::to_value(&widget).unwrap(), value);
    let known: Widget = serde_json::from_value(serde_json::json!({
        "metadata": {}, "spec": {"size": 1, "type": "square edged"}
    }))
    .unwrap();
    assert_eq!(known.spec.r#type, WidgetSpecType::SquareEdged);
    assert_eq!(WidgetSpecType::from("=".to_owned()), WidgetSpecType::Eq);
    assert_eq!(WidgetSpecType::Empty.as_str(), "");
}

#[test]
fn resource_traits_match_the_crd() {
    use crd_example::crds::cert_manager_io::v1::{Certificate, ClusterIssuer};
    use kube_informers::k8s_openapi::{ListableResource, Metadata};
    assert_eq!(Certificate::API_VERSION, "cert-manager.io/v1");
    assert_eq!(Certificate::GROUP, "cert-manager.io");
    assert_eq!(Certificate::VERSION, "v1");
    assert_eq!(Certificate::URL_PATH_SEGMENT, "certificates");
    assert_eq!(Certificate::LIST_KIND, "CertificateList");
    assert_eq!(ClusterIssuer::KIND, "ClusterIssuer");
    fn cluster_scoped<T: Resource<Scope = kube_informers::k8s_openapi::ClusterResourceScope>>() {}
    fn namespaced<T: Resource<Scope = kube_informers::k8s_openapi::NamespaceResourceScope>>() {}
    cluster_scoped::<ClusterIssuer>();
    namespaced::<Certificate>();
    let mut cert: Certificate = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "c"},
        "spec": {"secretName": "s", "issuerRef": {"name": "i"}}
    }))
    .unwrap();
    cert.metadata_mut().namespace = Some("ns".into());
    assert_eq!(cert.metadata().namespace.as_deref(), Some("ns"));
    assert_eq!(
        crd_example::crds::acid_zalan_do::v1::Postgresql::LIST_KIND,
        "postgresqlList"
    );
}
