//! How connections to the server are made: TCP (keep-alive on, within the connect timeout),
//! through the proxy when one applies (an HTTP `CONNECT` tunnel to an https server, the
//! proxy as the request's target for an http one, as Go's transport does), then TLS with
//! the client's rustls config. `tls-server-name` goes out as the SNI. hyper-util's pooled
//! client drives the connector; the handshake's ALPN says whether a connection speaks
//! HTTP/2.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Uri;
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioIo;
use rustls_pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_rustls::TlsConnector;
use tower_service::Service;

use super::proxy::ProxyRoute;
use super::url::unbracketed;
use crate::error::BoxError;

/// The longest answer to `CONNECT` read before giving up on the proxy.
const MAX_CONNECT_RESPONSE: usize = 16 * 1024;

/// A byte stream a connection runs over: TCP, TLS, or TLS inside a tunnel.
trait Io: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

/// Makes the connections of one client, to its one server.
#[derive(Clone)]
pub(super) struct Connector {
    tcp: HttpConnector,
    /// TLS to the server: ALPN h2 and http/1.1.
    tls: TlsConnector,
    /// TLS to an https proxy: the same verification, ALPN http/1.1 (`CONNECT` and forwarded
    /// requests are HTTP/1.1).
    proxy_tls: TlsConnector,
    /// `tls-server-name`, sent as SNI and verified against instead of the URL's host.
    server_name: Option<ServerName<'static>>,
    proxy: Option<Arc<ProxyRoute>>,
    timeout: Duration,
}

impl Connector {
    /// A connector with `tls` (whose ALPN offers h2 and http/1.1), through `proxy` if any,
    /// each connection made within `timeout`.
    pub(super) fn new(
        tls: rustls::ClientConfig,
        server_name: Option<ServerName<'static>>,
        proxy: Option<ProxyRoute>,
        timeout: Duration,
        keepalive: Duration,
    ) -> Self {
        let mut tcp = HttpConnector::new();
        tcp.enforce_http(false);
        tcp.set_nodelay(true);
        tcp.set_keepalive(Some(keepalive));
        let mut proxy_tls = tls.clone();
        proxy_tls.alpn_protocols = vec![b"http/1.1".to_vec()];
        Connector {
            tcp,
            tls: TlsConnector::from(Arc::new(tls)),
            proxy_tls: TlsConnector::from(Arc::new(proxy_tls)),
            server_name,
            proxy: proxy.map(Arc::new),
            timeout,
        }
    }

    async fn connect(self, dst: Uri) -> Result<Conn, BoxError> {
        let https = dst.scheme_str() == Some("https");
        let Some(proxy) = self.proxy.clone() else {
            let tcp = self.tcp(dst.clone()).await?;
            return if https {
                self.tls_to_server(&dst, tcp).await
            } else {
                Ok(Conn::new(tcp, false, false))
            };
        };
        let to_proxy = self.to_proxy(&proxy).await?;
        if https {
            let tunnel = tunnel(to_proxy, &dst, &proxy).await?;
            self.tls_to_server(&dst, tunnel).await
        } else {
            Ok(Conn::new(to_proxy, false, true))
        }
    }

    /// A TCP connection to `dst`'s host and port (DNS resolved off the runtime's threads).
    async fn tcp(&self, dst: Uri) -> Result<Box<dyn Io>, BoxError> {
        let stream = self.tcp.clone().call(dst).await?;
        Ok(Box::new(stream.into_inner()))
    }

    /// A connection to the proxy, over TLS for an https proxy.
    async fn to_proxy(&self, proxy: &ProxyRoute) -> Result<Box<dyn Io>, BoxError> {
        let uri: Uri = proxy.url.origin().parse()?;
        let tcp = self.tcp(uri).await.map_err(|e| {
            format!(
                "connecting to the proxy {}: {e}",
                proxy.url.without_userinfo()
            )
        })?;
        if proxy.url.scheme() != "https" {
            return Ok(tcp);
        }
        let name = ServerName::try_from(proxy.url.bare_host().to_owned())?;
        let tls = self.proxy_tls.connect(name, tcp).await.map_err(|e| {
            format!(
                "TLS handshake with the proxy {}: {e}",
                proxy.url.without_userinfo()
            )
        })?;
        Ok(Box::new(tls))
    }

    /// TLS to the server over `io`; HTTP/2 when the server chose it.
    async fn tls_to_server(&self, dst: &Uri, io: Box<dyn Io>) -> Result<Conn, BoxError> {
        let name = match &self.server_name {
            Some(name) => name.clone(),
            None => ServerName::try_from(unbracketed(dst.host().unwrap_or_default()).to_owned())?,
        };
        let tls = self.tls.connect(name, io).await?;
        let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
        Ok(Conn::new(Box::new(tls), h2, false))
    }
}

impl Service<Uri> for Connector {
    type Response = Conn;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Conn, BoxError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let timeout = self.timeout;
        let connecting = self.clone().connect(dst);
        Box::pin(async move {
            match tokio::time::timeout(timeout, connecting).await {
                Ok(result) => result,
                Err(_) => {
                    Err(format!("no connection within the connect timeout ({timeout:?})").into())
                }
            }
        })
    }
}

/// Opens a tunnel to `dst` through the proxy at the other end of `io`: `CONNECT host:port`,
/// with the proxy's credentials when its URL has them, and a 2xx answer.
async fn tunnel(
    mut io: Box<dyn Io>,
    dst: &Uri,
    proxy: &ProxyRoute,
) -> Result<Box<dyn Io>, BoxError> {
    let host = dst.host().unwrap_or_default();
    let port = dst.port_u16().unwrap_or(443);
    let target = format!("{host}:{port}");
    let mut head = format!("CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n");
    if let Some(auth) = &proxy.authorization {
        head.push_str("Proxy-Authorization: ");
        head.push_str(auth.to_str()?);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    io.write_all(head.as_bytes()).await?;
    io.flush().await?;
    // Byte by byte: nothing after the answer's head may be read, as it belongs to TLS.
    let mut answer = Vec::with_capacity(128);
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        if io.read(&mut byte).await? == 0 {
            return Err(format!(
                "the proxy {} closed the connection before answering CONNECT {target}",
                proxy.url.without_userinfo()
            )
            .into());
        }
        answer.push(byte[0]);
        if answer.len() > MAX_CONNECT_RESPONSE {
            return Err(format!(
                "the proxy {} answered CONNECT {target} with more than {MAX_CONNECT_RESPONSE} bytes of headers",
                proxy.url.without_userinfo()
            )
            .into());
        }
    }
    let status_line =
        String::from_utf8_lossy(answer.split(|&b| b == b'\r').next().unwrap_or_default())
            .into_owned();
    let code = status_line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse::<u16>().ok());
    match code {
        Some(200..=299) => Ok(io),
        _ => Err(format!(
            "the proxy {} refused CONNECT {target}: {status_line}",
            proxy.url.without_userinfo()
        )
        .into()),
    }
}

/// One connection, as hyper reads and writes it.
pub(super) struct Conn {
    io: TokioIo<Box<dyn Io>>,
    h2: bool,
    /// To a proxy that forwards each request (its target in absolute form).
    forwarding_proxy: bool,
}

impl Conn {
    fn new(io: Box<dyn Io>, h2: bool, forwarding_proxy: bool) -> Self {
        Conn {
            io: TokioIo::new(io),
            h2,
            forwarding_proxy,
        }
    }
}

impl Connection for Conn {
    fn connected(&self) -> Connected {
        let connected = Connected::new().proxy(self.forwarding_proxy);
        if self.h2 {
            connected.negotiated_h2()
        } else {
            connected
        }
    }
}

impl Read for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl Write for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
