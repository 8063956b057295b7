//! What the server serves: the group/version/kind/plural of each resource.

/// One served resource version, as discovery lists it.
///
/// Several versions of the same group and plural share one storage (as a CRD with
/// several served versions does); objects are stored without `kind`/`apiVersion`
/// and get the requested version's on the way out.
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
}

impl ResourceSpec {
    /// A spec whose list kind is `{kind}List`.
    pub fn new(group: &str, version: &str, kind: &str, plural: &str, namespaced: bool) -> Self {
        Self {
            group: group.to_owned(),
            version: version.to_owned(),
            kind: kind.to_owned(),
            plural: plural.to_owned(),
            namespaced,
            list_kind: format!("{kind}List"),
        }
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

/// The resources every server knows from the start: pods, configmaps, namespaces,
/// nodes, services, secrets (core/v1) and deployments (apps/v1).
pub fn builtin_resources() -> Vec<ResourceSpec> {
    vec![
        ResourceSpec::new("", "v1", "Pod", "pods", true),
        ResourceSpec::new("", "v1", "ConfigMap", "configmaps", true),
        ResourceSpec::new("", "v1", "Namespace", "namespaces", false),
        ResourceSpec::new("", "v1", "Node", "nodes", false),
        ResourceSpec::new("", "v1", "Service", "services", true),
        ResourceSpec::new("", "v1", "Secret", "secrets", true),
        ResourceSpec::new("apps", "v1", "Deployment", "deployments", true),
    ]
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
