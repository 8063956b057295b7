//! Type names a user can find in generated code: every place of a kind's schema that holds an
//! object or an enum has a type named `<Kind><Path>` (a type shared by kinds or repeated inside
//! one is the same type under each name), and enum values differing only in case have variants
//! named by their case.

use crd_example::crds::acid_zalan_do::v1::PostgresqlSpecUsers;
use crd_example::edge_crds::mesh_example_io::v1::{
    ClusterPolicySpecRulesExclude, ClusterPolicySpecRulesMatch,
    ClusterPolicySpecValidationFailureAction, DestinationRuleStatus, PolicySpec, VirtualService,
    VirtualServiceStatus,
};
use serde_json::json;

#[test]
fn every_place_has_a_name_of_its_kind_and_path() {
    use crd_example::edge_crds::mesh_example_io::v1::{
        DestinationRule, DestinationRuleSpecSubsetsTrafficPolicyLoadBalancer,
        DestinationRuleSpecTrafficPolicyLoadBalancer, SidecarSpecOutboundTrafficPolicyEgressProxy,
        VirtualServiceSpecHttpMirror, VirtualServiceSpecHttpRouteDestination,
        VirtualServiceSpecHttpRouteDestinationPort,
    };
    use crd_example::edge_crds::secrets_example_io::v1::{
        ClusterExternalSecret, ClusterExternalSecretSpecExternalSecretSpecSecretStoreRef,
        ExternalSecretSpec, ExternalSecretSpecSecretStoreRef,
    };

    let service: VirtualService = serde_json::from_value(json!({
        "apiVersion": "mesh.example.io/v1",
        "kind": "VirtualService",
        "metadata": {"name": "reviews", "namespace": "default"},
        "spec": {"http": [{
            "route": [{"destination": {"host": "reviews", "port": {"number": 9080}}, "weight": 90}],
            "mirror": {"host": "reviews-shadow"}
        }]}
    }))
    .unwrap();
    let http = &service.spec.as_ref().unwrap().http.as_ref().unwrap()[0];
    let route = &http.route.as_ref().unwrap()[0];
    let destination: &VirtualServiceSpecHttpRouteDestination = route.destination.as_ref().unwrap();
    let port: &VirtualServiceSpecHttpRouteDestinationPort = destination.port.as_ref().unwrap();
    assert_eq!(port.number, Some(9080));
    // One schema, one type: the mirror's, and Sidecar's egress proxy's.
    let _: &VirtualServiceSpecHttpMirror = destination;
    let _: &SidecarSpecOutboundTrafficPolicyEgressProxy = destination;

    let rule: DestinationRule = serde_json::from_value(json!({
        "apiVersion": "mesh.example.io/v1",
        "kind": "DestinationRule",
        "metadata": {"name": "reviews", "namespace": "default"},
        "spec": {"trafficPolicy": {"loadBalancer": {"simple": "ROUND_ROBIN"}},
                 "subsets": [{"name": "v1", "trafficPolicy": {"loadBalancer": {"simple": "RANDOM"}}}]}
    }))
    .unwrap();
    let spec = rule.spec.as_ref().unwrap();
    let top: &DestinationRuleSpecTrafficPolicyLoadBalancer = spec
        .traffic_policy
        .as_ref()
        .and_then(|p| p.load_balancer.as_ref())
        .unwrap();
    let subset: &DestinationRuleSpecSubsetsTrafficPolicyLoadBalancer =
        spec.subsets.as_ref().unwrap()[0]
            .traffic_policy
            .as_ref()
            .and_then(|p| p.load_balancer.as_ref())
            .unwrap();
    assert_ne!(top, subset);

    let cluster: ClusterExternalSecret = serde_json::from_value(json!({
        "apiVersion": "secrets.example.io/v1",
        "kind": "ClusterExternalSecret",
        "metadata": {"name": "shared"},
        "spec": {"externalSecretSpec": {"secretStoreRef": {"name": "vault", "kind": "ClusterSecretStore"}}}
    }))
    .unwrap();
    // ClusterExternalSecret embeds ExternalSecret's spec: the type is ExternalSecret's.
    let embedded: &ExternalSecretSpec = cluster
        .spec
        .as_ref()
        .and_then(|s| s.external_secret_spec.as_ref())
        .unwrap();
    let store: &ExternalSecretSpecSecretStoreRef = embedded.secret_store_ref.as_ref().unwrap();
    let _: &ClusterExternalSecretSpecExternalSecretSpecSecretStoreRef = store;
    assert_eq!(store.name.as_deref(), Some("vault"));
}

#[test]
fn aliases_name_the_shared_types() {
    let service: VirtualService = serde_json::from_value(json!({
        "apiVersion": "mesh.example.io/v1",
        "kind": "VirtualService",
        "metadata": {"name": "reviews", "namespace": "default"},
        "spec": {"hosts": ["reviews"]},
        "status": {"observedGeneration": 2, "conditions": [{"type": "Reconciled", "status": "True"}]}
    }))
    .unwrap();
    let status: &VirtualServiceStatus = service.status.as_ref().unwrap();
    // The alias is DestinationRule's type itself.
    let shared: &DestinationRuleStatus = status;
    assert_eq!(shared.observed_generation, Some(2));

    let policy: PolicySpec = serde_json::from_value(json!({
        "validationFailureAction": "Audit",
        "rules": [{"name": "r", "match": {"kinds": ["Pod"]}, "exclude": {"kinds": ["Job"]}}]
    }))
    .unwrap();
    let rule = &policy.rules.as_ref().unwrap()[0];
    let matched: &ClusterPolicySpecRulesMatch = rule.r#match.as_ref().unwrap();
    let excluded: &ClusterPolicySpecRulesExclude = rule.exclude.as_ref().unwrap();
    assert_eq!(matched.kinds.as_deref(), Some(&["Pod".to_owned()][..]));
    assert_eq!(excluded.kinds.as_deref(), Some(&["Job".to_owned()][..]));
    assert_eq!(
        policy.validation_failure_action,
        Some(ClusterPolicySpecValidationFailureAction::Audit)
    );
}

#[test]
fn values_differing_in_case_have_variants_named_by_their_case() {
    use ClusterPolicySpecValidationFailureAction as Action;
    for (wire, variant) in [
        ("audit", Action::AuditLowercase),
        ("Audit", Action::Audit),
        ("enforce", Action::EnforceLowercase),
        ("Enforce", Action::Enforce),
    ] {
        assert_eq!(Action::from(wire.to_owned()), variant);
        assert_eq!(variant.as_str(), wire);
    }
    // postgres-operator's user flags: `login` and `LOGIN`.
    let users: Vec<PostgresqlSpecUsers> =
        serde_json::from_value(json!(["login", "LOGIN", "superuser"])).unwrap();
    assert_eq!(
        users,
        [
            PostgresqlSpecUsers::LoginLowercase,
            PostgresqlSpecUsers::LoginUppercase,
            PostgresqlSpecUsers::SuperuserLowercase
        ]
    );
}
