//! The functions a rule may call and their overloads, as kube-apiserver 1.37's CEL
//! environment for CRD rules declares them: cel-go's standard library with
//! cross-type numeric comparisons and optionals, the strings (version 2), sets and
//! lists (version 3) extensions, and Kubernetes' lists (version 1), regex, URL,
//! quantity, IP, CIDR, format and semver libraries. Each overload keeps the id
//! cel-go or the library gives it, which the static cost estimate keys on.
//!
//! The table is written as signatures, one overload per line: the function, the
//! overload id, and `(args) -> result` for a global overload or
//! `receiver.(args) -> result` for a member one; single capitals are type
//! parameters.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::ty::Ty;

/// One overload of a function.
#[derive(Debug)]
pub(super) struct Overload {
    pub id: &'static str,
    /// Whether it is called as a method (`x.f(y)`), its receiver first in `params`.
    pub member: bool,
    pub params: Vec<Ty<'static>>,
    pub result: Ty<'static>,
}

const TABLE: &str = "\
_?_:_ conditional (bool, A, A) -> A
_&&_ logical_and (bool, bool) -> bool
_||_ logical_or (bool, bool) -> bool
!_ logical_not (bool) -> bool
@not_strictly_false not_strictly_false (bool) -> bool
_==_ equals (A, A) -> bool
_!=_ not_equals (A, A) -> bool
_+_ add_bytes (bytes, bytes) -> bytes
_+_ add_double (double, double) -> double
_+_ add_duration_duration (duration, duration) -> duration
_+_ add_duration_timestamp (duration, timestamp) -> timestamp
_+_ add_timestamp_duration (timestamp, duration) -> timestamp
_+_ add_int64 (int, int) -> int
_+_ add_list (list(A), list(A)) -> list(A)
_+_ add_string (string, string) -> string
_+_ add_uint64 (uint, uint) -> uint
_/_ divide_double (double, double) -> double
_/_ divide_int64 (int, int) -> int
_/_ divide_uint64 (uint, uint) -> uint
_*_ multiply_double (double, double) -> double
_*_ multiply_int64 (int, int) -> int
_*_ multiply_uint64 (uint, uint) -> uint
_%_ modulo_int64 (int, int) -> int
_%_ modulo_uint64 (uint, uint) -> uint
-_ negate_double (double) -> double
-_ negate_int64 (int) -> int
_-_ subtract_double (double, double) -> double
_-_ subtract_duration_duration (duration, duration) -> duration
_-_ subtract_int64 (int, int) -> int
_-_ subtract_timestamp_duration (timestamp, duration) -> timestamp
_-_ subtract_timestamp_timestamp (timestamp, timestamp) -> duration
_-_ subtract_uint64 (uint, uint) -> uint
_<_ less_bool (bool, bool) -> bool
_<_ less_int64 (int, int) -> bool
_<_ less_int64_double (int, double) -> bool
_<_ less_int64_uint64 (int, uint) -> bool
_<_ less_uint64 (uint, uint) -> bool
_<_ less_uint64_double (uint, double) -> bool
_<_ less_uint64_int64 (uint, int) -> bool
_<_ less_double (double, double) -> bool
_<_ less_double_int64 (double, int) -> bool
_<_ less_double_uint64 (double, uint) -> bool
_<_ less_string (string, string) -> bool
_<_ less_bytes (bytes, bytes) -> bool
_<_ less_timestamp (timestamp, timestamp) -> bool
_<_ less_duration (duration, duration) -> bool
_<=_ less_equals_bool (bool, bool) -> bool
_<=_ less_equals_int64 (int, int) -> bool
_<=_ less_equals_int64_double (int, double) -> bool
_<=_ less_equals_int64_uint64 (int, uint) -> bool
_<=_ less_equals_uint64 (uint, uint) -> bool
_<=_ less_equals_uint64_double (uint, double) -> bool
_<=_ less_equals_uint64_int64 (uint, int) -> bool
_<=_ less_equals_double (double, double) -> bool
_<=_ less_equals_double_int64 (double, int) -> bool
_<=_ less_equals_double_uint64 (double, uint) -> bool
_<=_ less_equals_string (string, string) -> bool
_<=_ less_equals_bytes (bytes, bytes) -> bool
_<=_ less_equals_timestamp (timestamp, timestamp) -> bool
_<=_ less_equals_duration (duration, duration) -> bool
_>_ greater_bool (bool, bool) -> bool
_>_ greater_int64 (int, int) -> bool
_>_ greater_int64_double (int, double) -> bool
_>_ greater_int64_uint64 (int, uint) -> bool
_>_ greater_uint64 (uint, uint) -> bool
_>_ greater_uint64_double (uint, double) -> bool
_>_ greater_uint64_int64 (uint, int) -> bool
_>_ greater_double (double, double) -> bool
_>_ greater_double_int64 (double, int) -> bool
_>_ greater_double_uint64 (double, uint) -> bool
_>_ greater_string (string, string) -> bool
_>_ greater_bytes (bytes, bytes) -> bool
_>_ greater_timestamp (timestamp, timestamp) -> bool
_>_ greater_duration (duration, duration) -> bool
_>=_ greater_equals_bool (bool, bool) -> bool
_>=_ greater_equals_int64 (int, int) -> bool
_>=_ greater_equals_int64_double (int, double) -> bool
_>=_ greater_equals_int64_uint64 (int, uint) -> bool
_>=_ greater_equals_uint64 (uint, uint) -> bool
_>=_ greater_equals_uint64_double (uint, double) -> bool
_>=_ greater_equals_uint64_int64 (uint, int) -> bool
_>=_ greater_equals_double (double, double) -> bool
_>=_ greater_equals_double_int64 (double, int) -> bool
_>=_ greater_equals_double_uint64 (double, uint) -> bool
_>=_ greater_equals_string (string, string) -> bool
_>=_ greater_equals_bytes (bytes, bytes) -> bool
_>=_ greater_equals_timestamp (timestamp, timestamp) -> bool
_>=_ greater_equals_duration (duration, duration) -> bool
_[_] index_list (list(A), int) -> A
_[_] index_map (map(A, B), A) -> B
_[_] optional_list_index_int (optional_type(list(A)), int) -> optional_type(A)
_[_] optional_map_index_value (optional_type(map(K, V)), K) -> optional_type(V)
_[?_] list_optindex_optional_int (list(A), int) -> optional_type(A)
_[?_] optional_list_optindex_optional_int (optional_type(list(A)), int) -> optional_type(A)
_[?_] map_optindex_optional_value (map(K, V), K) -> optional_type(V)
_[?_] optional_map_optindex_optional_value (optional_type(map(K, V)), K) -> optional_type(V)
@in in_list (A, list(A)) -> bool
@in in_map (A, map(A, B)) -> bool
size size_bytes (bytes) -> int
size bytes_size bytes.() -> int
size size_list (list(A)) -> int
size list_size list(A).() -> int
size size_map (map(A, B)) -> int
size map_size map(A, B).() -> int
size size_string (string) -> int
size string_size string.() -> int
type type (A) -> type(A)
bool bool_to_bool (bool) -> bool
bool string_to_bool (string) -> bool
bytes bytes_to_bytes (bytes) -> bytes
bytes string_to_bytes (string) -> bytes
double double_to_double (double) -> double
double int64_to_double (int) -> double
double string_to_double (string) -> double
double uint64_to_double (uint) -> double
duration duration_to_duration (duration) -> duration
duration string_to_duration (string) -> duration
int int64_to_int64 (int) -> int
int double_to_int64 (double) -> int
int duration_to_int64 (duration) -> int
int string_to_int64 (string) -> int
int timestamp_to_int64 (timestamp) -> int
int uint64_to_int64 (uint) -> int
string string_to_string (string) -> string
string bool_to_string (bool) -> string
string bytes_to_string (bytes) -> string
string double_to_string (double) -> string
string duration_to_string (duration) -> string
string int64_to_string (int) -> string
string timestamp_to_string (timestamp) -> string
string uint64_to_string (uint) -> string
timestamp timestamp_to_timestamp (timestamp) -> timestamp
timestamp int64_to_timestamp (int) -> timestamp
timestamp string_to_timestamp (string) -> timestamp
uint uint64_to_uint64 (uint) -> uint
uint double_to_uint64 (double) -> uint
uint int64_to_uint64 (int) -> uint
uint string_to_uint64 (string) -> uint
dyn to_dyn (A) -> dyn
contains contains_string string.(string) -> bool
endsWith ends_with_string string.(string) -> bool
startsWith starts_with_string string.(string) -> bool
matches matches (string, string) -> bool
matches matches_string string.(string) -> bool
getFullYear timestamp_to_year timestamp.() -> int
getFullYear timestamp_to_year_with_tz timestamp.(string) -> int
getMonth timestamp_to_month timestamp.() -> int
getMonth timestamp_to_month_with_tz timestamp.(string) -> int
getDayOfYear timestamp_to_day_of_year timestamp.() -> int
getDayOfYear timestamp_to_day_of_year_with_tz timestamp.(string) -> int
getDayOfMonth timestamp_to_day_of_month timestamp.() -> int
getDayOfMonth timestamp_to_day_of_month_with_tz timestamp.(string) -> int
getDate timestamp_to_day_of_month_1_based timestamp.() -> int
getDate timestamp_to_day_of_month_1_based_with_tz timestamp.(string) -> int
getDayOfWeek timestamp_to_day_of_week timestamp.() -> int
getDayOfWeek timestamp_to_day_of_week_with_tz timestamp.(string) -> int
getHours timestamp_to_hours timestamp.() -> int
getHours timestamp_to_hours_with_tz timestamp.(string) -> int
getHours duration_to_hours duration.() -> int
getMinutes timestamp_to_minutes timestamp.() -> int
getMinutes timestamp_to_minutes_with_tz timestamp.(string) -> int
getMinutes duration_to_minutes duration.() -> int
getSeconds timestamp_to_seconds timestamp.() -> int
getSeconds timestamp_to_seconds_tz timestamp.(string) -> int
getSeconds duration_to_seconds duration.() -> int
getMilliseconds timestamp_to_milliseconds timestamp.() -> int
getMilliseconds timestamp_to_milliseconds_with_tz timestamp.(string) -> int
getMilliseconds duration_to_milliseconds duration.() -> int
optional.of optional_of (V) -> optional_type(V)
optional.ofNonZeroValue optional_ofNonZeroValue (V) -> optional_type(V)
optional.none optional_none () -> optional_type(V)
value optional_value optional_type(V).() -> V
hasValue optional_hasValue optional_type(V).() -> bool
or optional_or_optional optional_type(V).(optional_type(V)) -> optional_type(V)
orValue optional_orValue_value optional_type(V).(V) -> V
last list_last list(V).() -> optional_type(V)
first list_first list(V).() -> optional_type(V)
optional.unwrap optional_unwrap (list(optional_type(V))) -> list(V)
unwrapOpt optional_unwrapOpt list(optional_type(V)).() -> list(V)
charAt string_char_at_int string.(int) -> string
indexOf string_index_of_string string.(string) -> int
indexOf string_index_of_string_int string.(string, int) -> int
lastIndexOf string_last_index_of_string string.(string) -> int
lastIndexOf string_last_index_of_string_int string.(string, int) -> int
lowerAscii string_lower_ascii string.() -> string
replace string_replace_string_string string.(string, string) -> string
replace string_replace_string_string_int string.(string, string, int) -> string
split string_split_string string.(string) -> list(string)
split string_split_string_int string.(string, int) -> list(string)
substring string_substring_int string.(int) -> string
substring string_substring_int_int string.(int, int) -> string
trim string_trim string.() -> string
upperAscii string_upper_ascii string.() -> string
format string_format string.(list(dyn)) -> string
strings.quote strings_quote (string) -> string
join list_join list(string).() -> string
join list_join_string list(string).(string) -> string
sets.contains list_sets_contains_list (list(T), list(T)) -> bool
sets.equivalent list_sets_equivalent_list (list(T), list(T)) -> bool
sets.intersects list_sets_intersects_list (list(T), list(T)) -> bool
slice list_slice list(T).(int, int) -> list(T)
flatten list_flatten list(list(T)).() -> list(T)
flatten list_flatten_int list(dyn).(int) -> list(dyn)
sort list_int_sort list(int).() -> list(int)
sort list_uint_sort list(uint).() -> list(uint)
sort list_double_sort list(double).() -> list(double)
sort list_bool_sort list(bool).() -> list(bool)
sort list_google.protobuf.Duration_sort list(duration).() -> list(duration)
sort list_google.protobuf.Timestamp_sort list(timestamp).() -> list(timestamp)
sort list_string_sort list(string).() -> list(string)
sort list_bytes_sort list(bytes).() -> list(bytes)
lists.range lists_range (int) -> list(int)
reverse list_reverse list(T).() -> list(T)
distinct list_distinct list(T).() -> list(T)
isSorted list_int_is_sorted_bool list(int).() -> bool
isSorted list_uint_is_sorted_bool list(uint).() -> bool
isSorted list_double_is_sorted_bool list(double).() -> bool
isSorted list_bool_is_sorted_bool list(bool).() -> bool
isSorted list_duration_is_sorted_bool list(duration).() -> bool
isSorted list_timestamp_is_sorted_bool list(timestamp).() -> bool
isSorted list_string_is_sorted_bool list(string).() -> bool
isSorted list_bytes_is_sorted_bool list(bytes).() -> bool
sum list_int_sum_int list(int).() -> int
sum list_uint_sum_uint list(uint).() -> uint
sum list_double_sum_double list(double).() -> double
sum list_duration_sum_duration list(duration).() -> duration
max list_int_max_int list(int).() -> int
max list_uint_max_uint list(uint).() -> uint
max list_double_max_double list(double).() -> double
max list_bool_max_bool list(bool).() -> bool
max list_duration_max_duration list(duration).() -> duration
max list_timestamp_max_timestamp list(timestamp).() -> timestamp
max list_string_max_string list(string).() -> string
max list_bytes_max_bytes list(bytes).() -> bytes
min list_int_min_int list(int).() -> int
min list_uint_min_uint list(uint).() -> uint
min list_double_min_double list(double).() -> double
min list_bool_min_bool list(bool).() -> bool
min list_duration_min_duration list(duration).() -> duration
min list_timestamp_min_timestamp list(timestamp).() -> timestamp
min list_string_min_string list(string).() -> string
min list_bytes_min_bytes list(bytes).() -> bytes
indexOf list_a_index_of_int list(A).(A) -> int
lastIndexOf list_a_last_index_of_int list(A).(A) -> int
includes list_includes_dyn_dyn dyn.(dyn) -> bool
find string_find_string string.(string) -> string
findAll string_find_all_string string.(string) -> list(string)
findAll string_find_all_string_int string.(string, int) -> list(string)
url string_to_url (string) -> kubernetes.URL
getScheme url_get_scheme kubernetes.URL.() -> string
getHost url_get_host kubernetes.URL.() -> string
getHostname url_get_hostname kubernetes.URL.() -> string
getPort url_get_port kubernetes.URL.() -> string
getEscapedPath url_get_escaped_path kubernetes.URL.() -> string
getQuery url_get_query kubernetes.URL.() -> map(string, list(string))
isURL is_url_string (string) -> bool
quantity string_to_quantity (string) -> kubernetes.Quantity
isQuantity is_quantity_string (string) -> bool
sign quantity_sign (kubernetes.Quantity) -> int
isGreaterThan quantity_is_greater_than kubernetes.Quantity.(kubernetes.Quantity) -> bool
isLessThan quantity_is_less_than kubernetes.Quantity.(kubernetes.Quantity) -> bool
compareTo quantity_compare_to kubernetes.Quantity.(kubernetes.Quantity) -> int
asApproximateFloat quantity_get_float kubernetes.Quantity.() -> double
asInteger quantity_get_int kubernetes.Quantity.() -> int
isInteger quantity_is_integer kubernetes.Quantity.() -> bool
add quantity_add kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity
add quantity_add_int kubernetes.Quantity.(int) -> kubernetes.Quantity
sub quantity_sub kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity
sub quantity_sub_int kubernetes.Quantity.(int) -> kubernetes.Quantity
ip string_to_ip (string) -> net.IP
family ip_family net.IP.() -> int
ip.isCanonical ip_is_canonical (string) -> bool
isUnspecified ip_is_unspecified net.IP.() -> bool
isLoopback ip_is_loopback net.IP.() -> bool
isLinkLocalMulticast ip_is_link_local_multicast net.IP.() -> bool
isLinkLocalUnicast ip_is_link_local_unicast net.IP.() -> bool
isGlobalUnicast ip_is_global_unicast net.IP.() -> bool
isIP is_ip (string) -> bool
string ip_to_string (net.IP) -> string
cidr string_to_cidr (string) -> net.CIDR
containsIP cidr_contains_ip_string net.CIDR.(string) -> bool
containsIP cidr_contains_ip_ip net.CIDR.(net.IP) -> bool
containsCIDR cidr_contains_cidr_string net.CIDR.(string) -> bool
containsCIDR cidr_contains_cidr net.CIDR.(net.CIDR) -> bool
ip cidr_ip net.CIDR.() -> net.IP
prefixLength cidr_prefix_length net.CIDR.() -> int
masked cidr_masked net.CIDR.() -> net.CIDR
isCIDR is_cidr (string) -> bool
string cidr_to_string (net.CIDR) -> string
format.dns1123Label format.dns1123Label () -> kubernetes.NamedFormat
format.dns1123Subdomain format.dns1123Subdomain () -> kubernetes.NamedFormat
format.dns1035Label format.dns1035Label () -> kubernetes.NamedFormat
format.qualifiedName format.qualifiedName () -> kubernetes.NamedFormat
format.dns1123LabelPrefix format.dns1123LabelPrefix () -> kubernetes.NamedFormat
format.dns1123SubdomainPrefix format.dns1123SubdomainPrefix () -> kubernetes.NamedFormat
format.dns1035LabelPrefix format.dns1035LabelPrefix () -> kubernetes.NamedFormat
format.labelValue format.labelValue () -> kubernetes.NamedFormat
format.uri format.uri () -> kubernetes.NamedFormat
format.uuid format.uuid () -> kubernetes.NamedFormat
format.byte format.byte () -> kubernetes.NamedFormat
format.date format.date () -> kubernetes.NamedFormat
format.datetime format.datetime () -> kubernetes.NamedFormat
validate format-validate kubernetes.NamedFormat.(string) -> optional_type(list(string))
format.named format-named (string) -> optional_type(kubernetes.NamedFormat)
semver string_to_semver (string) -> kubernetes.Semver
semver string_bool_to_semver (string, bool) -> kubernetes.Semver
isSemver is_semver_string (string) -> bool
isSemver is_semver_string_bool (string, bool) -> bool
isGreaterThan semver_is_greater_than kubernetes.Semver.(kubernetes.Semver) -> bool
isLessThan semver_is_less_than kubernetes.Semver.(kubernetes.Semver) -> bool
compareTo semver_compare_to kubernetes.Semver.(kubernetes.Semver) -> int
major semver_major kubernetes.Semver.() -> int
minor semver_minor kubernetes.Semver.() -> int
patch semver_patch kubernetes.Semver.() -> int
";

/// The overloads of every declared function, by the function's name.
pub(super) fn functions() -> &'static HashMap<&'static str, Vec<Overload>> {
    static FUNCTIONS: OnceLock<HashMap<&'static str, Vec<Overload>>> = OnceLock::new();
    FUNCTIONS.get_or_init(|| {
        let mut out: HashMap<&'static str, Vec<Overload>> = HashMap::new();
        for line in TABLE.lines().filter(|l| !l.is_empty()) {
            if let Some((name, overload)) = parse_line(line) {
                out.entry(name).or_default().push(overload);
            }
        }
        out
    })
}

fn parse_line(line: &'static str) -> Option<(&'static str, Overload)> {
    let (name, rest) = line.split_once(' ')?;
    let (id, signature) = rest.split_once(' ')?;
    let (params, result) = signature.split_once(" -> ")?;
    let (receiver, args) = match params.split_once(".(") {
        Some((receiver, args)) if !params.starts_with('(') => (Some(receiver), args),
        _ => (None, params.strip_prefix('(')?),
    };
    let args = args.strip_suffix(')')?;
    let mut types = Vec::new();
    if let Some(r) = receiver {
        types.push(parse_type(r)?);
    }
    for arg in split_top(args) {
        types.push(parse_type(arg)?);
    }
    Some((
        name,
        Overload {
            id,
            member: receiver.is_some(),
            params: types,
            result: parse_type(result)?,
        },
    ))
}

/// `text` split at its top-level commas.
fn split_top(text: &'static str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(text[start..].trim());
    }
    out
}

fn parse_type(text: &'static str) -> Option<Ty<'static>> {
    let text = text.trim();
    if let Some((name, inner)) = text.split_once('(') {
        let params: Vec<Ty<'static>> = split_top(inner.strip_suffix(')')?)
            .into_iter()
            .map(parse_type)
            .collect::<Option<_>>()?;
        let one = |params: Vec<Ty<'static>>| params.into_iter().next().map(Box::new);
        return Some(match (name, params.len()) {
            ("list", 1) => Ty::List(one(params)?),
            ("optional_type", 1) => Ty::Optional(one(params)?),
            ("type", 1) => Ty::Type(one(params)?),
            ("map", 2) => {
                let mut it = params.into_iter();
                Ty::Map(Box::new(it.next()?), Box::new(it.next()?))
            }
            _ => return None,
        });
    }
    Some(match text {
        "dyn" => Ty::Dyn,
        "null" => Ty::Null,
        "bool" => Ty::Bool,
        "int" => Ty::Int,
        "uint" => Ty::Uint,
        "double" => Ty::Double,
        "string" => Ty::String,
        "bytes" => Ty::Bytes,
        "duration" => Ty::Duration,
        "timestamp" => Ty::Timestamp,
        "net.IP" | "net.CIDR" => Ty::Opaque(text, Vec::new()),
        "kubernetes.URL"
        | "kubernetes.Quantity"
        | "kubernetes.NamedFormat"
        | "kubernetes.Semver" => Ty::Named(text),
        p if p.len() == 1 && p.chars().all(|c| c.is_ascii_uppercase()) => Ty::Param(p),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{functions, TABLE};

    #[test]
    fn every_line_of_the_table_parses() {
        let parsed: usize = functions().values().map(Vec::len).sum();
        assert_eq!(parsed, TABLE.lines().filter(|l| !l.is_empty()).count());
        let size = &functions()["size"];
        assert!(size.iter().any(|o| o.id == "string_size" && o.member));
        assert!(size.iter().any(|o| o.id == "size_list" && !o.member));
    }
}
