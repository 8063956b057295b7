//! The options of write requests, encoded as kube-apiserver reads them: `dryRun`,
//! `fieldManager`, `fieldValidation` and `force` as query parameters, `DeleteOptions` as
//! the JSON body of a DELETE.

use serde::Serialize;

/// How the server treats fields it does not know or that appear twice (`fieldValidation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidationDirective {
    /// Fail the request (`Strict`).
    Strict,
    /// Succeed, with a warning for each problem (`Warn`, the server's default).
    Warn,
    /// Drop unknown fields silently (`Ignore`).
    Ignore,
}

impl ValidationDirective {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Strict => "Strict",
            Self::Warn => "Warn",
            Self::Ignore => "Ignore",
        }
    }
}

/// Options of `create`, `update` and the subresource updates (client-go's
/// `CreateOptions`/`UpdateOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostParams {
    /// Validate and admit the request without storing anything (`dryRun=All`).
    pub dry_run: bool,
    /// The name of the actor making the change, recorded in `managedFields` (`fieldManager`).
    pub field_manager: Option<String>,
    /// How unknown or duplicate fields are handled (`fieldValidation`).
    pub field_validation: Option<ValidationDirective>,
}

impl PostParams {
    /// Params with `dryRun=All`.
    #[must_use]
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }

    /// Params naming the field manager.
    #[must_use]
    pub fn field_manager(mut self, manager: impl Into<String>) -> Self {
        self.field_manager = Some(manager.into());
        self
    }

    /// Params with a `fieldValidation` directive.
    #[must_use]
    pub fn validation(mut self, directive: ValidationDirective) -> Self {
        self.field_validation = Some(directive);
        self
    }

    pub(crate) fn query(&self) -> Vec<(&'static str, String)> {
        write_query(
            self.dry_run,
            self.field_manager.as_deref(),
            self.field_validation,
        )
    }
}

/// Options of `patch` and the subresource patches (client-go's `PatchOptions`).
///
/// Server-side apply needs a field manager: start from [`PatchParams::apply`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchParams {
    /// Validate and admit the request without storing anything (`dryRun=All`).
    pub dry_run: bool,
    /// The name of the actor making the change (`fieldManager`); required for apply.
    pub field_manager: Option<String>,
    /// Apply only: take ownership of fields other managers own instead of failing with a
    /// conflict (`force=true`).
    pub force: bool,
    /// How unknown or duplicate fields are handled (`fieldValidation`).
    pub field_validation: Option<ValidationDirective>,
}

impl PatchParams {
    /// Params for server-side apply as `manager`.
    pub fn apply(manager: impl Into<String>) -> Self {
        Self {
            field_manager: Some(manager.into()),
            ..Self::default()
        }
    }

    /// Apply only: take over fields other managers own (`force=true`).
    #[must_use]
    pub fn force(mut self) -> Self {
        self.force = true;
        self
    }

    /// Params with `dryRun=All`.
    #[must_use]
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }

    /// Params naming the field manager.
    #[must_use]
    pub fn field_manager(mut self, manager: impl Into<String>) -> Self {
        self.field_manager = Some(manager.into());
        self
    }

    /// Params with a `fieldValidation` directive.
    #[must_use]
    pub fn validation(mut self, directive: ValidationDirective) -> Self {
        self.field_validation = Some(directive);
        self
    }

    pub(crate) fn query(&self) -> Vec<(&'static str, String)> {
        let mut q = write_query(
            self.dry_run,
            self.field_manager.as_deref(),
            self.field_validation,
        );
        if self.force {
            q.push(("force", "true".to_owned()));
        }
        q
    }
}

fn write_query(
    dry_run: bool,
    field_manager: Option<&str>,
    field_validation: Option<ValidationDirective>,
) -> Vec<(&'static str, String)> {
    let mut q = Vec::new();
    if dry_run {
        q.push(("dryRun", "All".to_owned()));
    }
    if let Some(manager) = field_manager.filter(|m| !m.is_empty()) {
        q.push(("fieldManager", manager.to_owned()));
    }
    if let Some(v) = field_validation {
        q.push(("fieldValidation", v.as_str().to_owned()));
    }
    q
}

/// What happens to the objects a deleted object owns (`propagationPolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum PropagationPolicy {
    /// Dependents are left in place, their owner reference removed.
    Orphan,
    /// The object goes at once; the garbage collector deletes dependents afterwards.
    Background,
    /// The object stays (with the `foregroundDeletion` finalizer) until its blocking
    /// dependents are deleted.
    Foreground,
}

/// Conditions the object must meet for a delete to go ahead; otherwise the server answers
/// 409 Conflict.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preconditions {
    /// The object's UID must be this one (it was not deleted and re-created meanwhile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// The object's resourceVersion must be this one (it did not change meanwhile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
}

/// Options of `delete` and `delete_collection`, sent as a `DeleteOptions` body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeleteParams {
    /// Validate and admit the request without deleting anything (`dryRun: ["All"]`).
    pub dry_run: bool,
    /// Seconds before the object is deleted; 0 deletes at once. `None`: the resource's default.
    pub grace_period_seconds: Option<u32>,
    /// What happens to dependents. `None`: the resource's default.
    pub propagation_policy: Option<PropagationPolicy>,
    /// Conditions for the delete to go ahead.
    pub preconditions: Option<Preconditions>,
}

impl DeleteParams {
    /// Params that delete dependents in the background.
    pub fn background() -> Self {
        Self::with_policy(PropagationPolicy::Background)
    }

    /// Params that delete dependents first.
    pub fn foreground() -> Self {
        Self::with_policy(PropagationPolicy::Foreground)
    }

    /// Params that orphan dependents.
    pub fn orphan() -> Self {
        Self::with_policy(PropagationPolicy::Orphan)
    }

    fn with_policy(policy: PropagationPolicy) -> Self {
        Self {
            propagation_policy: Some(policy),
            ..Self::default()
        }
    }

    /// Params with `dryRun: ["All"]`.
    #[must_use]
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }

    /// Params with a grace period.
    #[must_use]
    pub fn grace_period(mut self, seconds: u32) -> Self {
        self.grace_period_seconds = Some(seconds);
        self
    }

    /// Params that delete only while the object's UID is `uid`.
    #[must_use]
    pub fn precondition_uid(mut self, uid: impl Into<String>) -> Self {
        self.preconditions.get_or_insert_with(Default::default).uid = Some(uid.into());
        self
    }

    /// Params that delete only while the object's resourceVersion is `resource_version`.
    #[must_use]
    pub fn precondition_resource_version(mut self, resource_version: impl Into<String>) -> Self {
        self.preconditions
            .get_or_insert_with(Default::default)
            .resource_version = Some(resource_version.into());
        self
    }

    /// The `DeleteOptions` body.
    pub(crate) fn body(&self) -> Result<Vec<u8>, serde_json::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct DeleteOptions<'a> {
            kind: &'static str,
            api_version: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            grace_period_seconds: Option<u32>,
            #[serde(skip_serializing_if = "Option::is_none")]
            propagation_policy: Option<PropagationPolicy>,
            #[serde(skip_serializing_if = "Option::is_none")]
            preconditions: Option<&'a Preconditions>,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            dry_run: &'a [&'a str],
        }
        serde_json::to_vec(&DeleteOptions {
            kind: "DeleteOptions",
            api_version: "v1",
            grace_period_seconds: self.grace_period_seconds,
            propagation_policy: self.propagation_policy,
            preconditions: self.preconditions.as_ref(),
            dry_run: if self.dry_run { &["All"] } else { &[] },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_queries() {
        assert!(PostParams::default().query().is_empty());
        assert_eq!(
            PostParams::default()
                .dry_run()
                .field_manager("me")
                .validation(ValidationDirective::Strict)
                .query(),
            vec![
                ("dryRun", "All".to_owned()),
                ("fieldManager", "me".to_owned()),
                ("fieldValidation", "Strict".to_owned()),
            ]
        );
        assert_eq!(
            PatchParams::apply("ctl").force().query(),
            vec![
                ("fieldManager", "ctl".to_owned()),
                ("force", "true".to_owned())
            ]
        );
    }

    #[test]
    fn delete_options_body() {
        let body = DeleteParams::foreground()
            .grace_period(0)
            .precondition_uid("u1")
            .precondition_resource_version("7")
            .dry_run()
            .body()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "kind": "DeleteOptions", "apiVersion": "v1", "gracePeriodSeconds": 0,
                "propagationPolicy": "Foreground",
                "preconditions": {"uid": "u1", "resourceVersion": "7"},
                "dryRun": ["All"],
            })
        );
        let empty: serde_json::Value =
            serde_json::from_slice(&DeleteParams::default().body().unwrap()).unwrap();
        assert_eq!(
            empty,
            serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1"})
        );
    }
}
