//! Loopback helpers for the request-formation suites: a server that records every request
//! in full (method, path, query, headers, body, TLS server name) and answers canned JSON,
//! and a forward/CONNECT proxy that counts what passes through it.
#![allow(dead_code)]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The SNI the client sent, for TLS connections.
    pub sni: Option<String>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn headers_named(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The query's pairs, decoded.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        url::form_urlencoded_pairs(&self.query)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

mod url {
    /// `a=b&c=d%3De` → [(a, b), (c, d=e)].
    pub fn form_urlencoded_pairs(query: &str) -> Vec<(String, String)> {
        query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(k), decode(v))
            })
            .collect()
    }

    fn decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                    out.push(u8::from_str_radix(hex, 16).unwrap());
                    i += 2;
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8(out).unwrap()
    }
}

/// A canned answer.
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
}

impl Answer {
    pub fn json(status: u16, body: impl Into<String>) -> Self {
        Self::bytes(status, body.into().into_bytes())
    }

    pub fn bytes(status: u16, body: Vec<u8>) -> Self {
        Self {
            status,
            body,
            headers: Vec::new(),
        }
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }
}

type Handler = Arc<dyn Fn(&Recorded) -> Answer + Send + Sync>;

/// A recording server; it stops when dropped.
pub struct Recorder {
    pub url: String,
    pub addr: SocketAddr,
    seen: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Recorder {
    /// Plain HTTP.
    pub async fn start(handler: impl Fn(&Recorded) -> Answer + Send + Sync + 'static) -> Self {
        Self::start_inner(None, handler).await
    }

    /// HTTPS with `cert_pem`/`key_pem`.
    pub async fn start_tls(
        cert_pem: &str,
        key_pem: &str,
        handler: impl Fn(&Recorded) -> Answer + Send + Sync + 'static,
    ) -> Self {
        Self::start_inner(Some(acceptor(cert_pem, key_pem)), handler).await
    }

    async fn start_inner(
        tls: Option<tokio_rustls::TlsAcceptor>,
        handler: impl Fn(&Recorded) -> Answer + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let handler: Handler = Arc::new(handler);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen_in_task = seen.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let handler = handler.clone();
                let seen = seen_in_task.clone();
                let tls = tls.clone();
                tokio::spawn(async move {
                    match tls {
                        None => serve(TokioIo::new(stream), None, handler, seen).await,
                        Some(acceptor) => {
                            if let Ok(stream) = acceptor.accept(stream).await {
                                let sni = stream.get_ref().1.server_name().map(str::to_owned);
                                serve(TokioIo::new(stream), sni, handler, seen).await;
                            }
                        }
                    }
                });
            }
        });
        Self {
            url: format!("{scheme}://{addr}"),
            addr,
            seen,
            task,
        }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.seen.lock().unwrap().clone()
    }

    /// The only request received.
    pub fn single(&self) -> Recorded {
        let all = self.requests();
        assert_eq!(all.len(), 1, "{all:#?}");
        all.into_iter().next().unwrap()
    }

    pub fn clear(&self) {
        self.seen.lock().unwrap().clear();
    }
}

async fn serve<I>(io: I, sni: Option<String>, handler: Handler, seen: Arc<Mutex<Vec<Recorded>>>)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
        let handler = handler.clone();
        let seen = seen.clone();
        let sni = sni.clone();
        async move {
            let (parts, body) = req.into_parts();
            let body = body
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let recorded = Recorded {
                method: parts.method.to_string(),
                path: parts.uri.path().to_owned(),
                query: parts.uri.query().unwrap_or_default().to_owned(),
                headers: parts
                    .headers
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or_default().to_owned()))
                    .collect(),
                body: body.to_vec(),
                sni,
            };
            seen.lock().unwrap().push(recorded.clone());
            let answer = handler(&recorded);
            let mut response = Response::new(Full::new(Bytes::from(answer.body)));
            *response.status_mut() = hyper::StatusCode::from_u16(answer.status).unwrap();
            response.headers_mut().insert(
                "content-type",
                hyper::header::HeaderValue::from_static("application/json"),
            );
            for (name, value) in answer.headers {
                response
                    .headers_mut()
                    .insert(name, hyper::header::HeaderValue::from_str(&value).unwrap());
            }
            Ok::<_, Infallible>(response)
        }
    });
    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
        .serve_connection(io, service)
        .await;
}

/// A CA and a serving certificate for exactly `names`.
pub struct Pki {
    pub ca_pem: String,
    pub cert_pem: String,
    pub key_pem: String,
}

pub fn pki(names: &[&str]) -> Pki {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "api-test-ca");
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    let cert = CertificateParams::new(names)
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    Pki {
        ca_pem: ca.pem(),
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
    }
}

fn acceptor(cert_pem: &str, key_pem: &str) -> tokio_rustls::TlsAcceptor {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_pem.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).unwrap();
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

/// What a proxy saw: one entry per request head, `CONNECT host:port` or `GET http://…`.
pub struct Proxy {
    pub url: String,
    heads: Arc<Mutex<Vec<String>>>,
    authorizations: Arc<Mutex<Vec<Option<String>>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Proxy {
    /// A proxy that sends every connection, whatever host it names, to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let heads = Arc::new(Mutex::new(Vec::new()));
        let authorizations = Arc::new(Mutex::new(Vec::new()));
        let (heads_in_task, authorizations_in_task) = (heads.clone(), authorizations.clone());
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let seen = (heads_in_task.clone(), authorizations_in_task.clone());
                tokio::spawn(async move {
                    let _ = tunnel(client, upstream, seen).await;
                });
            }
        });
        Self {
            url: format!("http://{addr}"),
            heads,
            authorizations,
            task,
        }
    }

    /// `METHOD target` of each connection's first request.
    pub fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }

    /// The `Proxy-Authorization` of each connection's first request.
    pub fn authorizations(&self) -> Vec<Option<String>> {
        self.authorizations.lock().unwrap().clone()
    }
}

type Seen = (Arc<Mutex<Vec<String>>>, Arc<Mutex<Vec<Option<String>>>>);

async fn tunnel(
    mut client: TcpStream,
    upstream: SocketAddr,
    (heads, authorizations): Seen,
) -> std::io::Result<()> {
    // Read the first request head.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if client.read(&mut byte).await? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head).to_string();
    let request_line = text.lines().next().unwrap_or_default().to_owned();
    let mut parts = request_line.split(' ');
    let method = parts.next().unwrap_or_default().to_owned();
    let target = parts.next().unwrap_or_default().to_owned();
    heads.lock().unwrap().push(format!("{method} {target}"));
    let authorization = text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("proxy-authorization")
            .then(|| value.trim().to_owned())
    });
    authorizations.lock().unwrap().push(authorization);
    let mut server = TcpStream::connect(upstream).await?;
    if method == "CONNECT" {
        client
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
            .await?;
    } else {
        // A forward request in absolute form: hyper servers take it as it is.
        server.write_all(&head).await?;
    }
    tokio::io::copy_bidirectional(&mut client, &mut server).await?;
    Ok(())
}

/// A kubeconfig with one cluster, user and context (`ctx`, namespace `team`); `cluster` and
/// `user` are YAML flow-mapping bodies.
pub fn kubeconfig(cluster: &str, user: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster: {{ {cluster} }}\nusers:\n- name: u\n  user: {{ {user} }}\ncontexts:\n- name: ctx\n  context: {{ cluster: c, user: u, namespace: team }}\n"
    )
}

/// A `Config` from a kubeconfig written into a fresh directory.
pub fn load(
    cluster: &str,
    user: &str,
) -> Result<informer_client::client::Config, informer_client::Error> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config");
    std::fs::write(&path, kubeconfig(cluster, user)).unwrap();
    informer_client::client::Config::from_kubeconfig_file(&path, &Default::default())
}

/// Base64 of a PEM, for `certificate-authority-data`.
pub fn b64(pem: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(pem)
}

/// A ConfigMap body named `name` in `team`.
pub fn config_map_json(name: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}","namespace":"team"}}}}"#
    )
}
