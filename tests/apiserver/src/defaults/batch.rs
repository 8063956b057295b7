//! `pkg/apis/batch/v1/defaults.go` and the Job strategy's generated selector.

use serde_json::{json, Map, Value};

use super::{child, default_ptr, default_str, with_child, with_template};

/// `batch.kubernetes.io/controller-uid` and its legacy form: the uid the generated
/// selector matches.
const CONTROLLER_UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];
/// `batch.kubernetes.io/job-name` and its legacy form.
const JOB_NAME_LABELS: [&str; 2] = ["job-name", "batch.kubernetes.io/job-name"];

/// `SetDefaults_Job`: completions and parallelism 1 when neither is set, backoffLimit 6
/// (MaxInt32 with a per-index limit), the object's labels from the template's when it has
/// none, NonIndexed, not suspended, podReplacementPolicy (Failed with a pod failure
/// policy, else TerminatingOrFailed), manualSelector false. Returns whether the labels
/// were taken from the template (in Go the two are then one map).
pub(crate) fn default_job(obj: &mut Value) -> bool {
    let template_labels = obj
        .pointer("/spec/template/metadata/labels")
        .filter(|l| l.is_object())
        .cloned();
    let mut aliased = false;
    if let (Some(labels), Some(meta)) = (template_labels, child(obj, "metadata")) {
        if meta
            .get("labels")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
        {
            meta.insert("labels".into(), labels);
            aliased = true;
        }
    }
    if let Some(spec) = super::spec_mut(obj) {
        let unset = |s: &Map<String, Value>, k: &str| s.get(k).is_none_or(Value::is_null);
        if unset(spec, "completions") && unset(spec, "parallelism") {
            spec.insert("completions".into(), json!(1));
        }
        default_ptr(spec, "parallelism", json!(1));
        let backoff = if unset(spec, "backoffLimitPerIndex") {
            6
        } else {
            i64::from(i32::MAX)
        };
        default_ptr(spec, "backoffLimit", json!(backoff));
        default_ptr(spec, "completionMode", json!("NonIndexed"));
        default_ptr(spec, "suspend", json!(false));
        if let Some(policy) = spec
            .get_mut("podFailurePolicy")
            .and_then(Value::as_object_mut)
        {
            super::each_item(policy, "rules", |rule| {
                super::each_item(rule, "onPodConditions", |p| {
                    default_str(p, "status", "True")
                });
            });
        }
        let replacement = if unset(spec, "podFailurePolicy") {
            "TerminatingOrFailed"
        } else {
            "Failed"
        };
        default_ptr(spec, "podReplacementPolicy", json!(replacement));
        default_ptr(spec, "manualSelector", json!(false));
    }
    with_template(obj, &["spec", "template"], false);
    aliased
}

/// `SetDefaults_CronJob`: Allow, not suspended, 3 successful and 1 failed Jobs kept; the
/// job template's pod template defaulted (not the Job defaults: those apply to Jobs).
pub(crate) fn default_cron_job(obj: &mut Value) {
    if let Some(spec) = super::spec_mut(obj) {
        default_str(spec, "concurrencyPolicy", "Allow");
        default_ptr(spec, "suspend", json!(false));
        default_ptr(spec, "successfulJobsHistoryLimit", json!(3));
        default_ptr(spec, "failedJobsHistoryLimit", json!(1));
        with_child(spec, "jobTemplate", |t| {
            default_ptr(t, "metadata", json!({}))
        });
    }
    with_template(obj, &["spec", "jobTemplate", "spec", "template"], false);
}

/// The Job strategy's `generateSelector` (unless `manualSelector`): the template gets
/// the job-name and controller-uid labels (each kept when already set) and the selector
/// matches the controller uid; with `aliased`, the object's labels get them too.
pub(crate) fn generate_selector(obj: &mut Value, aliased: bool) {
    if obj.pointer("/spec/manualSelector").and_then(Value::as_bool) == Some(true) {
        return;
    }
    let meta = |k: &str| crate::meta::meta_str(obj, k).unwrap_or_default().to_owned();
    let (name, uid) = (meta("name"), meta("uid"));
    let mut wanted: Vec<(&str, &str)> = JOB_NAME_LABELS
        .iter()
        .map(|l| (*l, name.as_str()))
        .collect();
    wanted.extend(CONTROLLER_UID_LABELS.iter().map(|l| (*l, uid.as_str())));
    let mut added = Vec::new();
    if let Some(template) = obj
        .pointer_mut("/spec/template")
        .and_then(Value::as_object_mut)
    {
        with_child(template, "metadata", |m| {
            with_child(m, "labels", |labels| {
                for (k, v) in &wanted {
                    if !labels.contains_key(*k) {
                        labels.insert((*k).into(), json!(v));
                        added.push((*k, *v));
                    }
                }
            });
        });
    }
    if aliased {
        if let Some(m) = child(obj, "metadata") {
            with_child(m, "labels", |labels| {
                for (k, v) in &added {
                    labels.insert((*k).into(), json!(v));
                }
            });
        }
    }
    if let Some(spec) = super::spec_mut(obj) {
        default_ptr(spec, "selector", json!({}));
        if let Some(selector) = spec.get_mut("selector").and_then(Value::as_object_mut) {
            with_child(selector, "matchLabels", |m| {
                if !m.contains_key(CONTROLLER_UID_LABELS[1]) {
                    m.insert(CONTROLLER_UID_LABELS[1].into(), json!(uid));
                }
            });
        }
    }
}
