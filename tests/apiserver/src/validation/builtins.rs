//! The `spec` validations of built-in workloads and Services that controllers trip over
//! most, as `pkg/apis/core/validation`, `pkg/apis/apps/validation` and
//! `pkg/apis/batch/validation` (Kubernetes 1.37) run them after `metadata`: each field
//! error with its real text, in the real order. What is and is not checked is listed in
//! the README.

use serde_json::{Map, Value};

use super::names;
use crate::defaults::service::cluster_ips;
use crate::defaults::{kind, Kind};
use crate::resource::ResourceSpec;
use crate::schema::field::go_quote;

/// A field error: the field path and the body, as in [`super::objectmeta`].
type FieldError = (String, String);

/// `validation.IsValidPortNum`'s message.
const PORT_RANGE: &str = "must be between 1 and 65535, inclusive";

fn invalid(field: &str, shown: &str, detail: &str) -> FieldError {
    (
        field.to_owned(),
        format!("Invalid value: {shown}: {detail}"),
    )
}

fn required(field: &str) -> FieldError {
    (field.to_owned(), "Required value".to_owned())
}

fn duplicate(field: &str, value: &str) -> FieldError {
    (
        field.to_owned(),
        format!("Duplicate value: {}", go_quote(value)),
    )
}

fn not_supported(field: &str, value: &str, supported: &[&str]) -> FieldError {
    let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
    (
        field.to_owned(),
        format!(
            "Unsupported value: {}: supported values: {}",
            go_quote(value),
            list.join(", ")
        ),
    )
}

fn str_at<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn list_at<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `ValidateNonnegativeField`.
fn nonnegative(v: &Value, key: &str, path: &str, errs: &mut Vec<FieldError>) {
    if let Some(n) = v.get(key).and_then(Value::as_i64).filter(|n| *n < 0) {
        errs.push(invalid(
            &format!("{path}.{key}"),
            &n.to_string(),
            "must be greater than or equal to 0",
        ));
    }
}

/// The errors of a create of `obj`, after its `metadata`'s.
pub(crate) fn create_errors(spec: &ResourceSpec, obj: &Value) -> Vec<FieldError> {
    let Some(which) = kind(spec) else {
        return Vec::new();
    };
    let empty = Value::Object(Map::new());
    let s = obj.get("spec").unwrap_or(&empty);
    let mut errs = Vec::new();
    match which {
        Kind::Pod => pod_spec(s, "spec", &mut errs),
        Kind::ReplicationController => replication_controller(s, &mut errs),
        Kind::Service => service(s, &mut errs),
        Kind::Deployment => deployment(s, &mut errs),
        Kind::ReplicaSet => replica_set(s, &mut errs),
        Kind::StatefulSet => stateful_set(s, &mut errs),
        Kind::DaemonSet => daemon_set(s, &mut errs),
        Kind::Job => job_spec(s, "spec", true, &mut errs),
        Kind::CronJob => cron_job(s, &mut errs),
    }
    errs
}

/// The errors of an update from `old` to `new`, after its `metadata`'s: the new object's
/// `spec` validated as on create (Pods excepted: their update rules are not modelled),
/// then the immutable fields, in the order each strategy checks them.
pub(crate) fn update_errors(spec: &ResourceSpec, old: &Value, new: &Value) -> Vec<FieldError> {
    let Some(which) = kind(spec) else {
        return Vec::new();
    };
    let selector = |o: &Value| o.get("spec").and_then(|s| s.get("selector")).cloned();
    match which {
        Kind::Pod => Vec::new(),
        Kind::Service => {
            let mut errs = cluster_ips_update(old, new);
            errs.extend(create_errors(spec, new));
            errs
        }
        Kind::Deployment | Kind::ReplicaSet | Kind::DaemonSet => {
            let mut errs = create_errors(spec, new);
            if selector(old) != selector(new) {
                errs.push(invalid(
                    "spec.selector",
                    &go_label_selector(selector(new).as_ref()),
                    "field is immutable",
                ));
            }
            errs
        }
        Kind::StatefulSet => {
            let mut errs = create_errors(spec, new);
            let frozen = |o: &Value| {
                let mut s = o.get("spec").cloned().unwrap_or(Value::Null);
                if let Some(m) = s.as_object_mut() {
                    for k in [
                        "replicas",
                        "ordinals",
                        "template",
                        "updateStrategy",
                        "persistentVolumeClaimRetentionPolicy",
                        "minReadySeconds",
                    ] {
                        m.remove(k);
                    }
                }
                s
            };
            if frozen(old) != frozen(new) {
                errs.push(("spec".to_owned(), "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden".to_owned()));
            }
            errs
        }
        Kind::Job => {
            let mut errs = create_errors(spec, new);
            if selector(old) != selector(new) {
                errs.push(invalid(
                    "spec.selector",
                    &go_label_selector(selector(new).as_ref()),
                    "field is immutable",
                ));
            }
            errs
        }
        Kind::ReplicationController | Kind::CronJob => create_errors(spec, new),
    }
}

/// Go's `%#v` of a `map[string]string` (keys sorted; `(nil)` for none).
fn go_string_map(m: Option<&Value>) -> String {
    match m.and_then(Value::as_object) {
        None => "map[string]string(nil)".to_owned(),
        Some(m) => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let items: Vec<String> = entries
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}:{}",
                        go_quote(k),
                        go_quote(v.as_str().unwrap_or_default())
                    )
                })
                .collect();
            format!("map[string]string{{{}}}", items.join(", "))
        }
    }
}

/// Go's `%#v` of a `[]string` (`(nil)` for none).
fn go_string_slice(l: Option<&Value>) -> String {
    match l.and_then(Value::as_array) {
        None => "[]string(nil)".to_owned(),
        Some(l) => {
            let items: Vec<String> = l
                .iter()
                .map(|v| go_quote(v.as_str().unwrap_or_default()))
                .collect();
            format!("[]string{{{}}}", items.join(", "))
        }
    }
}

/// Go's `%#v` of a `metav1.LabelSelector`, as field errors print a `*LabelSelector`.
fn go_label_selector(sel: Option<&Value>) -> String {
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return "null".to_owned();
    };
    let expressions = match sel.get("matchExpressions").and_then(Value::as_array) {
        None => "[]v1.LabelSelectorRequirement(nil)".to_owned(),
        Some(l) => {
            let items: Vec<String> = l
                .iter()
                .map(|r| {
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{}}}",
                        go_quote(str_at(r, "key")),
                        go_quote(str_at(r, "operator")),
                        go_string_slice(r.get("values"))
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", items.join(", "))
        }
    };
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{}}}",
        go_string_map(sel.get("matchLabels")),
        expressions
    )
}

/// What `metav1.LabelSelectorAsSelector` makes of a selector.
enum Selector<'a> {
    /// A nil selector: matches nothing.
    Nothing,
    /// An empty one: matches everything (and is `Empty()`).
    Everything,
    /// Match labels and expressions.
    Some(&'a Value),
    /// Does not convert.
    Invalid,
}

fn as_selector(sel: Option<&Value>) -> Selector<'_> {
    let Some(sel) = sel.filter(|s| !s.is_null()) else {
        return Selector::Nothing;
    };
    let labels = sel.get("matchLabels").and_then(Value::as_object);
    let expressions = list_at(sel, "matchExpressions");
    if labels.is_none_or(Map::is_empty) && expressions.is_empty() {
        return Selector::Everything;
    }
    let bad_label = labels.is_some_and(|m| {
        m.iter().any(|(k, v)| {
            !names::qualified_name(k).is_empty()
                || !names::label_value(v.as_str().unwrap_or_default()).is_empty()
        })
    });
    if bad_label
        || expressions
            .iter()
            .any(|r| !expression_errors(r, "").is_empty())
    {
        return Selector::Invalid;
    }
    Selector::Some(sel)
}

/// The errors of one `matchExpressions` item (`ValidateLabelSelectorRequirement`).
fn expression_errors(r: &Value, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let values = list_at(r, "values");
    match str_at(r, "operator") {
        "In" | "NotIn" => {
            if values.is_empty() {
                errs.push((
                    format!("{path}.values"),
                    "Required value: must be specified when `operator` is 'In' or 'NotIn'"
                        .to_owned(),
                ));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !values.is_empty() {
                errs.push((
                    format!("{path}.values"),
                    "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                        .to_owned(),
                ));
            }
        }
        op => errs.push(invalid(
            &format!("{path}.operator"),
            &go_quote(op),
            "not a valid selector operator",
        )),
    }
    let key = str_at(r, "key");
    for msg in names::qualified_name(key) {
        errs.push(invalid(&format!("{path}.key"), &go_quote(key), &msg));
    }
    errs
}

/// `ValidateLabelSelector`: expressions, then the match labels.
fn label_selector_errors(sel: &Value, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, r) in list_at(sel, "matchExpressions").iter().enumerate() {
        errs.extend(expression_errors(
            r,
            &format!("{path}.matchExpressions[{i}]"),
        ));
    }
    if let Some(m) = sel.get("matchLabels").and_then(Value::as_object) {
        let mut keys: Vec<&String> = m.keys().collect();
        keys.sort();
        for k in keys {
            for msg in names::qualified_name(k) {
                errs.push(invalid(&format!("{path}.matchLabels"), &go_quote(k), &msg));
            }
            let v = m.get(k).and_then(Value::as_str).unwrap_or_default();
            for msg in names::label_value(v) {
                errs.push(invalid(&format!("{path}.matchLabels"), &go_quote(v), &msg));
            }
        }
    }
    errs
}

fn matches(sel: &Value, labels: Option<&Map<String, Value>>) -> bool {
    let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    let by_labels = sel
        .get("matchLabels")
        .and_then(Value::as_object)
        .is_none_or(|m| m.iter().all(|(k, v)| get(k) == v.as_str()));
    by_labels
        && list_at(sel, "matchExpressions").iter().all(|r| {
            let key = str_at(r, "key");
            let values: Vec<&str> = list_at(r, "values")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            match str_at(r, "operator") {
                "In" => get(key).is_some_and(|v| values.contains(&v)),
                "NotIn" => get(key).is_none_or(|v| !values.contains(&v)),
                "Exists" => get(key).is_some(),
                "DoesNotExist" => get(key).is_none(),
                _ => false,
            }
        })
}

/// The template's labels against the selector: `selector` does not match template
/// `labels` (a nil selector matches nothing; an empty one is not checked).
fn template_match(
    selector: &Selector<'_>,
    template: &Value,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let labels = template.pointer("/metadata/labels");
    let ok = match selector {
        Selector::Nothing => false,
        Selector::Everything | Selector::Invalid => true,
        Selector::Some(sel) => matches(sel, labels.and_then(Value::as_object)),
    };
    if !ok {
        errs.push(invalid(
            &format!("{path}.metadata.labels"),
            &go_string_map(labels),
            "`selector` does not match template `labels`",
        ));
    }
}

/// The selector checks of Deployments, ReplicaSets and StatefulSets: required, valid,
/// not empty.
fn required_selector(s: &Value, what: &str, errs: &mut Vec<FieldError>) {
    match s.get("selector").filter(|v| !v.is_null()) {
        None => errs.push(required("spec.selector")),
        Some(sel) => {
            errs.extend(label_selector_errors(sel, "spec.selector"));
            if matches!(as_selector(Some(sel)), Selector::Everything) {
                errs.push(invalid(
                    "spec.selector",
                    &go_label_selector(Some(sel)),
                    &format!("empty selector is invalid for {what}"),
                ));
            }
        }
    }
}

/// `ValidatePodTemplateSpecForReplicaSet` (Deployments and ReplicaSets) and its
/// ReplicationController twin: the match, the pod template, restartPolicy Always, no
/// activeDeadlineSeconds.
fn replicated_template(selector: &Selector<'_>, template: &Value, errs: &mut Vec<FieldError>) {
    template_match(selector, template, "spec.template", errs);
    pod_template(template, "spec.template", errs);
    always_restarts(template, "spec.template", errs);
}

fn always_restarts(template: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let spec = template.get("spec").unwrap_or(&Value::Null);
    let policy = str_at(spec, "restartPolicy");
    if policy != "Always" {
        errs.push(not_supported(
            &format!("{path}.spec.restartPolicy"),
            policy,
            &["Always"],
        ));
    }
    if let Some(n) = spec.get("activeDeadlineSeconds").and_then(Value::as_i64) {
        errs.push(invalid(
            &format!("{path}.spec.activeDeadlineSeconds"),
            &n.to_string(),
            "activeDeadlineSeconds in ReplicaSet is not Supported",
        ));
    }
}

/// A Deployment's or ReplicaSet's selector, then its template against it.
fn selector_and_template(s: &Value, errs: &mut Vec<FieldError>) {
    let selector = as_selector(s.get("selector"));
    if matches!(selector, Selector::Invalid) {
        errs.push(invalid(
            "spec.selector",
            &go_label_selector(s.get("selector")),
            "invalid label selector",
        ));
    } else {
        replicated_template(&selector, s.get("template").unwrap_or(&Value::Null), errs);
    }
}

/// `ValidateDeploymentSpec`.
fn deployment(s: &Value, errs: &mut Vec<FieldError>) {
    nonnegative(s, "replicas", "spec", errs);
    required_selector(s, "deployment", errs);
    selector_and_template(s, errs);
    let strategy = s.get("strategy").unwrap_or(&Value::Null);
    if str_at(strategy, "type") == "Recreate"
        && strategy.get("rollingUpdate").is_some_and(|r| !r.is_null())
    {
        errs.push((
            "spec.strategy.rollingUpdate".to_owned(),
            "Forbidden: may not be specified when strategy `type` is 'Recreate'".to_owned(),
        ));
    }
    nonnegative(s, "minReadySeconds", "spec", errs);
    nonnegative(s, "revisionHistoryLimit", "spec", errs);
    if let Some(deadline) = s.get("progressDeadlineSeconds").and_then(Value::as_i64) {
        nonnegative(s, "progressDeadlineSeconds", "spec", errs);
        let min_ready = s
            .get("minReadySeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if deadline <= min_ready {
            errs.push(invalid(
                "spec.progressDeadlineSeconds",
                &deadline.to_string(),
                "must be greater than minReadySeconds",
            ));
        }
    }
}

/// `ValidateReplicaSetSpec`.
fn replica_set(s: &Value, errs: &mut Vec<FieldError>) {
    nonnegative(s, "replicas", "spec", errs);
    nonnegative(s, "minReadySeconds", "spec", errs);
    required_selector(s, "deployment", errs);
    selector_and_template(s, errs);
}

/// `ValidateStatefulSetSpec`'s replicas, selector and template checks (its template's
/// pod spec is not validated by kube-apiserver either).
fn stateful_set(s: &Value, errs: &mut Vec<FieldError>) {
    nonnegative(s, "replicas", "spec", errs);
    nonnegative(s, "minReadySeconds", "spec", errs);
    required_selector(s, "statefulset", errs);
    let selector = as_selector(s.get("selector"));
    let template = s.get("template").unwrap_or(&Value::Null);
    if matches!(selector, Selector::Invalid) {
        errs.push(invalid(
            "spec.selector",
            &go_label_selector(s.get("selector")),
            "",
        ));
    } else {
        template_match(&selector, template, "spec.template", errs);
    }
    let policy = template
        .pointer("/spec/restartPolicy")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if policy != "Always" {
        errs.push(not_supported(
            "spec.template.spec.restartPolicy",
            policy,
            &["Always"],
        ));
    }
}

/// `ValidateDaemonSetSpec`'s selector and template checks.
fn daemon_set(s: &Value, errs: &mut Vec<FieldError>) {
    let sel = s.get("selector").filter(|v| !v.is_null());
    if let Some(sel) = sel {
        errs.extend(label_selector_errors(sel, "spec.selector"));
    }
    let template = s.get("template").unwrap_or(&Value::Null);
    let selector = as_selector(sel);
    if !matches!(selector, Selector::Invalid | Selector::Everything) {
        let labels = template.pointer("/metadata/labels");
        let ok = match selector {
            Selector::Some(sel) => matches(sel, labels.and_then(Value::as_object)),
            _ => false,
        };
        if !ok {
            errs.push(invalid(
                "spec.template.metadata.labels",
                &go_string_map(labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    if matches!(selector, Selector::Everything) {
        errs.push(invalid(
            "spec.selector",
            &go_label_selector(sel),
            "empty selector is invalid for daemonset",
        ));
    }
    pod_template(template, "spec.template", errs);
    let policy = template
        .pointer("/spec/restartPolicy")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if policy != "Always" {
        errs.push(not_supported(
            "spec.template.spec.restartPolicy",
            policy,
            &["Always"],
        ));
    }
    nonnegative(s, "minReadySeconds", "spec", errs);
}

/// `ValidateReplicationControllerSpec`.
fn replication_controller(s: &Value, errs: &mut Vec<FieldError>) {
    nonnegative(s, "minReadySeconds", "spec", errs);
    let selector = s.get("selector").and_then(Value::as_object);
    if selector.is_none_or(Map::is_empty) {
        errs.push(required("spec.selector"));
    }
    nonnegative(s, "replicas", "spec", errs);
    match s.get("template").filter(|t| !t.is_null()) {
        None => errs.push(required("spec.template")),
        Some(template) => {
            if let Some(sel) = selector.filter(|m| !m.is_empty()) {
                let labels = template.pointer("/metadata/labels");
                let l = labels.and_then(Value::as_object);
                let ok = sel
                    .iter()
                    .all(|(k, v)| l.and_then(|l| l.get(k)).and_then(Value::as_str) == v.as_str());
                if !ok {
                    errs.push(invalid(
                        "spec.template.metadata.labels",
                        &go_string_map(labels),
                        "`selector` does not match template `labels`",
                    ));
                }
            }
            pod_template(template, "spec.template", errs);
            always_restarts(template, "spec.template", errs);
        }
    }
}

/// `validateJobSpec` (and, for a Job itself, its selector): counts non-negative, the
/// selector matching the template, the pod template, restartPolicy OnFailure or Never.
fn job_spec(s: &Value, path: &str, has_selector: bool, errs: &mut Vec<FieldError>) {
    for key in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
    ] {
        nonnegative(s, key, path, errs);
    }
    let template = s.get("template").unwrap_or(&Value::Null);
    if has_selector {
        match s.get("selector").filter(|v| !v.is_null()) {
            None => errs.push(required(&format!("{path}.selector"))),
            Some(sel) => errs.extend(label_selector_errors(sel, &format!("{path}.selector"))),
        }
        let selector = as_selector(s.get("selector"));
        let labels = template.pointer("/metadata/labels");
        let ok = match selector {
            Selector::Invalid => true,
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Some(sel) => matches(sel, labels.and_then(Value::as_object)),
        };
        if !ok {
            errs.push(invalid(
                &format!("{path}.template.metadata.labels"),
                &go_string_map(labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    let template_path = format!("{path}.template");
    pod_template(template, &template_path, errs);
    let policy = template
        .pointer("/spec/restartPolicy")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if policy != "OnFailure" && policy != "Never" {
        errs.push(not_supported(
            &format!("{template_path}.spec.restartPolicy"),
            policy,
            &["OnFailure", "Never"],
        ));
    }
}

/// `ValidateCronJobSpec`: a schedule, and the job template as a Job's spec.
fn cron_job(s: &Value, errs: &mut Vec<FieldError>) {
    if str_at(s, "schedule").is_empty() {
        errs.push(required("spec.schedule"));
    }
    let job = s.pointer("/jobTemplate/spec").unwrap_or(&Value::Null);
    job_spec(job, "spec.jobTemplate.spec", false, errs);
}

/// `ValidatePodTemplateSpec`: the template's pod spec; no ephemeral containers.
fn pod_template(template: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let spec = template.get("spec").unwrap_or(&Value::Null);
    pod_spec(spec, &format!("{path}.spec"), errs);
    if !list_at(spec, "ephemeralContainers").is_empty() {
        errs.push((
            format!("{path}.spec.ephemeralContainers"),
            "Forbidden: ephemeral containers not allowed in pod template".to_owned(),
        ));
    }
}

/// `ValidatePodSpec`'s volumes, containers, init containers and restart policy.
fn pod_spec(spec: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let mut volumes: Vec<&str> = Vec::new();
    for (i, v) in list_at(spec, "volumes").iter().enumerate() {
        let name = str_at(v, "name");
        let field = format!("{path}.volumes[{i}].name");
        let mut el = Vec::new();
        if name.is_empty() {
            el.push(required(&field));
        } else {
            for msg in names::dns1123_label(name) {
                el.push(invalid(&field, &go_quote(name), &msg));
            }
        }
        if volumes.contains(&name) {
            el.push(duplicate(&field, name));
        }
        if el.is_empty() {
            volumes.push(name);
        }
        errs.extend(el);
    }
    let containers = list_at(spec, "containers");
    let containers_path = format!("{path}.containers");
    if containers.is_empty() {
        errs.push(required(&containers_path));
    } else {
        let mut seen: Vec<&str> = Vec::new();
        for (i, c) in containers.iter().enumerate() {
            let at = format!("{containers_path}[{i}]");
            container(c, &at, &volumes, errs);
            let name = str_at(c, "name");
            if seen.contains(&name) {
                errs.push(duplicate(&format!("{at}.name"), name));
            } else {
                seen.push(name);
            }
        }
    }
    let mut all: Vec<&str> = containers.iter().map(|c| str_at(c, "name")).collect();
    for (i, c) in list_at(spec, "initContainers").iter().enumerate() {
        let at = format!("{path}.initContainers[{i}]");
        container(c, &at, &volumes, errs);
        let name = str_at(c, "name");
        if all.contains(&name) {
            errs.push(duplicate(&format!("{at}.name"), name));
        } else if !name.is_empty() {
            all.push(name);
        }
    }
    let policy = str_at(spec, "restartPolicy");
    match policy {
        "Always" | "OnFailure" | "Never" => {}
        "" => errs.push(required(&format!("{path}.restartPolicy"))),
        other => errs.push(not_supported(
            &format!("{path}.restartPolicy"),
            other,
            &["Always", "OnFailure", "Never"],
        )),
    }
}

/// `validateContainerCommon`'s name, image, termination message policy, ports, env
/// names, volume mounts and pull policy.
fn container(c: &Value, at: &str, volumes: &[&str], errs: &mut Vec<FieldError>) {
    let name = str_at(c, "name");
    if name.is_empty() {
        errs.push(required(&format!("{at}.name")));
    } else {
        for msg in names::dns1123_label(name) {
            errs.push(invalid(&format!("{at}.name"), &go_quote(name), &msg));
        }
    }
    if str_at(c, "image").is_empty() {
        errs.push(required(&format!("{at}.image")));
    }
    match str_at(c, "terminationMessagePolicy") {
        "File" | "FallbackToLogsOnError" => {}
        "" => errs.push(required(&format!("{at}.terminationMessagePolicy"))),
        other => errs.push(not_supported(
            &format!("{at}.terminationMessagePolicy"),
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    container_ports(c, at, errs);
    for (i, e) in list_at(c, "env").iter().enumerate() {
        if str_at(e, "name").is_empty() {
            errs.push(required(&format!("{at}.env[{i}].name")));
        }
    }
    let mut mount_paths: Vec<&str> = Vec::new();
    for (i, m) in list_at(c, "volumeMounts").iter().enumerate() {
        let mp = format!("{at}.volumeMounts[{i}]");
        let name = str_at(m, "name");
        if name.is_empty() {
            errs.push(required(&format!("{mp}.name")));
        }
        if !volumes.contains(&name) {
            errs.push((
                format!("{mp}.name"),
                format!("Not found: {}", go_quote(name)),
            ));
        }
        let path = str_at(m, "mountPath");
        if path.is_empty() {
            errs.push(required(&format!("{mp}.mountPath")));
        }
        if mount_paths.contains(&path) {
            errs.push(invalid(
                &format!("{mp}.mountPath"),
                &go_quote(path),
                "must be unique",
            ));
        }
        mount_paths.push(path);
    }
    match str_at(c, "imagePullPolicy") {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errs.push(required(&format!("{at}.imagePullPolicy"))),
        other => errs.push(not_supported(
            &format!("{at}.imagePullPolicy"),
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
}

/// `validateContainerPorts`.
fn container_ports(c: &Value, at: &str, errs: &mut Vec<FieldError>) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, p) in list_at(c, "ports").iter().enumerate() {
        let pp = format!("{at}.ports[{i}]");
        let name = str_at(p, "name");
        if !name.is_empty() {
            let msgs = port_name_errors(name);
            if !msgs.is_empty() {
                for msg in msgs {
                    errs.push(invalid(&format!("{pp}.name"), &go_quote(name), msg));
                }
            } else if seen.contains(&name) {
                errs.push(duplicate(&format!("{pp}.name"), name));
            } else {
                seen.push(name);
            }
        }
        let port = p.get("containerPort").and_then(Value::as_i64).unwrap_or(0);
        if port == 0 {
            errs.push(required(&format!("{pp}.containerPort")));
        } else if !(1..=65535).contains(&port) {
            errs.push(invalid(
                &format!("{pp}.containerPort"),
                &port.to_string(),
                PORT_RANGE,
            ));
        }
        let host = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
        if host != 0 && !(1..=65535).contains(&host) {
            errs.push(invalid(
                &format!("{pp}.hostPort"),
                &host.to_string(),
                PORT_RANGE,
            ));
        }
        protocol(p, &pp, errs);
    }
}

fn protocol(p: &Value, pp: &str, errs: &mut Vec<FieldError>) {
    match str_at(p, "protocol") {
        "TCP" | "UDP" | "SCTP" => {}
        "" => errs.push(required(&format!("{pp}.protocol"))),
        other => errs.push(not_supported(
            &format!("{pp}.protocol"),
            other,
            &["SCTP", "TCP", "UDP"],
        )),
    }
}

/// `validation.IsValidPortName` (an IANA service name).
fn port_name_errors(name: &str) -> Vec<&'static str> {
    let mut msgs = Vec::new();
    if name.len() > 15 {
        msgs.push("must be no more than 15 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        msgs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if !name.bytes().any(|b| b.is_ascii_lowercase()) {
        msgs.push("must contain at least one letter (a-z)");
    }
    if name.contains("--") {
        msgs.push("must not contain consecutive hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') {
        msgs.push("must not begin or end with a hyphen");
    }
    msgs
}

/// `ValidateService`'s ports and type.
fn service(s: &Value, errs: &mut Vec<FieldError>) {
    let kind = str_at(s, "type");
    let headless = str_at(s, "clusterIP") == "None";
    let ports = list_at(s, "ports");
    if ports.is_empty() && !headless && kind != "ExternalName" {
        errs.push(required("spec.ports"));
    }
    let mut names_seen: Vec<&str> = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let pp = format!("spec.ports[{i}]");
        let name = str_at(p, "name");
        if ports.len() > 1 && name.is_empty() {
            errs.push(required(&format!("{pp}.name")));
        } else if !name.is_empty() {
            for msg in names::dns1123_label(name) {
                errs.push(invalid(&format!("{pp}.name"), &go_quote(name), &msg));
            }
            if names_seen.contains(&name) {
                errs.push(duplicate(&format!("{pp}.name"), name));
            } else {
                names_seen.push(name);
            }
        }
        let port = p.get("port").and_then(Value::as_i64).unwrap_or(0);
        if !(1..=65535).contains(&port) {
            errs.push(invalid(
                &format!("{pp}.port"),
                &port.to_string(),
                PORT_RANGE,
            ));
        }
        protocol(p, &pp, errs);
        match p.get("targetPort") {
            Some(Value::Number(n)) => {
                let n = n.as_i64().unwrap_or(0);
                if !(1..=65535).contains(&n) {
                    errs.push(invalid(
                        &format!("{pp}.targetPort"),
                        &n.to_string(),
                        PORT_RANGE,
                    ));
                }
            }
            Some(Value::String(t)) => {
                for msg in port_name_errors(t) {
                    errs.push(invalid(&format!("{pp}.targetPort"), &go_quote(t), msg));
                }
            }
            _ => {}
        }
    }
    if !matches!(
        kind,
        "ClusterIP" | "ExternalName" | "LoadBalancer" | "NodePort"
    ) {
        errs.push(not_supported(
            "spec.type",
            kind,
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        ));
    }
}

/// `validateUpgradeDowngradeClusterIPs`: the cluster IPs of a Service may not change
/// (after the values a client left out were kept from the stored object).
fn cluster_ips_update(old: &Value, new: &Value) -> Vec<FieldError> {
    let kind = |o: &Value| {
        o.pointer("/spec/type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    if kind(old) == "ExternalName" || kind(new) == "ExternalName" {
        return Vec::new();
    }
    let headless = |o: &Value| o.pointer("/spec/clusterIP").and_then(Value::as_str) == Some("None");
    if headless(old) && headless(new) {
        return Vec::new();
    }
    let (before, after) = (cluster_ips(old), cluster_ips(new));
    let shown = format!(
        "[]string{{{}}}",
        after
            .iter()
            .map(|i| go_quote(i))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut errs = Vec::new();
    if before.len() == after.len() {
        for (i, ip) in before.iter().enumerate() {
            if *ip != after[i] {
                errs.push(invalid(
                    &format!("spec.clusterIPs[{i}]"),
                    &shown,
                    "may not change once set",
                ));
            }
        }
    } else if after.is_empty() {
        errs.push(invalid(
            "spec.clusterIPs[0]",
            &shown,
            "primary clusterIP can not be unset",
        ));
    } else if before.first() != after.first() {
        errs.push(invalid(
            "spec.clusterIPs[0]",
            &shown,
            "may not change once set",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selectors_print_as_go_does() {
        assert_eq!(
            go_label_selector(Some(&json!({"matchLabels": {"b": "2", "a": "1"}}))),
            r#"v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "b":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"#
        );
        assert_eq!(
            go_label_selector(Some(
                &json!({"matchExpressions": [{"key": "k", "operator": "Exists"}]})
            )),
            r#"v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"Exists", Values:[]string(nil)}}}"#
        );
    }

    #[test]
    fn port_names_are_iana_service_names() {
        assert!(port_name_errors("http").is_empty());
        assert_eq!(
            port_name_errors("8080"),
            ["must contain at least one letter (a-z)"]
        );
    }
}
