//! The Kubernetes CEL library (k8s.io/apiserver `pkg/cel/library`) on cel-rust's
//! standard environment and strings extension: lists (`isSorted`, `sum`, `min`, `max`,
//! `indexOf`, `lastIndexOf`), regex (`find`, `findAll`), URLs (`url`, `isURL` and the
//! getters), quantities (`quantity`, `isQuantity` and their comparisons and arithmetic),
//! sets (`sets.contains`, `sets.equivalent`, `sets.intersects`), in [`net`] IPs,
//! CIDRs and named formats, in [`lists`] the lists extension and the optional
//! library's list functions, and in [`semver`] semantic versions.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use cel::common::types::{Type, DYN_TYPE, INT_TYPE, LIST_TYPE, STRING_TYPE};
use cel::objects::{Key, Map, Opaque};
use cel::{DeclarationError, Env, ExecutionError, Value};
use regex::Regex;

/// The environment every rule is compiled and run in, built once.
pub(super) fn env() -> Result<Arc<Env>, String> {
    static ENV: OnceLock<Result<Arc<Env>, String>> = OnceLock::new();
    ENV.get_or_init(|| build().map(Arc::new).map_err(|e| e.to_string()))
        .clone()
}

type Op = fn(&[Value]) -> Result<Value, ExecutionError>;

/// cel-rust's overloads take values as its `Val` objects; the library's functions are
/// written over `Value`s.
macro_rules! lift {
    ($op:expr) => {{
        fn lifted<'b, 'v>(
            args: Vec<::cel::common::value::CowVal<'b, 'v>>,
        ) -> Result<::cel::common::value::CowVal<'b, 'v>, ::cel::ExecutionError> {
            let op: $crate::schema::cel::library::Op = $op;
            let values = args
                .iter()
                .map(|a| ::cel::Value::try_from(a.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            let out: Box<dyn ::cel::common::value::Val> = op(&values)?.try_into()?;
            Ok(::cel::common::value::CowVal::Owned(out))
        }
        lifted
    }};
}

mod lists;
mod net;
mod semver;

fn build() -> Result<Env, DeclarationError> {
    let mut env = Env::stdlib();
    env.add_extension(cel::extensions::strings)?;
    net::register(&mut env)?;
    lists::register(&mut env)?;
    // Before the quantity methods, whose receiver is `dyn`: the first overload that
    // accepts the arguments runs.
    semver::register(&mut env)?;
    let member = |env: &mut Env, name: &str, recv: Type, args: Vec<Type>, op| {
        let id = format!("{name}/{}/{}", recv.name(), args.len());
        env.add_member_overload(name, &id, recv, args, op)
    };
    member(&mut env, "isSorted", LIST_TYPE, vec![], lift!(is_sorted))?;
    member(&mut env, "sum", LIST_TYPE, vec![], lift!(sum))?;
    member(
        &mut env,
        "min",
        LIST_TYPE,
        vec![],
        lift!(|a| extreme(a, Ordering::Less)),
    )?;
    member(
        &mut env,
        "max",
        LIST_TYPE,
        vec![],
        lift!(|a| extreme(a, Ordering::Greater)),
    )?;
    member(
        &mut env,
        "indexOf",
        LIST_TYPE,
        vec![DYN_TYPE],
        lift!(|a| index_of(a, false)),
    )?;
    member(
        &mut env,
        "lastIndexOf",
        LIST_TYPE,
        vec![DYN_TYPE],
        lift!(|a| index_of(a, true)),
    )?;
    member(
        &mut env,
        "find",
        STRING_TYPE,
        vec![STRING_TYPE],
        lift!(find),
    )?;
    member(
        &mut env,
        "findAll",
        STRING_TYPE,
        vec![STRING_TYPE],
        lift!(find_all),
    )?;
    member(
        &mut env,
        "findAll",
        STRING_TYPE,
        vec![STRING_TYPE, INT_TYPE],
        lift!(find_all),
    )?;
    env.add_overload("url", "url/string", vec![STRING_TYPE], lift!(url))?;
    env.add_overload("isURL", "isURL/string", vec![STRING_TYPE], lift!(is_url))?;
    for getter in [
        "getScheme",
        "getHost",
        "getHostname",
        "getPort",
        "getEscapedPath",
        "getQuery",
    ] {
        member(&mut env, getter, DYN_TYPE, vec![], url_getter(getter))?;
    }
    env.add_overload(
        "quantity",
        "quantity/string",
        vec![STRING_TYPE],
        lift!(quantity),
    )?;
    env.add_overload(
        "isQuantity",
        "isQuantity/string",
        vec![STRING_TYPE],
        lift!(is_quantity),
    )?;
    member(
        &mut env,
        "isGreaterThan",
        DYN_TYPE,
        vec![DYN_TYPE],
        lift!(|a| q_compare(a, "isGreaterThan")),
    )?;
    member(
        &mut env,
        "isLessThan",
        DYN_TYPE,
        vec![DYN_TYPE],
        lift!(|a| q_compare(a, "isLessThan")),
    )?;
    member(
        &mut env,
        "compareTo",
        DYN_TYPE,
        vec![DYN_TYPE],
        lift!(|a| q_compare(a, "compareTo")),
    )?;
    member(
        &mut env,
        "add",
        DYN_TYPE,
        vec![DYN_TYPE],
        lift!(|a| q_arith(a, "add")),
    )?;
    member(
        &mut env,
        "sub",
        DYN_TYPE,
        vec![DYN_TYPE],
        lift!(|a| q_arith(a, "sub")),
    )?;
    member(
        &mut env,
        "sign",
        DYN_TYPE,
        vec![],
        lift!(|a| q_unary(a, "sign")),
    )?;
    member(
        &mut env,
        "isInteger",
        DYN_TYPE,
        vec![],
        lift!(|a| q_unary(a, "isInteger")),
    )?;
    member(
        &mut env,
        "asInteger",
        DYN_TYPE,
        vec![],
        lift!(|a| q_unary(a, "asInteger")),
    )?;
    member(
        &mut env,
        "asApproximateFloat",
        DYN_TYPE,
        vec![],
        lift!(|a| q_unary(a, "asApproximateFloat")),
    )?;
    env.add_overload(
        "sets.contains",
        "sets.contains/list/list",
        vec![LIST_TYPE, LIST_TYPE],
        lift!(sets_contains),
    )?;
    env.add_overload(
        "sets.equivalent",
        "sets.equivalent/list/list",
        vec![LIST_TYPE, LIST_TYPE],
        lift!(sets_equivalent),
    )?;
    env.add_overload(
        "sets.intersects",
        "sets.intersects/list/list",
        vec![LIST_TYPE, LIST_TYPE],
        lift!(sets_intersects),
    )?;
    Ok(env)
}

fn type_name(v: &Value) -> String {
    match v {
        Value::Opaque(o) => o.runtime_type_name().to_owned(),
        other => other.type_of().to_string(),
    }
}

fn no_overload(name: &str, args: &[Value]) -> ExecutionError {
    ExecutionError::no_such_overload(name, args.iter().map(type_name).collect())
}

fn list<'a>(args: &'a [Value], name: &str) -> Result<&'a [Value], ExecutionError> {
    match args.first() {
        Some(Value::List(l)) => Ok(l),
        _ => Err(no_overload(name, args)),
    }
}

fn string<'a>(args: &'a [Value], i: usize, name: &str) -> Result<&'a str, ExecutionError> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(no_overload(name, args)),
    }
}

/// CEL's ordering of two values of one comparable type.
fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::UInt(x), Value::UInt(y)) => Some(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Bytes(x), Value::Bytes(y)) => Some(x.cmp(y)),
        (Value::Duration(x), Value::Duration(y)) => Some(x.cmp(y)),
        (Value::Timestamp(x), Value::Timestamp(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

fn is_sorted(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list(args, "isSorted")?;
    for w in items.windows(2) {
        match compare(&w[0], &w[1]) {
            Some(Ordering::Greater) => return Ok(Value::Bool(false)),
            Some(_) => {}
            None => return Err(no_overload("isSorted", args)),
        }
    }
    Ok(Value::Bool(true))
}

fn sum(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list(args, "sum")?;
    let mut acc = match items.first() {
        None | Some(Value::Int(_)) => Value::Int(0),
        Some(Value::UInt(_)) => Value::UInt(0),
        Some(Value::Float(_)) => Value::Float(0.0),
        Some(Value::Duration(_)) => Value::Duration(chrono::Duration::zero()),
        Some(_) => return Err(no_overload("sum", args)),
    };
    for item in items {
        acc = match (&acc, item) {
            (Value::Int(a), Value::Int(b)) => Value::Int(
                a.checked_add(*b)
                    .ok_or_else(|| ExecutionError::function_error("sum", "integer overflow"))?,
            ),
            (Value::UInt(a), Value::UInt(b)) => Value::UInt(
                a.checked_add(*b)
                    .ok_or_else(|| ExecutionError::function_error("sum", "integer overflow"))?,
            ),
            (Value::Float(a), Value::Float(b)) => Value::Float(a + b),
            (Value::Duration(a), Value::Duration(b)) => Value::Duration(*a + *b),
            _ => return Err(no_overload("sum", args)),
        };
    }
    Ok(acc)
}

fn extreme(args: &[Value], want: Ordering) -> Result<Value, ExecutionError> {
    let name = if want == Ordering::Less { "min" } else { "max" };
    let items = list(args, name)?;
    let Some(mut best) = items.first() else {
        return Err(ExecutionError::function_error(
            name,
            format!("{name} called on empty list"),
        ));
    };
    for item in &items[1..] {
        match compare(item, best) {
            Some(o) if o == want => best = item,
            Some(_) => {}
            None => return Err(no_overload(name, args)),
        }
    }
    Ok(best.clone())
}

fn index_of(args: &[Value], last: bool) -> Result<Value, ExecutionError> {
    let name = if last { "lastIndexOf" } else { "indexOf" };
    let items = list(args, name)?;
    let Some(needle) = args.get(1) else {
        return Err(no_overload(name, args));
    };
    let found = if last {
        items.iter().rposition(|i| i == needle)
    } else {
        items.iter().position(|i| i == needle)
    };
    Ok(Value::Int(found.map_or(-1, |i| i as i64)))
}

fn regex(args: &[Value], name: &str) -> Result<Regex, ExecutionError> {
    let pattern = string(args, 1, name)?;
    Regex::new(pattern).map_err(|e| ExecutionError::function_error(name, e))
}

fn find(args: &[Value]) -> Result<Value, ExecutionError> {
    let text = string(args, 0, "find")?;
    let re = regex(args, "find")?;
    Ok(Value::String(Arc::new(
        re.find(text)
            .map(|m| m.as_str().to_owned())
            .unwrap_or_default(),
    )))
}

fn find_all(args: &[Value]) -> Result<Value, ExecutionError> {
    let text = string(args, 0, "findAll")?;
    let re = regex(args, "findAll")?;
    let limit = match args.get(2) {
        Some(Value::Int(n)) if *n >= 0 => Some(*n as usize),
        Some(Value::Int(_)) | None => None,
        Some(_) => return Err(no_overload("findAll", args)),
    };
    if limit == Some(0) {
        return Ok(Value::List(Arc::new(Vec::new())));
    }
    let found = re
        .find_iter(text)
        .take(limit.unwrap_or(usize::MAX))
        .map(|m| Value::String(Arc::new(m.as_str().to_owned())))
        .collect();
    Ok(Value::List(Arc::new(found)))
}

/// A URL as Go's `url.ParseRequestURI` splits it.
#[derive(Debug, PartialEq, Eq)]
struct Url {
    scheme: String,
    host: String,
    path: String,
    query: String,
}

impl Opaque for Url {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.URL"
    }
}

/// `url.ParseRequestURI`: an absolute URL or an absolute path, no fragment.
fn parse_url(s: &str) -> Option<Url> {
    if s.is_empty() || s.contains('#') || s.chars().any(|c| c.is_control() || c == ' ') {
        return None;
    }
    let (rest, query) = s.split_once('?').unwrap_or((s, ""));
    if rest.starts_with('/') {
        return Some(Url {
            scheme: String::new(),
            host: String::new(),
            path: rest.to_owned(),
            query: query.to_owned(),
        });
    }
    let (scheme, after) = rest.split_once(':')?;
    let mut chars = scheme.chars();
    if !chars.next()?.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    let (host, path) = match after.strip_prefix("//") {
        Some(auth) => {
            let (auth, path) = auth.find('/').map_or((auth, ""), |i| auth.split_at(i));
            let host = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
            (host.to_owned(), path.to_owned())
        }
        None => (String::new(), after.to_owned()),
    };
    Some(Url {
        scheme: scheme.to_owned(),
        host,
        path,
        query: query.to_owned(),
    })
}

fn url(args: &[Value]) -> Result<Value, ExecutionError> {
    let s = string(args, 0, "url")?;
    let parsed = parse_url(s).ok_or_else(|| {
        ExecutionError::function_error("url", format!("URL parse error during conversion from string: parse {s:?}: invalid URI for request"))
    })?;
    Ok(Value::Opaque(Arc::new(parsed)))
}

fn is_url(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(parse_url(string(args, 0, "isURL")?).is_some()))
}

fn url_getter(name: &'static str) -> cel::common::functions::Function {
    match name {
        "getScheme" => lift!(|a| url_part(a, "getScheme", |u| text(&u.scheme))),
        "getHost" => lift!(|a| url_part(a, "getHost", |u| text(&u.host))),
        "getHostname" => lift!(|a| url_part(a, "getHostname", |u| text(split_host(&u.host).0))),
        "getPort" => lift!(|a| url_part(a, "getPort", |u| text(split_host(&u.host).1))),
        "getEscapedPath" => lift!(|a| url_part(a, "getEscapedPath", |u| text(&u.path))),
        _ => lift!(|a| url_part(a, "getQuery", query)),
    }
}

fn text(s: &str) -> Value {
    Value::String(Arc::new(s.to_owned()))
}

/// A host (`h`, `h:port`, `[v6]:port`) as hostname and port (Go's `Hostname`/`Port`).
fn split_host(host: &str) -> (&str, &str) {
    if let Some(rest) = host.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((h, tail)) => (h, tail.strip_prefix(':').unwrap_or("")),
            None => (rest, ""),
        };
    }
    match host.rsplit_once(':') {
        Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => (h, p),
        _ => (host, ""),
    }
}

fn query(u: &Url) -> Value {
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    for pair in u.query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match out.iter_mut().find(|(name, _)| name == k) {
            Some((_, values)) => values.push(text(v)),
            None => out.push((k.to_owned(), vec![text(v)])),
        }
    }
    Value::Map(Map {
        map: Arc::new(
            out.into_iter()
                .map(|(k, v)| (Key::String(Arc::new(k)), Value::List(Arc::new(v))))
                .collect::<HashMap<_, _>>(),
        ),
    })
}

fn url_part(args: &[Value], name: &str, get: fn(&Url) -> Value) -> Result<Value, ExecutionError> {
    match args.first() {
        Some(Value::Opaque(o)) => match o.downcast_ref::<Url>() {
            Some(u) => Ok(get(u)),
            None => Err(no_overload(name, args)),
        },
        _ => Err(no_overload(name, args)),
    }
}

/// A `resource.Quantity`, exactly, in nano units (the finest precision Kubernetes
/// keeps; finer values round up, as `Quantity` rounds them).
#[derive(PartialEq, Eq)]
struct Quantity {
    nanos: i128,
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({}n)", self.nanos)
    }
}

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

/// `resource.ParseQuantity`: a signed decimal number and a suffix (binary SI `Ki`..`Ei`,
/// decimal SI `n`..`E`, or a decimal exponent `e3`/`E3`).
fn parse_quantity(s: &str) -> Option<Quantity> {
    let (negative, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let number_end = body
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(body.len());
    let (number, suffix) = body.split_at(number_end);
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty() || frac.contains('.') {
        return None;
    }
    let (mul, exp10): (i128, i32) = match suffix {
        "" => (1, 0),
        "Ki" => (1 << 10, 0),
        "Mi" => (1 << 20, 0),
        "Gi" => (1 << 30, 0),
        "Ti" => (1 << 40, 0),
        "Pi" => (1 << 50, 0),
        "Ei" => (1 << 60, 0),
        "n" => (1, -9),
        "u" => (1, -6),
        "m" => (1, -3),
        "k" => (1, 3),
        "M" => (1, 6),
        "G" => (1, 9),
        "T" => (1, 12),
        "P" => (1, 15),
        "E" => (1, 18),
        other => {
            let exp = other.strip_prefix(['e', 'E'])?;
            (1, exp.parse::<i32>().ok().filter(|e| e.abs() <= 30)?)
        }
    };
    // Digits as an integer scaled by 10^-frac.len(), then to nanos: value * 10^9.
    let digits: String = format!("{whole}{frac}");
    let mantissa: i128 = digits.trim_start_matches('0').parse().unwrap_or(0);
    let scale = 9 + exp10 - frac.len() as i32;
    let scaled = if scale >= 0 {
        mantissa
            .checked_mul(10i128.checked_pow(scale as u32)?)?
            .checked_mul(mul)?
    } else {
        let div = 10i128.checked_pow((-scale) as u32)?;
        let m = mantissa.checked_mul(mul)?;
        m / div + i128::from(m % div != 0)
    };
    Some(Quantity {
        nanos: if negative { -scaled } else { scaled },
    })
}

fn quantity(args: &[Value]) -> Result<Value, ExecutionError> {
    let s = string(args, 0, "quantity")?;
    let q = parse_quantity(s).ok_or_else(|| {
        ExecutionError::function_error("quantity", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
    })?;
    Ok(Value::Opaque(Arc::new(q)))
}

fn is_quantity(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        parse_quantity(string(args, 0, "isQuantity")?).is_some(),
    ))
}

fn as_quantity(v: &Value) -> Option<i128> {
    match v {
        Value::Opaque(o) => o.downcast_ref::<Quantity>().map(|q| q.nanos),
        _ => None,
    }
}

fn q_compare(args: &[Value], name: &str) -> Result<Value, ExecutionError> {
    let (Some(a), Some(b)) = (
        args.first().and_then(as_quantity),
        args.get(1).and_then(as_quantity),
    ) else {
        return Err(no_overload(name, args));
    };
    Ok(match name {
        "isGreaterThan" => Value::Bool(a > b),
        "isLessThan" => Value::Bool(a < b),
        _ => Value::Int(match a.cmp(&b) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }),
    })
}

fn q_arith(args: &[Value], name: &str) -> Result<Value, ExecutionError> {
    let a = args
        .first()
        .and_then(as_quantity)
        .ok_or_else(|| no_overload(name, args))?;
    let b = match args.get(1) {
        Some(Value::Int(i)) => i128::from(*i) * 1_000_000_000,
        Some(other) => as_quantity(other).ok_or_else(|| no_overload(name, args))?,
        None => return Err(no_overload(name, args)),
    };
    let nanos = if name == "add" {
        a.checked_add(b)
    } else {
        a.checked_sub(b)
    }
    .ok_or_else(|| ExecutionError::function_error(name, "integer overflow"))?;
    Ok(Value::Opaque(Arc::new(Quantity { nanos })))
}

fn q_unary(args: &[Value], name: &str) -> Result<Value, ExecutionError> {
    let q = args
        .first()
        .and_then(as_quantity)
        .ok_or_else(|| no_overload(name, args))?;
    let whole = (q % 1_000_000_000 == 0)
        .then(|| i64::try_from(q / 1_000_000_000).ok())
        .flatten();
    Ok(match name {
        "sign" => Value::Int(q.signum() as i64),
        "isInteger" => Value::Bool(whole.is_some()),
        "asInteger" => Value::Int(whole.ok_or_else(|| {
            ExecutionError::function_error(
                name,
                "cannot convert value to integer: value is not an integer or overflows int64",
            )
        })?),
        _ => Value::Float(q as f64 / 1e9),
    })
}

fn two_lists<'a>(
    args: &'a [Value],
    name: &str,
) -> Result<(&'a [Value], &'a [Value]), ExecutionError> {
    match (args.first(), args.get(1)) {
        (Some(Value::List(a)), Some(Value::List(b))) => Ok((a, b)),
        _ => Err(no_overload(name, args)),
    }
}

fn sets_contains(args: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = two_lists(args, "sets.contains")?;
    Ok(Value::Bool(b.iter().all(|x| a.contains(x))))
}

fn sets_equivalent(args: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = two_lists(args, "sets.equivalent")?;
    Ok(Value::Bool(
        b.iter().all(|x| a.contains(x)) && a.iter().all(|x| b.contains(x)),
    ))
}

fn sets_intersects(args: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = two_lists(args, "sets.intersects")?;
    Ok(Value::Bool(b.iter().any(|x| a.contains(x))))
}

/// Go's `time.ParseDuration` (`1h30m`, `-1.5s`, `300ms`), the `duration` format's
/// syntax.
pub(super) fn parse_duration(s: &str) -> Option<chrono::Duration> {
    let (negative, mut rest) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(chrono::Duration::zero());
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (num, tail) = rest.split_at(end);
        if num.is_empty() || num == "." {
            return None;
        }
        let n: f64 = num.parse().ok()?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, after) = tail.split_at(unit_end);
        let nanos = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        total += n * nanos;
        rest = after;
    }
    if total > i64::MAX as f64 {
        return None;
    }
    let d = chrono::Duration::nanoseconds(total as i64);
    Some(if negative { -d } else { d })
}

#[cfg(test)]
mod tests {
    use super::{parse_duration, parse_quantity, parse_url, split_host};

    /// Compiles and runs `rule` in the rules' environment, errors as text.
    pub(super) fn eval(rule: &str) -> Result<cel::Value, String> {
        let env = super::env().expect("environment");
        let program = env.compile(rule).map_err(|e| e.to_string())?;
        program
            .execute(&cel::Context::with_env(env))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn quantities_parse_to_nanos() {
        let n = |s: &str| parse_quantity(s).map(|q| q.nanos);
        assert_eq!(n("1"), Some(1_000_000_000));
        assert_eq!(n("100m"), Some(100_000_000));
        assert_eq!(n("1Ki"), Some(1024 * 1_000_000_000));
        assert_eq!(n("1.5G"), Some(1_500_000_000 * 1_000_000_000));
        assert_eq!(n("-2e3"), Some(-2000 * 1_000_000_000));
        assert_eq!(n("1n"), Some(1));
        assert_eq!(n("abc"), None);
        assert_eq!(n("1.2.3"), None);
        assert_eq!(n("1Qi"), None);
    }

    #[test]
    fn durations_parse_as_go_parses_them() {
        assert_eq!(parse_duration("1h30m").map(|d| d.num_minutes()), Some(90));
        assert_eq!(
            parse_duration("300ms").map(|d| d.num_milliseconds()),
            Some(300)
        );
        assert_eq!(parse_duration("0").map(|d| d.num_seconds()), Some(0));
        assert_eq!(
            parse_duration("-1.5s").map(|d| d.num_milliseconds()),
            Some(-1500)
        );
        assert!(parse_duration("1x").is_none());
        assert!(parse_duration("").is_none());
    }

    #[test]
    fn urls_split_as_go_splits_them() {
        let u = parse_url("https://user@example.com:8443/a/b?x=1&x=2")
            .map(|u| (u.scheme, u.host, u.path, u.query));
        assert_eq!(
            u,
            Some((
                "https".into(),
                "example.com:8443".into(),
                "/a/b".into(),
                "x=1&x=2".into()
            ))
        );
        assert_eq!(split_host("[::1]:80"), ("::1", "80"));
        assert!(parse_url("/just/a/path").is_some());
        assert!(parse_url("not a url").is_none());
        assert!(parse_url("https://example.com/#frag").is_none());
    }
}
