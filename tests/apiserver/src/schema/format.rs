//! `format` as the CRD validator keeps it (`StripUnsupportedFormatsPostProcessor`) and
//! kube-openapi's strfmt registry checks it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::OnceLock;

use base64::Engine;
use regex::Regex;

use super::JsonType;

/// The string formats Kubernetes 1.34 supports (dashes removed, as go-openapi
/// normalises names).
const STRING_FORMATS: &[&str] = &[
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "k8sshortname",
    "k8slongname",
];

/// `format` if the validator keeps it for a schema of these types, else `None`.
pub(super) fn kept<'a>(format: &'a str, types: &[JsonType]) -> Option<&'a str> {
    let single = match types {
        [] => None,
        [t] => Some(*t),
        _ => return None,
    };
    let keep = match single {
        None | Some(JsonType::String) => STRING_FORMATS.contains(&format.replace('-', "").as_str()),
        Some(JsonType::Integer) => format == "int32" || format == "int64",
        Some(JsonType::Number) => format == "float" || format == "double",
        Some(_) => false,
    };
    keep.then_some(format)
}

/// True when the registry knows `format` as a string format (the format validator
/// applies).
pub(super) fn is_string_format(format: &str) -> bool {
    STRING_FORMATS.contains(&format.replace('-', "").as_str())
}

fn regex(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

fn matches(cell: &'static OnceLock<Option<Regex>>, pattern: &str, s: &str) -> bool {
    regex(cell, pattern).is_some_and(|r| r.is_match(s))
}

/// True when `s` is valid for the string format `format`.
pub(super) fn check(format: &str, s: &str) -> bool {
    static UUID: OnceLock<Option<Regex>> = OnceLock::new();
    static UUID3: OnceLock<Option<Regex>> = OnceLock::new();
    static UUID4: OnceLock<Option<Regex>> = OnceLock::new();
    static UUID5: OnceLock<Option<Regex>> = OnceLock::new();
    static HOSTNAME: OnceLock<Option<Regex>> = OnceLock::new();
    static DATE_TIME: OnceLock<Option<Regex>> = OnceLock::new();
    static DURATION: OnceLock<Option<Regex>> = OnceLock::new();
    static MAC: OnceLock<Option<Regex>> = OnceLock::new();
    static HEX: OnceLock<Option<Regex>> = OnceLock::new();
    static EMAIL: OnceLock<Option<Regex>> = OnceLock::new();
    static SHORT: OnceLock<Option<Regex>> = OnceLock::new();
    static LONG: OnceLock<Option<Regex>> = OnceLock::new();
    static OBJECT_ID: OnceLock<Option<Regex>> = OnceLock::new();
    match format.replace('-', "").as_str() {
        "uuid" => matches(
            &UUID,
            r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$",
            s,
        ),
        "uuid3" => matches(
            &UUID3,
            r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$",
            s,
        ),
        "uuid4" => matches(
            &UUID4,
            r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$",
            s,
        ),
        "uuid5" => matches(
            &UUID5,
            r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$",
            s,
        ),
        "hostname" => {
            s.len() <= 255
                && matches(
                    &HOSTNAME,
                    r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$",
                    s,
                )
        }
        "ipv4" => s.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<Ipv6Addr>().is_ok() || s.parse::<Ipv4Addr>().is_ok(),
        "cidr" => is_cidr(s),
        "mac" => matches(
            &MAC,
            r"^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}$|^([0-9A-Fa-f]{2}[:-]){7}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{2}[:-]){19}([0-9A-Fa-f]{2})$",
            s,
        ),
        "byte" => base64::engine::general_purpose::STANDARD.decode(s).is_ok(),
        "date" => is_date(s),
        "datetime" => is_date_time(s, &DATE_TIME),
        "duration" => {
            matches(
                &DURATION,
                r"^([+-]?(\d+(\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\s*)+$",
                s,
            ) || s == "0"
        }
        "hexcolor" => matches(&HEX, r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$", s),
        "email" => matches(&EMAIL, r"^[^@\s]+@[^@\s]+$", s),
        "k8sshortname" => s.len() <= 63 && matches(&SHORT, r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", s),
        "k8slongname" => {
            s.len() <= 253
                && matches(
                    &LONG,
                    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
                    s,
                )
        }
        "bsonobjectid" => matches(&OBJECT_ID, r"^[0-9a-fA-F]{24}$", s),
        "uri" => s.contains(':') || s.starts_with('/'),
        _ => true,
    }
}

fn is_cidr(s: &str) -> bool {
    let Some((ip, bits)) = s.split_once('/') else {
        return false;
    };
    let Ok(bits) = bits.parse::<u8>() else {
        return false;
    };
    match ip.parse::<IpAddr>() {
        Ok(IpAddr::V4(_)) => bits <= 32,
        Ok(IpAddr::V6(_)) => bits <= 128,
        Err(_) => false,
    }
}

/// `2006-01-02`, a real calendar day.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|p| p.parse::<u32>().ok());
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    if !s[..4].bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// strfmt's `IsDateTime`: a date, `t`, then `hh:mm:ss[.frac](z|±hh:mm)`.
fn is_date_time(s: &str, cell: &'static OnceLock<Option<Regex>>) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let parts: Vec<&str> = lower.split('t').collect();
    if parts.len() < 2 || !is_date(parts[0]) {
        return false;
    }
    let Some(re) = regex(
        cell,
        r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$",
    ) else {
        return false;
    };
    let Some(c) = re.captures(parts[1]) else {
        return false;
    };
    let part = |i: usize| c.get(i).map_or("", |m| m.as_str());
    part(1) <= "23" && part(2) <= "59" && part(3) <= "59"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_check_like_strfmt() {
        assert!(check("date-time", "2024-01-02T03:04:05Z"));
        assert!(check("date-time", "2024-01-02T03:04:05.123+02:00"));
        assert!(!check("date-time", "yesterday"));
        assert!(!check("date", "2023-02-29"));
        assert!(check("byte", "aGVsbG8="));
        assert!(!check("byte", "not base64!"));
        assert!(check("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(check("cidr", "10.0.0.0/8"));
        assert!(!check("ipv4", "10.0.0"));
        assert_eq!(kept("int32", &[JsonType::Integer]), Some("int32"));
        assert_eq!(kept("int32", &[JsonType::String]), None);
        assert_eq!(kept("date-time", &[JsonType::String]), Some("date-time"));
    }
}
