//! Kubernetes' semver library (`k8s.io/apiserver/pkg/cel/library/semverlib.go`, version
//! 1): `semver(s)` and `semver(s, normalize)`, `isSemver`, the comparisons and the
//! `major`/`minor`/`patch` accessors. Versions parse as `github.com/blang/semver/v4`
//! parses them, with its error texts, since those are what a rule's runtime error shows.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use cel::common::types::{Type, BOOL_TYPE, STRING_TYPE};
use cel::objects::Opaque;
use cel::{DeclarationError, Env, ExecutionError, Value};

use super::{no_overload, string};

/// `kubernetes.Semver`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Vec<Pre>,
}

/// One dot-separated pre-release identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Alpha(String),
}

impl Opaque for Version {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Semver"
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl Pre {
    /// Numeric identifiers sort before alphanumeric ones, numbers by value, text
    /// byte-wise.
    fn cmp(&self, other: &Pre) -> Ordering {
        match (self, other) {
            (Pre::Num(a), Pre::Num(b)) => a.cmp(b),
            (Pre::Num(_), Pre::Alpha(_)) => Ordering::Less,
            (Pre::Alpha(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Alpha(a), Pre::Alpha(b)) => a.cmp(b),
        }
    }
}

impl Version {
    /// Semantic-versioning precedence: build metadata does not count; a version with a
    /// pre-release sorts before the same version without.
    fn compare(&self, other: &Version) -> Ordering {
        let core =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&other.pre) {
            let o = a.cmp(b);
            if o != Ordering::Equal {
                return o;
            }
        }
        self.pre.len().cmp(&other.pre.len())
    }
}

fn digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn alphanumeric(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)` error for a number too large (the only way a
/// string of digits fails it; an empty one fails too).
fn number(s: &str) -> Result<u64, String> {
    s.parse::<u64>().map_err(|_| {
        let why = if s.is_empty() {
            "invalid syntax"
        } else {
            "value out of range"
        };
        format!("strconv.ParseUint: parsing {}: {why}", go_quote(s))
    })
}

fn go_quote(s: &str) -> String {
    format!("{s:?}")
}

/// One numbered part (`major`, `minor`, `patch`).
fn part(s: &str, name: &str) -> Result<u64, String> {
    if !digits(s) {
        return Err(format!(
            "Invalid character(s) found in {name} number {}",
            go_quote(s)
        ));
    }
    if leading_zero(s) {
        let mut capital = name.to_owned();
        capital[..1].make_ascii_uppercase();
        return Err(format!(
            "{capital} number must not contain leading zeroes {}",
            go_quote(s)
        ));
    }
    number(s)
}

/// blang/semver's `Parse`.
fn parse(s: &str) -> Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".to_owned());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".to_owned());
    };
    let major = part(major, "major")?;
    let minor = part(minor, "minor")?;
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (*rest, None),
    };
    let (patch, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, Some(pre)),
        None => (rest, None),
    };
    let patch = part(patch, "patch")?;
    let mut version = Version {
        major,
        minor,
        patch,
        pre: Vec::new(),
    };
    for id in pre
        .map(|p| p.split('.').collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if id.is_empty() {
            return Err("Prerelease is empty".to_owned());
        }
        if digits(id) {
            if leading_zero(id) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(id)
                ));
            }
            version.pre.push(Pre::Num(number(id)?));
        } else if alphanumeric(id) {
            version.pre.push(Pre::Alpha(id.to_owned()));
        } else {
            return Err(format!(
                "Invalid character(s) found in prerelease {}",
                go_quote(id)
            ));
        }
    }
    for id in build
        .map(|b| b.split('.').collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if id.is_empty() {
            return Err("Build meta data is empty".to_owned());
        }
        if !alphanumeric(id) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(id)
            ));
        }
    }
    Ok(version)
}

/// The library's `normalizeAndParse`: a leading `v` dropped, leading zeroes of the
/// numbers dropped, missing minor and patch numbers taken as 0.
fn normalize_and_parse(s: &str) -> Result<Version, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s
        .splitn(3, '.')
        .map(|p| {
            if p.len() <= 1 {
                return p.to_owned();
            }
            let trimmed = p.trim_start_matches('0');
            if trimmed.is_empty() || !trimmed.starts_with(|c: char| c.is_ascii_digit()) {
                format!("0{trimmed}")
            } else {
                trimmed.to_owned()
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".to_owned());
        }
        parts.resize(3, "0".to_owned());
    }
    parse(&parts.join("."))
}

fn parse_arg(args: &[Value], name: &str) -> Result<Result<Version, String>, ExecutionError> {
    let s = string(args, 0, name)?;
    Ok(match args.get(1) {
        Some(Value::Bool(true)) => normalize_and_parse(s),
        None | Some(Value::Bool(false)) => parse(s),
        Some(_) => return Err(no_overload(name, args)),
    })
}

fn semver(args: &[Value]) -> Result<Value, ExecutionError> {
    match parse_arg(args, "semver")? {
        Ok(v) => Ok(Value::Opaque(Arc::new(v))),
        Err(e) => Err(ExecutionError::function_error("semver", e)),
    }
}

fn version<'a>(args: &'a [Value], i: usize, name: &str) -> Result<&'a Version, ExecutionError> {
    match args.get(i) {
        Some(Value::Opaque(o)) => o
            .downcast_ref::<Version>()
            .ok_or_else(|| no_overload(name, args)),
        _ => Err(no_overload(name, args)),
    }
}

fn compared(args: &[Value], name: &str) -> Result<Ordering, ExecutionError> {
    Ok(version(args, 0, name)?.compare(version(args, 1, name)?))
}

pub(super) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let semver_type = || Type::new_opaque_type("kubernetes.Semver");
    env.add_type(semver_type())?;
    env.add_overload(
        "semver",
        "string_to_semver",
        vec![STRING_TYPE],
        lift!(semver),
    )?;
    env.add_overload(
        "semver",
        "string_bool_to_semver",
        vec![STRING_TYPE, BOOL_TYPE],
        lift!(semver),
    )?;
    for (id, args) in [
        ("is_semver_string", vec![STRING_TYPE]),
        ("is_semver_string_bool", vec![STRING_TYPE, BOOL_TYPE]),
    ] {
        env.add_overload(
            "isSemver",
            id,
            args,
            lift!(|a| Ok(Value::Bool(parse_arg(a, "isSemver")?.is_ok()))),
        )?;
    }
    let member = |env: &mut Env, name: &str, id: &str, args: Vec<Type>, op| {
        env.add_member_overload(name, id, semver_type(), args, op)
    };
    member(
        env,
        "isGreaterThan",
        "semver_is_greater_than",
        vec![semver_type()],
        lift!(|a| Ok(Value::Bool(
            compared(a, "isGreaterThan")? == Ordering::Greater
        ))),
    )?;
    member(
        env,
        "isLessThan",
        "semver_is_less_than",
        vec![semver_type()],
        lift!(|a| Ok(Value::Bool(compared(a, "isLessThan")? == Ordering::Less))),
    )?;
    member(
        env,
        "compareTo",
        "semver_compare_to",
        vec![semver_type()],
        lift!(|a| Ok(Value::Int(compared(a, "compareTo")? as i64))),
    )?;
    member(
        env,
        "major",
        "semver_major",
        vec![],
        lift!(|a| number_value(version(a, 0, "major")?.major)),
    )?;
    member(
        env,
        "minor",
        "semver_minor",
        vec![],
        lift!(|a| number_value(version(a, 0, "minor")?.minor)),
    )?;
    member(
        env,
        "patch",
        "semver_patch",
        vec![],
        lift!(|a| number_value(version(a, 0, "patch")?.patch)),
    )?;
    Ok(())
}

/// A version number as CEL's `int` (Go converts the `uint64` with wrap-around).
fn number_value(n: u64) -> Result<Value, ExecutionError> {
    Ok(Value::Int(n as i64))
}

#[cfg(test)]
mod tests {
    use cel::Value;

    use super::super::tests::eval;

    #[test]
    fn versions_compare_by_semantic_versioning_precedence() {
        for rule in [
            "semver('1.2.3').isLessThan(semver('1.10.0'))",
            "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
            "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))",
            "semver('1.0.0-2').isLessThan(semver('1.0.0-10'))",
            "semver('1.0.0+build.1').compareTo(semver('1.0.0+build.2')) == 0",
            "semver('2.0.0').isGreaterThan(semver('1.9.9'))",
            "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
            "semver('v01.2', true).compareTo(semver('1.2.0')) == 0",
            "isSemver('1.2.3') && !isSemver('1.2') && isSemver('v1.2', true) && !isSemver('1.2-x', true)",
            "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
        ] {
            assert_eq!(eval(rule), Ok(Value::Bool(true)), "{rule}");
        }
    }

    #[test]
    fn bad_versions_fail_with_blang_semver_s_texts() {
        for (rule, text) in [
            ("semver('1.2')", "No Major.Minor.Patch elements found"),
            (
                "semver('01.2.3')",
                "Major number must not contain leading zeroes \"01\"",
            ),
            (
                "semver('1.x.3')",
                "Invalid character(s) found in minor number \"x\"",
            ),
            (
                "semver('1.2.3-01')",
                "Numeric PreRelease version must not contain leading zeroes \"01\"",
            ),
            ("semver('1.2.3+')", "Build meta data is empty"),
            ("semver('')", "Version string empty"),
            (
                "semver('1.2-x', true)",
                "short version cannot contain PreRelease/Build meta data",
            ),
        ] {
            let err = eval(rule).expect_err(rule);
            assert!(err.contains(text), "{rule}: {err}");
        }
    }
}
