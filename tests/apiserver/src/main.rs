//! `test-apiserver`: the test API server as a standalone process.

use std::net::SocketAddr;
use std::process::ExitCode;

use test_apiserver::TestApiServer;

const HELP: &str = "\
test-apiserver: a kube-apiserver-compatible list/watch server for tests and benchmarks

USAGE:
    test-apiserver [OPTIONS]

OPTIONS:
    --listen ADDR            address to listen on [default: 127.0.0.1:0, any free port]
    --seed-pods N            create N realistic Pods (pod-0 ...) at start [default: 0]
    --seed-namespaces K      spread seeded Pods over Namespaces ns-0 ... ns-{K-1} [default: 1]
    --history E              watch history window, in events per resource [default: 10000]
    --tls                    serve HTTPS with a fresh self-signed CA (in the kubeconfig)
    --token-file FILE        require the bearer token held in FILE (repeatable)
    --token T                require bearer token T (repeatable; visible to other users in `ps`:
                             prefer --token-file or TEST_APISERVER_TOKEN)
    --kubeconfig-out FILE    write a kubeconfig for this server to FILE (replaced, mode 0600)
    --bookmark-interval-ms M send BOOKMARK events every M ms to watches that ask [default: 1000]
    --self-bench N           seed N Pods, measure list and watch throughput over loopback, print, exit
    -h, --help               print this help

ENVIRONMENT:
    TEST_APISERVER_TOKEN     one more bearer token to accept, after those of the options

The server accepts each token given; the first (options in order, then the environment's)
goes into the kubeconfig. A token file
holds one token; surrounding whitespace (a trailing newline) is ignored.

When ready it prints exactly one line, `listening on http(s)://ADDR`, and serves until
SIGTERM or SIGINT, then exits 0.";

struct Args {
    listen: Option<SocketAddr>,
    seed_pods: usize,
    seed_namespaces: usize,
    history: Option<usize>,
    tls: bool,
    tokens: Vec<String>,
    kubeconfig_out: Option<String>,
    bookmark_ms: Option<u64>,
    self_bench: Option<usize>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut a = Args {
        listen: None,
        seed_pods: 0,
        seed_namespaces: 1,
        history: None,
        tls: false,
        tokens: Vec::new(),
        kubeconfig_out: None,
        bookmark_ms: None,
        self_bench: None,
    };
    fn value(flag: &str, v: Option<String>) -> Result<String, String> {
        v.ok_or_else(|| format!("{flag} needs a value"))
    }
    fn number<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
        let v = value(flag, v)?;
        v.parse()
            .map_err(|_| format!("{flag}: {v:?} is not a valid number"))
    }
    while let Some(flag) = it.next() {
        let (flag, inline) = match flag.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (flag, None),
        };
        let mut next = || inline.clone().or_else(|| it.next());
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--listen" => {
                let v = value(&flag, next())?;
                a.listen = Some(v.parse().map_err(|_| {
                    format!("--listen: {v:?} is not an address like 127.0.0.1:8080")
                })?);
            }
            "--seed-pods" => a.seed_pods = number(&flag, next())?,
            "--seed-namespaces" => a.seed_namespaces = number(&flag, next())?,
            "--history" => a.history = Some(number(&flag, next())?),
            "--tls" => a.tls = true,
            "--token" => a.tokens.push(token(&flag, value(&flag, next())?)?),
            "--token-file" => {
                let path = value(&flag, next())?;
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("--token-file {path}: cannot read it: {e}"))?;
                a.tokens.push(token(&format!("--token-file {path}"), text)?);
            }
            "--kubeconfig-out" => a.kubeconfig_out = Some(value(&flag, next())?),
            "--bookmark-interval-ms" => a.bookmark_ms = Some(number(&flag, next())?),
            "--self-bench" => a.self_bench = Some(number(&flag, next())?),
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    match std::env::var(TOKEN_ENV) {
        Ok(t) => a.tokens.push(token(TOKEN_ENV, t)?),
        Err(std::env::VarError::NotPresent) => {}
        Err(std::env::VarError::NotUnicode(_)) => {
            return Err(format!("{TOKEN_ENV} is not valid UTF-8"));
        }
    }
    Ok(Some(a))
}

/// The environment variable holding a token, so that it need not be on the command line.
const TOKEN_ENV: &str = "TEST_APISERVER_TOKEN";

/// A token from `source`, trimmed; refused when empty or when it could not be sent in an
/// `Authorization` header (whitespace or control characters inside).
fn token(source: &str, text: String) -> Result<String, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("{source}: no token (empty)"));
    }
    if t.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "{source}: a token is one word without whitespace or control characters"
        ));
    }
    Ok(t.to_owned())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("test-apiserver: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(n) = args.self_bench {
        return match test_apiserver::selfbench::run(n).await {
            Ok(report) => {
                println!("{report}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("test-apiserver: self-bench failed: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut b = TestApiServer::builder()
        .seed_pods(args.seed_pods)
        .seed_namespaces(args.seed_namespaces)
        .tls(args.tls);
    if let Some(l) = args.listen {
        b = b.listen(l);
    }
    if let Some(h) = args.history {
        b = b.history(h);
    }
    if let Some(ms) = args.bookmark_ms {
        b = b.bookmark_interval(std::time::Duration::from_millis(ms));
    }
    for t in args.tokens {
        b = b.token(t);
    }
    let server = match b.start().await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("test-apiserver: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = &args.kubeconfig_out {
        if let Err(e) = server.write_kubeconfig(path) {
            eprintln!("test-apiserver: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!("listening on {}", server.url());
    if let Err(e) = wait_for_signal().await {
        eprintln!("test-apiserver: cannot wait for signals: {e}");
        return ExitCode::FAILURE;
    }
    server.shutdown().await;
    ExitCode::SUCCESS
}

async fn wait_for_signal() -> std::io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    Ok(())
}
