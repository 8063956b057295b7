//! Type names a user can find in generated code: a type shared by kinds is reachable under
//! each kind's name (an alias, the same type), a type repeated inside one kind under the
//! place's name, and enum values differing only in case have variants named by their case.

use crd_example::crds::acid_zalan_do::v1::PostgresqlSpecUsers;
use crd_example::edge_crds::mesh_example_io::v1::{
    ClusterPolicySpecRulesExclude, ClusterPolicySpecRulesMatch,
    ClusterPolicySpecValidationFailureAction, DestinationRuleStatus, PolicySpec, VirtualService,
    VirtualServiceStatus,
};
use serde_json::json;

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
