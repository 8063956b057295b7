//! `informer-gen crd --from-cluster [NAMES]` and `crd -`: CRDs read from the cluster of the
//! kubeconfig (the test API server, serving `customresourcedefinitions.apiextensions.k8s.io`
//! like kube-apiserver) or from standard input generate exactly what the same manifests
//! generate from files.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde::Deserialize as _;
use test_apiserver::{ResourceSpec, TestApiServer};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

/// Runs the binary with `KUBECONFIG` (if any) and `stdin` (if any).
fn informer_gen(args: &[&str], kubeconfig: Option<&Path>, stdin: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_informer-gen"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(path) = kubeconfig {
        command.env("KUBECONFIG", path);
    }
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn success(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every file under `dir`, by path relative to `dir`.
fn read_tree(dir: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<PathBuf, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else {
                let rel = path.strip_prefix(base).unwrap().to_owned();
                out.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The CRD objects of a YAML or JSON manifest (it may hold other objects too).
fn crd_objects(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|document| serde_json::Value::deserialize(document).unwrap())
        .filter(|object| object["kind"] == "CustomResourceDefinition")
        .collect()
}

/// `schema` made structural the way a CRD author would: a union whose branches all
/// carry one type gets that type and keeps its branches' other validations; one whose
/// branches carry different types keeps unknown fields instead.
fn structural(schema: &mut serde_json::Value) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    let int_or_string = node.get("x-kubernetes-int-or-string") == Some(&serde_json::json!(true));
    for union in ["anyOf", "oneOf"] {
        let Some(branches) = node.get(union).and_then(|b| b.as_array()).cloned() else {
            continue;
        };
        if node.contains_key("type") || int_or_string {
            continue;
        }
        let types: std::collections::BTreeSet<String> = branches
            .iter()
            .filter_map(|b| b.get("type")?.as_str().map(str::to_owned))
            .collect();
        match types.into_iter().collect::<Vec<_>>().as_slice() {
            [one] => {
                node.insert("type".into(), serde_json::json!(one));
                let stripped = branches
                    .into_iter()
                    .map(|mut b| {
                        if let Some(b) = b.as_object_mut() {
                            b.remove("type");
                        }
                        b
                    })
                    .collect();
                node.insert(union.into(), serde_json::Value::Array(stripped));
            }
            _ => {
                node.remove(union);
                node.insert(
                    "x-kubernetes-preserve-unknown-fields".into(),
                    serde_json::json!(true),
                );
            }
        }
    }
    for key in ["properties"] {
        if let Some(props) = node.get_mut(key).and_then(|p| p.as_object_mut()) {
            props.values_mut().for_each(structural);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = node.get_mut(key) {
            structural(sub);
        }
    }
}

/// `crd <inputs> --out <dir>/crds`, run in a blocking task: the test server runs on this
/// runtime's other thread.
async fn generate(args: Vec<String>, kubeconfig: Option<PathBuf>, out: PathBuf) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut all: Vec<&str> = vec!["crd"];
        all.extend(args.iter().map(String::as_str));
        all.extend(["--out", out.to_str().unwrap()]);
        informer_gen(&all, kubeconfig.as_deref(), None)
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_cluster_generates_what_the_manifests_generate() {
    let server = TestApiServer::builder().start().await.unwrap();
    server.register(ResourceSpec::new(
        "apiextensions.k8s.io",
        "v1",
        "CustomResourceDefinition",
        "customresourcedefinitions",
        false,
    ));
    let dir = tempfile::tempdir().unwrap();
    // The cluster gets (and the files generate from) structural copies of the golden
    // manifests: like kube-apiserver, the test server refuses a schema whose union
    // branches carry the types.
    let manifests = dir.path().join("manifests");
    std::fs::create_dir(&manifests).unwrap();
    let widgets = manifests.join("widgets.yaml");
    for (from, to) in [
        ("crd-golden/widgets.yaml", widgets.clone()),
        ("crd-golden/gadgets.json", manifests.join("gadgets.yaml")),
    ] {
        let mut text = String::new();
        for mut crd in crd_objects(&fixture(from)) {
            for version in crd["spec"]["versions"].as_array_mut().unwrap() {
                structural(&mut version["schema"]["openAPIV3Schema"]);
            }
            text.push_str("---\n");
            text.push_str(&serde_yaml_ng::to_string(&crd).unwrap());
            server
                .create("customresourcedefinitions.apiextensions.k8s.io", None, crd)
                .unwrap();
        }
        std::fs::write(to, text).unwrap();
    }
    let kubeconfig = dir.path().join("kubeconfig");
    server.write_kubeconfig(&kubeconfig).unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_owned();

    // Every CRD of the cluster.
    let out = dir.path().join("cluster/crds");
    let result = generate(
        vec!["--from-cluster".into()],
        Some(kubeconfig.clone()),
        out.clone(),
    )
    .await;
    success(&result);
    let files = dir.path().join("files/crds");
    success(&generate(vec![path(&manifests)], None, files.clone()).await);
    assert_eq!(read_tree(&out), read_tree(&files));

    // Named CRDs only.
    let out = dir.path().join("one/crds");
    let result = generate(
        vec!["--from-cluster".into(), "widgets.example.com".into()],
        Some(kubeconfig.clone()),
        out.clone(),
    )
    .await;
    success(&result);
    let files = dir.path().join("one-file/crds");
    success(&generate(vec![path(&widgets)], None, files.clone()).await);
    assert_eq!(read_tree(&out), read_tree(&files));

    // A CRD the cluster does not have: one error line naming it, nothing written.
    let out = dir.path().join("missing/crds");
    let result = generate(
        vec!["--from-cluster".into(), "nothing.example.com".into()],
        Some(kubeconfig),
        out.clone(),
    )
    .await;
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("customresourcedefinitions/nothing.example.com"),
        "{stderr}"
    );
    assert!(!out.exists());
    server.shutdown().await;
}

#[test]
fn stdin_is_read_for_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    let widgets = fixture("crd-golden/widgets.yaml");
    let text = std::fs::read_to_string(&widgets).unwrap();
    let piped = dir.path().join("piped/crds");
    success(&informer_gen(
        &["crd", "-", "--out", piped.to_str().unwrap()],
        None,
        Some(&text),
    ));
    let files = dir.path().join("files/crds");
    success(&informer_gen(
        &[
            "crd",
            widgets.to_str().unwrap(),
            "--out",
            files.to_str().unwrap(),
        ],
        None,
        None,
    ));
    assert_eq!(read_tree(&piped), read_tree(&files));

    // Errors name standard input.
    let bad = dir.path().join("bad/crds");
    let result = informer_gen(
        &["crd", "-", "--out", bad.to_str().unwrap()],
        None,
        Some("kind: ConfigMap\napiVersion: v1\n"),
    );
    assert_eq!(result.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("<stdin>: no CustomResourceDefinition"),
        "{stderr}"
    );
    assert!(!bad.exists());
}
