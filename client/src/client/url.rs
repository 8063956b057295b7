//! URLs as far as the client reads them: a server or proxy URL split into scheme, userinfo,
//! host, port and the rest, without a URL library. Hosts come out lower-case and in their
//! ASCII form (each non-ASCII label as punycode, `xn--…`), as request hosts reach a proxy
//! decision and the TLS handshake. Only absolute `scheme://authority…` URLs are accepted,
//! which is what a kubeconfig's `server`, `proxy-url` and the proxy variables hold.

use std::fmt;
use std::net::Ipv6Addr;

/// Characters that may not appear in a host (the URL standard's forbidden host code points).
const FORBIDDEN_IN_HOST: &[char] = &[
    ' ', '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|',
];

/// An absolute URL, split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Url {
    /// Lower-case (`https`).
    scheme: String,
    /// The user and password before `@`, percent-decoded.
    userinfo: Option<(String, Option<String>)>,
    /// Lower-case ASCII; an IPv6 address in brackets.
    host: String,
    /// The port, unless absent or the scheme's default.
    port: Option<u16>,
    /// Path and query as written (the fragment dropped).
    rest: String,
}

impl Url {
    /// Parses `text`, an absolute URL with a host; the error says what is wrong with it.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim_matches(|c: char| c <= ' ');
        let Some((scheme, after)) = text.split_once("://") else {
            return Err("not an absolute URL (expected scheme://host)".to_owned());
        };
        let valid_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !valid_scheme {
            return Err(format!("invalid scheme {scheme:?}"));
        }
        let scheme = scheme.to_ascii_lowercase();
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let (authority, rest) = after.split_at(end);
        let rest = rest.split('#').next().unwrap_or_default().to_owned();
        let (userinfo, hostport) = match authority.rsplit_once('@') {
            Some((info, hostport)) => {
                let (user, password) = match info.split_once(':') {
                    Some((user, password)) => (user, Some(percent_decode(password))),
                    None => (info, None),
                };
                (Some((percent_decode(user), password)), hostport)
            }
            None => (None, authority),
        };
        let (host, port) = split_host_port(hostport)?;
        if host.is_empty() {
            return Err("empty host".to_owned());
        }
        let port = port.filter(|p| Some(*p) != default_port(&scheme));
        Ok(Url {
            scheme,
            userinfo,
            host,
            port,
            rest,
        })
    }

    /// The scheme, lower-case.
    pub(crate) fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The host, lower-case ASCII; an IPv6 address in brackets (`[::1]`).
    pub(crate) fn host(&self) -> &str {
        &self.host
    }

    /// The host without the brackets of an IPv6 address, as TLS names it.
    pub(crate) fn bare_host(&self) -> &str {
        unbracketed(&self.host)
    }

    /// The port, or the scheme's default (443 for https, 80 for http).
    pub(crate) fn port_or_default(&self) -> Option<u16> {
        self.port.or_else(|| default_port(&self.scheme))
    }

    /// The user and password of the userinfo, percent-decoded.
    pub(crate) fn userinfo(&self) -> Option<(&str, Option<&str>)> {
        self.userinfo
            .as_ref()
            .map(|(user, password)| (user.as_str(), password.as_deref()))
    }

    /// This URL without its userinfo.
    pub(crate) fn without_userinfo(&self) -> Self {
        Url {
            userinfo: None,
            ..self.clone()
        }
    }

    /// This URL with `user` in place of its userinfo, for messages.
    pub(crate) fn with_user_only(&self, user: &str) -> Self {
        Url {
            userinfo: Some((user.to_owned(), None)),
            ..self.clone()
        }
    }

    /// `scheme://host[:port]`.
    pub(crate) fn origin(&self) -> String {
        match self.port {
            Some(port) => format!("{}://{}:{port}", self.scheme, self.host),
            None => format!("{}://{}", self.scheme, self.host),
        }
    }

    /// The path and query, as written (may be empty).
    pub(crate) fn path_and_query(&self) -> &str {
        &self.rest
    }
}

/// `scheme://[user@]host[:port]/path?query`: an empty path of an http(s) URL is `/`.
impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://", self.scheme)?;
        if let Some((user, password)) = &self.userinfo {
            f.write_str(user)?;
            if let Some(password) = password {
                write!(f, ":{password}")?;
            }
            f.write_str("@")?;
        }
        f.write_str(&self.host)?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        if !self.rest.starts_with('/') && default_port(&self.scheme).is_some() {
            f.write_str("/")?;
        }
        f.write_str(&self.rest)
    }
}

/// `host` without the brackets an IPv6 address is written in within a URL (`[::1]`).
pub(crate) fn unbracketed(host: &str) -> &str {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    }
}

/// `host[:port]` or `[v6][:port]`: the host in ASCII, the port if one is given.
fn split_host_port(hostport: &str) -> Result<(String, Option<u16>), String> {
    let (host, port) = if let Some(bracketed) = hostport.strip_prefix('[') {
        let (address, after) = bracketed
            .split_once(']')
            .ok_or_else(|| "unclosed [ in the host".to_owned())?;
        let address: Ipv6Addr = address
            .parse()
            .map_err(|_| format!("invalid IPv6 address {address:?}"))?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or_else(|| format!("unexpected {p:?} after the IPv6 address"))?,
            ),
        };
        (format!("[{address}]"), port)
    } else {
        let (host, port) = match hostport.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (hostport, None),
        };
        let host = percent_decode(host);
        if let Some(c) = host
            .chars()
            .find(|c| c.is_control() || FORBIDDEN_IN_HOST.contains(c))
        {
            return Err(format!("invalid character {c:?} in the host"));
        }
        (to_ascii_host(&host)?, port)
    };
    let port = match port {
        None | Some("") => None,
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => Some(
            p.parse::<u16>()
                .map_err(|_| format!("invalid port number {p}"))?,
        ),
        Some(p) => return Err(format!("invalid port number {p:?}")),
    };
    Ok((host, port))
}

/// The host lower-cased, each non-ASCII label as punycode (IDNA's ToASCII without its
/// Unicode normalization: names typed in NFC, as they nearly always are, come out the same).
pub(crate) fn to_ascii_host(host: &str) -> Result<String, String> {
    let lower = host.to_lowercase();
    if lower.is_ascii() {
        return Ok(lower);
    }
    let labels: Option<Vec<String>> = lower
        .split('.')
        .map(|label| {
            if label.is_ascii() {
                Some(label.to_owned())
            } else {
                punycode(label).map(|p| format!("xn--{p}"))
            }
        })
        .collect();
    labels
        .map(|l| l.join("."))
        .ok_or_else(|| format!("host {host:?} cannot be written in ASCII"))
}

/// RFC 3492's punycode encoding of one label; `None` on overflow (a label far longer than
/// DNS allows).
fn punycode(label: &str) -> Option<String> {
    const BASE: u32 = 36;
    const T_MIN: u32 = 1;
    const T_MAX: u32 = 26;
    let digit = |d: u32| -> char {
        if d < 26 {
            char::from(b'a' + d as u8)
        } else {
            char::from(b'0' + (d - 26) as u8)
        }
    };
    let code_points: Vec<u32> = label.chars().map(u32::from).collect();
    let mut out: String = label.chars().filter(char::is_ascii).collect();
    let basic = u32::try_from(out.len()).ok()?;
    if basic > 0 {
        out.push('-');
    }
    let total = u32::try_from(code_points.len()).ok()?;
    let (mut n, mut delta, mut bias, mut handled) = (128u32, 0u32, 72u32, basic);
    while handled < total {
        let m = *code_points.iter().filter(|&&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in &code_points {
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        T_MIN
                    } else if k >= bias + T_MAX {
                        T_MAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(out)
}

/// RFC 3492's bias adaptation.
fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    const BASE: u32 = 36;
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - 1) * 26) / 2 {
        delta /= BASE - 1;
        k += BASE;
    }
    k + (BASE * delta) / (delta + 38)
}

/// `%XX` sequences decoded (invalid ones kept as written); bytes that are not UTF-8
/// replaced.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                let value = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(value as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` as the value (or key) of an `application/x-www-form-urlencoded` query, as Go's
/// `url.Values.Encode` writes it: letters, digits and `-._~` as they are, a space as `+`,
/// anything else as `%XX`.
pub(crate) fn encode_query_component(text: &str, out: &mut String) {
    for &b in text.as_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
}

/// `path` with what may not appear in a URL path percent-encoded: controls, spaces,
/// non-ASCII bytes and `"#<>?\^`{|}`.
pub(crate) fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path.as_bytes() {
        let keep = b.is_ascii_graphic() && !b"\"#<>?\\^`{|}".contains(&b);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_what_the_client_needs() {
        let u = Url::parse("HTTPS://Admin:s%40cret@Api.Example.COM:6443/prefix?x=1#frag").unwrap();
        assert_eq!(u.scheme(), "https");
        assert_eq!(u.userinfo(), Some(("Admin", Some("s@cret"))));
        assert_eq!(u.host(), "api.example.com");
        assert_eq!(u.port_or_default(), Some(6443));
        assert_eq!(u.path_and_query(), "/prefix?x=1");
        assert_eq!(u.origin(), "https://api.example.com:6443");
        assert_eq!(
            u.with_user_only("redacted").to_string(),
            "https://redacted@api.example.com:6443/prefix?x=1"
        );
        let v6 = Url::parse("https://[2001:DB8::1]:443").unwrap();
        assert_eq!(v6.host(), "[2001:db8::1]");
        assert_eq!(v6.bare_host(), "2001:db8::1");
        assert_eq!(v6.port_or_default(), Some(443));
        assert_eq!(v6.to_string(), "https://[2001:db8::1]/");
        assert_eq!(
            Url::parse("http://www.示例.com").unwrap().host(),
            "www.xn--fsq092h.com"
        );
        assert_eq!(
            Url::parse("http://bücher.example").unwrap().host(),
            "xn--bcher-kva.example"
        );
    }

    #[test]
    fn refuses_what_is_not_an_absolute_url() {
        for bad in [
            "",
            "localhost:8080",
            "10.0.0.1:6443",
            "https://",
            "https://:443",
            "https://host:port",
            "https://host:99999",
            "https://[::1",
            "https://ho st",
            "1http://host",
        ] {
            assert!(Url::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn encodes_queries_and_paths_as_go_does() {
        let mut q = String::new();
        encode_query_component("app in (a, b),tier!=x/y", &mut q);
        assert_eq!(q, "app+in+%28a%2C+b%29%2Ctier%21%3Dx%2Fy");
        assert_eq!(encode_path("/api/v1/a b/ü?"), "/api/v1/a%20b/%C3%BC%3F");
    }
}
