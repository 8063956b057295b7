//! Which proxy requests go through: the kubeconfig's `proxy-url` for every request, else
//! `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` from the environment, read the way Go's
//! `http.ProxyFromEnvironment` (and so kubectl) reads them.

use reqwest::{ClientBuilder, NoProxy, Proxy};

use crate::error::{ConfigErrorKind, Error};

/// Hosts Go never proxies, whatever `NO_PROXY` says.
const LOOPBACK: &str = "localhost,127.0.0.0/8,::1";

/// `builder` with the proxy `proxy_url` names, else the environment's, else none; and
/// whether https requests may go through a proxy.
pub(crate) fn configure(
    builder: ClientBuilder,
    proxy_url: Option<&str>,
    server: &str,
) -> Result<(ClientBuilder, bool), Error> {
    if let Some(url) = proxy_url {
        // As client-go's `http.ProxyURL`: every request, NO_PROXY not consulted.
        let proxy = Proxy::all(url).map_err(|e| invalid("proxy-url", url, server, &e))?;
        return Ok((builder.no_proxy().proxy(proxy), true));
    }
    let env = |names: [&str; 2]| {
        names
            .iter()
            .find_map(|n| std::env::var(n).ok().filter(|v| !v.is_empty()))
    };
    let https = env(["HTTPS_PROXY", "https_proxy"]);
    // A CGI program must not trust HTTP_PROXY, which a request header can set (httpoxy).
    let http =
        env(["HTTP_PROXY", "http_proxy"]).filter(|_| std::env::var_os("REQUEST_METHOD").is_none());
    let no_proxy = match env(["NO_PROXY", "no_proxy"]) {
        Some(list) => format!("{list},{LOOPBACK}"),
        None => LOOPBACK.to_owned(),
    };
    let mut builder = builder.no_proxy();
    let proxied = https.is_some();
    if let Some(url) = https {
        let proxy = Proxy::https(with_scheme(&url))
            .map_err(|e| invalid("HTTPS_PROXY", &url, server, &e))?
            .no_proxy(NoProxy::from_string(&no_proxy));
        builder = builder.proxy(proxy);
    }
    if let Some(url) = http {
        let proxy = Proxy::http(with_scheme(&url))
            .map_err(|e| invalid("HTTP_PROXY", &url, server, &e))?
            .no_proxy(NoProxy::from_string(&no_proxy));
        builder = builder.proxy(proxy);
    }
    Ok((builder, proxied))
}

/// Go reads a proxy without a scheme (`proxy:3128`) as `http://proxy:3128`.
fn with_scheme(url: &str) -> String {
    if url.contains("://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    }
}

fn invalid(setting: &str, url: &str, server: &str, e: &reqwest::Error) -> Error {
    Error::config(
        ConfigErrorKind::Invalid,
        format!("proxy for {server}"),
        format!("{setting} {url:?}: {e}"),
    )
}
