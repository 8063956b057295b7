//! Sending `tls-server-name` as the TLS SNI, as client-go does (`tls.Config.ServerName`).
//!
//! reqwest derives the SNI from the URL's host, so requests are addressed to
//! `https://{tls-server-name}:{port}` and a resolver maps that name back to the configured
//! server's address. Certificate verification against the name is done in `tls.rs` either way.
//! Through a proxy the name would reach the proxy as the CONNECT target, which it cannot
//! resolve, so with a proxy only the verification applies.

use std::net::{IpAddr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::Url;

/// Resolves `name` to the addresses of `host`; any other name as usual.
#[derive(Debug)]
pub(crate) struct ServerNameResolver {
    name: String,
    host: String,
}

impl Resolve for ServerNameResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let target = if name.as_str().eq_ignore_ascii_case(&self.name) {
            self.host.clone()
        } else {
            name.as_str().to_owned()
        };
        Box::pin(async move {
            if let Ok(ip) = target.trim_matches(['[', ']']).parse::<IpAddr>() {
                let addrs: Addrs = Box::new(std::iter::once(SocketAddr::new(ip, 0)));
                return Ok(addrs);
            }
            let found: Vec<SocketAddr> = tokio::net::lookup_host((target.as_str(), 0))
                .await?
                .collect();
            let addrs: Addrs = Box::new(found.into_iter());
            Ok(addrs)
        })
    }
}

/// The base URL requests are sent to and the resolver that makes it reach the server, when
/// `tls_server_name` must be sent as SNI: an https URL whose host differs from the name, no
/// proxy in the way, and a DNS name (SNI carries no IP addresses).
pub(crate) fn rewrite(
    base_url: &str,
    tls_server_name: Option<&str>,
    proxied: bool,
) -> Option<(String, ServerNameResolver)> {
    let name = tls_server_name?;
    if proxied || name.parse::<IpAddr>().is_ok() {
        return None;
    }
    let mut url = Url::parse(base_url).ok()?;
    let host = url.host_str()?.to_owned();
    if url.scheme() != "https" || host.eq_ignore_ascii_case(name) {
        return None;
    }
    url.set_host(Some(name)).ok()?;
    let rewritten = url.as_str().trim_end_matches('/').to_owned();
    Some((
        rewritten,
        ServerNameResolver {
            name: name.to_owned(),
            host,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_only_where_sni_can_carry_the_name() {
        let (url, resolver) =
            rewrite("https://10.0.0.1:6443/prefix", Some("api.internal"), false).unwrap();
        assert_eq!(url, "https://api.internal:6443/prefix");
        assert_eq!(resolver.host, "10.0.0.1");
        assert!(rewrite("https://10.0.0.1:6443", Some("api.internal"), true).is_none());
        assert!(rewrite("https://10.0.0.1:6443", Some("10.0.0.2"), false).is_none());
        assert!(rewrite("http://10.0.0.1:6443", Some("api.internal"), false).is_none());
        assert!(rewrite("https://api.internal:6443", Some("api.internal"), false).is_none());
        assert!(rewrite("https://10.0.0.1:6443", None, false).is_none());
    }
}
