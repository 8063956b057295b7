//! Starts a real etcd (Debian's `etcd-server`, `/usr/bin/etcd`; override with `ETCD_BIN`)
//! on free loopback ports with a temporary data dir, and kills it by PID on drop.

#![allow(dead_code)]

use std::fs::File;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use informer_etcd::etcd_client::ConnectOptions;
use informer_etcd::Etcd;

/// A running etcd owned by one test.
pub struct EtcdServer {
    child: Option<Child>,
    dir: tempfile::TempDir,
    client_port: u16,
    peer_port: u16,
    tls: Option<ServerTls>,
}

/// PEM files for an etcd serving clients over TLS and requiring client certificates
/// signed by `client_ca` (`--client-cert-auth`).
#[derive(Clone)]
pub struct ServerTls {
    pub cert: PathBuf,
    pub key: PathBuf,
    pub client_ca: PathBuf,
}

fn etcd_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("ETCD_BIN") {
        return PathBuf::from(bin);
    }
    let debian = PathBuf::from("/usr/bin/etcd");
    if debian.exists() {
        return debian;
    }
    PathBuf::from("etcd")
}

/// tmpfs keeps etcd's fsyncs cheap; falls back to the default temp dir.
fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("etcd-test-")
        .tempdir_in("/dev/shm")
        .or_else(|_| tempfile::Builder::new().prefix("etcd-test-").tempdir())
        .expect("cannot create a temp dir for etcd")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free loopback port")
}

impl EtcdServer {
    /// Starts etcd and waits until it accepts connections.
    pub fn start() -> Self {
        Self::start_with(None)
    }

    /// Starts etcd serving clients over TLS only, with client-certificate authentication.
    pub fn start_tls(tls: ServerTls) -> Self {
        Self::start_with(Some(tls))
    }

    fn start_with(tls: Option<ServerTls>) -> Self {
        let mut last_failure = String::new();
        // A port picked as free can be taken before etcd binds it: try a few pairs.
        for _ in 0..5 {
            let mut server = Self {
                child: None,
                dir: temp_dir(),
                client_port: free_port(),
                peer_port: free_port(),
                tls: tls.clone(),
            };
            match server.spawn() {
                Ok(()) => return server,
                Err(e) => last_failure = e,
            }
        }
        panic!("etcd did not start: {last_failure}");
    }

    fn spawn(&mut self) -> Result<(), String> {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        let client_url = format!("{scheme}://127.0.0.1:{}", self.client_port);
        let peer_url = format!("http://127.0.0.1:{}", self.peer_port);
        let log = File::options()
            .create(true)
            .append(true)
            .open(self.dir.path().join("etcd.log"))
            .map_err(|e| format!("cannot open the etcd log: {e}"))?;
        let log_err = log
            .try_clone()
            .map_err(|e| format!("cannot open the etcd log: {e}"))?;
        let bin = etcd_binary();
        let mut command = Command::new(&bin);
        if let Some(tls) = &self.tls {
            command
                .arg(format!("--cert-file={}", tls.cert.display()))
                .arg(format!("--key-file={}", tls.key.display()))
                .arg(format!("--trusted-ca-file={}", tls.client_ca.display()))
                .arg("--client-cert-auth");
        }
        let child = command
            .arg("--name=test")
            .arg(format!(
                "--data-dir={}",
                self.dir.path().join("data").display()
            ))
            .arg(format!("--listen-client-urls={client_url}"))
            .arg(format!("--advertise-client-urls={client_url}"))
            .arg(format!("--listen-peer-urls={peer_url}"))
            .arg(format!("--initial-advertise-peer-urls={peer_url}"))
            .arg(format!("--initial-cluster=test={peer_url}"))
            .arg("--initial-cluster-state=new")
            .arg("--heartbeat-interval=50")
            .arg("--election-timeout=500")
            .arg("--logger=zap")
            .arg("--log-outputs=stderr")
            .arg("--log-level=warn")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err)
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot run {} (apt-get install etcd-server): {e}",
                    bin.display()
                )
            })?;
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(child) = self.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    self.child = None;
                    return Err(format!("etcd exited with {status}: {}", self.log()));
                }
            }
            if TcpStream::connect(("127.0.0.1", self.client_port)).is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("etcd did not listen within 30 s: {}", self.log()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// etcd's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("etcd.log")).unwrap_or_default()
    }

    /// The client endpoint, `127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("127.0.0.1:{}", self.client_port)
    }

    /// Kills etcd (SIGKILL, by PID) and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Moves the client port (takes effect on the next restart): clients of the old
    /// endpoint see etcd as down while a test works on the new one.
    pub fn set_client_port(&mut self, port: u16) {
        self.client_port = port;
    }

    /// The client port.
    pub fn client_port(&self) -> u16 {
        self.client_port
    }

    /// A free loopback port.
    pub fn free_port() -> u16 {
        free_port()
    }

    /// Starts etcd again on the same ports and data.
    pub fn restart(&mut self) {
        self.kill();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match self.spawn() {
                Ok(()) => return,
                Err(e) if Instant::now() > deadline => panic!("etcd did not restart: {e}"),
                Err(_) => {
                    self.kill();
                    std::thread::sleep(Duration::from_millis(200));
                }
            }
        }
    }

    /// A connection, once etcd answers reads (it has elected itself leader).
    pub async fn connect(&self) -> Etcd {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let options = ConnectOptions::new()
                .with_timeout(Duration::from_secs(2))
                .with_connect_timeout(Duration::from_secs(2));
            let ready = match Etcd::connect(&[self.endpoint()], Some(options)).await {
                Ok(etcd) => etcd.client().get("/ready-probe", None).await.is_ok(),
                Err(_) => false,
            };
            if ready {
                return Etcd::connect(&[self.endpoint()], None)
                    .await
                    .expect("connect to etcd");
            }
            if Instant::now() > deadline {
                panic!(
                    "etcd at {} did not answer within 30 s: {}",
                    self.endpoint(),
                    self.log()
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for EtcdServer {
    fn drop(&mut self) {
        self.kill();
    }
}
