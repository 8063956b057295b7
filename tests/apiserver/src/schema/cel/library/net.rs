//! Kubernetes' `ip` and `cidr` libraries (`k8s.io/apiserver/pkg/cel/library/ip.go`,
//! `cidr.go`) and its `format` library (`format.go`). Addresses are parsed as Go's
//! `net/netip` parses them, with its error texts, since those are what a rule's runtime
//! error shows.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use cel::common::types::{Type, STRING_TYPE};
use cel::objects::{Opaque, OptionalValue};
use cel::{DeclarationError, Env, ExecutionError, Value};

use super::{no_overload, string};
use crate::validation::names::{self, NameRule};

/// `net.IP`: an address without zone, never an IPv4-mapped IPv6 one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addr {
    V4([u8; 4]),
    V6([u8; 16]),
}

impl Opaque for Addr {
    fn runtime_type_name(&self) -> &str {
        "net.IP"
    }
}

/// `net.CIDR`: an address and a prefix length (the address is kept unmasked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Prefix {
    addr: Addr,
    bits: u8,
}

impl Opaque for Prefix {
    fn runtime_type_name(&self) -> &str {
        "net.CIDR"
    }
}

/// A named format of the `format` library (`kubernetes.NamedFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Format(&'static str);

impl Opaque for Format {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.NamedFormat"
    }
}

/// The formats `format.named` knows, by their library names.
const FORMATS: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

impl Addr {
    fn octets(self) -> Vec<u8> {
        match self {
            Self::V4(b) => b.to_vec(),
            Self::V6(b) => b.to_vec(),
        }
    }

    fn bit_len(self) -> u8 {
        match self {
            Self::V4(_) => 32,
            Self::V6(_) => 128,
        }
    }

    /// `netip.Addr.String`: dotted quad, or RFC 5952 text.
    fn text(self) -> String {
        match self {
            Self::V4(b) => Ipv4Addr::from(b).to_string(),
            Self::V6(b) => Ipv6Addr::from(b).to_string(),
        }
    }

    fn is_unspecified(self) -> bool {
        self.octets().iter().all(|b| *b == 0)
    }

    fn is_loopback(self) -> bool {
        match self {
            Self::V4(b) => b[0] == 127,
            Self::V6(b) => Ipv6Addr::from(b) == Ipv6Addr::LOCALHOST,
        }
    }

    fn is_multicast(self) -> bool {
        match self {
            Self::V4(b) => b[0] & 0xf0 == 0xe0,
            Self::V6(b) => b[0] == 0xff,
        }
    }

    fn is_link_local_multicast(self) -> bool {
        match self {
            Self::V4(b) => b[..3] == [224, 0, 0],
            Self::V6(b) => b[0] == 0xff && b[1] & 0x0f == 0x02,
        }
    }

    fn is_link_local_unicast(self) -> bool {
        match self {
            Self::V4(b) => b[..2] == [169, 254],
            Self::V6(b) => b[0] == 0xfe && b[1] & 0xc0 == 0x80,
        }
    }

    /// `netip.Addr.IsGlobalUnicast`, which (as package `net`) counts private IPv4 and ULA
    /// IPv6 addresses as global.
    fn is_global_unicast(self) -> bool {
        if self == Self::V4([255; 4]) {
            return false;
        }
        !self.is_unspecified()
            && !self.is_loopback()
            && !self.is_multicast()
            && !self.is_link_local_unicast()
    }

    /// The address with every bit past the first `bits` cleared.
    fn masked(self, bits: u8) -> Self {
        let mut octets = self.octets();
        for (i, b) in octets.iter_mut().enumerate() {
            let start = u32::try_from(i * 8).unwrap_or(u32::MAX);
            let keep = u32::from(bits).saturating_sub(start).min(8);
            *b &= u8::try_from((0xff00_u32 >> keep) & 0xff).unwrap_or(0);
        }
        match self {
            Self::V4(_) => Self::V4(octets.try_into().unwrap_or([0; 4])),
            Self::V6(_) => Self::V6(octets.try_into().unwrap_or([0; 16])),
        }
    }
}

/// `netip.parseAddrError`'s text.
fn addr_error(input: &str, msg: &str, at: Option<&str>) -> String {
    match at {
        Some(at) => format!("ParseAddr({input:?}): {msg} (at {at:?})"),
        None => format!("ParseAddr({input:?}): {msg}"),
    }
}

/// `netip.ParseAddr`: the address and its zone (`%zone`, IPv6 only), or the error text.
fn parse_addr(s: &str) -> Result<(Addr, Option<&str>), String> {
    for c in s.bytes() {
        match c {
            b'.' => return parse_v4_fields(s, s).map(|b| (Addr::V4(b), None)),
            b':' => return parse_v6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", None)),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", None))
}

/// `netip.parseIPv4Fields` over `part` (all of `input`, or the tail of an IPv6 address).
fn parse_v4_fields(input: &str, part: &str) -> Result<[u8; 4], String> {
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0u32);
    let b = part.as_bytes();
    for (i, c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return Err(addr_error(
                        input,
                        "IPv4 field has octet with leading zero",
                        None,
                    ));
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return Err(addr_error(input, "IPv4 field has value >255", None));
                }
            }
            b'.' => {
                if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                    return Err(addr_error(
                        input,
                        "IPv4 field must have at least one digit",
                        Some(&part[i..]),
                    ));
                }
                if pos == 3 {
                    return Err(addr_error(input, "IPv4 address too long", None));
                }
                fields[pos] = u8::try_from(val).unwrap_or(0);
                pos += 1;
                val = 0;
                digits = 0;
            }
            _ => return Err(addr_error(input, "unexpected character", Some(&part[i..]))),
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", None));
    }
    fields[3] = u8::try_from(val).unwrap_or(0);
    Ok(fields)
}

/// `netip.parseIPv6`.
fn parse_v6(input: &str) -> Result<(Addr, Option<&str>), String> {
    let (mut s, zone) = match input.split_once('%') {
        Some((_, "")) => return Err(addr_error(input, "zone must be a non-empty string", None)),
        Some((addr, zone)) => (addr, Some(zone)),
        None => (input, None),
    };
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok((Addr::V6(ip), zone));
        }
    }
    let mut i = 0;
    while i < 16 {
        let b = s.as_bytes();
        let mut off = 0;
        let mut acc = 0u32;
        while off < b.len() {
            let Some(d) = char::from(b[off]).to_digit(16) else {
                break;
            };
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(addr_error(
                    input,
                    "each group must have 4 or less digits",
                    Some(s),
                ));
            }
            if acc > 0xffff {
                return Err(addr_error(input, "IPv6 field has value >=2^16", Some(s)));
            }
            off += 1;
        }
        if off == 0 {
            return Err(addr_error(
                input,
                "each colon-separated field must have at least one digit",
                Some(s),
            ));
        }
        if b.get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return Err(addr_error(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    Some(s),
                ));
            }
            if i + 4 > 16 {
                return Err(addr_error(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    Some(s),
                ));
            }
            let v4 = parse_v4_fields(input, s)?;
            ip[i..i + 4].copy_from_slice(&v4);
            s = "";
            i += 4;
            break;
        }
        ip[i] = u8::try_from(acc >> 8).unwrap_or(0);
        ip[i + 1] = u8::try_from(acc & 0xff).unwrap_or(0);
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(
                input,
                "unexpected character, want colon",
                Some(s),
            ));
        }
        if s.len() == 1 {
            return Err(addr_error(
                input,
                "colon must be followed by more characters",
                Some(s),
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", Some(s)));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", Some(s)));
    }
    if i < 16 {
        let Some(at) = ellipsis else {
            return Err(addr_error(input, "address string too short", None));
        };
        let n = 16 - i;
        ip.copy_within(at..i, at + n);
        ip[at..at + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(addr_error(
            input,
            "the :: must expand to at least one field of zeros",
            None,
        ));
    }
    Ok((Addr::V6(ip), zone))
}

fn is_4in6(addr: Addr) -> bool {
    matches!(addr, Addr::V6(b) if b[..10] == [0; 10] && b[10..12] == [0xff, 0xff])
}

/// The library's `parseIPAddr`: no zone, no IPv4-mapped IPv6 address.
fn parse_ip(s: &str) -> Result<Addr, String> {
    let (addr, zone) = parse_addr(s)
        .map_err(|e| format!("IP Address {s:?} parse error during conversion from string: {e}"))?;
    if zone.is_some() {
        return Err(format!("IP address {s:?} with zone value is not allowed"));
    }
    if is_4in6(addr) {
        return Err(format!("IPv4-mapped IPv6 address {s:?} is not allowed"));
    }
    Ok(addr)
}

/// `netip.ParsePrefix`, then the library's `parseCIDR` checks and wording.
fn parse_cidr(s: &str) -> Result<Prefix, String> {
    let prefix_error = |msg: &str| {
        format!(
            "network address parse error during conversion from string: netip.ParsePrefix({s:?}): {msg}"
        )
    };
    let Some((addr_text, bits_text)) = s.rsplit_once('/') else {
        return Err(prefix_error("no '/'"));
    };
    let (addr, zone) = parse_addr(addr_text).map_err(|e| prefix_error(&e))?;
    if zone.is_some() {
        return Err(prefix_error("IPv6 zones cannot be present in a prefix"));
    }
    let bad_bits = || prefix_error(&format!("bad bits after slash: {bits_text:?}"));
    if bits_text.len() > 1 && !bits_text.starts_with(|c: char| ('1'..='9').contains(&c)) {
        return Err(bad_bits());
    }
    let bits: i64 = bits_text.parse().map_err(|_| bad_bits())?;
    if bits < 0 || bits > i64::from(addr.bit_len()) {
        return Err(prefix_error("prefix length out of range"));
    }
    if is_4in6(addr) {
        return Err(format!("IPv4-mapped IPv6 address {s:?} is not allowed"));
    }
    Ok(Prefix {
        addr,
        bits: u8::try_from(bits).unwrap_or(0),
    })
}

impl Prefix {
    fn contains(self, ip: Addr) -> bool {
        std::mem::discriminant(&self.addr) == std::mem::discriminant(&ip)
            && ip.masked(self.bits) == self.addr.masked(self.bits)
    }

    /// `netip.Prefix.Overlaps`.
    fn overlaps(self, other: Prefix) -> bool {
        let bits = self.bits.min(other.bits);
        std::mem::discriminant(&self.addr) == std::mem::discriminant(&other.addr)
            && self.addr.masked(bits) == other.addr.masked(bits)
    }
}

fn ip_arg(args: &[Value], i: usize, name: &str) -> Result<Addr, ExecutionError> {
    match args.get(i) {
        Some(Value::Opaque(o)) => o.downcast_ref::<Addr>().copied(),
        _ => None,
    }
    .ok_or_else(|| no_overload(name, args))
}

fn cidr_arg(args: &[Value], i: usize, name: &str) -> Result<Prefix, ExecutionError> {
    match args.get(i) {
        Some(Value::Opaque(o)) => o.downcast_ref::<Prefix>().copied(),
        _ => None,
    }
    .ok_or_else(|| no_overload(name, args))
}

fn failed(name: &str, message: String) -> ExecutionError {
    ExecutionError::function_error(name, message)
}

fn ip(args: &[Value]) -> Result<Value, ExecutionError> {
    let addr = parse_ip(string(args, 0, "ip")?).map_err(|e| failed("ip", e))?;
    Ok(Value::Opaque(Arc::new(addr)))
}

fn cidr(args: &[Value]) -> Result<Value, ExecutionError> {
    let prefix = parse_cidr(string(args, 0, "cidr")?).map_err(|e| {
        failed(
            "cidr",
            format!("network address parse error during conversion from string: {e}"),
        )
    })?;
    Ok(Value::Opaque(Arc::new(prefix)))
}

fn ip_predicate(
    args: &[Value],
    name: &str,
    test: fn(Addr) -> bool,
) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(test(ip_arg(args, 0, name)?)))
}

/// The IP a `containsIP` argument names: an IP, or a string parsed as `ip()` parses it.
fn ip_operand(args: &[Value]) -> Result<Addr, ExecutionError> {
    match args.get(1) {
        Some(Value::String(s)) => parse_ip(s).map_err(|e| failed("ip", e)),
        _ => ip_arg(args, 1, "containsIP"),
    }
}

fn cidr_operand(args: &[Value]) -> Result<Prefix, ExecutionError> {
    match args.get(1) {
        Some(Value::String(s)) => parse_cidr(s).map_err(|e| {
            failed(
                "cidr",
                format!("network address parse error during conversion from string: {e}"),
            )
        }),
        _ => cidr_arg(args, 1, "containsCIDR"),
    }
}

fn named_format(name: &str) -> Option<Format> {
    FORMATS.iter().find(|f| **f == name).map(|f| Format(f))
}

/// The messages of a format's `ValidateFunc` for `s` (none when valid).
fn format_errors(format: &str, s: &str) -> Vec<String> {
    let one = |ok: bool, msg: &str| if ok { Vec::new() } else { vec![msg.to_owned()] };
    match format {
        "dns1123Label" => NameRule::Label.check(s, false),
        "dns1123Subdomain" => NameRule::Subdomain.check(s, false),
        "dns1035Label" => NameRule::Dns1035Label.check(s, false),
        "dns1123LabelPrefix" => NameRule::Label.check(s, true),
        "dns1123SubdomainPrefix" => NameRule::Subdomain.check(s, true),
        "dns1035LabelPrefix" => NameRule::Dns1035Label.check(s, true),
        "qualifiedName" => names::qualified_name(s),
        "labelValue" => names::label_value(s),
        "uri" => one(
            super::parse_url(s).is_some(),
            &format!("parse {s:?}: invalid URI for request"),
        ),
        "uuid" => one(
            crate::schema::format::check("uuid", s),
            "does not match the UUID format",
        ),
        "byte" => one(crate::schema::format::check("byte", s), "invalid base64"),
        "date" => one(crate::schema::format::check("date", s), "invalid date"),
        _ => one(
            crate::schema::format::check("datetime", s),
            "invalid datetime",
        ),
    }
}

fn validate(args: &[Value]) -> Result<Value, ExecutionError> {
    let format = match args.first() {
        Some(Value::Opaque(o)) => o.downcast_ref::<Format>().copied(),
        _ => None,
    }
    .ok_or_else(|| no_overload("validate", args))?;
    let errs = format_errors(format.0, string(args, 1, "validate")?);
    let optional = if errs.is_empty() {
        OptionalValue::none()
    } else {
        let list = errs.into_iter().map(|e| Value::String(Arc::new(e)));
        OptionalValue::of(Value::List(Arc::new(list.collect())))
    };
    Ok(Value::Opaque(Arc::new(optional)))
}

fn format_named(args: &[Value]) -> Result<Value, ExecutionError> {
    let optional = match named_format(string(args, 0, "format.named")?) {
        Some(f) => OptionalValue::of(Value::Opaque(Arc::new(f))),
        None => OptionalValue::none(),
    };
    Ok(Value::Opaque(Arc::new(optional)))
}

/// Registers the `ip`, `cidr` and `format` libraries.
pub(super) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let ip_type = || Type::new_opaque_type("net.IP");
    let cidr_type = || Type::new_opaque_type("net.CIDR");
    let format_type = || Type::new_opaque_type("kubernetes.NamedFormat");
    env.add_type(ip_type())?;
    env.add_type(cidr_type())?;
    env.add_overload("ip", "string_to_ip", vec![STRING_TYPE], lift!(ip))?;
    env.add_overload(
        "isIP",
        "is_ip",
        vec![STRING_TYPE],
        lift!(|a| Ok(Value::Bool(parse_ip(string(a, 0, "isIP")?).is_ok()))),
    )?;
    env.add_overload(
        "ip.isCanonical",
        "ip_is_canonical",
        vec![STRING_TYPE],
        lift!(|a| {
            let s = string(a, 0, "ip.isCanonical")?;
            let addr = parse_ip(s).map_err(|e| failed("ip.isCanonical", e))?;
            Ok(Value::Bool(addr.text() == s))
        }),
    )?;
    env.add_overload(
        "string",
        "ip_to_string",
        vec![ip_type()],
        lift!(|a| Ok(Value::String(Arc::new(ip_arg(a, 0, "string")?.text())))),
    )?;
    let member = |env: &mut Env, name: &str, id: &str, recv: Type, args: Vec<Type>, op| {
        env.add_member_overload(name, id, recv, args, op)
    };
    member(
        env,
        "family",
        "ip_family",
        ip_type(),
        vec![],
        lift!(|a| {
            Ok(Value::Int(match ip_arg(a, 0, "family")? {
                Addr::V4(_) => 4,
                Addr::V6(_) => 6,
            }))
        }),
    )?;
    member(
        env,
        "isUnspecified",
        "ip_is_unspecified",
        ip_type(),
        vec![],
        lift!(|a| ip_predicate(a, "isUnspecified", Addr::is_unspecified)),
    )?;
    member(
        env,
        "isLoopback",
        "ip_is_loopback",
        ip_type(),
        vec![],
        lift!(|a| ip_predicate(a, "isLoopback", Addr::is_loopback)),
    )?;
    member(
        env,
        "isLinkLocalMulticast",
        "ip_is_link_local_multicast",
        ip_type(),
        vec![],
        lift!(|a| ip_predicate(a, "isLinkLocalMulticast", Addr::is_link_local_multicast)),
    )?;
    member(
        env,
        "isLinkLocalUnicast",
        "ip_is_link_local_unicast",
        ip_type(),
        vec![],
        lift!(|a| ip_predicate(a, "isLinkLocalUnicast", Addr::is_link_local_unicast)),
    )?;
    member(
        env,
        "isGlobalUnicast",
        "ip_is_global_unicast",
        ip_type(),
        vec![],
        lift!(|a| ip_predicate(a, "isGlobalUnicast", Addr::is_global_unicast)),
    )?;

    env.add_overload("cidr", "string_to_cidr", vec![STRING_TYPE], lift!(cidr))?;
    env.add_overload(
        "isCIDR",
        "is_cidr",
        vec![STRING_TYPE],
        lift!(|a| Ok(Value::Bool(parse_cidr(string(a, 0, "isCIDR")?).is_ok()))),
    )?;
    env.add_overload(
        "string",
        "cidr_to_string",
        vec![cidr_type()],
        lift!(|a| {
            let p = cidr_arg(a, 0, "string")?;
            Ok(Value::String(Arc::new(format!(
                "{}/{}",
                p.addr.text(),
                p.bits
            ))))
        }),
    )?;
    for (id, arg) in [
        ("cidr_contains_ip_string", STRING_TYPE),
        ("cidr_contains_ip_ip", ip_type()),
    ] {
        member(
            env,
            "containsIP",
            id,
            cidr_type(),
            vec![arg],
            lift!(|a| {
                let p = cidr_arg(a, 0, "containsIP")?;
                Ok(Value::Bool(p.contains(ip_operand(a)?)))
            }),
        )?;
    }
    for (id, arg) in [
        ("cidr_contains_cidr_string", STRING_TYPE),
        ("cidr_contains_cidr", cidr_type()),
    ] {
        member(
            env,
            "containsCIDR",
            id,
            cidr_type(),
            vec![arg],
            lift!(|a| {
                let p = cidr_arg(a, 0, "containsCIDR")?;
                let other = cidr_operand(a)?;
                Ok(Value::Bool(p.overlaps(other) && p.bits <= other.bits))
            }),
        )?;
    }
    member(
        env,
        "ip",
        "cidr_ip",
        cidr_type(),
        vec![],
        lift!(|a| { Ok(Value::Opaque(Arc::new(cidr_arg(a, 0, "ip")?.addr))) }),
    )?;
    member(
        env,
        "prefixLength",
        "cidr_prefix_length",
        cidr_type(),
        vec![],
        lift!(|a| { Ok(Value::Int(i64::from(cidr_arg(a, 0, "prefixLength")?.bits))) }),
    )?;
    member(
        env,
        "masked",
        "cidr_masked",
        cidr_type(),
        vec![],
        lift!(|a| {
            let p = cidr_arg(a, 0, "masked")?;
            Ok(Value::Opaque(Arc::new(Prefix {
                addr: p.addr.masked(p.bits),
                bits: p.bits,
            })))
        }),
    )?;

    env.add_type(format_type())?;
    env.add_overload(
        "format.named",
        "format-named",
        vec![STRING_TYPE],
        lift!(format_named),
    )?;
    member(
        env,
        "validate",
        "format-validate",
        format_type(),
        vec![STRING_TYPE],
        lift!(validate),
    )?;
    for name in FORMATS {
        let function = format!("format.{name}");
        env.add_overload(&function, &function, vec![], constant_format(name))?;
    }
    Ok(())
}

/// The zero-argument function `format.<name>()` returning that format (the last of
/// [`FORMATS`], `datetime`, for any other name).
fn constant_format(name: &str) -> cel::common::functions::Function {
    macro_rules! constant {
        ($($n:literal),*) => {
            match name {
                $($n => lift!(|_| Ok(Value::Opaque(Arc::new(Format($n))))),)*
                _ => lift!(|_| Ok(Value::Opaque(Arc::new(Format("datetime"))))),
            }
        };
    }
    constant!(
        "dns1123Label",
        "dns1123Subdomain",
        "dns1035Label",
        "qualifiedName",
        "dns1123LabelPrefix",
        "dns1123SubdomainPrefix",
        "dns1035LabelPrefix",
        "labelValue",
        "uri",
        "uuid",
        "byte",
        "date"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(rule: &str) -> Result<Value, ExecutionError> {
        let env = super::super::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        program.execute(&cel::Context::with_env(env))
    }

    #[test]
    fn addresses_parse_as_netip_parses_them() {
        let v6 = |s: &str| parse_addr(s).map(|(a, _)| a.text());
        assert_eq!(v6("2001:DB8:0:0:0:0:0:1"), Ok("2001:db8::1".to_owned()));
        assert_eq!(v6("::"), Ok("::".to_owned()));
        assert_eq!(v6("::ffff:1.2.3.4").map(|_| ()), Ok(()));
        assert_eq!(v6("1::2:0:0:3"), Ok("1::2:0:0:3".to_owned()));
        let err = |s: &str| parse_addr(s).map(|_| ()).unwrap_err();
        assert_eq!(err("abc"), r#"ParseAddr("abc"): unable to parse IP"#);
        assert_eq!(
            err("1.2.3"),
            r#"ParseAddr("1.2.3"): IPv4 address too short"#
        );
        assert_eq!(
            err("1.2.3.4.5"),
            r#"ParseAddr("1.2.3.4.5"): IPv4 address too long"#
        );
        assert_eq!(
            err("1.2.3.256"),
            r#"ParseAddr("1.2.3.256"): IPv4 field has value >255"#
        );
        assert_eq!(
            err("1..2.3"),
            r#"ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")"#
        );
        assert_eq!(
            err("1.2.3.x"),
            r#"ParseAddr("1.2.3.x"): unexpected character (at "x")"#
        );
        assert_eq!(
            err("1:2:3"),
            r#"ParseAddr("1:2:3"): address string too short"#
        );
        assert_eq!(
            err("1::2::3"),
            r#"ParseAddr("1::2::3"): multiple :: in address (at ":3")"#
        );
        assert_eq!(
            err("12345::"),
            r#"ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#
        );
        assert_eq!(err("%eth0"), r#"ParseAddr("%eth0"): missing IPv6 address"#);
    }

    #[test]
    fn the_library_refuses_zones_and_mapped_addresses() {
        assert_eq!(
            parse_ip("fe80::1%eth0"),
            Err(r#"IP address "fe80::1%eth0" with zone value is not allowed"#.to_owned())
        );
        assert_eq!(
            parse_ip("::ffff:1.2.3.4"),
            Err(r#"IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed"#.to_owned())
        );
        assert_eq!(
            parse_cidr("10.0.0.0/33"),
            Err(r#"network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0/33"): prefix length out of range"#.to_owned())
        );
        assert_eq!(
            parse_cidr("10.0.0.0/08"),
            Err(r#"network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#.to_owned())
        );
    }

    #[test]
    fn functions_answer_as_the_kubernetes_library() {
        for rule in [
            "ip('10.0.0.1').family() == 4 && ip('fe80::1').family() == 6",
            "ip('fe80::1').isLinkLocalUnicast() && ip('ff02::1').isLinkLocalMulticast()",
            "ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()",
            "ip('::').isUnspecified() && ip('::1').isLoopback()",
            "ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')",
            "string(ip('2001:db8:0:0::1')) == '2001:db8::1'",
            "ip('10.0.0.1') == ip('10.0.0.1') && ip('10.0.0.1') != ip('10.0.0.2')",
            "cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))",
            "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')",
            "string(cidr('10.1.2.3/8').masked()) == '10.0.0.0/8' && cidr('10.1.2.3/8').prefixLength() == 8",
            "string(cidr('10.1.2.3/8').ip()) == '10.1.2.3' && isCIDR('::/0') && !isCIDR('::')",
            "format.named('uuid').hasValue() && !format.named('nope').hasValue()",
            "format.uuid().validate('not-a-uuid').value() == ['does not match the UUID format']",
            "!format.dns1123SubdomainPrefix().validate('abc-').hasValue()",
            "format.qualifiedName().validate('a/b/c').hasValue()",
        ] {
            assert_eq!(eval(rule), Ok(Value::Bool(true)), "{rule}");
        }
    }
}
