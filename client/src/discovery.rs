//! API discovery: which group-versions a server serves, and for each its resources with
//! kind, scope and verbs (`/api`, `/apis`, `/api/v1`, `/apis/{group}/{version}`).
//!
//! Results are cached per group-version and fetched again when a lookup misses, so a
//! resource registered after the first lookup (a new CRD) is found without a restart.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Deserialize;

use crate::client::Client;
use crate::error::Error;
use crate::object::GroupVersionResource;
use crate::request::Request;

/// One served resource of one group-version, as discovery describes it
/// (client-go's `metav1.APIResource` with its group and version filled in).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ApiResource {
    /// API group, `""` for the core group.
    pub group: String,
    /// API version, e.g. `v1`.
    pub version: String,
    /// Kind of its objects, e.g. `Pod`.
    pub kind: String,
    /// Plural resource name used in paths, e.g. `pods`.
    pub plural: String,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// The verbs the server allows, e.g. `list`, `watch`.
    pub verbs: Vec<String>,
}

impl ApiResource {
    /// A resource description from its parts.
    pub fn new(group: &str, version: &str, kind: &str, plural: &str, namespaced: bool) -> Self {
        Self {
            group: group.to_owned(),
            version: version.to_owned(),
            kind: kind.to_owned(),
            plural: plural.to_owned(),
            namespaced,
            verbs: Vec::new(),
        }
    }

    /// The description of a k8s-openapi or generated resource type.
    pub fn of<K>() -> Self
    where
        K: k8s_openapi::Resource,
        K::Scope: 'static,
    {
        let namespaced = std::any::TypeId::of::<K::Scope>()
            == std::any::TypeId::of::<k8s_openapi::NamespaceResourceScope>();
        Self::new(
            K::GROUP,
            K::VERSION,
            K::KIND,
            K::URL_PATH_SEGMENT,
            namespaced,
        )
    }

    /// `v1` for the core group, else `group/version`.
    pub fn api_version(&self) -> String {
        api_version(&self.group, &self.version)
    }

    /// The resource's group, version and plural.
    pub fn gvr(&self) -> GroupVersionResource {
        GroupVersionResource::new(&self.group, &self.version, &self.plural)
    }

    /// True when discovery lists `verb`; a description built by hand (no verbs) allows all.
    pub fn supports(&self, verb: &str) -> bool {
        self.verbs.is_empty() || self.verbs.iter().any(|v| v == verb)
    }

    /// The collection path to list and watch, in `namespace` when the resource is
    /// namespaced and a namespace is given, else across all namespaces. The namespace is
    /// percent-encoded, so a malformed one reaches the server (which names it in a 404)
    /// instead of changing the path.
    pub fn collection_path(&self, namespace: Option<&str>) -> String {
        let mut path = String::from(if self.group.is_empty() {
            "/api"
        } else {
            "/apis/"
        });
        push_path_segment(&mut path, &self.group);
        path.push('/');
        push_path_segment(&mut path, &self.version);
        if let Some(ns) = namespace.filter(|ns| self.namespaced && !ns.is_empty()) {
            path.push_str("/namespaces/");
            push_path_segment(&mut path, ns);
        }
        path.push('/');
        push_path_segment(&mut path, &self.plural);
        path
    }

    /// The name informers of this resource carry in logs and errors, as typed factories
    /// name theirs: `core/v1/pods`, `apps/v1/deployments`.
    pub fn informer_name(&self) -> String {
        let group = if self.group.is_empty() {
            "core"
        } else {
            &self.group
        };
        format!("{group}/{}/{}", self.version, self.plural)
    }
}

/// Appends `segment`, percent-encoding every byte outside RFC 3986's unreserved set.
fn push_path_segment(path: &mut String, segment: &str) {
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            path.push(char::from(b));
        } else {
            path.push_str(&format!("%{b:02X}"));
        }
    }
}

/// `v1` for the core group, else `group/version`.
pub(crate) fn api_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// A group-version a server serves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroupVersion {
    /// API group, `""` for the core group.
    pub group: String,
    /// Version, e.g. `v1`.
    pub version: String,
    /// Whether the server names this version its preferred one for the group.
    pub preferred: bool,
}

/// `/api`: the core group's versions.
#[derive(Deserialize)]
struct ApiVersionsWire {
    #[serde(default)]
    versions: Vec<String>,
}

/// `/apis`: every other group with its versions.
#[derive(Deserialize)]
struct ApiGroupListWire {
    #[serde(default)]
    groups: Vec<ApiGroupWire>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ApiGroupWire {
    name: String,
    #[serde(default)]
    versions: Vec<GroupVersionForDiscoveryWire>,
    preferred_version: Option<GroupVersionForDiscoveryWire>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GroupVersionForDiscoveryWire {
    version: String,
}

/// `/api/v1`, `/apis/{group}/{version}`: the resources of one group-version.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ApiResourceListWire {
    #[serde(default)]
    resources: Vec<ApiResourceWire>,
}

#[derive(Deserialize)]
struct ApiResourceWire {
    name: String,
    #[serde(default)]
    namespaced: bool,
    kind: String,
    #[serde(default)]
    verbs: Vec<String>,
    /// Set when a resource of this list belongs to another group (rare; e.g. `autoscaling` scale).
    group: Option<String>,
    version: Option<String>,
}

/// Parses the body of `/api` into the core group's versions (the first is preferred).
pub fn parse_api_versions(body: &[u8]) -> Result<Vec<GroupVersion>, serde_json::Error> {
    let wire: ApiVersionsWire = serde_json::from_slice(body)?;
    Ok(core_versions(wire))
}

fn core_versions(wire: ApiVersionsWire) -> Vec<GroupVersion> {
    wire.versions
        .into_iter()
        .enumerate()
        .map(|(i, version)| GroupVersion {
            group: String::new(),
            version,
            preferred: i == 0,
        })
        .collect()
}

/// Parses the body of `/apis` (an `APIGroupList`) into group-versions.
pub fn parse_api_group_list(body: &[u8]) -> Result<Vec<GroupVersion>, serde_json::Error> {
    let wire: ApiGroupListWire = serde_json::from_slice(body)?;
    Ok(group_versions(wire))
}

fn group_versions(wire: ApiGroupListWire) -> Vec<GroupVersion> {
    let mut out = Vec::new();
    for g in wire.groups {
        let preferred = g
            .preferred_version
            .map(|p| p.version)
            .or_else(|| g.versions.first().map(|v| v.version.clone()));
        for v in g.versions {
            out.push(GroupVersion {
                preferred: preferred.as_deref() == Some(v.version.as_str()),
                group: g.name.clone(),
                version: v.version,
            });
        }
    }
    out
}

/// Parses an `APIResourceList` served at `group`/`version` into its resources, leaving out
/// subresources such as `pods/status`.
pub fn parse_api_resource_list(
    group: &str,
    version: &str,
    body: &[u8],
) -> Result<Vec<ApiResource>, serde_json::Error> {
    let wire: ApiResourceListWire = serde_json::from_slice(body)?;
    Ok(resources(group, version, wire))
}

fn resources(group: &str, version: &str, wire: ApiResourceListWire) -> Vec<ApiResource> {
    wire.resources
        .into_iter()
        .filter(|r| !r.name.contains('/'))
        .map(|r| ApiResource {
            group: r
                .group
                .filter(|g| !g.is_empty())
                .unwrap_or_else(|| group.to_owned()),
            version: r
                .version
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| version.to_owned()),
            kind: r.kind,
            plural: r.name,
            namespaced: r.namespaced,
            verbs: r.verbs,
        })
        .collect()
}

#[derive(Default)]
struct Cache {
    group_versions: Option<Vec<GroupVersion>>,
    resources: HashMap<(String, String), Arc<Vec<ApiResource>>>,
}

/// A discovery client: served group-versions and resources, cached, fetched again on a miss.
/// Cheap to clone; clones share the cache.
#[derive(Clone)]
pub struct Discovery {
    client: Client,
    cache: Arc<Mutex<Cache>>,
}

impl std::fmt::Debug for Discovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discovery")
            .field("server", &self.client.base_url())
            .finish_non_exhaustive()
    }
}

impl Discovery {
    /// A discovery client over `client`; nothing is fetched yet.
    pub fn new(client: Client) -> Self {
        Self {
            client,
            cache: Arc::new(Mutex::new(Cache::default())),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Cache> {
        // The cache holds only fetched copies; a panic elsewhere leaves it usable.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets everything fetched so far.
    pub fn invalidate(&self) {
        *self.lock() = Cache::default();
    }

    /// Every group-version the server serves (core first), cached.
    pub async fn group_versions(&self) -> Result<Vec<GroupVersion>, Error> {
        if let Some(gvs) = self.lock().group_versions.clone() {
            return Ok(gvs);
        }
        self.fetch_group_versions().await
    }

    async fn fetch_group_versions(&self) -> Result<Vec<GroupVersion>, Error> {
        let core: ApiVersionsWire = self.client.request(Request::get_path("/api")?).await?;
        let groups: ApiGroupListWire = self.client.request(Request::get_path("/apis")?).await?;
        let mut gvs = core_versions(core);
        gvs.extend(group_versions(groups));
        self.lock().group_versions = Some(gvs.clone());
        Ok(gvs)
    }

    /// The resources of one group-version, cached. A group-version the server does not
    /// serve is an [`Error::UnknownResource`].
    pub async fn resources(
        &self,
        group: &str,
        version: &str,
    ) -> Result<Arc<Vec<ApiResource>>, Error> {
        let key = (group.to_owned(), version.to_owned());
        if let Some(r) = self.lock().resources.get(&key).cloned() {
            return Ok(r);
        }
        self.fetch_resources(group, version, &api_version(group, version))
            .await
    }

    /// Fetches one group-version's resources; a 404 is an unknown-resource error naming
    /// `looking_for`.
    async fn fetch_resources(
        &self,
        group: &str,
        version: &str,
        looking_for: &str,
    ) -> Result<Arc<Vec<ApiResource>>, Error> {
        let mut path = String::from(if group.is_empty() { "/api" } else { "/apis/" });
        push_path_segment(&mut path, group);
        path.push('/');
        push_path_segment(&mut path, version);
        let wire: ApiResourceListWire = match self.client.request(Request::get_path(&path)?).await {
            Ok(w) => w,
            Err(e) if e.status_code() == Some(404) => {
                return Err(Error::UnknownResource {
                    resource: looking_for.to_owned(),
                    server: self.client.base_url().to_owned(),
                    reason: format!(
                        "the server does not serve the group-version {} ({e})",
                        api_version(group, version)
                    ),
                })
            }
            Err(e) => return Err(e),
        };
        let list = Arc::new(resources(group, version, wire));
        self.lock()
            .resources
            .insert((group.to_owned(), version.to_owned()), list.clone());
        Ok(list)
    }

    /// The description of `gvr`: from the cache, else fetched again (it may be new).
    /// A resource the server does not serve is an [`Error::UnknownResource`] naming it.
    pub async fn resolve(&self, gvr: &GroupVersionResource) -> Result<ApiResource, Error> {
        let find = |list: &[ApiResource]| list.iter().find(|r| r.plural == gvr.resource).cloned();
        let cached = self
            .lock()
            .resources
            .get(&(gvr.group.clone(), gvr.version.clone()))
            .cloned();
        if let Some(found) = cached.as_deref().and_then(|l| find(l)) {
            return Ok(found);
        }
        let fresh = self
            .fetch_resources(&gvr.group, &gvr.version, &gvr.to_string())
            .await?;
        find(&fresh).ok_or_else(|| Error::UnknownResource {
            resource: gvr.to_string(),
            server: self.client.base_url().to_owned(),
            reason: format!(
                "the group-version {} has no resource {:?}",
                api_version(&gvr.group, &gvr.version),
                gvr.resource
            ),
        })
    }

    /// The resource serving `kind` in `group`: at `version` when given, else at the
    /// group's preferred version first. Fetches again on a miss.
    pub async fn resolve_kind(
        &self,
        group: &str,
        version: Option<&str>,
        kind: &str,
    ) -> Result<ApiResource, Error> {
        let what = match version {
            Some(v) => format!("kind {kind} in {}", api_version(group, v)),
            None => format!("kind {kind} in group {group:?}"),
        };
        for refreshed in [false, true] {
            if refreshed {
                self.invalidate();
            }
            let mut candidates: Vec<GroupVersion> = self
                .group_versions()
                .await?
                .into_iter()
                .filter(|gv| gv.group == group && version.is_none_or(|v| gv.version == v))
                .collect();
            candidates.sort_by_key(|gv| !gv.preferred);
            for gv in candidates {
                let list = self.resources(&gv.group, &gv.version).await?;
                if let Some(r) = list.iter().find(|r| r.kind == kind) {
                    return Ok(r.clone());
                }
            }
        }
        Err(Error::UnknownResource {
            resource: what,
            server: self.client.base_url().to_owned(),
            reason: "no served resource has this kind".to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_core_versions() {
        let body = br#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"10.0.0.1:6443"}]}"#;
        let gvs = parse_api_versions(body).unwrap();
        assert_eq!(
            gvs,
            vec![GroupVersion {
                group: String::new(),
                version: "v1".into(),
                preferred: true
            }]
        );
    }

    #[test]
    fn parses_group_list_with_preferred_version() {
        let body = br#"{"kind":"APIGroupList","apiVersion":"v1","groups":[
            {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],
             "preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
            {"name":"autoscaling","versions":[
                {"groupVersion":"autoscaling/v2","version":"v2"},
                {"groupVersion":"autoscaling/v1","version":"v1"}],
             "preferredVersion":{"groupVersion":"autoscaling/v2","version":"v2"}}]}"#;
        let gvs = parse_api_group_list(body).unwrap();
        let names: Vec<(&str, &str, bool)> = gvs
            .iter()
            .map(|g| (g.group.as_str(), g.version.as_str(), g.preferred))
            .collect();
        assert_eq!(
            names,
            vec![
                ("apps", "v1", true),
                ("autoscaling", "v2", true),
                ("autoscaling", "v1", false)
            ]
        );
    }

    #[test]
    fn parses_resource_list_skipping_subresources() {
        let body = br#"{"kind":"APIResourceList","groupVersion":"v1","resources":[
            {"name":"bindings","singularName":"binding","namespaced":true,"kind":"Binding","verbs":["create"]},
            {"name":"nodes","singularName":"node","namespaced":false,"kind":"Node",
             "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
             "shortNames":["no"],"storageVersionHash":"XwShjMxG9Fs="},
            {"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod",
             "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
             "shortNames":["po"],"categories":["all"]},
            {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]},
            {"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get"]}]}"#;
        let rs = parse_api_resource_list("", "v1", body).unwrap();
        assert_eq!(rs.len(), 3);
        let pods = rs.iter().find(|r| r.plural == "pods").unwrap();
        assert_eq!(pods.kind, "Pod");
        assert!(pods.namespaced);
        assert!(pods.supports("watch"));
        let nodes = rs.iter().find(|r| r.plural == "nodes").unwrap();
        assert!(!nodes.namespaced);
        let bindings = rs.iter().find(|r| r.plural == "bindings").unwrap();
        assert!(!bindings.supports("list"));
    }

    #[test]
    fn collection_paths_follow_scope() {
        let pods = ApiResource::new("", "v1", "Pod", "pods", true);
        assert_eq!(
            pods.collection_path(Some("shop")),
            "/api/v1/namespaces/shop/pods"
        );
        assert_eq!(pods.collection_path(None), "/api/v1/pods");
        let widgets = ApiResource::new("example.com", "v1", "Widget", "widgets", false);
        assert_eq!(
            widgets.collection_path(Some("shop")),
            "/apis/example.com/v1/widgets"
        );
        assert_eq!(
            pods.collection_path(Some("a/b")),
            "/api/v1/namespaces/a%2Fb/pods"
        );
        assert_eq!(pods.informer_name(), "core/v1/pods");
        assert_eq!(widgets.informer_name(), "example.com/v1/widgets");
    }
}
