//! `pkg/apis/apps/v1/defaults.go` and the core group's ReplicationController defaults:
//! the workloads' own fields and their pod templates.

use serde_json::{json, Value};

use super::{child, default_ptr, default_str, with_child, with_template};

/// `SetDefaults_Deployment`: 1 replica, a 25%/25% RollingUpdate strategy, 10 revisions,
/// a 600 s progress deadline.
pub(crate) fn default_deployment(obj: &mut Value) {
    if let Some(spec) = super::spec_mut(obj) {
        default_ptr(spec, "replicas", json!(1));
        with_child(spec, "strategy", |strategy| {
            default_str(strategy, "type", "RollingUpdate");
            if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
                with_child(strategy, "rollingUpdate", |r| {
                    default_ptr(r, "maxUnavailable", json!("25%"));
                    default_ptr(r, "maxSurge", json!("25%"));
                });
            }
        });
        default_ptr(spec, "revisionHistoryLimit", json!(10));
        default_ptr(spec, "progressDeadlineSeconds", json!(600));
    }
    with_template(obj, &["spec", "template"], false);
}

/// `SetDefaults_ReplicaSet`: 1 replica.
pub(crate) fn default_replica_set(obj: &mut Value) {
    if let Some(spec) = super::spec_mut(obj) {
        default_ptr(spec, "replicas", json!(1));
    }
    with_template(obj, &["spec", "template"], false);
}

/// `SetDefaults_StatefulSet`: OrderedReady, a RollingUpdate strategy with partition 0 and
/// (MaxUnavailableStatefulSet, beta and on since 1.35) maxUnavailable 1, a Retain/Retain
/// PVC retention policy, 1 replica, 10 revisions; the claim templates as PVCs are
/// defaulted (Filesystem volumes, `status.phase: Pending`).
pub(crate) fn default_stateful_set(obj: &mut Value) {
    if let Some(spec) = super::spec_mut(obj) {
        default_str(spec, "podManagementPolicy", "OrderedReady");
        with_child(spec, "updateStrategy", |strategy| {
            if strategy
                .get("type")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                strategy.insert("type".into(), json!("RollingUpdate"));
                default_ptr(strategy, "rollingUpdate", json!({}));
            }
            if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
                if let Some(r) = strategy
                    .get_mut("rollingUpdate")
                    .and_then(Value::as_object_mut)
                {
                    default_ptr(r, "partition", json!(0));
                    default_ptr(r, "maxUnavailable", json!(1));
                }
            }
        });
        with_child(spec, "persistentVolumeClaimRetentionPolicy", |p| {
            default_str(p, "whenDeleted", "Retain");
            default_str(p, "whenScaled", "Retain");
        });
        default_ptr(spec, "replicas", json!(1));
        default_ptr(spec, "revisionHistoryLimit", json!(10));
        super::each_item(spec, "volumeClaimTemplates", |pvc| {
            with_child(pvc, "spec", |s| {
                default_ptr(s, "volumeMode", json!("Filesystem"))
            });
            with_child(pvc, "status", |s| default_str(s, "phase", "Pending"));
        });
    }
    with_template(obj, &["spec", "template"], false);
}

/// `SetDefaults_DaemonSet`: a RollingUpdate strategy with maxUnavailable 1 and maxSurge
/// 0, 10 revisions.
pub(crate) fn default_daemon_set(obj: &mut Value) {
    if let Some(spec) = super::spec_mut(obj) {
        with_child(spec, "updateStrategy", |strategy| {
            default_str(strategy, "type", "RollingUpdate");
            if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
                with_child(strategy, "rollingUpdate", |r| {
                    default_ptr(r, "maxUnavailable", json!(1));
                    default_ptr(r, "maxSurge", json!(0));
                });
            }
        });
        default_ptr(spec, "revisionHistoryLimit", json!(10));
    }
    with_template(obj, &["spec", "template"], false);
}

/// `SetDefaults_ReplicationController`: the selector and the object's labels default to
/// the template's labels; 1 replica (a declarative default).
pub(crate) fn default_replication_controller(obj: &mut Value) {
    let template_labels = obj
        .pointer("/spec/template/metadata/labels")
        .filter(|l| l.is_object())
        .cloned();
    if let Some(labels) = template_labels {
        let empty = |v: Option<&Value>| v.and_then(Value::as_object).is_none_or(|m| m.is_empty());
        if let Some(spec) = super::spec_mut(obj) {
            if empty(spec.get("selector")) {
                spec.insert("selector".into(), labels.clone());
            }
        }
        if let Some(meta) = child(obj, "metadata") {
            if empty(meta.get("labels")) {
                meta.insert("labels".into(), labels);
            }
        }
    }
    if let Some(spec) = super::spec_mut(obj) {
        default_ptr(spec, "replicas", json!(1));
    }
    with_template(obj, &["spec", "template"], true);
}
