//! Rust names for groups, versions and resources.
//!
//! The rules are deterministic functions of the API names, so the same table always
//! yields the same identifiers:
//! - **group accessor** ([`group_module_name`]): the core group `""` is `core`; a group
//!   ending in `.k8s.io` or `.x-k8s.io` drops that suffix and joins the remaining labels
//!   (`rbac.authorization.k8s.io` → `rbac_authorization`, `flowcontrol.apiserver.k8s.io`
//!   → `flowcontrol_apiserver`); a group without a dot is kept (`apps`); any other group
//!   drops its domain: the last two labels when it has three or more
//!   (`monitoring.coreos.com` → `monitoring`), else the last one (`example.com` → `example`).
//!   The result is snake_cased. When two groups of one input map to the same name, each of
//!   them uses its full snake_cased group name instead (`monitoring_coreos_com`). A name that
//!   is a factory method, or (for CRDs) the types module of a group, gets a `_group` suffix
//!   (`start_group`, `monitoring_coreos_com_group`).
//! - **resource accessor** ([`resource_method_name`]): the snake_cased kind, pluralised the
//!   way the URL plural pluralises the lowercase kind (`ReplicaSet`/`replicasets` →
//!   `replica_sets`, `NetworkPolicy`/`networkpolicies` → `network_policies`,
//!   `Endpoints`/`endpoints` → `endpoints`); when the plural is not a pluralisation of the
//!   kind, the snake_cased plural itself.
//! - Rust keywords are escaped as raw identifiers (`r#type`); `self`, `super`, `crate` and
//!   `Self`, which cannot be raw, get a trailing underscore.

use heck::ToSnakeCase;

/// Words that are keywords in Rust 2021 (strict and reserved).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be written as raw identifiers.
const NON_RAW: &[&str] = &["self", "Self", "super", "crate"];

/// `name` as written in Rust source: keywords become raw identifiers (`r#type`), and the
/// few that cannot be raw get a trailing underscore (`self_`).
pub fn escape_ident(name: &str) -> String {
    if NON_RAW.contains(&name) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// Whether `name` is a snake_case Rust identifier: ASCII lowercase letters, digits and `_`,
/// not starting with a digit, not only underscores. Keywords count (they are escaped).
pub fn is_snake_case_ident(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name.chars().any(|c| c != '_')
}

/// The accessor and module name of an API group, before collision resolution
/// (see the module docs for the rule).
pub fn group_module_name(group: &str) -> String {
    if group.is_empty() {
        return "core".to_owned();
    }
    let trimmed = group
        .strip_suffix(".x-k8s.io")
        .or_else(|| group.strip_suffix(".k8s.io"));
    let base = match trimmed {
        Some(rest) => rest.to_owned(),
        None => {
            let labels: Vec<&str> = group.split('.').collect();
            match labels.len() {
                1 => group.to_owned(),
                2 => labels[0].to_owned(),
                n => labels[..n - 2].join("."),
            }
        }
    };
    identifier_from(&base)
}

/// The full group name as an identifier: the fallback when [`group_module_name`] collides.
pub fn full_group_module_name(group: &str) -> String {
    identifier_from(group)
}

/// The accessor name of a resource inside its version (see the module docs for the rule).
pub fn resource_method_name(kind: &str, plural: &str) -> String {
    let snake_kind = kind.to_snake_case();
    let lower_kind = kind.to_lowercase();
    if plural == lower_kind {
        return snake_kind;
    }
    if let Some(suffix) = plural.strip_prefix(lower_kind.as_str()) {
        if suffix == "s" || suffix == "es" {
            return format!("{snake_kind}{suffix}");
        }
    }
    if let (Some(kind_stem), Some(plural_stem)) =
        (lower_kind.strip_suffix('y'), plural.strip_suffix("ies"))
    {
        if kind_stem == plural_stem {
            if let Some(snake_stem) = snake_kind.strip_suffix('y') {
                return format!("{snake_stem}ies");
            }
        }
    }
    identifier_from(plural)
}

/// The snake_case form of a free-form name, usable as an identifier: separators become
/// `_`, other non-identifier characters are dropped, and a leading digit gets a `_` prefix.
fn identifier_from(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let snake = cleaned.to_snake_case();
    if snake.starts_with(|c: char| c.is_ascii_digit()) || snake.is_empty() {
        format!("_{snake}")
    } else {
        snake
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_names_follow_the_documented_rule() {
        assert_eq!(group_module_name(""), "core");
        assert_eq!(group_module_name("apps"), "apps");
        assert_eq!(
            group_module_name("rbac.authorization.k8s.io"),
            "rbac_authorization"
        );
        assert_eq!(
            group_module_name("flowcontrol.apiserver.k8s.io"),
            "flowcontrol_apiserver"
        );
        assert_eq!(
            group_module_name("gateway.networking.x-k8s.io"),
            "gateway_networking"
        );
        assert_eq!(group_module_name("example.com"), "example");
        assert_eq!(group_module_name("monitoring.coreos.com"), "monitoring");
        assert_eq!(group_module_name("cert-manager.io"), "cert_manager");
        assert_eq!(
            full_group_module_name("monitoring.coreos.com"),
            "monitoring_coreos_com"
        );
    }

    #[test]
    fn resource_names_pluralise_the_kind() {
        assert_eq!(resource_method_name("Pod", "pods"), "pods");
        assert_eq!(
            resource_method_name("ReplicaSet", "replicasets"),
            "replica_sets"
        );
        assert_eq!(
            resource_method_name("NetworkPolicy", "networkpolicies"),
            "network_policies"
        );
        assert_eq!(
            resource_method_name("IngressClass", "ingressclasses"),
            "ingress_classes"
        );
        assert_eq!(resource_method_name("Endpoints", "endpoints"), "endpoints");
        assert_eq!(
            resource_method_name("APIService", "apiservices"),
            "api_services"
        );
        assert_eq!(resource_method_name("Odd", "weird-things"), "weird_things");
    }

    #[test]
    fn snake_case_identifiers_are_recognised() {
        for good in ["certs", "cert_manager", "v1", "_private", "type"] {
            assert!(is_snake_case_ident(good), "{good}");
        }
        for bad in [
            "",
            "_",
            "Certs",
            "cert-manager",
            "1certs",
            "r#type",
            "certs!",
        ] {
            assert!(!is_snake_case_ident(bad), "{bad}");
        }
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(escape_ident("type"), "r#type");
        assert_eq!(escape_ident("self"), "self_");
        assert_eq!(escape_ident("pods"), "pods");
    }
}
