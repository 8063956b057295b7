//! Pods and pod templates as kube-apiserver's decoder defaults them
//! (`pkg/apis/core/v1/defaults.go` and the generated defaulters that walk a `PodSpec`),
//! and the pod admission plugins a default cluster runs: `DefaultTolerationSeconds`,
//! `Priority` (no PriorityClass objects: only the built-in classes) and `ServiceAccount`.

use serde_json::{json, Map, Value};

use super::{child, default_nonzero, default_ptr, default_str, each_item};
use crate::meta::generated_name;
use crate::status::StatusError;

/// `DefaultTerminationGracePeriodSeconds`.
const GRACE_PERIOD: i64 = 30;
/// `SecretVolumeSourceDefaultMode` and the other volume sources' (0644).
const DEFAULT_MODE: i64 = 0o644;
/// Where the `ServiceAccount` admission plugin mounts the API credentials.
const TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The name prefix of the volume holding them.
const TOKEN_VOLUME_PREFIX: &str = "kube-api-access-";
/// `WarnOnlyBoundTokenExpirationSeconds`: the token lifetime the admission plugin asks for.
const TOKEN_EXPIRATION_SECONDS: i64 = 3607;

/// The container lists of a `PodSpec` the container defaulter walks.
const CONTAINER_LISTS: [&str; 3] = ["containers", "initContainers", "ephemeralContainers"];

/// A Pod: `SetDefaults_Pod` (requests default to limits, `enableServiceLinks`, host ports
/// under `hostNetwork`) and everything a pod template gets.
pub(crate) fn default_pod(pod: &mut Value) {
    let Some(spec) = super::spec_mut(pod) else {
        return;
    };
    for list in ["containers", "initContainers"] {
        each_item(spec, list, |c| {
            requests_from_limits(c);
        });
    }
    default_ptr(spec, "enableServiceLinks", json!(true));
    if spec.get("hostNetwork").and_then(Value::as_bool) == Some(true) {
        for list in ["containers", "initContainers"] {
            each_item(spec, list, |c| {
                each_item(c, "ports", |p| {
                    if p.get("hostPort").and_then(Value::as_i64).unwrap_or(0) == 0 {
                        if let Some(port) = p.get("containerPort").cloned() {
                            p.insert("hostPort".into(), port);
                        }
                    }
                });
            });
        }
    }
    default_pod_spec(spec);
}

/// A `PodTemplateSpec` (of a workload or a PodTemplate): its `spec` as a `PodSpec`.
/// `metadata` is a Go struct there: written even when empty (and, since `creationTimestamp`
/// is `omitzero`, as `{}`).
pub(crate) fn default_template(template: &mut Map<String, Value>) {
    default_ptr(template, "metadata", json!({}));
    if let Some(spec) = template.get_mut("spec").and_then(Value::as_object_mut) {
        default_pod_spec(spec);
    } else {
        let mut spec = Map::new();
        default_pod_spec(&mut spec);
        template.insert("spec".into(), Value::Object(spec));
    }
}

/// `SetDefaults_PodSpec` and the defaulters of what a `PodSpec` holds.
fn default_pod_spec(spec: &mut Map<String, Value>) {
    default_str(spec, "dnsPolicy", "ClusterFirst");
    default_str(spec, "restartPolicy", "Always");
    default_ptr(spec, "securityContext", json!({}));
    default_ptr(spec, "terminationGracePeriodSeconds", json!(GRACE_PERIOD));
    default_str(spec, "schedulerName", "default-scheduler");
    each_item(spec, "volumes", default_volume);
    for list in CONTAINER_LISTS {
        each_item(spec, list, default_container);
    }
}

/// `SetDefaults_Container` and what a container holds: ports' protocol, probes, lifecycle
/// handlers, env field references; `resources` is a struct in Go, so always written.
fn default_container(c: &mut Map<String, Value>) {
    if c.get("imagePullPolicy")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        let image = c.get("image").and_then(Value::as_str).unwrap_or_default();
        let policy = if image_tag(image).as_deref() == Some("latest") {
            "Always"
        } else {
            "IfNotPresent"
        };
        c.insert("imagePullPolicy".into(), json!(policy));
    }
    default_str(c, "terminationMessagePath", "/dev/termination-log");
    default_str(c, "terminationMessagePolicy", "File");
    if c.get("resources").is_none_or(Value::is_null) {
        c.insert("resources".into(), json!({}));
    }
    each_item(c, "ports", |p| default_str(p, "protocol", "TCP"));
    for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = c.get_mut(probe).and_then(Value::as_object_mut) {
            default_nonzero(p, "timeoutSeconds", 1);
            default_nonzero(p, "periodSeconds", 10);
            default_nonzero(p, "successThreshold", 1);
            default_nonzero(p, "failureThreshold", 3);
            default_handler(p);
        }
    }
    if let Some(lifecycle) = c.get_mut("lifecycle").and_then(Value::as_object_mut) {
        for hook in ["postStart", "preStop"] {
            if let Some(h) = lifecycle.get_mut(hook).and_then(Value::as_object_mut) {
                default_handler(h);
            }
        }
    }
    each_item(c, "env", |e| {
        if let Some(field_ref) = e
            .get_mut("valueFrom")
            .and_then(Value::as_object_mut)
            .and_then(|v| v.get_mut("fieldRef"))
            .and_then(Value::as_object_mut)
        {
            default_str(field_ref, "apiVersion", "v1");
        }
    });
}

/// `SetDefaults_HTTPGetAction` inside a probe or lifecycle handler.
fn default_handler(h: &mut Map<String, Value>) {
    if let Some(get) = h.get_mut("httpGet").and_then(Value::as_object_mut) {
        default_str(get, "path", "/");
        default_str(get, "scheme", "HTTP");
    }
}

/// The tag `parsers.ParseImageName` finds: the reference's tag, `latest` when it has
/// neither tag nor digest, none when it does not parse (an empty or upper-case name).
fn image_tag(image: &str) -> Option<String> {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    let (repo_last, tag) = match last.split_once(':') {
        Some((r, t)) => (r, Some(t)),
        None => (last, None),
    };
    let path = &name[..name.len() - last.len()];
    let repo = format!("{path}{repo_last}");
    let domain_len = repo.find('/').unwrap_or(0);
    let remainder = &repo[domain_len..];
    if repo_last.is_empty() || remainder.chars().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    match (tag, digest) {
        (Some(t), _) => Some(t.to_owned()),
        (None, Some(_)) => Some(String::new()),
        (None, None) => Some("latest".to_owned()),
    }
}

/// `SetDefaults_Volume` (a volume without a source is an `emptyDir`) and the volume
/// sources' own defaulters.
fn default_volume(v: &mut Map<String, Value>) {
    const SOURCES: [&str; 30] = [
        "hostPath",
        "emptyDir",
        "gcePersistentDisk",
        "awsElasticBlockStore",
        "gitRepo",
        "secret",
        "nfs",
        "iscsi",
        "glusterfs",
        "persistentVolumeClaim",
        "rbd",
        "flexVolume",
        "cinder",
        "cephfs",
        "flocker",
        "downwardAPI",
        "fc",
        "azureFile",
        "configMap",
        "vsphereVolume",
        "quobyte",
        "azureDisk",
        "photonPersistentDisk",
        "projected",
        "portworxVolume",
        "scaleIO",
        "storageos",
        "csi",
        "ephemeral",
        "image",
    ];
    if !SOURCES
        .iter()
        .any(|s| v.get(*s).is_some_and(|x| !x.is_null()))
    {
        v.insert("emptyDir".into(), json!({}));
    }
    for source in ["secret", "configMap", "downwardAPI", "projected"] {
        if let Some(s) = v.get_mut(source).and_then(Value::as_object_mut) {
            default_ptr(s, "defaultMode", json!(DEFAULT_MODE));
        }
    }
    if let Some(h) = v.get_mut("hostPath").and_then(Value::as_object_mut) {
        default_ptr(h, "type", json!(""));
    }
    if let Some(d) = v.get_mut("downwardAPI").and_then(Value::as_object_mut) {
        each_item(d, "items", default_field_ref);
    }
    if let Some(p) = v.get_mut("projected").and_then(Value::as_object_mut) {
        each_item(p, "sources", |s| {
            if let Some(t) = s
                .get_mut("serviceAccountToken")
                .and_then(Value::as_object_mut)
            {
                default_ptr(t, "expirationSeconds", json!(3600));
            }
            if let Some(d) = s.get_mut("downwardAPI").and_then(Value::as_object_mut) {
                each_item(d, "items", default_field_ref);
            }
        });
    }
    if let Some(image) = v.get_mut("image").and_then(Value::as_object_mut) {
        if image
            .get("pullPolicy")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            let reference = image
                .get("reference")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let policy = if image_tag(reference).as_deref() == Some("latest") {
                "Always"
            } else {
                "IfNotPresent"
            };
            image.insert("pullPolicy".into(), json!(policy));
        }
    }
    if let Some(spec) = v
        .get_mut("ephemeral")
        .and_then(Value::as_object_mut)
        .and_then(|e| e.get_mut("volumeClaimTemplate"))
        .and_then(Value::as_object_mut)
        .and_then(|t| t.get_mut("spec"))
        .and_then(Value::as_object_mut)
    {
        default_ptr(spec, "volumeMode", json!("Filesystem"));
    }
}

/// `SetDefaults_ObjectFieldSelector` in a downward API item.
fn default_field_ref(item: &mut Map<String, Value>) {
    if let Some(f) = item.get_mut("fieldRef").and_then(Value::as_object_mut) {
        default_str(f, "apiVersion", "v1");
    }
}

/// `SetDefaults_Pod`'s first loop: a container's requests default to its limits.
fn requests_from_limits(c: &mut Map<String, Value>) {
    let Some(resources) = c.get_mut("resources").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(limits) = resources.get("limits").and_then(Value::as_object).cloned() else {
        return;
    };
    let requests = resources
        .entry("requests")
        .or_insert_with(|| Value::Object(Map::new()));
    if !requests.is_object() {
        *requests = Value::Object(Map::new());
    }
    if let Some(requests) = requests.as_object_mut() {
        for (k, v) in limits {
            requests.entry(k).or_insert(v);
        }
    }
}

/// `DefaultTolerationSeconds` (on create and update): pods that do not tolerate the
/// `not-ready` and `unreachable` NoExecute taints tolerate them for 300 seconds.
pub(crate) fn admit_tolerations(pod: &mut Value) {
    let Some(spec) = child(pod, "spec") else {
        return;
    };
    let tolerates = |list: &[Value], key: &str| {
        list.iter().any(|t| {
            let k = t.get("key").and_then(Value::as_str).unwrap_or_default();
            let e = t.get("effect").and_then(Value::as_str).unwrap_or_default();
            (k == key || k.is_empty()) && (e == "NoExecute" || e.is_empty())
        })
    };
    let list = spec
        .get("tolerations")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut added = Vec::new();
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        if !tolerates(&list, key) {
            added.push(json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}));
        }
    }
    if added.is_empty() {
        return;
    }
    let mut list = list;
    list.extend(added);
    spec.insert("tolerations".into(), Value::Array(list));
}

/// The `Priority` admission plugin on create, in a cluster without PriorityClass objects
/// of its own: no class means priority 0 (no global default exists); the two built-in
/// classes have their fixed values; any other class is refused. A priority or
/// preemption policy the pod states must agree.
pub(crate) fn admit_priority(pod: &mut Value, name: &str) -> Result<(), StatusError> {
    let Some(spec) = child(pod, "spec") else {
        return Ok(());
    };
    let class = spec
        .get("priorityClassName")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let priority: i64 = match class {
        "" => 0,
        "system-node-critical" => 2_000_001_000,
        "system-cluster-critical" => 2_000_000_000,
        other => {
            return Err(super::forbidden_pod(
                name,
                &format!("no PriorityClass with name {other} was found"),
            ))
        }
    };
    if let Some(given) = spec.get("priority").and_then(Value::as_i64) {
        if given != priority {
            return Err(super::forbidden_pod(
                name,
                &format!("the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name"),
            ));
        }
    }
    spec.insert("priority".into(), json!(priority));
    let policy = "PreemptLowerPriority";
    match spec.get("preemptionPolicy").and_then(Value::as_str) {
        Some(given) if given != policy => Err(super::forbidden_pod(
            name,
            &format!("the string value of PreemptionPolicy ({given}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"),
        )),
        _ => {
            spec.insert("preemptionPolicy".into(), json!(policy));
            Ok(())
        }
    }
}

/// Looks a ServiceAccount up by namespace and name: `Ok(None)` when it does not exist.
pub(crate) type AccountLookup<'a> = dyn Fn(&str, &str) -> Result<Option<Value>, StatusError> + 'a;

/// The `ServiceAccount` admission plugin on create (`Admit`): `serviceAccountName`
/// defaults to `default`; the account must exist in the pod's namespace (else 403, as
/// `name` is known to admission); unless the pod's `automountServiceAccountToken`, else
/// the account's, is false, every container without a mount at the credentials' path
/// mounts a `kube-api-access-xxxxx` projected volume (token, cluster CA, namespace), added
/// when some container needed it; a pod without `imagePullSecrets` gets the account's.
/// Mirror pods are left as they are.
pub(crate) fn admit_service_account(
    pod: &mut Value,
    name: &str,
    lookup: &AccountLookup<'_>,
) -> Result<(), StatusError> {
    let mirror = pod
        .pointer("/metadata/annotations/kubernetes.io~1config.mirror")
        .is_some();
    let namespace = crate::meta::meta_str(pod, "namespace")
        .unwrap_or_default()
        .to_owned();
    let Some(spec) = child(pod, "spec") else {
        return Ok(());
    };
    if mirror {
        return Ok(());
    }
    default_str(spec, "serviceAccountName", "default");
    let account_name = spec
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_owned();
    let Some(account) = lookup(&namespace, &account_name)? else {
        return Err(super::forbidden_pod(
            name,
            &format!(
                "error looking up service account {namespace}/{account_name}: serviceaccount {} not found",
                crate::schema::field::go_quote(&account_name)
            ),
        ));
    };
    let automount = spec
        .get("automountServiceAccountToken")
        .and_then(Value::as_bool)
        .or_else(|| {
            account
                .get("automountServiceAccountToken")
                .and_then(Value::as_bool)
        })
        .unwrap_or(true);
    if automount {
        mount_token(spec);
    }
    let has_pull_secrets = spec
        .get("imagePullSecrets")
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty());
    let account_pull_secrets: Vec<Value> = account
        .get("imagePullSecrets")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|r| match r.get("name").filter(|n| n.as_str() != Some("")) {
                    Some(n) => json!({"name": n}),
                    None => json!({}),
                })
                .collect()
        })
        .unwrap_or_default();
    if !has_pull_secrets && !account_pull_secrets.is_empty() {
        spec.insert(
            "imagePullSecrets".into(),
            Value::Array(account_pull_secrets),
        );
    }
    Ok(())
}

/// The plugin's `mountServiceAccountToken`: the projected token volume (an existing
/// `kube-api-access-*` one is reused) mounted in every init and regular container that has
/// nothing mounted at the credentials' path.
fn mount_token(spec: &mut Map<String, Value>) {
    let existing = spec
        .get("volumes")
        .and_then(Value::as_array)
        .and_then(|vs| {
            vs.iter()
                .filter_map(|v| v.get("name").and_then(Value::as_str))
                .find(|n| n.starts_with(TOKEN_VOLUME_PREFIX))
        })
        .map(str::to_owned);
    let volume_name = existing
        .clone()
        .unwrap_or_else(|| generated_name(TOKEN_VOLUME_PREFIX));
    let mount = json!({"name": volume_name, "readOnly": true, "mountPath": TOKEN_MOUNT_PATH});
    let mut needed = false;
    for list in ["initContainers", "containers"] {
        each_item(spec, list, |c| {
            let mounted = c
                .get("volumeMounts")
                .and_then(Value::as_array)
                .is_some_and(|ms| {
                    ms.iter().any(|m| {
                        m.get("mountPath").and_then(Value::as_str) == Some(TOKEN_MOUNT_PATH)
                    })
                });
            if !mounted {
                needed = true;
                push(c, "volumeMounts", mount.clone());
            }
        });
    }
    if existing.is_none() && needed {
        push(
            spec,
            "volumes",
            json!({"name": volume_name, "projected": {
                "defaultMode": DEFAULT_MODE,
                "sources": [
                    {"serviceAccountToken": {"expirationSeconds": TOKEN_EXPIRATION_SECONDS, "path": "token"}},
                    {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
                ],
            }}),
        );
    }
}

/// Appends `item` to the list `m[key]` (made when absent).
fn push(m: &mut Map<String, Value>, key: &str, item: Value) {
    let list = m.entry(key).or_insert_with(|| Value::Array(Vec::new()));
    if !list.is_array() {
        *list = Value::Array(Vec::new());
    }
    if let Value::Array(l) = list {
        l.push(item);
    }
}

/// The v1 conversion writes `serviceAccountName` into the deprecated `serviceAccount`
/// (and reads it from there when only that one is sent): both always agree.
pub(crate) fn convert_service_account(spec: &mut Map<String, Value>) {
    let name = spec
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .or_else(|| spec.get("serviceAccount").and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned();
    if name.is_empty() {
        spec.remove("serviceAccount");
        spec.remove("serviceAccountName");
    } else {
        spec.insert("serviceAccountName".into(), json!(name.clone()));
        spec.insert("serviceAccount".into(), json!(name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_tags_as_parse_image_name_finds_them() {
        assert_eq!(image_tag("nginx").as_deref(), Some("latest"));
        assert_eq!(image_tag("nginx:1.27").as_deref(), Some("1.27"));
        assert_eq!(image_tag("localhost:5000/app").as_deref(), Some("latest"));
        assert_eq!(image_tag("localhost:5000/app:v2").as_deref(), Some("v2"));
        assert_eq!(image_tag("app@sha256:abc").as_deref(), Some(""));
        assert_eq!(image_tag(""), None);
        assert_eq!(image_tag("Nginx"), None);
    }
}
