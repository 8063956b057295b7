//! Which proxy requests go through: the kubeconfig's `proxy-url` for every request, else
//! `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` from the environment, read by the rules of Go's
//! `golang.org/x/net/http/httpproxy` (behind `http.ProxyFromEnvironment`, and so kubectl).
//!
//! A client talks to one server, so the proxy is chosen once, when the client is built.

use std::net::{IpAddr, Ipv6Addr};

use http::HeaderValue;

use super::auth::basic;
use super::config::redact_userinfo;
use super::url::{to_ascii_host, unbracketed, Url};
use crate::error::{ConfigErrorKind, Error};

/// Go's refusal of `HTTP_PROXY` in a CGI program, where a request header can set it (httpoxy).
const CGI_REFUSAL: &str =
    "refusing to use HTTP_PROXY value in CGI environment; see golang.org/s/cgihttpproxy";

/// The proxy a client's requests go through.
#[derive(Debug)]
pub(crate) struct ProxyRoute {
    /// The proxy's URL (http or https).
    pub(crate) url: Url,
    /// `Proxy-Authorization: Basic …` from the userinfo of the proxy's URL, as Go sends it.
    pub(crate) authorization: Option<HeaderValue>,
}

impl ProxyRoute {
    fn new(url: Url) -> Self {
        let authorization = url
            .userinfo()
            .and_then(|(user, password)| basic(user, password.unwrap_or_default()).ok());
        ProxyRoute { url, authorization }
    }
}

/// The proxy requests to `server` go through: the one `proxy_url` names, else the
/// environment's, else none.
pub(crate) fn route(proxy_url: Option<&str>, server: &Url) -> Result<Option<ProxyRoute>, Error> {
    let origin = format!("proxy for {}", server.origin());
    if let Some(url) = proxy_url {
        // As client-go's `http.ProxyURL`: every request, NO_PROXY not consulted.
        let parsed = parse_proxy_url(url)
            .map_err(|(kind, message)| Error::config(kind, &origin, message))?;
        return Ok(Some(ProxyRoute::new(parsed)));
    }
    let rules = ProxyEnv::from_env().rules()?;
    match rules.proxy_for(server) {
        Ok(proxy) => Ok(proxy.cloned().map(ProxyRoute::new)),
        // Go fails every such request; failing here says so before the first one.
        Err(CgiRefusal) => Err(Error::config(
            ConfigErrorKind::Unsupported,
            origin,
            CGI_REFUSAL,
        )),
    }
}

/// A proxy URL (kubeconfig `proxy-url`, `Config::proxy_url`): http or https (client-go also
/// takes socks5, which this client does not speak). Messages never show the URL's credentials.
pub(crate) fn parse_proxy_url(url: &str) -> Result<Url, (ConfigErrorKind, String)> {
    let parsed = Url::parse(url).map_err(|e| {
        (
            ConfigErrorKind::Invalid,
            format!("invalid URL {}: {e}", redact_userinfo(url)),
        )
    })?;
    check_scheme(parsed, url)
}

fn check_scheme(parsed: Url, url: &str) -> Result<Url, (ConfigErrorKind, String)> {
    match parsed.scheme() {
        // The URL parser refuses http(s) URLs without a host.
        "http" | "https" => Ok(parsed),
        "socks5" | "socks5h" => Err((
            ConfigErrorKind::Unsupported,
            format!(
                "{}: SOCKS proxies are not supported; use an http or https proxy",
                redact_userinfo(url)
            ),
        )),
        other => Err((
            ConfigErrorKind::Invalid,
            format!(
                "{}: unknown proxy scheme {other:?} (expected http or https)",
                redact_userinfo(url)
            ),
        )),
    }
}

/// The proxy settings of the environment, as Go's `httpproxy.Config` holds them: the
/// values of `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (empty when unset), and whether the
/// process runs as a CGI program (`REQUEST_METHOD` is set and not empty).
///
/// A client built from a [`Config`](super::Config) without `proxy_url` sends each request
/// where [`ProxyEnv::proxy_for`] says, as Go's `http.ProxyFromEnvironment` (and so kubectl)
/// does:
///
/// - `https` URLs use `HTTPS_PROXY`, `http` URLs `HTTP_PROXY` (never the other one);
/// - `localhost` and loopback addresses (`127.0.0.0/8`, `::1`, `::ffff:127.0.0.1`) are never
///   proxied;
/// - `NO_PROXY` is a comma-separated list, case-insensitive: `*` (nothing is proxied), an IP
///   address (`10.96.0.1`, `2001:db8::1`), a CIDR range (`10.0.0.0/8`), or a domain name that
///   matches itself and its subdomains (`example.com`); a leading `.` or `*.` matches
///   subdomains only (`.example.com`). IP addresses and names may carry a port
///   (`10.96.0.1:443`, `[2001:db8::1]:6443`, `api.internal:6443`), and then match that port
///   only (`https` URLs without a port are port 443, `http` ones 80). Names match names only:
///   `example.com` does not cover a URL written with the address it resolves to.
/// - in a CGI program `HTTP_PROXY` is refused (an error for `http` URLs that would use it).
///
/// Proxy values without a scheme (`proxy:3128`) are read as `http://`. `Debug` shows proxy
/// URLs without their credentials.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ProxyEnv {
    /// `HTTP_PROXY` (else `http_proxy`).
    pub http_proxy: String,
    /// `HTTPS_PROXY` (else `https_proxy`).
    pub https_proxy: String,
    /// `NO_PROXY` (else `no_proxy`).
    pub no_proxy: String,
    /// `REQUEST_METHOD` is set and not empty.
    pub cgi: bool,
}

impl std::fmt::Debug for ProxyEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &str| (!v.is_empty()).then(|| redact_userinfo(v));
        f.debug_struct("ProxyEnv")
            .field("http_proxy", &show(&self.http_proxy))
            .field("https_proxy", &show(&self.https_proxy))
            .field("no_proxy", &self.no_proxy)
            .field("cgi", &self.cgi)
            .finish()
    }
}

impl ProxyEnv {
    /// The settings of this process's environment; of each pair, the upper-case variable
    /// unless it is empty, as Go reads them.
    pub fn from_env() -> Self {
        let env = |names: [&str; 2]| {
            names
                .iter()
                .find_map(|n| std::env::var(n).ok().filter(|v| !v.is_empty()))
                .unwrap_or_default()
        };
        Self {
            http_proxy: env(["HTTP_PROXY", "http_proxy"]),
            https_proxy: env(["HTTPS_PROXY", "https_proxy"]),
            no_proxy: env(["NO_PROXY", "no_proxy"]),
            cgi: std::env::var_os("REQUEST_METHOD").is_some_and(|v| !v.is_empty()),
        }
    }

    /// The proxy a request to `url` goes through (its URL as parsed, any credentials in it
    /// replaced by `redacted`), or `None` for a direct connection.
    ///
    /// Errors: `url` is not a URL, a proxy setting is not one (Go would ignore it; a
    /// mistyped proxy is better reported than bypassed), or `url` is `http` in a CGI program
    /// with `HTTP_PROXY` set.
    pub fn proxy_for(&self, url: &str) -> Result<Option<String>, Error> {
        let rules = self.rules()?;
        let parsed = Url::parse(url).map_err(|e| {
            Error::config(
                ConfigErrorKind::Invalid,
                "proxy selection",
                format!("request URL {}: {e}", redact_userinfo(url)),
            )
        })?;
        match rules.proxy_for(&parsed) {
            Ok(proxy) => Ok(proxy.map(|p| redact_userinfo(&p.to_string()))),
            Err(CgiRefusal) => Err(Error::config(
                ConfigErrorKind::Unsupported,
                "proxy selection",
                CGI_REFUSAL,
            )),
        }
    }

    fn rules(&self) -> Result<Rules, Error> {
        let proxy = |name: &str, value: &str| -> Result<Option<Url>, Error> {
            if value.is_empty() {
                return Ok(None);
            }
            env_proxy_url(value)
                .map(Some)
                .map_err(|(kind, message)| Error::config(kind, name, message))
        };
        Ok(Rules {
            http: proxy("HTTP_PROXY", &self.http_proxy)?,
            https: proxy("HTTPS_PROXY", &self.https_proxy)?,
            no_proxy: NoProxy::parse(&self.no_proxy),
            cgi: self.cgi,
        })
    }
}

/// Go's `parseProxy`: a value that is not a URL with a scheme and a host is tried again
/// with `http://` in front (`proxy:3128`, `10.0.0.1:3128`, `cache.corp`).
fn env_proxy_url(value: &str) -> Result<Url, (ConfigErrorKind, String)> {
    let parsed = match Url::parse(value) {
        Ok(u) => Ok(u),
        // Go would also retry these, making `http://http//…` of a broken URL; an error is clearer.
        Err(e) if value.contains("://") => Err(e),
        Err(first) => Url::parse(&format!("http://{value}")).map_err(|_| first),
    };
    let parsed = parsed.map_err(|e| {
        (
            ConfigErrorKind::Invalid,
            format!("invalid proxy URL {}: {e}", redact_userinfo(value)),
        )
    })?;
    check_scheme(parsed, value)
}

/// `HTTP_PROXY` applies to an `http` URL in a CGI program.
struct CgiRefusal;

/// Parsed environment proxy settings.
struct Rules {
    http: Option<Url>,
    https: Option<Url>,
    no_proxy: NoProxy,
    cgi: bool,
}

impl Rules {
    /// Go's `proxyForURL`.
    fn proxy_for(&self, url: &Url) -> Result<Option<&Url>, CgiRefusal> {
        let proxy = match url.scheme() {
            "https" => self.https.as_ref(),
            "http" if self.cgi && self.http.is_some() => return Err(CgiRefusal),
            "http" => self.http.as_ref(),
            _ => None,
        };
        let Some(proxy) = proxy else {
            return Ok(None);
        };
        let port = url
            .port_or_default()
            .map(|p| p.to_string())
            .unwrap_or_default();
        Ok(self.no_proxy.use_proxy(url.host(), &port).then_some(proxy))
    }
}

/// The parsed `NO_PROXY` list (Go's `config.init`).
#[derive(Default)]
struct NoProxy {
    /// `*`: nothing is proxied.
    all: bool,
    ips: Vec<IpRule>,
    domains: Vec<DomainRule>,
}

enum IpRule {
    /// An address, and the port it is limited to (empty: any).
    Addr {
        ip: IpAddr,
        port: String,
    },
    Cidr(Network),
}

/// A domain entry: `host` always starts with `.`; `match_host` when the entry had no leading
/// `.` or `*.`, so that the name itself matches too.
struct DomainRule {
    host: String,
    port: String,
    match_host: bool,
}

/// An IP network as Go's `net.IPNet.Contains` compares it: IPv4 (also written IPv4-mapped,
/// `::ffff:10.0.0.0/104`) or IPv6, the masks of the same length as the address.
enum Network {
    V4 { net: [u8; 4], mask: [u8; 4] },
    V6 { net: [u8; 16], mask: [u8; 16] },
}

impl NoProxy {
    fn parse(list: &str) -> Self {
        let mut rules = NoProxy::default();
        for entry in list.split(',') {
            let p = entry.trim().to_lowercase();
            if p.is_empty() {
                continue;
            }
            if p == "*" {
                return NoProxy {
                    all: true,
                    ..NoProxy::default()
                };
            }
            if let Some(net) = parse_cidr(&p) {
                rules.ips.push(IpRule::Cidr(net));
                continue;
            }
            let (host, port) = match split_host_port(&p) {
                Some(("", _)) => continue,
                Some((host, port)) => (unbracketed(host), port),
                None => (p.as_str(), ""),
            };
            if let Ok(ip) = host.parse::<IpAddr>() {
                rules.ips.push(IpRule::Addr {
                    ip: canonical(ip),
                    port: port.to_owned(),
                });
                continue;
            }
            let host = match host.strip_prefix('*') {
                Some(rest) if rest.starts_with('.') => rest,
                _ => host,
            };
            let match_host = !host.starts_with('.');
            let host = if match_host {
                format!(".{host}")
            } else {
                host.to_owned()
            };
            rules.domains.push(DomainRule {
                // As request hosts arrive; left as it is when it is not a valid name, as Go
                // leaves it.
                host: to_ascii_host(&host).unwrap_or(host),
                port: port.to_owned(),
                match_host,
            });
        }
        rules
    }

    /// Go's `useProxy`: `host` is the URL's host (IPv6 in brackets), `port` its port.
    fn use_proxy(&self, host: &str, port: &str) -> bool {
        if host == "localhost" {
            return false;
        }
        let bare = unbracketed(host);
        let ip = bare.parse::<IpAddr>().ok().map(canonical);
        if ip.is_some_and(|ip| ip.is_loopback()) {
            return false;
        }
        if self.all {
            return false;
        }
        let host = bare.trim().to_lowercase();
        if let Some(ip) = ip {
            return !self.ips.iter().any(|rule| rule.matches(ip, port));
        }
        !self.domains.iter().any(|rule| rule.matches(&host, port))
    }
}

impl IpRule {
    fn matches(&self, ip: IpAddr, port: &str) -> bool {
        match self {
            IpRule::Addr { ip: want, port: p } => *want == ip && (p.is_empty() || p == port),
            IpRule::Cidr(net) => net.contains(ip),
        }
    }
}

impl DomainRule {
    fn matches(&self, host: &str, port: &str) -> bool {
        let name_matches =
            host.ends_with(&self.host) || (self.match_host && host == &self.host[1..]);
        name_matches && (self.port.is_empty() || self.port == port)
    }
}

impl Network {
    fn contains(&self, ip: IpAddr) -> bool {
        fn masked_eq(a: &[u8], b: &[u8], mask: &[u8]) -> bool {
            a.iter().zip(b).zip(mask).all(|((a, b), m)| a & m == b & m)
        }
        match (self, ip) {
            (Network::V4 { net, mask }, IpAddr::V4(ip)) => masked_eq(net, &ip.octets(), mask),
            (Network::V6 { net, mask }, IpAddr::V6(ip)) => masked_eq(net, &ip.octets(), mask),
            _ => false,
        }
    }
}

/// An IPv4-mapped IPv6 address as the IPv4 address it maps, as Go's `net.IP.To4` compares them.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// Go's `net.ParseCIDR`, and the network `net.IPNet.Contains` then tests against: a range
/// written in IPv6 whose masked address is IPv4-mapped is an IPv4 range.
fn parse_cidr(entry: &str) -> Option<Network> {
    let (addr, bits) = entry.split_once('/')?;
    if bits.is_empty() || !bits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bits: u32 = bits.parse().ok()?;
    match addr.parse::<IpAddr>().ok()? {
        IpAddr::V4(v4) => {
            let mask = prefix_mask::<4>(bits)?;
            let net = and(v4.octets(), mask);
            Some(Network::V4 { net, mask })
        }
        IpAddr::V6(v6) => {
            let mask = prefix_mask::<16>(bits)?;
            let net = and(v6.octets(), mask);
            match Ipv6Addr::from(net).to_ipv4_mapped() {
                Some(v4) => {
                    let mut mask4 = [0u8; 4];
                    mask4.copy_from_slice(&mask[12..]);
                    Some(Network::V4 {
                        net: and(v4.octets(), mask4),
                        mask: mask4,
                    })
                }
                None => Some(Network::V6 { net, mask }),
            }
        }
    }
}

fn prefix_mask<const N: usize>(bits: u32) -> Option<[u8; N]> {
    let total = u32::try_from(N * 8).ok()?;
    if bits > total {
        return None;
    }
    let mut mask = [0u8; N];
    let mut left = bits;
    for byte in &mut mask {
        let take = left.min(8);
        *byte = if take == 0 { 0 } else { 0xffu8 << (8 - take) };
        left -= take;
    }
    Some(mask)
}

fn and<const N: usize>(a: [u8; N], mask: [u8; N]) -> [u8; N] {
    let mut out = a;
    for (o, m) in out.iter_mut().zip(mask) {
        *o &= m;
    }
    out
}

/// Go's `net.SplitHostPort`: `host:port` or `[host]:port`, else `None`. The port may be empty.
fn split_host_port(hostport: &str) -> Option<(&str, &str)> {
    let colon = hostport.rfind(':')?;
    let (host, from_open, from_close) = if hostport.starts_with('[') {
        let end = hostport.find(']')?;
        if end + 1 != colon {
            return None;
        }
        (&hostport[1..end], 1, end + 1)
    } else {
        let host = &hostport[..colon];
        if host.contains(':') {
            return None;
        }
        (host, 0, 0)
    };
    if hostport[from_open..].contains('[') || hostport[from_close..].contains(']') {
        return None;
    }
    Some((host, &hostport[colon + 1..]))
}
