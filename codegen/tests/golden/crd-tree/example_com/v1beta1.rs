//! `example.com/v1beta1`: `Widget`.
/// Custom resource `example.com/v1beta1` `Widget` (`widgets`, namespaced), from CRD `widgets.example.com`.
///
/// Deprecated: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Deserialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct Widget {
    /// Standard object metadata.
    #[serde(default)]
    pub metadata: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    /// Field `spec`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub spec: ::std::option::Option<WidgetSpec>,
}
impl ::kube_informers::k8s_openapi::Resource for Widget {
    const API_VERSION: &'static str = "example.com/v1beta1";
    const GROUP: &'static str = "example.com";
    const KIND: &'static str = "Widget";
    const VERSION: &'static str = "v1beta1";
    const URL_PATH_SEGMENT: &'static str = "widgets";
    type Scope = ::kube_informers::k8s_openapi::NamespaceResourceScope;
}
impl ::kube_informers::k8s_openapi::ListableResource for Widget {
    const LIST_KIND: &'static str = "WidgetList";
}
impl ::kube_informers::k8s_openapi::Metadata for Widget {
    type Ty = ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    fn metadata(&self) -> &Self::Ty {
        &self.metadata
    }
    fn metadata_mut(&mut self) -> &mut Self::Ty {
        &mut self.metadata
    }
}
/// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
impl ::kube_informers::serde::Serialize for Widget {
    fn serialize<S: ::kube_informers::serde::Serializer>(
        &self,
        serializer: S,
    ) -> ::std::result::Result<S::Ok, S::Error> {
        use ::kube_informers::serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(::std::option::Option::None)?;
        map.serialize_entry(
            "apiVersion",
            <Self as ::kube_informers::k8s_openapi::Resource>::API_VERSION,
        )?;
        map.serialize_entry(
            "kind",
            <Self as ::kube_informers::k8s_openapi::Resource>::KIND,
        )?;
        map.serialize_entry("metadata", &self.metadata)?;
        if let ::std::option::Option::Some(value) = &self.spec {
            map.serialize_entry("spec", value)?;
        }
        map.end()
    }
}
/// Object at `spec.versions[1].schema.openAPIV3Schema.properties.spec`.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    ::kube_informers::serde::Serialize,
    ::kube_informers::serde::Deserialize
)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpec {
    /// Field `size`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub size: ::std::option::Option<i64>,
}
