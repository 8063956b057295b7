//! The validated group → version → resource tree, with the Rust names emitters use.

use std::collections::{BTreeMap, BTreeSet};

use heck::ToSnakeCase;

use super::naming::{
    escape_ident, full_group_module_name, group_module_name, is_snake_case_ident,
    resource_method_name,
};
use super::{ResourceDef, TypeRef};

/// Names a generated factory already uses for its own methods: a derived group accessor with
/// one of these names gets a `_group` suffix, a chosen one is an error. `clone` is here because
/// an inherent `clone` would shadow the derived `Clone::clone`.
const FACTORY_METHODS: &[&str] = &[
    "builder",
    "clone",
    "factory_core",
    "for_resource",
    "informer_for",
    "new",
    "shutdown",
    "start",
    "wait_for_cache_sync",
];

/// A resource definition that cannot be generated, naming the source and the resource.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}: resource {resource}: {problem}")]
pub struct ModelError {
    /// Where the definitions came from (a file, a table, a spec).
    pub source_name: String,
    /// The resource, as `group/version/kind` (`core` for the core group).
    pub resource: String,
    /// What is wrong with it.
    pub problem: String,
}

/// A group accessor chosen with [`Api::rename_groups`] that cannot be used, naming the API
/// group and the name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("group accessor `{name}` for API group {}: {problem}", shown_group(.group))]
pub struct GroupAccessorError {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The accessor name asked for.
    pub name: String,
    /// What is wrong with it.
    pub problem: AccessorProblem,
}

/// Why a chosen group accessor cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccessorProblem {
    /// Not a snake_case Rust identifier.
    #[error(
        "not a snake_case Rust identifier (ASCII lowercase letters, digits and `_`, \
         not starting with a digit)"
    )]
    NotSnakeCase,
    /// The name of a method the generated `SharedInformerFactory` already has.
    #[error("the generated `SharedInformerFactory` already has a method of that name")]
    FactoryMethod,
    /// Another group's accessor has the same name.
    #[error("also the accessor of API group {}", shown_group(.0))]
    Clash(String),
    /// No input defines the group.
    #[error("no input defines this API group")]
    UnknownGroup,
}

fn shown_group(group: &str) -> String {
    if group.is_empty() {
        "`\"\"` (core)".to_owned()
    } else {
        format!("`{group}`")
    }
}

/// Every resource of one input, grouped by API group and version, sorted, with Rust names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Api {
    /// Groups sorted by module name.
    pub groups: Vec<ApiGroup>,
    /// Module names a derived group module must not take (see [`Api::with_reserved_modules`]).
    reserved_modules: BTreeSet<String>,
}

/// One API group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiGroup {
    /// API group name, `""` for core.
    pub name: String,
    /// Module and accessor name (unescaped; see [`super::escape_ident`]).
    pub module: String,
    /// Versions sorted by name.
    pub versions: Vec<ApiVersion>,
}

/// One version of an API group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiVersion {
    /// Version name, e.g. `v1beta1`; also its module and accessor name.
    pub name: String,
    /// Resources sorted by kind.
    pub resources: Vec<ApiResource>,
}

/// One resource with its Rust names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// The definition it was read from.
    pub def: ResourceDef,
    /// Accessor name on the version (`pods`), also the lister's namespace accessor.
    pub method: String,
    /// Snake-cased kind (`replica_set`), used in free function and file names.
    pub snake_kind: String,
}

impl ApiResource {
    /// The informer name used in factory errors and metrics: `core/v1/pods`, `apps/v1/deployments`.
    pub fn informer_name(&self) -> String {
        let group = if self.def.group.is_empty() {
            "core"
        } else {
            self.def.group.as_str()
        };
        format!("{group}/{}/{}", self.def.version, self.def.plural)
    }
}

impl Api {
    /// Validates `defs` (read from `source_name`) and groups them.
    pub fn new(source_name: &str, defs: &[ResourceDef]) -> Result<Self, ModelError> {
        Self::with_reserved_modules(source_name, defs, BTreeSet::new())
    }

    /// [`Api::new`] for output that puts other modules next to the group modules (the CRD types
    /// modules, `cert_manager_io`): a derived group module named like one of `reserved` gets a
    /// `_group` suffix, as one named like a factory method does. Two groups whose short names
    /// collide fall back to their full names, which are exactly the CRD types modules, so
    /// `monitoring.coreos.com` and `monitoring.example.org` become
    /// `monitoring_coreos_com_group` and `monitoring_example_org_group`.
    pub fn with_reserved_modules(
        source_name: &str,
        defs: &[ResourceDef],
        reserved: BTreeSet<String>,
    ) -> Result<Self, ModelError> {
        let mut seen_plural = BTreeSet::new();
        let mut seen_kind = BTreeSet::new();
        for def in defs {
            validate(source_name, def)?;
            let err = |problem: String| ModelError {
                source_name: source_name.to_owned(),
                resource: display_gvk(def),
                problem,
            };
            if !seen_plural.insert((&def.group, &def.version, &def.plural)) {
                return Err(err(format!("plural `{}` defined twice", def.plural)));
            }
            if !seen_kind.insert((&def.group, &def.version, def.kind.to_snake_case())) {
                return Err(err(
                    "kind defined twice (or two kinds with one snake_case name)".into(),
                ));
            }
        }

        let mut by_group: BTreeMap<&str, Vec<&ResourceDef>> = BTreeMap::new();
        for def in defs {
            by_group.entry(def.group.as_str()).or_default().push(def);
        }
        let names: Vec<&str> = by_group.keys().copied().collect();
        let modules = default_modules(&names, &reserved);

        let mut groups = Vec::with_capacity(by_group.len());
        for ((group, group_defs), module) in by_group.into_iter().zip(modules) {
            groups.push(ApiGroup {
                name: group.to_owned(),
                module,
                versions: versions_of(source_name, &group_defs)?,
            });
        }
        groups.sort_by(|a, b| (&a.module, &a.name).cmp(&(&b.module, &b.name)));
        if let Some(pair) = groups.windows(2).find(|w| w[0].module == w[1].module) {
            return Err(ModelError {
                source_name: source_name.to_owned(),
                resource: pair[1].name.clone(),
                problem: format!(
                    "group module name `{}` also used by group `{}`",
                    pair[1].module, pair[0].name
                ),
            });
        }
        Ok(Self {
            groups,
            reserved_modules: reserved,
        })
    }

    /// Gives the groups named in `accessors` (API group name → accessor name, `""` for the
    /// core group) the chosen accessor and module name instead of the derived one. The other
    /// groups' names are derived again without the renamed groups, so that renaming one of two
    /// groups whose names collide gives the other its short name back.
    ///
    /// Fails, changing nothing, when a name is not a snake_case identifier, is a factory
    /// method, is another group's accessor too, or names a group this API does not hold.
    pub fn rename_groups(
        &mut self,
        accessors: &BTreeMap<String, String>,
    ) -> Result<(), GroupAccessorError> {
        if accessors.is_empty() {
            return Ok(());
        }
        for (group, name) in accessors {
            let err = |problem| GroupAccessorError {
                group: group.clone(),
                name: name.clone(),
                problem,
            };
            if !is_snake_case_ident(name) {
                return Err(err(AccessorProblem::NotSnakeCase));
            }
            if FACTORY_METHODS.contains(&name.as_str()) {
                return Err(err(AccessorProblem::FactoryMethod));
            }
            if !self.groups.iter().any(|g| &g.name == group) {
                return Err(err(AccessorProblem::UnknownGroup));
            }
        }
        let derived: Vec<&str> = self
            .groups
            .iter()
            .map(|g| g.name.as_str())
            .filter(|g| !accessors.contains_key(*g))
            .collect();
        let mut modules: BTreeMap<String, String> = derived
            .iter()
            .map(|g| (*g).to_owned())
            .zip(default_modules(&derived, &self.reserved_modules))
            .collect();
        modules.extend(accessors.iter().map(|(g, n)| (g.clone(), n.clone())));
        for (group, name) in accessors {
            let escaped = escape_ident(name);
            if let Some((other, _)) = modules
                .iter()
                .find(|(g, m)| *g != group && escape_ident(m) == escaped)
            {
                return Err(GroupAccessorError {
                    group: group.clone(),
                    name: name.clone(),
                    problem: AccessorProblem::Clash(other.clone()),
                });
            }
        }
        for g in &mut self.groups {
            if let Some(module) = modules.remove(&g.name) {
                g.module = module;
            }
        }
        self.groups
            .sort_by(|a, b| (&a.module, &a.name).cmp(&(&b.module, &b.name)));
        Ok(())
    }

    /// Keeps only the groups `keep` accepts.
    pub fn retain_groups(&mut self, mut keep: impl FnMut(&ApiGroup) -> bool) {
        self.groups.retain(|g| keep(g));
    }

    /// Every resource, in output order.
    pub fn resources(&self) -> impl Iterator<Item = (&ApiGroup, &ApiVersion, &ApiResource)> {
        self.groups.iter().flat_map(|g| {
            g.versions
                .iter()
                .flat_map(move |v| v.resources.iter().map(move |r| (g, v, r)))
        })
    }

    /// True when there is nothing to generate.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }
}

/// The derived module names of `groups`, in order (see [`super::naming`] for the rule); a name
/// that is a factory method or in `reserved` gets a `_group` suffix.
fn default_modules(groups: &[&str], reserved: &BTreeSet<String>) -> Vec<String> {
    let mut users: BTreeMap<String, usize> = BTreeMap::new();
    for group in groups {
        *users.entry(group_module_name(group)).or_default() += 1;
    }
    groups
        .iter()
        .map(|group| {
            let short = group_module_name(group);
            let mut module = if users.get(&short).copied().unwrap_or(0) > 1 {
                full_group_module_name(group)
            } else {
                short
            };
            while FACTORY_METHODS.contains(&module.as_str()) || reserved.contains(&module) {
                module.push_str("_group");
            }
            module
        })
        .collect()
}

fn versions_of(source_name: &str, defs: &[&ResourceDef]) -> Result<Vec<ApiVersion>, ModelError> {
    let mut by_version: BTreeMap<&str, Vec<&ResourceDef>> = BTreeMap::new();
    for def in defs {
        by_version
            .entry(def.version.as_str())
            .or_default()
            .push(def);
    }
    by_version
        .into_iter()
        .map(|(version, defs)| {
            Ok(ApiVersion {
                name: version.to_owned(),
                resources: resources_of(source_name, &defs)?,
            })
        })
        .collect()
}

fn resources_of(source_name: &str, defs: &[&ResourceDef]) -> Result<Vec<ApiResource>, ModelError> {
    let mut methods: BTreeMap<String, usize> = BTreeMap::new();
    for def in defs {
        *methods
            .entry(resource_method_name(&def.kind, &def.plural))
            .or_default() += 1;
    }
    let mut resources: Vec<ApiResource> = defs
        .iter()
        .map(|def| {
            let preferred = resource_method_name(&def.kind, &def.plural);
            // Two kinds pluralising to one name: both fall back to their (unique) URL plural.
            let method = if methods.get(&preferred).copied().unwrap_or(0) > 1 {
                def.plural.replace(['-', '.'], "_")
            } else {
                preferred
            };
            ApiResource {
                def: (*def).clone(),
                method,
                snake_kind: def.kind.to_snake_case(),
            }
        })
        .collect();
    resources.sort_by(|a, b| a.def.kind.cmp(&b.def.kind));

    let mut type_names = BTreeMap::new();
    for r in &resources {
        let mut names = vec![
            format!("{}Informer", r.def.kind),
            format!("{}Lister", r.def.kind),
        ];
        if r.def.scope == super::Scope::Namespaced {
            names.push(format!("{}NamespaceLister", r.def.kind));
        }
        names.push(r.method.clone());
        for name in names {
            if let Some(other) = type_names.insert(name.clone(), &r.def) {
                return Err(ModelError {
                    source_name: source_name.to_owned(),
                    resource: display_gvk(&r.def),
                    problem: format!("generated name `{name}` clashes with kind {}", other.kind),
                });
            }
        }
    }
    Ok(resources)
}

fn display_gvk(def: &ResourceDef) -> String {
    let group = if def.group.is_empty() {
        "core"
    } else {
        def.group.as_str()
    };
    format!("{group}/{}/{}", def.version, def.kind)
}

fn validate(source_name: &str, def: &ResourceDef) -> Result<(), ModelError> {
    let err = |problem: String| ModelError {
        source_name: source_name.to_owned(),
        resource: display_gvk(def),
        problem,
    };
    let is_upper_ident = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_uppercase())
            && s.chars().all(|c| c.is_ascii_alphanumeric())
    };
    if !is_upper_ident(&def.kind) {
        return Err(err(format!(
            "kind `{}` must start with an ASCII capital and hold only ASCII letters and digits",
            def.kind
        )));
    }
    if !is_upper_ident(&def.list_kind) {
        return Err(err(format!(
            "list kind `{}` is not a valid kind",
            def.list_kind
        )));
    }
    let is_lower_label = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if !is_lower_label(&def.version) || def.version.contains('-') {
        return Err(err(format!(
            "version `{}` must be lowercase ASCII letters and digits",
            def.version
        )));
    }
    if !is_lower_label(&def.plural) {
        return Err(err(format!(
            "plural `{}` must be a lowercase DNS label",
            def.plural
        )));
    }
    let group_ok = def.group.split('.').all(|label| {
        label.is_empty() && def.group.is_empty()
            || (!label.is_empty()
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
    });
    if !group_ok {
        return Err(err(format!(
            "group `{}` must be empty or a lowercase DNS name",
            def.group
        )));
    }
    if let TypeRef::K8sOpenapi { module, name } = &def.ty {
        let is_ident = |s: &String| syn::parse_str::<syn::Ident>(s).is_ok();
        if !module.iter().all(is_ident) || !is_ident(name) {
            return Err(err(format!("rust type `{}` is not a Rust path", def.ty)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scope;

    fn def(group: &str, version: &str, kind: &str, plural: &str) -> ResourceDef {
        ResourceDef {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
            plural: plural.into(),
            scope: Scope::Namespaced,
            list_kind: format!("{kind}List"),
            ty: TypeRef::K8sOpenapi {
                module: vec!["api".into()],
                name: kind.into(),
            },
            doc: None,
            subresources: Default::default(),
            protobuf: false,
        }
    }

    #[test]
    fn colliding_group_names_fall_back_to_full_names() {
        let api = Api::new(
            "t",
            &[
                def("monitoring.coreos.com", "v1", "A", "as"),
                def("monitoring.example.org", "v1", "B", "bs"),
                def("start.example.com", "v1", "C", "cs"),
            ],
        )
        .unwrap();
        let modules: Vec<_> = api.groups.iter().map(|g| g.module.as_str()).collect();
        assert_eq!(
            modules,
            [
                "monitoring_coreos_com",
                "monitoring_example_org",
                "start_group"
            ]
        );
    }

    #[test]
    fn reserved_module_names_get_a_suffix_also_after_renames() {
        let defs = [
            def("monitoring.coreos.com", "v1", "A", "as"),
            def("monitoring.example.org", "v1", "B", "bs"),
            def("example.com", "v1", "C", "cs"),
        ];
        let reserved = [
            "monitoring_coreos_com",
            "monitoring_example_org",
            "example_com",
        ]
        .map(str::to_owned)
        .into();
        let mut api = Api::with_reserved_modules("t", &defs, reserved).unwrap();
        let modules =
            |api: &Api| -> Vec<String> { api.groups.iter().map(|g| g.module.clone()).collect() };
        assert_eq!(
            modules(&api),
            [
                "example",
                "monitoring_coreos_com_group",
                "monitoring_example_org_group"
            ]
        );
        // Renaming one of the colliding groups gives the other its short name back.
        api.rename_groups(&accessors(&[("monitoring.example.org", "other")]))
            .unwrap();
        assert_eq!(modules(&api), ["example", "monitoring", "other"]);
    }

    #[test]
    fn duplicates_and_bad_names_are_errors_naming_the_resource() {
        let e = Api::new(
            "table.json",
            &[def("", "v1", "Pod", "pods"), def("", "v1", "Pod2", "pods")],
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "table.json: resource core/v1/Pod2: plural `pods` defined twice"
        );
        let e = Api::new("x", &[def("apps", "v1", "bad kind", "bads")]).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("x: resource apps/v1/bad kind: kind `bad kind`"));
        let e = Api::new("x", &[def("apps", "V1", "Ok", "oks")]).unwrap_err();
        assert!(e.to_string().contains("version `V1`"));
    }

    #[test]
    fn kinds_pluralising_alike_use_their_plurals() {
        let api = Api::new(
            "t",
            &[
                def("g.io", "v1", "Foo", "foos"),
                def("g.io", "v1", "Foos", "fooses"),
            ],
        );
        let api = api.unwrap();
        let methods: Vec<_> = api.resources().map(|(_, _, r)| r.method.as_str()).collect();
        assert_eq!(methods, ["foos", "fooses"]);
    }

    fn accessors(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(g, n)| ((*g).to_owned(), (*n).to_owned()))
            .collect()
    }

    fn three_groups() -> Api {
        Api::new(
            "t",
            &[
                def("", "v1", "Pod", "pods"),
                def("monitoring.coreos.com", "v1", "A", "as"),
                def("monitoring.example.org", "v1", "B", "bs"),
            ],
        )
        .unwrap()
    }

    #[test]
    fn renamed_groups_take_their_names_and_free_the_derived_ones() {
        let mut api = three_groups();
        api.rename_groups(&accessors(&[
            ("monitoring.example.org", "mon"),
            ("", "kube"),
        ]))
        .unwrap();
        let modules: Vec<_> = api
            .groups
            .iter()
            .map(|g| (g.module.as_str(), g.name.as_str()))
            .collect();
        assert_eq!(
            modules,
            [
                ("kube", ""),
                ("mon", "monitoring.example.org"),
                ("monitoring", "monitoring.coreos.com"),
            ]
        );
    }

    #[test]
    fn bad_accessors_are_errors_naming_group_and_name() {
        let cases = [
            (
                "monitoring.coreos.com",
                "Mon",
                AccessorProblem::NotSnakeCase,
            ),
            (
                "monitoring.coreos.com",
                "mon-x",
                AccessorProblem::NotSnakeCase,
            ),
            (
                "monitoring.coreos.com",
                "start",
                AccessorProblem::FactoryMethod,
            ),
            (
                "monitoring.coreos.com",
                "clone",
                AccessorProblem::FactoryMethod,
            ),
            ("nowhere.io", "nowhere", AccessorProblem::UnknownGroup),
            (
                "monitoring.coreos.com",
                "core",
                AccessorProblem::Clash(String::new()),
            ),
        ];
        for (group, name, problem) in cases {
            let mut api = three_groups();
            let before = api.clone();
            let e = api.rename_groups(&accessors(&[(group, name)])).unwrap_err();
            assert_eq!(
                e,
                GroupAccessorError {
                    group: group.into(),
                    name: name.into(),
                    problem
                }
            );
            assert_eq!(api, before, "a failed rename changes nothing");
        }
        let e = three_groups()
            .rename_groups(&accessors(&[("monitoring.coreos.com", "core")]))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "group accessor `core` for API group `monitoring.coreos.com`: \
             also the accessor of API group `\"\"` (core)"
        );
    }

    #[test]
    fn two_groups_renamed_alike_clash() {
        let e = three_groups()
            .rename_groups(&accessors(&[
                ("monitoring.coreos.com", "mon"),
                ("monitoring.example.org", "mon"),
            ]))
            .unwrap_err();
        assert_eq!(
            e.problem,
            AccessorProblem::Clash("monitoring.example.org".into())
        );
    }

    #[test]
    fn a_rename_may_take_a_name_another_rename_frees() {
        let mut api = three_groups();
        api.rename_groups(&accessors(&[
            ("monitoring.coreos.com", "core"),
            ("", "kube"),
        ]))
        .unwrap();
        assert_eq!(api.groups[0].module, "core");
        assert_eq!(api.groups[0].name, "monitoring.coreos.com");
    }
}
