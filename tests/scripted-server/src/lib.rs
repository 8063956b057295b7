//! A tiny HTTP/1.1 + HTTP/2 server on loopback (optionally TLS, optionally requiring a
//! client certificate) that answers each request with a scripted reply, chunk by chunk.

pub mod protoc;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::TcpListener;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A CA with a server certificate (localhost, 127.0.0.1) and a client certificate.
pub struct Pki {
    pub ca_pem: String,
    pub server_cert_pem: String,
    pub server_key_pem: String,
    pub client_cert_pem: String,
    pub client_key_pem: String,
}

impl Pki {
    pub fn new() -> Self {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "test-ca");
        let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
        let server_key = KeyPair::generate().unwrap();
        let server = CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .unwrap()
            .signed_by(&server_key, &ca)
            .unwrap();
        let client_key = KeyPair::generate().unwrap();
        let mut client_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        client_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "tester");
        let client = client_params.signed_by(&client_key, &ca).unwrap();
        Self {
            ca_pem: ca.pem(),
            server_cert_pem: server.pem(),
            server_key_pem: server_key.serialize_pem(),
            client_cert_pem: client.pem(),
            client_key_pem: client_key.serialize_pem(),
        }
    }

    pub fn server_tls(&self, require_client_cert: bool) -> ServerTls {
        ServerTls {
            cert_pem: self.server_cert_pem.clone(),
            key_pem: self.server_key_pem.clone(),
            client_ca_pem: require_client_cert.then(|| self.ca_pem.clone()),
        }
    }
}

impl Default for Pki {
    fn default() -> Self {
        Self::new()
    }
}

/// TLS settings of a test server.
pub struct ServerTls {
    pub cert_pem: String,
    pub key_pem: String,
    /// When set, clients must present a certificate signed by this CA.
    pub client_ca_pem: Option<String>,
}

/// What the server saw of one request.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub query: String,
    pub authorization: Option<String>,
    pub accept: Option<String>,
    pub user_agent: Option<String>,
    pub version: hyper::Version,
}

impl Seen {
    /// The value of query parameter `name`, as sent (not percent-decoded).
    pub fn param(&self, name: &str) -> Option<String> {
        self.query.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            (k == name).then(|| v.to_owned())
        })
    }
}

/// A scripted answer: status, headers, body chunks sent with a pause between them,
/// and optionally a connection abort after the last chunk.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub chunks: Vec<Vec<u8>>,
    pub pause: Duration,
    pub abort: bool,
}

impl Reply {
    /// This reply streamed quickly (1 ms between chunks), `content-encoding: gzip` when
    /// `gzipped`.
    pub fn fast(mut self, gzipped: bool) -> Self {
        self.pause = Duration::from_millis(1);
        if gzipped {
            self = self.header("content-encoding", "gzip");
        }
        self
    }

    pub fn json(status: u16, body: impl Into<Vec<u8>>) -> Self {
        Self::chunks(status, vec![body.into()])
    }

    pub fn chunks(status: u16, chunks: Vec<Vec<u8>>) -> Self {
        Self {
            status,
            headers: vec![("content-type", "application/json".to_owned())],
            chunks,
            pause: Duration::from_millis(15),
            abort: false,
        }
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }

    /// Drop the connection after the chunks instead of ending the body.
    pub fn abort(mut self) -> Self {
        self.abort = true;
        self
    }
}

pub type Handler = Arc<dyn Fn(&Seen) -> Reply + Send + Sync>;

/// A running test server; it stops when dropped.
pub struct Server {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    pub async fn start(
        tls: Option<ServerTls>,
        handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let acceptor = tls.map(tls_acceptor);
        let handler: Handler = Arc::new(handler);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen_in_task = seen.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let handler = handler.clone();
                let seen = seen_in_task.clone();
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    match acceptor {
                        None => serve(TokioIo::new(stream), handler, seen).await,
                        Some(acceptor) => {
                            if let Ok(tls) = acceptor.accept(stream).await {
                                serve(TokioIo::new(tls), handler, seen).await;
                            }
                        }
                    }
                });
            }
        });
        Self {
            url: format!("{scheme}://{addr}"),
            seen,
            task,
        }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn tls_acceptor(tls: ServerTls) -> tokio_rustls::TlsAcceptor {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(tls.cert_pem.as_bytes())
            .collect::<Result<_, _>>()
            .unwrap();
    let key = PrivateKeyDer::from_pem_slice(tls.key_pem.as_bytes()).unwrap();
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match tls.client_ca_pem {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in CertificateDer::pem_slice_iter(ca.as_bytes()) {
                roots.add(c.unwrap()).unwrap();
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots),
                provider,
            )
            .build()
            .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder.with_single_cert(certs, key).unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

async fn serve<I>(io: I, handler: Handler, seen: Arc<Mutex<Vec<Seen>>>)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
        let handler = handler.clone();
        let seen = seen.clone();
        async move {
            let header = |name: &str| {
                req.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned)
            };
            let request = Seen {
                path: req.uri().path().to_owned(),
                query: req.uri().query().unwrap_or_default().to_owned(),
                authorization: header("authorization"),
                accept: header("accept"),
                user_agent: header("user-agent"),
                version: req.version(),
            };
            seen.lock().unwrap().push(request.clone());
            Ok::<_, Infallible>(respond(handler(&request)))
        }
    });
    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
        .serve_connection(io, service)
        .await;
}

fn respond(reply: Reply) -> Response<BoxBody<Bytes, BoxError>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Frame<Bytes>, BoxError>>(4);
    let Reply {
        status,
        headers,
        chunks,
        pause,
        abort,
    } = reply;
    tokio::spawn(async move {
        for chunk in chunks {
            if tx.send(Ok(Frame::data(Bytes::from(chunk)))).await.is_err() {
                return;
            }
            tokio::time::sleep(pause).await;
        }
        if abort {
            let _ = tx.send(Err("connection dropped on purpose".into())).await;
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    let mut response = Response::new(StreamBody::new(stream).boxed());
    *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
    for (name, value) in headers {
        response
            .headers_mut()
            .insert(name, hyper::header::HeaderValue::from_str(&value).unwrap());
    }
    response
}

/// A kubeconfig with one cluster, user and context (`ctx`); `cluster` and `user` are
/// YAML flow-mapping bodies, e.g. `server: "https://…", certificate-authority: ca.pem`.
pub fn kubeconfig(cluster: &str, user: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster: {{ {cluster} }}\nusers:\n- name: u\n  user: {{ {user} }}\ncontexts:\n- name: ctx\n  context: {{ cluster: c, user: u, namespace: team }}\n"
    )
}

/// A Pod of `name` in namespace `team` at `rv`, with an annotation of `padding` bytes.
pub fn pod_json(name: &str, rv: &str, padding: usize) -> String {
    format!(
        r#"{{"metadata":{{"name":"{name}","namespace":"team","resourceVersion":"{rv}","annotations":{{"pad":"{}"}}}}}}"#,
        "x".repeat(padding)
    )
}

/// A watch line of `kind` for [`pod_json`]`(name, rv, padding)`.
pub fn watch_line(kind: &str, name: &str, rv: &str, padding: usize) -> Vec<u8> {
    format!(
        "{{\"type\":\"{kind}\",\"object\":{}}}\n",
        pod_json(name, rv, padding)
    )
    .into_bytes()
}

/// `bytes` in chunks of 1 MiB, as a server streams a large body.
pub fn mebibyte_chunks(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.chunks(1 << 20).map(<[u8]>::to_vec).collect()
}

/// A one-item PodList body (items without kind/apiVersion, as the server sends them).
pub fn pod_list(names: &[&str], rv: &str, continue_token: Option<&str>) -> String {
    let items: Vec<String> = names
        .iter()
        .map(|n| format!(r#"{{"metadata":{{"name":"{n}","namespace":"team","resourceVersion":"{rv}"}},"spec":{{"containers":[{{"name":"c","image":"nginx"}}]}}}}"#))
        .collect();
    let cont = continue_token
        .map(|c| format!(r#","continue":"{c}""#))
        .unwrap_or_default();
    format!(
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"{rv}"{cont}}},"items":[{}]}}"#,
        items.join(",")
    )
}

/// A `Status` body.
pub fn status(code: u16, reason: &str, message: &str) -> String {
    format!(
        r#"{{"kind":"Status","apiVersion":"v1","metadata":{{}},"status":"Failure","message":"{message}","reason":"{reason}","code":{code}}}"#
    )
}
