//! CRD type names a user can find: every place of every kind that holds an object or an enum
//! has a type named `<Kind><Path>` (the type itself or an alias of it), a type shared by several
//! kinds (or repeated inside one) is defined under the name of the place closest to a root,
//! and enum values that differ only in case get variants named by their case. Checked on small
//! fixtures shaped like Istio's, Kyverno's and External Secrets' CRDs, and on the real CRDs of
//! the shared corpus (`../shared/crds`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use informer_gen::emit::types::render_crd_types;
use informer_gen::model::schema::{
    kind_ident, type_ident_part, CrdModel, FieldType, GroupVersionModule, StructDef, TypeDef,
};
use informer_gen::read::crd::read_paths;

fn edge(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/crd-edge")
        .join(name)
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds")
}

/// The text of `pub struct <name> { ... }` in `code`.
fn struct_text<'a>(code: &'a str, name: &str) -> &'a str {
    let start = code
        .find(&format!("pub struct {name} {{"))
        .unwrap_or_else(|| panic!("no struct {name}"));
    let len = code[start..].find("\n}").unwrap();
    &code[start..start + len]
}

#[test]
fn shared_and_repeated_types_have_names_of_each_kind_and_place() {
    let (model, _) = read_paths(&[edge("mesh.example.io.yaml")]).unwrap();
    let code = render_crd_types(&model).unwrap();
    // Istio: VirtualService's status has DestinationRule's shape.
    assert!(
        code.contains("pub type VirtualServiceStatus = DestinationRuleStatus;"),
        "{code}"
    );
    assert!(
        code.contains("pub type VirtualServiceStatusConditions = DestinationRuleStatusConditions;")
    );
    assert!(struct_text(&code, "VirtualService")
        .contains("pub status: ::std::option::Option<VirtualServiceStatus>,"));
    // Kyverno: `match` repeats `exclude` inside one kind; Policy repeats ClusterPolicy.
    assert!(code.contains("pub type ClusterPolicySpecRulesMatch = ClusterPolicySpecRulesExclude;"));
    assert!(struct_text(&code, "ClusterPolicySpecRules")
        .contains("pub r#match: ::std::option::Option<ClusterPolicySpecRulesMatch>,"));
    assert!(code.contains("pub type PolicySpec = ClusterPolicySpec;"));
    assert!(code.contains("pub type PolicySpecRules = ClusterPolicySpecRules;"));
    // Repetitions inside one kind are named at every place, nested places included.
    assert!(code.contains("pub type PolicySpecRulesMatch = ClusterPolicySpecRulesExclude;"));
    // Istio: a route's destination is the mirror's type (the same schema), and Sidecar's egress
    // proxy too; each place has its name, and the field shows the name of its place.
    for alias in [
        "pub type VirtualServiceSpecHttpRouteDestination = VirtualServiceSpecHttpMirror;",
        "pub type VirtualServiceSpecHttpRouteDestinationPort = VirtualServiceSpecHttpMirrorPort;",
        "pub type SidecarSpecOutboundTrafficPolicyEgressProxy = VirtualServiceSpecHttpMirror;",
        // The traffic policy at the top of the spec owns the one of the subsets.
        "pub type DestinationRuleSpecSubsetsTrafficPolicy = DestinationRuleSpecTrafficPolicy;",
    ] {
        assert!(code.contains(alias), "missing `{alias}`");
    }
    // Compared without whitespace: the formatter breaks long lines (with a trailing comma).
    let squeezed = |text: &str| {
        text.split_whitespace()
            .collect::<String>()
            .replace(",>", ">")
    };
    assert!(
        squeezed(struct_text(&code, "VirtualServiceSpecHttpRoute")).contains(&squeezed(
            "pub destination: ::std::option::Option<VirtualServiceSpecHttpRouteDestination>,"
        ))
    );
    assert!(
        squeezed(struct_text(&code, "DestinationRuleSpecTrafficPolicy")).contains(&squeezed(
            "pub load_balancer: ::std::option::Option<DestinationRuleSpecTrafficPolicyLoadBalancer>,"
        ))
    );
    struct_text(&code, "DestinationRuleSpecTrafficPolicyLoadBalancer");
    // Kyverno's `audit`/`Audit`.
    for (variant, wire) in [
        ("AuditLowercase", "audit"),
        ("Audit", "Audit"),
        ("EnforceLowercase", "enforce"),
        ("Enforce", "Enforce"),
    ] {
        assert!(
            code.contains(&format!("Self::{variant} => \"{wire}\",")),
            "{variant}: {code}"
        );
    }
    assert!(!code.contains("Audit2"), "{code}");
}

#[test]
fn a_kind_owns_the_types_of_its_own_spec_when_another_kind_embeds_it() {
    // ClusterExternalSecret comes first in the file but embeds ExternalSecret's spec deeper.
    let (model, _) = read_paths(&[edge("secrets.example.io.yaml")]).unwrap();
    let code = render_crd_types(&model).unwrap();
    for expected in [
        "pub struct ExternalSecretSpec {",
        "pub struct ExternalSecretSpecSecretStoreRef {",
        "pub enum ExternalSecretSpecSecretStoreRefKind {",
        "pub type ClusterExternalSecretSpecExternalSecretSpec = ExternalSecretSpec;",
        "pub type ClusterExternalSecretSpecExternalSecretSpecSecretStoreRef = \
         ExternalSecretSpecSecretStoreRef;",
    ] {
        assert!(code.contains(expected), "missing `{expected}`\n{code}");
    }
    assert!(struct_text(&code, "ExternalSecret")
        .contains("pub spec: ::std::option::Option<ExternalSecretSpec>,"));
}

#[test]
fn the_real_corpus_names_shared_types_after_each_kind() {
    let (model, _) = read_paths(&[corpus()]).unwrap();
    let code = render_crd_types(&model).unwrap();
    for expected in [
        // cert-manager: ClusterIssuer and Issuer have one schema.
        "pub type IssuerSpec = ClusterIssuerSpec;",
        "pub type IssuerStatus = ClusterIssuerStatus;",
        // prometheus-operator: ServiceMonitor's status is PrometheusRule's.
        "pub type ServiceMonitorStatus = PrometheusRuleStatus;",
        // Inside one kind: init containers are containers.
        "pub type PrometheusSpecInitContainers = PrometheusSpecContainers;",
        // postgres-operator: `login` and `LOGIN`.
        "Self::LoginLowercase => \"login\",",
        "Self::LoginUppercase => \"LOGIN\",",
    ] {
        assert!(code.contains(expected), "missing `{expected}`");
    }
    assert!(struct_text(&code, "Issuer").contains("pub spec: IssuerSpec,"));
    every_kind_names_every_type_it_has(&model);
}

#[test]
fn edge_fixtures_name_every_type_after_each_kind() {
    let (model, _) = read_paths(&[edge("")]).unwrap();
    every_kind_names_every_type_it_has(&model);
}

/// For every resource, every type reachable from its struct has a name (its own or an alias)
/// that starts with the resource's Rust type name.
fn every_kind_names_every_type_it_has(model: &CrdModel) {
    for module in &model.modules {
        let targets = alias_targets(module);
        let mut names_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for ty in &module.types {
            let (name, target) = match ty {
                TypeDef::Struct(s) => (s.name.as_str(), s.name.as_str()),
                TypeDef::Enum(e) => (e.name.as_str(), e.name.as_str()),
                TypeDef::Alias(a) => (a.name.as_str(), a.target.as_str()),
            };
            names_of.entry(target).or_default().push(name);
        }
        for resource in &module.resources {
            let kind = kind_ident(&resource.def.kind);
            let mut reached = BTreeSet::new();
            let mut todo: Vec<&FieldType> = resource.root.fields.iter().map(|f| &f.ty).collect();
            todo.extend(resource.root.rest.iter().map(|(_, ty)| ty));
            while let Some(ty) = todo.pop() {
                match ty {
                    FieldType::Array(inner) | FieldType::Map(inner) => todo.push(inner),
                    FieldType::Named(name) => {
                        let name = targets.get(name.as_str()).copied().unwrap_or(name);
                        if reached.insert(name) {
                            if let Some(TypeDef::Struct(s)) = module
                                .types
                                .iter()
                                .find(|t| matches!(t, TypeDef::Struct(s) if s.name == name))
                            {
                                todo.extend(s.fields.iter().map(|f| &f.ty));
                                todo.extend(s.rest.iter().map(|(_, ty)| ty));
                            }
                        }
                    }
                    _ => {}
                }
            }
            for name in reached {
                let names = names_of.get(name).cloned().unwrap_or_default();
                assert!(
                    names.iter().any(|n| n.starts_with(&kind)),
                    "{}/{}: {kind} has `{name}` but no name of its own for it (names: {names:?})",
                    module.group,
                    module.version
                );
            }
        }
    }
}

fn alias_targets(module: &GroupVersionModule) -> BTreeMap<&str, &str> {
    module
        .types
        .iter()
        .filter_map(|t| match t {
            TypeDef::Alias(a) => Some((a.name.as_str(), a.target.as_str())),
            _ => None,
        })
        .collect()
}

/// Checks that every place of every kind that holds an object or an enum (through arrays and
/// maps) is named `<Kind><Path>`, a struct, an enum or an alias of the very type its field
/// has; returns how many places were checked.
fn every_place_has_its_kind_and_path_name(model: &CrdModel) -> usize {
    let mut checked = 0;
    let mut missing = Vec::new();
    for module in &model.modules {
        let mut target_of: BTreeMap<&str, &str> = BTreeMap::new();
        let mut structs: BTreeMap<&str, &StructDef> = BTreeMap::new();
        for ty in &module.types {
            match ty {
                TypeDef::Struct(s) => {
                    target_of.insert(&s.name, &s.name);
                    structs.insert(&s.name, s);
                }
                TypeDef::Enum(e) => {
                    target_of.insert(&e.name, &e.name);
                }
                TypeDef::Alias(a) => {
                    target_of.insert(&a.name, &a.target);
                }
            }
        }
        let mut todo: Vec<(&StructDef, String)> = module
            .resources
            .iter()
            .map(|r| (&r.root, kind_ident(&r.def.kind)))
            .collect();
        while let Some((def, name)) = todo.pop() {
            let fields = def
                .fields
                .iter()
                .map(|f| (&f.ty, type_ident_part(&f.wire_name)));
            let rest = def.rest.iter().map(|(_, ty)| (ty, "Rest".to_owned()));
            for (ty, part) in fields.chain(rest) {
                let mut ty = ty;
                while let FieldType::Array(inner) | FieldType::Map(inner) = ty {
                    ty = inner;
                }
                let FieldType::Named(shown) = ty else {
                    continue;
                };
                checked += 1;
                let expected = format!("{name}{part}");
                let actual = target_of.get(shown.as_str()).copied();
                if actual.is_none() || target_of.get(expected.as_str()).copied() != actual {
                    missing.push(format!(
                        "{}/{}: `{expected}` (the field shows `{shown}`)",
                        module.group, module.version
                    ));
                }
                if let Some(def) = actual.and_then(|a| structs.get(a)) {
                    todo.push((def, expected));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {checked} places have no `<Kind><Path>` name of their type:\n{}",
        missing.len(),
        missing.join("\n")
    );
    checked
}

#[test]
fn every_place_of_the_corpus_is_named_after_its_kind_and_path() {
    let (model, _) = read_paths(&[corpus()]).unwrap();
    let checked = every_place_has_its_kind_and_path_name(&model);
    assert!(checked > 5_000, "{checked}");
}

#[test]
fn every_place_of_the_edge_fixtures_is_named_after_its_kind_and_path() {
    let (model, _) = read_paths(&[edge("")]).unwrap();
    every_place_has_its_kind_and_path_name(&model);
}
