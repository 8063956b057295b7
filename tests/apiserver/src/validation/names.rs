//! The string formats of apimachinery's `pkg/util/validation` and `pkg/api/validate/content`
//! (Kubernetes 1.37): DNS subdomains and labels, qualified names (label keys), label
//! values and config keys, each returning the real messages, in the real order, for what
//! is wrong with a value (none when valid).

/// `dns1123LabelFmt`.
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/// `dns1123SubdomainFmt`.
const DNS1123_SUBDOMAIN_FMT: &str =
    r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
/// `dns1035LabelFmt`.
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
/// `qualifiedNameFmt`.
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
/// `labelValueFmt`.
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
/// `configMapKeyFmt`.
const CONFIG_MAP_KEY_FMT: &str = "[-._a-zA-Z0-9]+";

const QUALIFIED_NAME_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// The longest DNS-1123 subdomain (and config key).
pub(crate) const DNS1123_SUBDOMAIN_MAX: usize = 253;
/// The longest DNS label, qualified-name name part and label value.
pub(crate) const LABEL_MAX: usize = 63;

/// `MaxLenError` of `pkg/util/validation` (names, config keys).
fn max_len(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `MaxLenError` of `pkg/api/validate/content`, which label keys and values (and the
/// prefix of a label key, a subdomain checked there) have used since 1.35.
fn max_bytes(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// `RegexError`: the message, then the examples and the regex in Go's exact layout (its
/// examples are joined by `", "` and `" or "`, hence the double space).
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && b.iter().all(|c| alnum(c) || *c == b'-')
}

/// Dot-separated DNS-1123 labels.
fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
fn matches_qualified_name(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    b.first().is_some_and(alnum)
        && b.last().is_some_and(alnum)
        && b.iter()
            .all(|c| alnum(c) || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsDNS1123Label`.
pub(crate) fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_MAX {
        errs.push(max_len(LABEL_MAX));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`.
pub(crate) fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len(DNS1123_SUBDOMAIN_MAX));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(subdomain_regex_error());
    }
    errs
}

fn subdomain_regex_error() -> String {
    regex_error(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        &["example.com"],
    )
}

/// `IsDNS1035Label`.
pub(crate) fn dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_MAX {
        errs.push(max_len(LABEL_MAX));
    }
    let b = value.as_bytes();
    let ok = b.first().is_some_and(u8::is_ascii_lowercase) && matches_dns1123_label(value);
    if !ok {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsQualifiedName`, since 1.35 `content.IsLabelKey`: an optional DNS-subdomain prefix
/// and `/`, then a name part of at most 63 bytes.
pub(crate) fn qualified_name(value: &str) -> Vec<String> {
    let name_regex = || {
        regex_error(
            QUALIFIED_NAME_ERR,
            QUALIFIED_NAME_FMT,
            &["MyName", "my.name", "123-abc"],
        )
    };
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                if prefix.len() > DNS1123_SUBDOMAIN_MAX {
                    errs.push(format!("prefix part {}", max_bytes(DNS1123_SUBDOMAIN_MAX)));
                }
                if !matches_dns1123_subdomain(prefix) {
                    errs.push(format!("prefix part {}", subdomain_regex_error()));
                }
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                name_regex()
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > LABEL_MAX {
        errs.push(format!("name part {}", max_bytes(LABEL_MAX)));
    }
    if !matches_qualified_name(name) {
        errs.push(format!("name part {}", name_regex()));
    }
    errs
}

/// `IsValidLabelValue` (`content.IsLabelValue`): empty, or a label key's name part.
pub(crate) fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_MAX {
        errs.push(max_bytes(LABEL_MAX));
    }
    if !value.is_empty() && !matches_qualified_name(value) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsConfigMapKey`: the keys of ConfigMap and Secret data.
pub(crate) fn config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len(DNS1123_SUBDOMAIN_MAX));
    }
    let ok = !value.is_empty()
        && value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if !ok {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            CONFIG_MAP_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match value {
        "." => errs.push("must not be '.'".to_owned()),
        ".." => errs.push("must not be '..'".to_owned()),
        v if v.starts_with("..") => errs.push("must not start with '..'".to_owned()),
        _ => {}
    }
    errs
}

/// `ValidatePathSegmentName`: what every name must be to sit in a URL path; with `prefix`
/// (a `generateName`), only the characters are checked.
pub(crate) fn path_segment(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for bad in [".", ".."] {
            if name == bad {
                return vec![format!("may not be '{bad}'")];
            }
        }
    }
    ["/", "%"]
        .iter()
        .filter(|c| name.contains(**c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

/// A resource's rule for `metadata.name` (its registry's `ValidateNameFunc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// `NameIsDNSSubdomain`: most resources, custom resources.
    Subdomain,
    /// `NameIsDNSLabel`: Namespaces, StatefulSets.
    Label,
    /// `NameIsDNS1035Label`: Services.
    Dns1035Label,
}

impl NameRule {
    /// What is wrong with `name`; with `prefix` it is a `generateName`, to which random
    /// characters will be appended, so a trailing `-` is allowed.
    pub(crate) fn check(self, name: &str, prefix: bool) -> Vec<String> {
        let masked;
        let name = if prefix {
            masked = mask_trailing_dash(name);
            masked.as_str()
        } else {
            name
        };
        match self {
            Self::Subdomain => dns1123_subdomain(name),
            Self::Label => dns1123_label(name),
            Self::Dns1035Label => dns1035_label(name),
        }
    }
}

/// apimachinery's `maskTrailingDash`, byte for byte: a prefix longer than one character
/// ending in `-` loses its last two bytes and gains an `a` (so `ab-` is checked as `aa`).
fn mask_trailing_dash(name: &str) -> String {
    let b = name.as_bytes();
    if b.len() > 1 && b.ends_with(b"-") {
        let mut masked = b[..b.len() - 2].to_vec();
        masked.push(b'a');
        String::from_utf8_lossy(&masked).into_owned()
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

    // Valid and invalid examples from apimachinery's validation_test.go.
    #[test]
    fn dns1123_labels() {
        for good in [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            &"a".repeat(63),
        ] {
            assert!(dns1123_label(good).is_empty(), "{good}");
        }
        for bad in [
            "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_",
            "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "1.", ".1", "1.2", " ", "a ", " a",
            "a b", "1 ", " 1", "1 2",
        ] {
            assert!(!dns1123_label(bad).is_empty(), "{bad:?}");
        }
        assert_eq!(dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(dns1123_label("Bad"), vec![LABEL_ERR]);
        assert_eq!(
            dns1123_label(&"a".repeat(64)),
            vec!["must be no more than 63 characters"]
        );
    }

    #[test]
    fn dns1123_subdomains() {
        for good in [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "a.a",
            "ab.a",
            "abc.a",
            "a1.a",
            "a-1.a",
            "a--1--2--b.a",
            "a.1",
            "ab.1",
            "0.a",
            "01.a",
            "1--a--b--2.a",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
            &"a".repeat(253),
        ] {
            assert!(dns1123_subdomain(good).is_empty(), "{good}");
        }
        for bad in [
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a..b",
            "1.",
            ".1",
            "1..2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "A.a",
            "aB.a",
            "ab.A",
            "A1.a",
            "a1.A",
            "A.1",
            "aB.1",
            "A1.1",
            "1A.1",
            "0.A",
            "01.A",
            "012.A",
            "1A.a",
            "1a.A",
            "A.B.C.D.E",
            "AA.BB.CC.DD.EE",
            "a.B.c.d.e",
            "aa.bB.cc.dd.ee",
            "a@b",
            "a,b",
            "a_b",
            "a;b",
            "a:b",
            "a%b",
            "a?b",
            "a$b",
        ] {
            assert!(!dns1123_subdomain(bad).is_empty(), "{bad:?}");
        }
        assert_eq!(dns1123_subdomain("Bad_Name"), vec![SUBDOMAIN_ERR]);
        assert_eq!(
            dns1123_subdomain(&format!("{}.", "a".repeat(253))),
            vec![
                "must be no more than 253 characters".to_owned(),
                SUBDOMAIN_ERR.to_owned()
            ]
        );
    }

    #[test]
    fn dns1035_labels() {
        for good in ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", &"a".repeat(63)] {
            assert!(dns1035_label(good).is_empty(), "{good}");
        }
        for bad in [
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
        ] {
            assert!(!dns1035_label(bad).is_empty(), "{bad:?}");
        }
        assert_eq!(dns1035_label("1a"), vec!["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]);
    }

    #[test]
    fn qualified_names() {
        for good in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
            &"a".repeat(63),
            &format!("{}/b", "a".repeat(253)),
        ] {
            assert!(qualified_name(good).is_empty(), "{good}");
        }
        for bad in [
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            &"a".repeat(64),
            &format!("{}/b", "a".repeat(254)),
        ] {
            assert!(!qualified_name(bad).is_empty(), "{bad:?}");
        }
        let name_err = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert_eq!(qualified_name("Bad_Key_"), vec![name_err]);
        assert_eq!(
            qualified_name("example.com/"),
            vec!["name part must be non-empty", name_err]
        );
        assert_eq!(qualified_name("/a"), vec!["prefix part must be non-empty"]);
        assert_eq!(qualified_name("a/b/c"), vec!["a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]);
        assert_eq!(
            qualified_name("Example.com/a"),
            vec![format!("prefix part {SUBDOMAIN_ERR}")]
        );
        // Label keys count bytes (content.MaxLenError), names count characters.
        assert_eq!(
            qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 bytes"]
        );
        assert_eq!(
            qualified_name(&format!("{}/b", "a".repeat(254))),
            vec!["prefix part must be no more than 253 bytes"]
        );
        assert_eq!(
            label_value(&"a".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
    }

    #[test]
    fn label_values() {
        for good in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "end-with-num-1",
            "1234",
            &"a".repeat(63),
            "",
        ] {
            assert!(label_value(good).is_empty(), "{good}");
        }
        for bad in [
            "nospecialchars%^=@",
            "Tama-nui-te-rā.is.Māori.sun",
            "\\backslashes\\are\\bad",
            "-starts-with-dash",
            "ends-with-dash-",
            ".starts.with.dot",
            "ends.with.dot.",
            &"a".repeat(64),
        ] {
            assert!(!label_value(bad).is_empty(), "{bad:?}");
        }
        assert_eq!(label_value("-x"), vec!["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]);
    }

    #[test]
    fn config_map_keys() {
        for good in [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "a.a",
            "A",
            "_a",
            "1.2",
            ".a",
        ] {
            assert!(config_map_key(good).is_empty(), "{good}");
        }
        assert_eq!(config_map_key("."), vec!["must not be '.'"]);
        assert_eq!(config_map_key(".."), vec!["must not be '..'"]);
        assert_eq!(config_map_key("..a"), vec!["must not start with '..'"]);
        assert_eq!(config_map_key("a b"), vec!["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]);
    }

    #[test]
    fn generate_name_prefixes_may_end_in_a_dash() {
        assert!(NameRule::Subdomain.check("web-", true).is_empty());
        assert!(NameRule::Label.check("web-", true).is_empty());
        assert!(!NameRule::Subdomain.check("web-", false).is_empty());
        // apimachinery's mask drops the last two bytes, not one, before appending `a`.
        assert_eq!(mask_trailing_dash("ab-"), "aa");
        assert_eq!(mask_trailing_dash("-"), "-");
        assert!(!NameRule::Subdomain.check("Web-", true).is_empty());
    }

    #[test]
    fn path_segment_names() {
        assert_eq!(path_segment(".", false), vec!["may not be '.'"]);
        assert_eq!(path_segment("..", false), vec!["may not be '..'"]);
        assert_eq!(
            path_segment("a/b%c", false),
            vec!["may not contain '/'", "may not contain '%'"]
        );
        assert!(path_segment("..", true).is_empty());
    }
}
