//! Realistic objects for seeding, tests and benchmarks: Pods of about 4.7 KB with
//! everything a controller-managed Pod carries, ConfigMaps, Nodes, Namespaces and a
//! CRD-shaped `Widget`; and minimal valid workloads and Services to POST.
//!
//! Objects carry `apiVersion` and `kind` and no server-owned fields (uid,
//! resourceVersion, creationTimestamp), so they can be POSTed as they are. The fixture
//! Pods already carry every default kube-apiserver would add to them, so the bulk paths
//! that store them without the write path's defaulting store what a real server would.

use serde_json::{json, Value};

use crate::resource::ResourceSpec;

/// Pods are spread over this many node names (`node-0` ...).
pub const NODES: usize = 16;

/// The parts of a fixture Pod that vary with its index.
struct PodVars {
    namespace: String,
    name: String,
    app: String,
    tier: String,
    index: String,
    owner: String,
    image: String,
    node: String,
    ip: String,
    host_ip: String,
    container_id: String,
    owner_uid: String,
}

impl PodVars {
    fn new(namespace: &str, name: &str, i: usize) -> Self {
        let tier = ["web", "api", "db"][i % 3];
        Self {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            app: format!("app-{}", i % 50),
            tier: tier.to_owned(),
            index: i.to_string(),
            owner: pod_owner_name(i),
            image: format!("registry.example.com/shop/{tier}:1.{}.0", i % 7),
            node: format!("node-{}", i % NODES),
            ip: format!("10.{}.{}.{}", 244 + (i >> 16) % 8, (i >> 8) % 256, i % 256),
            host_ip: format!("192.168.{}.{}", (i % NODES) / 256, 10 + i % NODES),
            container_id: format!("containerd://{i:064x}"),
            owner_uid: pod_owner_uid(namespace, i),
        }
    }

    /// Every field replaced by its template marker (see [`crate::template`]).
    fn markers() -> Self {
        let m = crate::template::marker;
        Self {
            namespace: m(0),
            name: m(1),
            app: m(2),
            tier: m(3),
            index: m(4),
            owner: m(5),
            image: m(6),
            node: m(7),
            ip: m(8),
            host_ip: m(9),
            container_id: m(10),
            owner_uid: m(11),
        }
    }

    fn into_vec(self) -> Vec<String> {
        vec![
            self.namespace,
            self.name,
            self.app,
            self.tier,
            self.index,
            self.owner,
            self.image,
            self.node,
            self.ip,
            self.host_ip,
            self.container_id,
            self.owner_uid,
        ]
    }
}

/// How many ReplicaSets fixture Pods are spread over: Pod `i` belongs to `app-{i % 50}`.
pub const POD_OWNERS: usize = 50;

/// The name of the ReplicaSet that owns fixture Pod `i`.
fn pod_owner_name(i: usize) -> String {
    format!("app-{}-7d4b9c8f6d", i % POD_OWNERS)
}

/// The uid of the ReplicaSet that owns fixture Pod `i` in `namespace` (see [`pod_owner`]):
/// fixed by the namespace and owner name, so every Pod of one owner names the same uid
/// and the owner a server seeds has it.
pub fn pod_owner_uid(namespace: &str, i: usize) -> String {
    // FNV-1a, twice with different offsets, for 128 stable bits in the UUID v4 layout.
    let hash = |offset: u64| {
        format!("{namespace}/{}", pod_owner_name(i))
            .bytes()
            .fold(offset, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            })
    };
    let (a, b) = (hash(0xcbf2_9ce4_8422_2325), hash(0x6c62_272e_07bb_0142));
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0x0fff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// The ReplicaSet that owns fixture Pod `i` in `namespace`, as a Deployment's controller
/// makes it (without the Deployment): `app-{i % 50}-7d4b9c8f6d`, selecting the Pods'
/// `app` and `pod-template-hash` labels. Its uid is [`pod_owner_uid`], which a create
/// cannot set (the server assigns uids): servers seed these into their `ns-*` namespaces.
pub fn pod_owner(namespace: &str, i: usize) -> Value {
    pod_owner_from(
        namespace,
        &pod_owner_name(i),
        &format!("app-{}", i % POD_OWNERS),
    )
}

fn pod_owner_from(namespace: &str, name: &str, app: &str) -> Value {
    let labels = json!({"app": app, "pod-template-hash": "7d4b9c8f6d"});
    json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": pod_spec("registry.example.com/shop/web:1.0.0")},
        },
    })
}

/// Writes the [`pod_owner`]s of fixture Pods into `namespace` as a create would store
/// them (defaulted, with the create's status and generation) but with their fixed uids,
/// which a create cannot choose: one batch from a template, as Pods are seeded.
pub(crate) fn seed_pod_owners(
    state: &crate::state::State,
    namespace: &str,
) -> Result<(), crate::status::StatusError> {
    let r = state.resolve_name("replicasets.apps")?;
    let m = crate::template::marker;
    let mut template = pod_owner_from(&m(0), &m(1), &m(2));
    let decoded = crate::defaults::decode(&r.spec, &mut template);
    crate::strategy::prepare_create(&r.spec, &mut template)?;
    crate::defaults::prepare_create(state, &r.spec, &mut template, decoded, &m(1))?;
    template["metadata"]["uid"] = Value::String(m(3));
    r.store
        .create_many(&state.clock, POD_OWNERS, template, &|k| {
            vec![
                namespace.to_owned(),
                pod_owner_name(k),
                format!("app-{k}"),
                pod_owner_uid(namespace, k),
            ]
        })
}

/// Number of variables of [`pod_template`]; [`pod_vars`] returns that many values.
pub(crate) const POD_VARS: usize = 12;

/// [`pod`] with every varying value replaced by a template marker.
pub(crate) fn pod_template() -> Value {
    pod_from(&PodVars::markers())
}

/// The values of [`pod_template`]'s variables for `pod(namespace, name, i)`.
pub(crate) fn pod_vars(namespace: &str, name: &str, i: usize) -> Vec<String> {
    PodVars::new(namespace, name, i).into_vec()
}

/// A Pod as a ReplicaSet creates it and a kubelet reports it: labels, annotations,
/// an ownerReference to its ReplicaSet [`pod_owner`] (which servers seed into their `ns-*`
/// namespaces: elsewhere create the owner first, or the garbage collector deletes the Pod
/// as kube-controller-manager would, unless the server was built with
/// `.collect_unknown_owners(false)`), one container with env (including a fieldRef), a port,
/// requests/limits, a volume mount, tolerations, `managedFields` of three managers as a
/// real server keeps them (~2 KB) and a running status. About 4.7 KB of JSON; `i`
/// varies labels, node and IPs.
pub fn pod(namespace: &str, name: &str, i: usize) -> Value {
    pod_from(&PodVars::new(namespace, name, i))
}

fn pod_from(v: &PodVars) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": v.name,
            "namespace": v.namespace,
            "labels": {
                "app": v.app,
                "tier": v.tier,
                "pod-template-hash": "7d4b9c8f6d",
                "app.kubernetes.io/part-of": "shop",
                "index": v.index,
            },
            "annotations": {
                "kubectl.kubernetes.io/restartedAt": "2025-06-01T10:00:00Z",
            },
            "ownerReferences": [{
                "apiVersion": "apps/v1",
                "kind": "ReplicaSet",
                "name": v.owner,
                "uid": v.owner_uid,
                "controller": true,
                "blockOwnerDeletion": true,
            }],
            "managedFields": managed_fields(v),
        },
        "spec": {
            "containers": [{
                "name": "app",
                "image": v.image,
                "env": [
                    {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                ],
                "ports": [
                    {"name": "http", "containerPort": 8080, "protocol": "TCP"},
                ],
                "resources": {
                    "requests": {"cpu": "100m", "memory": "128Mi"},
                    "limits": {"cpu": "500m", "memory": "512Mi"},
                },
                "volumeMounts": [{"name": "kube-api-access", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}],
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
                "imagePullPolicy": "IfNotPresent",
            }],
            "volumes": [{"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
            ]}}],
            "restartPolicy": "Always",
            "terminationGracePeriodSeconds": 30,
            "dnsPolicy": "ClusterFirst",
            "serviceAccountName": "default",
            "serviceAccount": "default",
            "securityContext": {},
            "nodeName": v.node,
            "schedulerName": "default-scheduler",
            "tolerations": [
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            ],
            "priority": 0,
            "enableServiceLinks": true,
            "preemptionPolicy": "PreemptLowerPriority",
        },
        "status": {
            "phase": "Running",
            "conditions": [
                {"type": "Initialized", "status": "True", "lastTransitionTime": "2025-06-01T10:00:01Z"},
                {"type": "Ready", "status": "True", "lastTransitionTime": "2025-06-01T10:00:05Z"},
                {"type": "ContainersReady", "status": "True", "lastTransitionTime": "2025-06-01T10:00:05Z"},
                {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2025-06-01T10:00:00Z"},
            ],
            "hostIP": v.host_ip,
            "podIP": v.ip,
            "podIPs": [{"ip": v.ip}],
            "startTime": "2025-06-01T10:00:01Z",
            "containerStatuses": [{
                "name": "app",
                "state": {"running": {"startedAt": "2025-06-01T10:00:03Z"}},
                "ready": true,
                "restartCount": 0,
                "image": v.image,
                "imageID": "registry.example.com/shop@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
                "containerID": v.container_id,
                "started": true,
            }],
            "qosClass": "Burstable",
        },
    })
}

/// `metadata.managedFields` as a real kube-apiserver keeps them for such a Pod: three
/// managers, ~1.8 KB of the Pod's JSON. kubectl-client-side-apply set the annotations and
/// tolerations, kube-controller-manager created the Pod from its ReplicaSet (labels, owner,
/// spec), and the kubelet owns the status through the `status` subresource. Caches that
/// keep them hold far more than this JSON: each `fieldsV1` decodes into a tree of maps.
fn managed_fields(v: &PodVars) -> Value {
    let condition = json!({".": {}, "f:lastProbeTime": {}, "f:lastTransitionTime": {}, "f:status": {}, "f:type": {}});
    let port = json!({".": {}, "f:containerPort": {}, "f:name": {}, "f:protocol": {}});
    json!([
        {
            "manager": "kubectl-client-side-apply",
            "operation": "Update",
            "apiVersion": "v1",
            "time": "2025-06-01T10:00:00Z",
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "f:metadata": {
                    "f:annotations": {".": {}, "f:kubectl.kubernetes.io/restartedAt": {}},
                    "f:labels": {"f:app.kubernetes.io/part-of": {}},
                },
                "f:spec": {"f:tolerations": {}},
            },
        },
        {
            "manager": "kube-controller-manager",
            "operation": "Update",
            "apiVersion": "v1",
            "time": "2025-06-01T10:00:00Z",
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "f:metadata": {
                    "f:generateName": {},
                    "f:labels": {".": {}, "f:app": {}, "f:index": {}, "f:pod-template-hash": {}, "f:tier": {}},
                    "f:ownerReferences": {".": {}, format!("k:{{\"uid\":\"{}\"}}", v.owner_uid): {}},
                },
                "f:spec": {
                    "f:containers": {"k:{\"name\":\"app\"}": {
                        ".": {},
                        "f:env": {
                            ".": {},
                            "k:{\"name\":\"POD_NAME\"}": {".": {}, "f:name": {}, "f:valueFrom": {".": {}, "f:fieldRef": {}}},
                        },
                        "f:image": {}, "f:imagePullPolicy": {}, "f:name": {},
                        "f:ports": {
                            ".": {},
                            "k:{\"containerPort\":8080,\"protocol\":\"TCP\"}": port,
                        },
                        "f:resources": {".": {}, "f:limits": {".": {}, "f:cpu": {}, "f:memory": {}}, "f:requests": {".": {}, "f:cpu": {}, "f:memory": {}}},
                        "f:terminationMessagePath": {}, "f:terminationMessagePolicy": {},
                    }},
                    "f:dnsPolicy": {}, "f:enableServiceLinks": {}, "f:restartPolicy": {}, "f:schedulerName": {},
                    "f:securityContext": {}, "f:terminationGracePeriodSeconds": {},
                },
            },
        },
        {
            "manager": "kubelet",
            "operation": "Update",
            "apiVersion": "v1",
            "time": "2025-06-01T10:00:05Z",
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "f:status": {
                    "f:conditions": {
                        "k:{\"type\":\"ContainersReady\"}": condition,
                        "k:{\"type\":\"Initialized\"}": condition,
                        "k:{\"type\":\"Ready\"}": condition,
                    },
                    "f:containerStatuses": {}, "f:hostIP": {}, "f:hostIPs": {}, "f:phase": {}, "f:podIP": {},
                    "f:podIPs": {".": {}, format!("k:{{\"ip\":\"{}\"}}", v.ip): {".": {}, "f:ip": {}}},
                    "f:startTime": {},
                },
            },
            "subresource": "status",
        },
    ])
}

/// The smallest valid pod spec: one container `app` running `image` (what a POST must
/// at least carry now that the server validates Pods and pod templates).
pub fn pod_spec(image: &str) -> Value {
    json!({"containers": [{"name": "app", "image": image}]})
}

/// A valid pod template labelled `app: {app}`.
fn pod_template_spec(app: &str) -> Value {
    json!({"metadata": {"labels": {"app": app}}, "spec": pod_spec("registry.example.com/shop/web:1.0.0")})
}

/// A minimal valid Deployment: `replicas` Pods labelled `app: {name}`, selected by that label.
pub fn deployment(namespace: &str, name: &str, replicas: i64) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": pod_template_spec(name),
        },
    })
}

/// A minimal valid StatefulSet of one Pod labelled `app: {name}`.
pub fn stateful_set(namespace: &str, name: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "serviceName": name,
            "selector": {"matchLabels": {"app": name}},
            "template": pod_template_spec(name),
        },
    })
}

/// A minimal valid ClusterIP Service on port 80 selecting `app: {name}`.
pub fn service(namespace: &str, name: &str) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"selector": {"app": name}, "ports": [{"port": 80}]},
    })
}

/// A minimal valid Job (one Pod, `restartPolicy: Never`); the server generates its selector.
pub fn job(namespace: &str, name: &str) -> Value {
    let mut spec = pod_spec("registry.example.com/shop/migrate:1.0.0");
    spec["restartPolicy"] = json!("Never");
    json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"template": {"spec": spec}},
    })
}

/// A minimal valid CronJob running [`job`]'s template hourly.
pub fn cron_job(namespace: &str, name: &str) -> Value {
    let template = job(namespace, name)["spec"]["template"].clone();
    json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": template}}},
    })
}

/// A ConfigMap with a few keys.
pub fn config_map(namespace: &str, name: &str, i: usize) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": namespace, "labels": {"app": format!("app-{}", i % 50)}},
        "data": {
            "LOG_LEVEL": "info",
            "FEATURE_FLAGS": "checkout,recommendations",
            "config.yaml": format!("replicas: {}\nregion: eu-west-1\n", i % 5 + 1),
        },
    })
}

/// A ready Node with capacity, addresses and node info.
pub fn node(name: &str, i: usize) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": {
            "kubernetes.io/hostname": name,
            "kubernetes.io/os": "linux",
            "topology.kubernetes.io/zone": format!("zone-{}", i % 3),
        }},
        "spec": {"podCIDR": format!("10.244.{}.0/24", i % 256)},
        "status": {
            "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
            "allocatable": {"cpu": "7800m", "memory": "31Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady", "lastHeartbeatTime": "2025-06-01T10:00:00Z", "lastTransitionTime": "2025-06-01T09:00:00Z"}],
            "addresses": [{"type": "InternalIP", "address": format!("192.168.0.{}", 10 + i % 200)}, {"type": "Hostname", "address": name}],
            "nodeInfo": {"kubeletVersion": "v1.33.0", "containerRuntimeVersion": "containerd://2.0.0", "osImage": "Debian GNU/Linux 12", "architecture": "amd64", "operatingSystem": "linux", "kernelVersion": "6.1.0", "machineID": "", "systemUUID": "", "bootID": "", "kubeProxyVersion": ""},
        },
    })
}

/// A Namespace.
pub fn namespace(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})
}

/// The spec of the CRD-shaped `Widget` (`widgets.example.com/v1`, namespaced), to `register`.
pub fn widget_spec() -> ResourceSpec {
    ResourceSpec::new("example.com", "v1", "Widget", "widgets", true)
}

/// A `Widget` custom object.
pub fn widget(namespace: &str, name: &str, i: usize) -> Value {
    let color = ["red", "green", "blue"][i % 3];
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": name, "namespace": namespace, "labels": {"color": color}},
        "spec": {"size": i % 10, "color": color, "port": "http"},
        "status": {"ready": i.is_multiple_of(2)},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(plural: &str) -> ResourceSpec {
        crate::builtin_resources()
            .into_iter()
            .find(|s| s.plural == plural)
            .expect("a built-in")
    }

    /// A server's state with `ns-0` and its `default` ServiceAccount, which pod admission
    /// looks up.
    fn state() -> std::sync::Arc<crate::state::State> {
        crate::TestApiServer::builder()
            .namespaces(["ns-0"])
            .build_state()
            .expect("a state")
    }

    #[test]
    fn fixture_pods_carry_every_default_the_server_adds() {
        let pods = resource("pods");
        let sent = pod("ns-0", "pod-0", 0);
        let mut stored = sent.clone();
        let decoded = crate::defaults::decode(&pods, &mut stored);
        crate::defaults::prepare_create(&state(), &pods, &mut stored, decoded, "pod-0").unwrap();
        assert_eq!(stored, sent);
        crate::validation::objectmeta::validate_create(&pods, &stored).unwrap();
    }

    #[test]
    fn workload_fixtures_are_valid() {
        let cases = [
            ("deployments", deployment("ns-0", "web", 2)),
            ("statefulsets", stateful_set("ns-0", "db")),
            ("services", service("ns-0", "web")),
            ("jobs", job("ns-0", "migrate")),
            ("cronjobs", cron_job("ns-0", "hourly")),
        ];
        let state = state();
        for (plural, mut obj) in cases {
            let spec = resource(plural);
            let decoded = crate::defaults::decode(&spec, &mut obj);
            crate::strategy::prepare_create(&spec, &mut obj).unwrap();
            crate::defaults::prepare_create(&state, &spec, &mut obj, decoded, plural).unwrap();
            crate::validation::objectmeta::validate_create(&spec, &obj)
                .unwrap_or_else(|e| panic!("{plural}: {}", e.message));
        }
    }

    #[test]
    fn pods_are_realistically_sized() {
        let len = serde_json::to_vec(&pod("ns-0", "pod-0", 0)).unwrap().len();
        let managed = serde_json::to_vec(&pod("ns-0", "pod-0", 0)["metadata"]["managedFields"])
            .unwrap()
            .len();
        assert!(
            (3600..=4800).contains(&len),
            "pod fixture is {len} bytes, {managed} of managedFields"
        );
        assert!(
            (1700..=2100).contains(&managed),
            "managedFields are {managed} bytes"
        );
    }
}
