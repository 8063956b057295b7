//! What the server serves: the group/version/kind/plural of each resource.

/// How the server keeps `metadata.generation` for a resource (its registry strategy's
/// `PrepareForCreate`/`PrepareForUpdate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generation {
    /// Not kept: ConfigMaps, Secrets, Namespaces, Nodes, Services, Leases. Whatever a create
    /// sends is stored and an update cannot change it.
    None,
    /// 1 on create, bumped when `spec` changes: Pods (since Kubernetes 1.33), ReplicaSets,
    /// StatefulSets, DaemonSets, Jobs, CronJobs, ReplicationControllers.
    Spec,
    /// 1 on create, bumped when `spec` or `metadata.annotations` change: Deployments.
    SpecOrAnnotations,
    /// Custom resources: 1 on create, bumped when anything outside `metadata` changes (and
    /// outside `status` when the resource has the status subresource).
    Content,
}

/// What a create stores as `status` (the strategy's `PrepareForCreate`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StatusOnCreate {
    /// The status sent is stored (resources without the status subresource, Nodes).
    Keep,
    /// The status sent is dropped (custom resources with the status subresource).
    Drop,
    /// Replaced by this value: the serialised zero status of a built-in type (e.g.
    /// `{"replicas":0}` for ReplicaSets, `{}` for Deployments).
    Reset(String),
    /// Pods: `{"phase":"Pending","qosClass":...}` with the QoS class of the containers' resources.
    PodPending,
}

/// The `scale` subresource: where the object keeps what `autoscaling/v1` `Scale` shows
/// (a CRD's `subresources.scale`, in its JSON-path form such as `.spec.replicas`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScaleSpec {
    /// `Scale.spec.replicas`, e.g. `.spec.replicas`.
    pub spec_replicas_path: String,
    /// `Scale.status.replicas`, e.g. `.status.replicas`.
    pub status_replicas_path: String,
    /// Where a string label selector for `Scale.status.selector` is read, e.g.
    /// `.status.selector`; `None` for built-ins, whose selector is `spec.selector`
    /// (a `LabelSelector`) written as a string.
    pub label_selector_path: Option<String>,
}

impl ScaleSpec {
    /// A scale subresource reading these JSON paths, as a CRD declares them.
    pub fn new(spec_replicas: &str, status_replicas: &str, label_selector: Option<&str>) -> Self {
        Self {
            spec_replicas_path: spec_replicas.to_owned(),
            status_replicas_path: status_replicas.to_owned(),
            label_selector_path: label_selector.map(str::to_owned),
        }
    }
}

/// One served resource version, as discovery lists it, with the write semantics of its
/// registry strategy.
///
/// Several versions of the same group and plural share one storage (as a CRD with
/// several served versions does); objects are stored without `kind`/`apiVersion`
/// and get the requested version's on the way out.
///
/// [`ResourceSpec::new`] gives a custom resource's semantics (as for a CRD without
/// subresources); [`ResourceSpec::with_status_subresource`] and
/// [`ResourceSpec::with_scale`] add a CRD's subresources. [`builtin_resources`] carries
/// the built-ins' own semantics.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceSpec {
    /// API group, `""` for the core group.
    pub group: String,
    /// Version, e.g. `v1`.
    pub version: String,
    /// Kind, e.g. `Pod`.
    pub kind: String,
    /// Plural resource name used in paths, e.g. `pods`.
    pub plural: String,
    /// Namespaced (true) or cluster-scoped (false).
    pub namespaced: bool,
    /// Kind of the list, e.g. `PodList`.
    pub list_kind: String,
    /// Serves `/status`: writes there change only `status`, and writes to the object
    /// keep the stored `status`.
    pub status_subresource: bool,
    /// Serves `/scale` as an `autoscaling/v1` `Scale`.
    pub scale: Option<ScaleSpec>,
    /// How `metadata.generation` is kept.
    pub generation: Generation,
    /// What a create stores as `status`.
    pub status_on_create: StatusOnCreate,
    /// A PUT without `metadata.resourceVersion` overwrites (most built-ins); else it is
    /// 422 Invalid (custom resources).
    pub unconditional_update: bool,
    /// A PUT to a missing object creates it (Services, Leases); else 404.
    pub create_on_update: bool,
    /// A delete answers with the deleted object (Pods, Services, Namespaces, custom
    /// resources); else with a `Status` of `Success`.
    pub delete_returns_object: bool,
    /// The structural schema of a version installed from a CRD: its writes are pruned,
    /// defaulted and validated as kube-apiserver does. `None` (resources registered
    /// with [`ResourceSpec::new`]): stored as sent.
    pub schema: Option<crate::crd::CrdSchema>,
}

impl ResourceSpec {
    /// A custom resource (as served for a CRD without subresources): list kind
    /// `{kind}List`, generation bumped by any change outside `metadata`, a PUT needs a
    /// resourceVersion, deletes return the object.
    pub fn new(group: &str, version: &str, kind: &str, plural: &str, namespaced: bool) -> Self {
        Self {
            group: group.to_owned(),
            version: version.to_owned(),
            kind: kind.to_owned(),
            plural: plural.to_owned(),
            namespaced,
            list_kind: format!("{kind}List"),
            status_subresource: false,
            scale: None,
            generation: Generation::Content,
            status_on_create: StatusOnCreate::Keep,
            unconditional_update: false,
            create_on_update: false,
            delete_returns_object: true,
            schema: None,
        }
    }

    /// Adds the status subresource, as a CRD's `subresources.status` does: `status` is
    /// dropped on create, ignored by writes to the object and excluded from generation.
    #[must_use]
    pub fn with_status_subresource(mut self) -> Self {
        self.status_subresource = true;
        if self.status_on_create == StatusOnCreate::Keep {
            self.status_on_create = StatusOnCreate::Drop;
        }
        self
    }

    /// Adds the scale subresource, as a CRD's `subresources.scale` does.
    #[must_use]
    pub fn with_scale(mut self, scale: ScaleSpec) -> Self {
        self.scale = Some(scale);
        self
    }

    /// `v1` for the core group, else `group/version`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `pods` for the core group, else `plural.group` (e.g. `deployments.apps`), the
    /// name used in messages, request counters, fault targets and token rights.
    pub fn group_resource(&self) -> String {
        group_resource(&self.group, &self.plural)
    }

    /// The lowercase singular name discovery reports.
    pub fn singular(&self) -> String {
        self.kind.to_lowercase()
    }
}

/// `plural` or `plural.group`.
pub(crate) fn group_resource(group: &str, plural: &str) -> String {
    if group.is_empty() {
        plural.to_owned()
    } else {
        format!("{plural}.{group}")
    }
}

/// A built-in with the strategy of most built-ins: unconditional updates, no create on
/// update, a `Status` answer to deletes, no subresources and no generation; the table in
/// [`builtin_resources`] changes what differs.
fn builtin(group: &str, kind: &str, plural: &str, namespaced: bool) -> ResourceSpec {
    let version = "v1";
    ResourceSpec {
        generation: Generation::None,
        unconditional_update: true,
        delete_returns_object: false,
        ..ResourceSpec::new(group, version, kind, plural, namespaced)
    }
}

/// A built-in with the status subresource whose create resets `status` to `zero`.
fn with_status(mut spec: ResourceSpec, zero: StatusOnCreate) -> ResourceSpec {
    spec.status_subresource = true;
    spec.status_on_create = zero;
    spec
}

/// The scale subresource of the built-in workload controllers.
fn builtin_scale() -> Option<ScaleSpec> {
    Some(ScaleSpec::new(".spec.replicas", ".status.replicas", None))
}

/// The resources every server knows from the start, with their strategies' write
/// semantics (Kubernetes 1.33+): pods, configmaps, namespaces, nodes, services, secrets,
/// serviceaccounts, replicationcontrollers (core/v1); deployments, replicasets, statefulsets, daemonsets
/// (apps/v1); jobs, cronjobs (batch/v1); leases (coordination.k8s.io/v1);
/// customresourcedefinitions (apiextensions.k8s.io/v1), which install custom resources.
pub fn builtin_resources() -> Vec<ResourceSpec> {
    let reset = |zero: &str| StatusOnCreate::Reset(zero.to_owned());
    let pod = ResourceSpec {
        generation: Generation::Spec,
        delete_returns_object: true,
        ..with_status(builtin("", "Pod", "pods", true), StatusOnCreate::PodPending)
    };
    let namespace = ResourceSpec {
        delete_returns_object: true,
        ..with_status(
            builtin("", "Namespace", "namespaces", false),
            reset(r#"{"phase":"Active"}"#),
        )
    };
    let service = ResourceSpec {
        create_on_update: true,
        delete_returns_object: true,
        ..with_status(
            builtin("", "Service", "services", true),
            reset(r#"{"loadBalancer":{}}"#),
        )
    };
    let workload = |group: &str, kind: &str, plural: &str, zero: &str, scale: bool| ResourceSpec {
        generation: Generation::Spec,
        scale: if scale { builtin_scale() } else { None },
        ..with_status(builtin(group, kind, plural, true), reset(zero))
    };
    let deployment = ResourceSpec {
        generation: Generation::SpecOrAnnotations,
        ..workload("apps", "Deployment", "deployments", "{}", true)
    };
    let lease = ResourceSpec {
        create_on_update: true,
        ..builtin("coordination.k8s.io", "Lease", "leases", true)
    };
    vec![
        pod,
        builtin("", "ConfigMap", "configmaps", true),
        namespace,
        with_status(builtin("", "Node", "nodes", false), StatusOnCreate::Keep),
        service,
        builtin("", "Secret", "secrets", true),
        builtin("", "ServiceAccount", "serviceaccounts", true),
        workload(
            "",
            "ReplicationController",
            "replicationcontrollers",
            r#"{"replicas":0}"#,
            true,
        ),
        deployment,
        workload(
            "apps",
            "ReplicaSet",
            "replicasets",
            r#"{"replicas":0}"#,
            true,
        ),
        workload(
            "apps",
            "StatefulSet",
            "statefulsets",
            r#"{"availableReplicas":0,"replicas":0}"#,
            true,
        ),
        workload(
            "apps",
            "DaemonSet",
            "daemonsets",
            r#"{"currentNumberScheduled":0,"desiredNumberScheduled":0,"numberMisscheduled":0,"numberReady":0}"#,
            false,
        ),
        workload("batch", "Job", "jobs", "{}", false),
        workload("batch", "CronJob", "cronjobs", "{}", false),
        lease,
        crate::crd::crd_resource(),
    ]
}

/// The short names discovery lists for a built-in resource (its REST storage's
/// `ShortNames`), e.g. `sa` for `serviceaccounts`; none for custom resources.
pub(crate) fn short_names(group: &str, plural: &str) -> &'static [&'static str] {
    match (group, plural) {
        ("", "pods") => &["po"],
        ("", "configmaps") => &["cm"],
        ("", "namespaces") => &["ns"],
        ("", "nodes") => &["no"],
        ("", "services") => &["svc"],
        ("", "serviceaccounts") => &["sa"],
        ("", "replicationcontrollers") => &["rc"],
        ("apps", "deployments") => &["deploy"],
        ("apps", "replicasets") => &["rs"],
        ("apps", "statefulsets") => &["sts"],
        ("apps", "daemonsets") => &["ds"],
        ("batch", "cronjobs") => &["cj"],
        ("apiextensions.k8s.io", "customresourcedefinitions") => &["crd", "crds"],
        _ => &[],
    }
}

/// Field selector labels a resource supports besides `metadata.name` and
/// `metadata.namespace`, with the JSON path each one reads (as kube-apiserver's
/// field-label conversion functions do).
pub(crate) fn selectable_fields(
    group: &str,
    plural: &str,
) -> &'static [(&'static str, &'static [&'static str])] {
    match (group, plural) {
        ("", "pods") => &[
            ("spec.nodeName", &["spec", "nodeName"]),
            ("spec.restartPolicy", &["spec", "restartPolicy"]),
            ("spec.schedulerName", &["spec", "schedulerName"]),
            ("spec.serviceAccountName", &["spec", "serviceAccountName"]),
            ("status.phase", &["status", "phase"]),
            ("status.podIP", &["status", "podIP"]),
            ("status.nominatedNodeName", &["status", "nominatedNodeName"]),
        ],
        ("", "nodes") => &[("spec.unschedulable", &["spec", "unschedulable"])],
        ("", "secrets") => &[("type", &["type"])],
        ("", "namespaces") => &[("status.phase", &["status", "phase"])],
        _ => &[],
    }
}
