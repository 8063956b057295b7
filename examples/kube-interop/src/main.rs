//! Our shared informers and listers over a `kube::Client`: a kube-rs user's client,
//! configured the usual way, carries every list and watch; a `#[derive(CustomResource)]`
//! type takes one line (`kube_resource!`) to be cached, and Pods come from the generated
//! factory as always.
//!
//! With a kubeconfig (or in a cluster) it talks to that cluster, where the Widget CRD
//! (`widgets.example.com`, printed with `--crd`) must be installed; with none it starts the
//! embedded test API server with sample objects, says so, and also shows live events.
//! `--embedded` forces the embedded server.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::CustomResourceExt;
use kube_informers::informers::SharedInformerFactory;
use kube_informers::{
    Client, Deleted, InformerFactory, Lister, ResourceEventHandlerFuncs, Selector,
};
use kube_interop::{Widget, WidgetSpec};
use test_apiserver::{fixtures, Embedded, RunningServer, TestApiServer, TestEnv};

const SAMPLE_PODS: usize = 200;
const SAMPLE_WIDGETS: usize = 30;
const SAMPLE_NAMESPACES: usize = 3;

#[derive(Default)]
struct Counts {
    added: AtomicUsize,
    updated: AtomicUsize,
    deleted: AtomicUsize,
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        // Escape codes only where a terminal turns them into colour, not into a piped log.
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().any(|a| a == "--crd") {
        print!("{}", serde_json::to_string_pretty(&Widget::crd())?);
        return Ok(());
    }
    let force_embedded = std::env::args().any(|a| a == "--embedded");
    let (kube_client, embedded) = connect(force_embedded).await?;

    // The one step from kube-rs: our client over the kube::Client's transport and auth.
    let client = Client::from_kube(kube_client.clone());
    let factory = SharedInformerFactory::builder(client)
        .default_resync(Duration::ZERO)
        .build();
    let pods = factory.core().v1().pods();
    let widgets = factory.informer_for(kube_informers::kube::resource::<Widget>());

    let counts = Arc::new(Counts::default());
    let (a, u, d) = (counts.clone(), counts.clone(), counts.clone());
    // Each handler prints before it counts: once `run` sees a count, the line is out.
    let registration = widgets.add_event_handler(
        ResourceEventHandlerFuncs::default()
            .on_add(move |w: &Arc<Widget>, in_initial_list| {
                if !in_initial_list {
                    println!("  event: added widget {} (size {})", name(w), w.spec.size);
                }
                a.added.fetch_add(1, Ordering::Release);
            })
            .on_update(move |_old: &Arc<Widget>, new: &Arc<Widget>| {
                println!(
                    "  event: updated widget {} (size {})",
                    name(new),
                    new.spec.size
                );
                u.updated.fetch_add(1, Ordering::Release);
            })
            .on_delete(move |gone: &Deleted<Widget>| {
                match gone {
                    Deleted::Object(w) => println!("  event: deleted widget {}", name(w)),
                    Deleted::FinalStateUnknown { key, .. } => {
                        println!("  event: deleted widget {key} (seen on relist)")
                    }
                    Deleted::LeftShard { key, .. } => {
                        println!("  event: widget {key} left this replica's shard")
                    }
                    other => println!("  event: deleted widget {}", other.key()),
                }
                d.deleted.fetch_add(1, Ordering::Release);
            }),
    );

    let started = std::time::Instant::now();
    factory.start();
    factory.wait_for_cache_sync().await?;
    wait_until(|| registration.has_synced()).await?;
    let widget_lister = Lister::new(widgets.indexer());
    println!(
        "caches synced through kube::Client in {:.0?}: {} pods, {} widgets (initial adds delivered: {})",
        started.elapsed(),
        pods.lister().list(&Selector::everything()).len(),
        widget_lister.list(&Selector::everything()).len(),
        counts.added.load(Ordering::Acquire),
    );
    let red: Selector = "color=red".parse()?;
    for ns in namespaces(&widget_lister).iter().take(5) {
        let here = widget_lister.namespaced(ns);
        println!(
            "  namespace {ns}: {} widgets ({} red), {} pods",
            here.list(&Selector::everything()).len(),
            here.list(&red).len(),
            pods.lister().pods(ns).list(&Selector::everything()).len(),
        );
    }

    if embedded.is_embedded() {
        live_events(&kube_client, &counts).await?;
        println!(
            "widget handler saw {} adds, {} updates, {} deletes",
            counts.added.load(Ordering::Acquire),
            counts.updated.load(Ordering::Acquire),
            counts.deleted.load(Ordering::Acquire)
        );
    }

    factory.shutdown().await;
    embedded.shutdown().await;
    println!("shut down cleanly");
    Ok(())
}

/// A kube::Client for the configured cluster, or for the embedded test API server (from
/// its kubeconfig: HTTPS with its own CA, a bearer token) when none is configured.
async fn connect(
    force_embedded: bool,
) -> Result<(kube::Client, Embedded), Box<dyn std::error::Error>> {
    // The helper decides and starts the server; this example then talks through kube-rs's
    // own client, so it keeps only the guard.
    let (_, embedded) = TestEnv::builder()
        .server(
            TestApiServer::builder()
                .tls(true)
                .token("kube-interop-example")
                .seed_pods(SAMPLE_PODS)
                .seed_namespaces(SAMPLE_NAMESPACES)
                .resource(fixtures::widget_spec()),
        )
        .prefer_embedded(force_embedded)
        .client_or_embedded()
        .await?;
    let Some(server) = embedded.server() else {
        return Ok((kube::Client::try_default().await?, embedded));
    };
    seed_widgets(server)?;
    println!(
        "embedded server: {SAMPLE_PODS} sample pods and {SAMPLE_WIDGETS} widgets in {SAMPLE_NAMESPACES} namespaces"
    );
    let kubeconfig = Kubeconfig::from_yaml(&server.kubeconfig_yaml())?;
    let config =
        kube::Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default()).await?;
    Ok((kube::Client::try_from(config)?, embedded))
}

/// The sample widgets, written in-process (as a POST of each would be).
fn seed_widgets(server: &RunningServer) -> Result<(), Box<dyn std::error::Error>> {
    for i in 0..SAMPLE_WIDGETS {
        let ns = format!("ns-{}", i % SAMPLE_NAMESPACES);
        server.create(
            "widgets.example.com",
            Some(&ns),
            fixtures::widget(&ns, &format!("widget-{i}"), i),
        )?;
    }
    Ok(())
}

/// Writes through kube-rs's own `Api` (the same kube::Client) and waits for our informer's
/// handler to report each change, so what is printed comes in the order it happened.
async fn live_events(
    kube_client: &kube::Client,
    counts: &Counts,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("writing through kube::Api<Widget>; our informer reports:");
    let ns = "ns-0";
    let seen = |count: &AtomicUsize| count.load(Ordering::Acquire);
    let (added, updated, deleted) = (
        seen(&counts.added),
        seen(&counts.updated),
        seen(&counts.deleted),
    );
    let api: kube::Api<Widget> = kube::Api::namespaced(kube_client.clone(), ns);
    let mut widget = Widget::new(
        "demo-widget",
        WidgetSpec {
            size: 3,
            color: "red".into(),
            port: None,
        },
    );
    widget.metadata.labels = Some([("color".to_owned(), "red".to_owned())].into());
    api.create(&kube::api::PostParams::default(), &widget)
        .await?;
    wait_until(|| seen(&counts.added) > added).await?;
    let patch = serde_json::json!({"spec": {"size": 7}});
    api.patch(
        "demo-widget",
        &kube::api::PatchParams::default(),
        &kube::api::Patch::Merge(&patch),
    )
    .await?;
    wait_until(|| seen(&counts.updated) > updated).await?;
    api.delete("demo-widget", &kube::api::DeleteParams::default())
        .await?;
    wait_until(|| seen(&counts.deleted) > deleted).await?;
    Ok(())
}

/// The namespaces that hold widgets, in order.
fn namespaces(widgets: &Lister<Widget>) -> Vec<String> {
    let mut all: Vec<String> = widgets
        .list(&Selector::everything())
        .iter()
        .filter_map(|w| w.metadata.namespace.clone())
        .collect();
    all.sort();
    all.dedup();
    all
}

async fn wait_until(done: impl Fn() -> bool) -> Result<(), Box<dyn std::error::Error>> {
    for _ in 0..500 {
        if done() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Err("the informer did not report the change within 5 s: is the machine overloaded? run the example again".into())
}

fn name(widget: &Widget) -> &str {
    widget.metadata.name.as_deref().unwrap_or("<unnamed>")
}
