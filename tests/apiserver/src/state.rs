//! The server's shared state: the resourceVersion clock, the registry of served
//! resources and their stores, auth rules, fault rules and request counters; and the
//! writes (create, replace, merge patch, delete) with the real server's checks, shared
//! by HTTP handlers and the in-process API.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use serde_json::Value;

use crate::faults::FaultState;
use crate::meta::{generated_name, meta_str, metadata_mut};
use crate::patch::Patch;
use crate::resource::ResourceSpec;
use crate::status::StatusError;
use crate::store::{object_key, Change, Obj, Outcome, Store};
use crate::validation::{data, objectmeta};
use crate::{
    crd, defaults, gc, managed_fields, namespace_lifecycle, scale, serviceaccounts, strategy,
};

/// What a bearer token may touch.
#[derive(Clone)]
pub(crate) enum Rights {
    All,
    /// Only these resources (`pods`, `deployments.apps`, ...).
    Only(HashSet<String>),
}

/// Settings fixed at start.
#[derive(Clone)]
pub(crate) struct Config {
    pub history: usize,
    pub bookmark_interval: Duration,
    /// `None`: no authentication.
    pub tokens: Option<HashMap<String, Rights>>,
    /// Serve `resourceVersion=0` lists whole, ignoring `limit`, as the watch cache does.
    pub rv0_ignores_limit: bool,
    /// Answer `as=PartialObjectMetadata[List]` requests with metadata only (else ignore them).
    pub partial_metadata: bool,
    /// Run the garbage collector and add its finalizers on delete (see `gc`).
    pub garbage_collection: bool,
    /// Treat owner references to uids this server never issued as dangling.
    pub collect_unknown_owners: bool,
    /// Run the serviceaccounts controller: every active namespace keeps a `default`
    /// ServiceAccount (see `serviceaccounts`).
    pub service_account_controller: bool,
    /// Run the admission step of writes (admission plugins, metadata and schema
    /// validation, pruning and defaulting); off only for benchmarks.
    pub admission: bool,
    /// Honour KEP-5866's `shardSelector` on lists and watches and echo it in
    /// `metadata.shardInfo` (kube-apiserver with the `ShardedListAndWatch` gate on); off, the
    /// parameter is ignored, as by a server without the feature.
    pub sharding: bool,
}

#[derive(Default)]
struct Registry {
    specs: Vec<ResourceSpec>,
    stores: HashMap<(String, String), Arc<Store>>,
}

/// A resolved resource: the served version and its storage.
#[derive(Clone)]
pub(crate) struct Resolved {
    pub spec: ResourceSpec,
    pub store: Arc<Store>,
}

pub(crate) struct State {
    pub clock: AtomicU64,
    pub config: Config,
    pub faults: FaultState,
    pub recorder: crate::recorded::Recorder,
    registry: RwLock<Registry>,
    counters: Mutex<BTreeMap<(String, String), u64>>,
    /// Wakes the namespace controller when a namespace starts terminating.
    pub namespace_controller: namespace_lifecycle::Controller,
    /// The garbage collector's graph and work.
    pub garbage_collector: gc::Collector,
    /// The Services' cluster IPs and node ports in use.
    pub service_allocator: defaults::ipalloc::Allocator,
}

impl State {
    pub fn new(config: Config) -> Self {
        Self {
            clock: AtomicU64::new(1),
            config,
            faults: FaultState::default(),
            recorder: crate::recorded::Recorder::default(),
            registry: RwLock::new(Registry::default()),
            counters: Mutex::new(BTreeMap::new()),
            namespace_controller: namespace_lifecycle::Controller::default(),
            garbage_collector: gc::Collector::default(),
            service_allocator: defaults::ipalloc::Allocator::default(),
        }
    }

    /// Serves `spec`; versions of one group/plural share a store.
    pub fn register(&self, spec: ResourceSpec) {
        let mut reg = self.registry.write().unwrap_or_else(|p| p.into_inner());
        let key = (spec.group.clone(), spec.plural.clone());
        let clock = self.clock.load(std::sync::atomic::Ordering::SeqCst);
        let history = self.config.history;
        reg.stores
            .entry(key)
            .or_insert_with(|| Arc::new(Store::new(&spec.group, &spec.plural, history, clock)));
        if let Some(existing) = reg
            .specs
            .iter_mut()
            .find(|s| s.group == spec.group && s.version == spec.version && s.plural == spec.plural)
        {
            *existing = spec;
        } else {
            reg.specs.push(spec);
        }
    }

    /// Serves exactly `specs` (the served versions of a CRD) for `group`/`plural`,
    /// keeping its stored objects; with none, stops serving it and drops its store.
    pub fn replace_resource(&self, group: &str, plural: &str, specs: Vec<ResourceSpec>) {
        let mut reg = self.registry.write().unwrap_or_else(|p| p.into_inner());
        reg.specs
            .retain(|s| !(s.group == group && s.plural == plural));
        let key = (group.to_owned(), plural.to_owned());
        if specs.is_empty() {
            reg.stores.remove(&key);
            return;
        }
        let clock = self.clock.load(std::sync::atomic::Ordering::SeqCst);
        let history = self.config.history;
        reg.stores
            .entry(key)
            .or_insert_with(|| Arc::new(Store::new(group, plural, history, clock)));
        reg.specs.extend(specs);
    }

    /// Every served resource version, in registration order.
    pub fn specs(&self) -> Vec<ResourceSpec> {
        self.registry
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .specs
            .clone()
    }

    /// Every store.
    pub fn stores(&self) -> Vec<Arc<Store>> {
        self.registry
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .stores
            .values()
            .cloned()
            .collect()
    }

    /// The resource served at `group/version/plural`.
    pub fn resolve(&self, group: &str, version: &str, plural: &str) -> Option<Resolved> {
        let reg = self.registry.read().unwrap_or_else(|p| p.into_inner());
        let spec = reg
            .specs
            .iter()
            .find(|s| s.group == group && s.version == version && s.plural == plural)?
            .clone();
        let store = reg
            .stores
            .get(&(spec.group.clone(), spec.plural.clone()))?
            .clone();
        Some(Resolved { spec, store })
    }

    /// The resource named `plural` or `plural.group`, at its first registered version.
    pub fn resolve_name(&self, name: &str) -> Result<Resolved, StatusError> {
        let (plural, group) = name.split_once('.').unwrap_or((name, ""));
        let reg = self.registry.read().unwrap_or_else(|p| p.into_inner());
        let spec = reg
            .specs
            .iter()
            .find(|s| s.group == group && s.plural == plural)
            .cloned()
            .ok_or_else(StatusError::unknown_resource)?;
        let store = reg
            .stores
            .get(&(spec.group.clone(), spec.plural.clone()))
            .cloned()
            .ok_or_else(StatusError::unknown_resource)?;
        Ok(Resolved { spec, store })
    }

    /// Counts one request.
    pub fn count(&self, verb: &str, resource: &str) {
        let mut c = self.counters.lock().unwrap_or_else(|p| p.into_inner());
        *c.entry((verb.to_owned(), resource.to_owned())).or_default() += 1;
    }

    /// The request counters.
    pub fn counts(&self) -> BTreeMap<(String, String), u64> {
        self.counters
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Zeroes the request counters.
    pub fn reset_counts(&self) {
        self.counters
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    /// Creates an object (POST).
    pub fn create(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        mut body: Value,
        opts: &WriteOptions,
    ) -> Result<Arc<Obj>, StatusError> {
        check_type(&r.spec, &body)?;
        let decoded = self.decode(r, &mut body, opts)?;
        let admits = self.admits(r);
        // Admission runs before the registry checks the body's namespace and generates
        // names: it knows the object by its name, else its prefix.
        let admitted_in = namespace
            .or_else(|| meta_str(&body, "namespace").filter(|s| !s.is_empty()))
            .unwrap_or("default");
        let admitted_as = meta_str(&body, "name")
            .filter(|s| !s.is_empty())
            .or_else(|| meta_str(&body, "generateName"))
            .unwrap_or_default()
            .to_owned();
        if admits {
            namespace_lifecycle::admit_create(self, &r.spec, Some(admitted_in), &admitted_as)?;
        }
        let namespace = effective_namespace(&r.spec, namespace, &body)?;
        let map = body
            .as_object_mut()
            .ok_or_else(|| StatusError::bad_request("the body is not a JSON object"))?;
        let meta = metadata_mut(map)
            .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))?;
        let mut name = meta
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if name.is_empty() {
            if let Some(prefix) = meta.get("generateName").and_then(Value::as_str) {
                name = generated_name(prefix);
            }
        }
        meta.insert("name".into(), Value::String(name.clone()));
        match &namespace {
            Some(ns) => meta.insert("namespace".into(), Value::String(ns.clone())),
            None => meta.remove("namespace"),
        };
        let managed = match &opts.applied {
            Some(applied) => Some(applied.clone()),
            None => self.track_update(r, None, &body, Sub::Main, opts)?,
        };
        strategy::prepare_create(&r.spec, &mut body)?;
        namespace_lifecycle::prepare_create(&r.spec, &mut body);
        if admits {
            defaults::prepare_create(self, &r.spec, &mut body, decoded, &admitted_as)?;
            crd::validate_create(r, &mut body)?;
        }
        if let Some(managed) = &managed {
            managed_fields::set(&mut body, managed);
        }
        let key = object_key(namespace.as_deref(), &name);
        r.store
            .write(&self.clock, &key, opts.dry_run, |existing| match existing {
                Some(old) => {
                    let mut e = StatusError::already_exists(&r.spec.group, &r.spec.plural, &name);
                    if old.to_value().is_ok_and(|v| strategy::being_deleted(&v)) {
                        e.message = format!("object is being deleted: {}", e.message);
                    }
                    Err(e)
                }
                None => {
                    if admits {
                        defaults::allocate_create(
                            &self.service_allocator,
                            &r.spec,
                            &mut body,
                            opts.dry_run,
                        )?;
                    }
                    Ok(Change::Put(body))
                }
            })
            .and_then(|(outcome, obj)| self.after_write(r, opts.dry_run, outcome, obj))
            .map(|(_, obj)| obj)
    }

    /// Replaces an object (PUT) or, with [`Sub::Status`], its `status`; `name` is the name
    /// in the URL, which the body must repeat. A missing object is 404, or created for
    /// resources that allow create on update.
    pub fn update(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        mut body: Value,
        sub: Sub,
        opts: &WriteOptions,
    ) -> Result<(Outcome, Arc<Obj>), StatusError> {
        check_type(&r.spec, &body)?;
        let decoded = self.decode(r, &mut body, opts)?;
        let admits = self.admits(r);
        let namespace = request_namespace(&r.spec, namespace);
        check_name(&body, name, namespace)?;
        let meta = body
            .as_object_mut()
            .and_then(metadata_mut)
            .ok_or_else(|| StatusError::bad_request("metadata is not a JSON object"))?;
        match namespace {
            Some(ns) => meta.insert("namespace".into(), Value::String(ns.to_owned())),
            None => meta.remove("namespace"),
        };
        let key = object_key(namespace, name);
        r.store
            .write(&self.clock, &key, opts.dry_run, |existing| match existing {
                Some(old) => {
                    if admits {
                        namespace_lifecycle::admit_update(self, &r.spec, namespace)?;
                    }
                    let managed = self.track_update(r, Some(old), &body, sub, opts)?;
                    let change = self.replace_defaulted(r, old, body, name, sub, opts.dry_run)?;
                    Ok(with_managed_fields(change, managed.as_ref()))
                }
                None if sub == Sub::Main && r.spec.create_on_update => {
                    namespace_lifecycle::admit_create(self, &r.spec, namespace, name)?;
                    if let Some(managed) = self.track_update(r, None, &body, sub, opts)? {
                        managed_fields::set(&mut body, &managed);
                    }
                    strategy::prepare_create(&r.spec, &mut body)?;
                    if admits {
                        defaults::prepare_create(self, &r.spec, &mut body, decoded, name)?;
                    }
                    objectmeta::validate_create(&r.spec, &body)?;
                    if admits {
                        defaults::allocate_create(
                            &self.service_allocator,
                            &r.spec,
                            &mut body,
                            opts.dry_run,
                        )?;
                    }
                    Ok(Change::Put(body))
                }
                None => Err(StatusError::not_found(&r.spec.group, &r.spec.plural, name)),
            })
            .and_then(|(outcome, obj)| self.after_write(r, opts.dry_run, outcome, obj))
    }

    /// Patches an object (PATCH) or, with [`Sub::Status`], its `status`: the patch applies
    /// to the stored object, and the result is written as an update would be.
    pub fn patch(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        patch: &Patch,
        sub: Sub,
        opts: &WriteOptions,
    ) -> Result<(Outcome, Arc<Obj>), StatusError> {
        let namespace = request_namespace(&r.spec, namespace);
        let key = object_key(namespace, name);
        r.store
            .write(&self.clock, &key, opts.dry_run, |existing| {
                let old = existing
                    .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))?;
                let admits = self.admits(r);
                if admits {
                    namespace_lifecycle::admit_update(self, &r.spec, namespace)?;
                }
                let mut value = old.to_value()?;
                patch.apply(&mut value)?;
                self.decode(r, &mut value, opts)?;
                check_name(&value, name, namespace)?;
                let managed = self.track_update(r, Some(old), &value, sub, opts)?;
                let change = self.replace_defaulted(r, old, value, name, sub, opts.dry_run)?;
                Ok(with_managed_fields(change, managed.as_ref()))
            })
            .and_then(|(outcome, obj)| self.after_write(r, opts.dry_run, outcome, obj))
    }

    /// Server-side apply (PATCH with `application/apply-patch+yaml`) of `config` to the
    /// object or, with [`Sub::Status`], its `status`: merged into the stored object and
    /// written as a patch would be, or created when the object does not exist (not
    /// through `status`). The manager is `opts.manager`, which the request must name.
    pub fn apply(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        config: &Value,
        sub: Sub,
        opts: &WriteOptions,
    ) -> Result<(Outcome, Arc<Obj>), StatusError> {
        let manager = opts.manager.as_deref().unwrap_or_default();
        let namespace = request_namespace(&r.spec, namespace);
        let key = object_key(namespace, name);
        if sub == Sub::Main && r.store.get(&key).is_none() {
            let applied =
                managed_fields::apply(self, &r.spec, None, config, sub, manager, opts.force)?;
            check_name(&applied.object, name, namespace)?;
            let create = WriteOptions {
                applied: Some(applied.managed_fields),
                ..opts.clone()
            };
            let obj = self.create(r, namespace, applied.object, &create)?;
            return Ok((Outcome::Created, obj));
        }
        r.store
            .write(&self.clock, &key, opts.dry_run, |existing| {
                let old = existing
                    .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))?;
                if self.admits(r) {
                    namespace_lifecycle::admit_update(self, &r.spec, namespace)?;
                }
                let live = old.to_value()?;
                let applied = managed_fields::apply(
                    self,
                    &r.spec,
                    Some(&live),
                    config,
                    sub,
                    manager,
                    opts.force,
                )?;
                let mut value = applied.object;
                self.decode(r, &mut value, opts)?;
                check_name(&value, name, namespace)?;
                let change = self.replace_defaulted(r, old, value, name, sub, opts.dry_run)?;
                Ok(with_managed_fields(change, Some(&applied.managed_fields)))
            })
            .and_then(|(outcome, obj)| self.after_write(r, opts.dry_run, outcome, obj))
    }

    /// The `managedFields` a create (`live` is `None`), update or patch through the API
    /// leaves (`None` for in-process writes, which keep what the object carries).
    fn track_update(
        &self,
        r: &Resolved,
        live: Option<&Arc<Obj>>,
        new: &Value,
        sub: Sub,
        opts: &WriteOptions,
    ) -> Result<Option<Value>, StatusError> {
        let Some(manager) = &opts.manager else {
            return Ok(None);
        };
        let live = live.map(|o| o.to_value()).transpose()?;
        managed_fields::after_update(self, &r.spec, live.as_ref(), new, sub, manager).map(Some)
    }

    /// The object's `autoscaling/v1` `Scale` (GET on the `scale` subresource).
    pub fn get_scale(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Value, StatusError> {
        let scale = r
            .spec
            .scale
            .as_ref()
            .ok_or_else(StatusError::unknown_resource)?;
        scale::of(scale, &*self.get(r, namespace, name)?)
    }

    /// Writes the `scale` subresource: `make` turns the current `Scale` into the wanted one
    /// (a PUT's body, or the current one patched); its `spec.replicas` goes to the object.
    pub fn write_scale(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        opts: &WriteOptions,
        make: &dyn Fn(Value) -> Result<Value, StatusError>,
    ) -> Result<Value, StatusError> {
        let scale = r
            .spec
            .scale
            .as_ref()
            .ok_or_else(StatusError::unknown_resource)?;
        let namespace = request_namespace(&r.spec, namespace);
        let key = object_key(namespace, name);
        let (_, obj) = r.store.write(&self.clock, &key, opts.dry_run, |existing| {
            let old = existing
                .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))?;
            namespace_lifecycle::admit_update(self, &r.spec, namespace)?;
            let wanted = make(scale::of(scale, old)?)?;
            check_name(&wanted, name, namespace)?;
            let replicas = scale::replicas(&wanted, name)?;
            if let Some(rv) = meta_str(&wanted, "resourceVersion").filter(|rv| !rv.is_empty()) {
                if rv != old.rv.to_string() {
                    return Err(StatusError::conflict(&r.spec.group, &r.spec.plural, name));
                }
            }
            let old_value = old.to_value()?;
            let mut value = old_value.clone();
            scale::set_replicas(scale, &mut value, replicas)?;
            strategy::prepare_update(&r.spec, &old_value, &mut value, name)?;
            Ok(Change::Put(value))
        })?;
        scale::of(scale, &obj)
    }

    /// Deletes an object (DELETE): checks the preconditions, then deletes it, or, while
    /// finalizers remain, marks it as being deleted and keeps it.
    pub fn delete(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
        opts: &DeleteOptions,
    ) -> Result<(Outcome, Arc<Obj>), StatusError> {
        if namespace_lifecycle::is_namespaces(&r.spec) {
            return namespace_lifecycle::delete(self, r, name, opts);
        }
        let namespace = request_namespace(&r.spec, namespace);
        let key = object_key(namespace, name);
        r.store.write(&self.clock, &key, opts.dry_run, |existing| {
            let old = existing
                .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))?;
            let mut value = old.to_value()?;
            let conflict = |why: String| {
                StatusError::precondition_conflict(&r.spec.group, &r.spec.kind, name, &why)
            };
            let uid = meta_str(&value, "uid").unwrap_or_default();
            if let Some(want) = opts.uid.as_deref().filter(|u| *u != uid) {
                return Err(conflict(format!("the UID in the precondition ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated")));
            }
            let rv = old.rv.to_string();
            if let Some(want) = opts.resource_version.as_deref().filter(|v| *v != rv) {
                return Err(conflict(format!("the ResourceVersion in the precondition ({want}) does not match the ResourceVersion in record ({rv}). The object might have been modified")));
            }
            if let Some(finalizers) = gc::deletion_finalizers(self, &r.spec, &value, opts) {
                if let Some(meta) = value.as_object_mut().and_then(metadata_mut) {
                    meta.insert("finalizers".into(), finalizers.into());
                }
            }
            if strategy::finalizers(&value).is_empty() {
                Ok(Change::Delete)
            } else {
                strategy::mark_deleting(&mut value)?;
                Ok(Change::Put(value))
            }
        })
        .and_then(|(outcome, obj)| self.after_write(r, opts.dry_run, outcome, obj))
    }

    /// [`replace`] with the built-ins' update steps around it: before, the values a
    /// client may leave out kept and pod admission on update; after, a Service's
    /// allocations (only once the update is valid, so a refused one allocates nothing).
    fn replace_defaulted(
        &self,
        r: &Resolved,
        old: &Arc<Obj>,
        mut new: Value,
        name: &str,
        sub: Sub,
        dry_run: bool,
    ) -> Result<Change, StatusError> {
        let admits = self.admits(r);
        if !admits || sub != Sub::Main {
            return replace(r, old, new, name, sub, admits);
        }
        let old_value = old.to_value()?;
        defaults::prepare_update(&r.spec, &old_value, &mut new);
        let mut change = replace(r, old, new, name, sub, admits)?;
        if let Change::Put(value) = &mut change {
            defaults::allocate_update(
                &self.service_allocator,
                &r.spec,
                &old_value,
                value,
                dry_run,
            )?;
        }
        Ok(change)
    }

    /// Whether writes of `r` go through admission (plugins, metadata and schema
    /// validation, pruning, defaulting): always for CRDs, whose admission installs them;
    /// for the rest unless the server was built without it, for benchmarks.
    /// The decode step of every write (a body, or a patched object), as the real server
    /// decodes one: a custom resource pruned and defaulted by its schema, ConfigMap and
    /// Secret data decoded, built-ins defaulted. What the built-ins' defaulting found is
    /// what a create (or a PUT that creates) still needs.
    fn decode(
        &self,
        r: &Resolved,
        body: &mut Value,
        opts: &WriteOptions,
    ) -> Result<defaults::Decoded, StatusError> {
        let admits = self.admits(r);
        if admits {
            crd::decode(r, body, opts)?;
        }
        data::decode(&r.spec, body)?;
        Ok(if admits {
            defaults::decode(&r.spec, body)
        } else {
            defaults::Decoded::default()
        })
    }

    fn admits(&self, r: &Resolved) -> bool {
        self.config.admission
            || (r.spec.group == "apiextensions.k8s.io"
                && r.spec.plural == "customresourcedefinitions")
    }

    /// After a stored write: a CRD's custom resource is installed, updated or removed;
    /// the garbage collector sees the write; the serviceaccounts controller gives a new
    /// namespace its `default` account, or creates a deleted one again.
    fn after_write(
        &self,
        r: &Resolved,
        dry_run: bool,
        outcome: Outcome,
        obj: Arc<Obj>,
    ) -> Result<(Outcome, Arc<Obj>), StatusError> {
        if !dry_run {
            crd::after_write(self, r, outcome, &obj)?;
            gc::observe(self, &r.spec, outcome, &obj);
            defaults::after_write(&self.service_allocator, &r.spec, outcome, &obj)?;
            serviceaccounts::after_write(self, &r.spec, outcome, &obj);
        }
        Ok((outcome, obj))
    }

    /// Deletes every object of the namespace (or all) that `keep` selects, as a
    /// delete-collection does: each as a delete with `opts` would. Returns the objects as
    /// they were listed, and the resourceVersion of that list.
    pub fn delete_collection(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        keep: &dyn Fn(&Obj) -> bool,
        opts: &DeleteOptions,
    ) -> Result<(u64, Vec<Arc<Obj>>), StatusError> {
        let (rv, items) = r.store.select(&self.clock, namespace, keep);
        for obj in &items {
            match self.delete(r, obj.namespace.as_deref(), &obj.name, opts) {
                Ok(_) => {}
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
        Ok((rv, items))
    }

    /// The current object.
    pub fn get(
        &self,
        r: &Resolved,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Arc<Obj>, StatusError> {
        let namespace = request_namespace(&r.spec, namespace);
        r.store
            .get(&object_key(namespace, name))
            .ok_or_else(|| StatusError::not_found(&r.spec.group, &r.spec.plural, name))
    }
}

/// Options every write takes.
#[derive(Clone, Debug, Default)]
pub(crate) struct WriteOptions {
    /// `dryRun=All`: answer as the write would, store nothing.
    pub dry_run: bool,
    /// `fieldValidation`: what unknown fields of a custom resource do.
    pub field_validation: crd::FieldValidation,
    /// Warnings for the response's `Warning` headers.
    pub warnings: crd::Warnings,
    /// The manager `managedFields` record the write under (the `fieldManager`, else the
    /// User-Agent's prefix); `None` for in-process writes, which keep the object's
    /// `managedFields` as given.
    pub manager: Option<String>,
    /// `force` of an apply: take over the fields of conflicting managers.
    pub force: bool,
    /// The `managedFields` of an apply that creates the object (its create records
    /// these instead of an `Update` entry).
    pub applied: Option<Value>,
}

/// `change` with `managed` as the stored object's `managedFields`.
fn with_managed_fields(change: Change, managed: Option<&Value>) -> Change {
    match (change, managed) {
        (Change::Put(mut v), Some(m)) => {
            managed_fields::set(&mut v, m);
            Change::Put(v)
        }
        (Change::DeleteAnswering(mut v), Some(m)) => {
            managed_fields::set(&mut v, m);
            Change::DeleteAnswering(v)
        }
        (change, _) => change,
    }
}

/// The parts of `DeleteOptions` this server acts on.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeleteOptions {
    pub dry_run: bool,
    /// `preconditions.uid`.
    pub uid: Option<String>,
    /// `preconditions.resourceVersion`.
    pub resource_version: Option<String>,
    /// `propagationPolicy`.
    pub propagation: Option<gc::Propagation>,
    /// `orphanDependents` (deprecated; wins over `propagationPolicy`).
    pub orphan_dependents: Option<bool>,
}

/// The part of an object a write goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sub {
    /// The object itself.
    Main,
    /// The `status` subresource.
    Status,
}

/// The namespace of a request for an object: the URL's (`default` when absent) for
/// namespaced resources, none for cluster-scoped ones.
fn request_namespace<'a>(spec: &ResourceSpec, namespace: Option<&'a str>) -> Option<&'a str> {
    spec.namespaced.then(|| namespace.unwrap_or("default"))
}

/// kube-apiserver's `checkName`: the body must name the object of the URL and may repeat,
/// but not contradict, its namespace.
fn check_name(body: &Value, name: &str, namespace: Option<&str>) -> Result<(), StatusError> {
    let in_body = meta_str(body, "name").unwrap_or_default();
    if in_body != name {
        return Err(StatusError::bad_request(format!(
            "the name of the object ({in_body}) does not match the name on the URL ({name})"
        )));
    }
    if let (Some(ns), Some(body_ns)) = (
        namespace,
        meta_str(body, "namespace").filter(|s| !s.is_empty()),
    ) {
        if ns != body_ns {
            return Err(StatusError::bad_request(format!(
                "the namespace of the object ({body_ns}) does not match the namespace on the URL ({ns})"
            )));
        }
    }
    Ok(())
}

/// The checks of an update and what it stores: the uid precondition, optimistic
/// concurrency on `metadata.resourceVersion` (or the 422 of resources that need one), the
/// strategy's server-owned fields; for the `status` subresource only `status` changes.
/// Removing the last finalizer of an object being deleted deletes it.
fn replace(
    r: &Resolved,
    old: &Arc<Obj>,
    new: Value,
    name: &str,
    sub: Sub,
    admits: bool,
) -> Result<Change, StatusError> {
    let old_value = old.to_value()?;
    let spec = &r.spec;
    let old_uid = meta_str(&old_value, "uid").unwrap_or_default();
    if let Some(uid) = meta_str(&new, "uid").filter(|u| !u.is_empty() && *u != old_uid) {
        return Err(StatusError::conflict_because(
            &spec.group,
            &spec.plural,
            name,
            &format!(
                "StorageError: invalid object, Code: 4, Key: {}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {old_uid}",
                storage_key(spec, old.namespace.as_deref(), name)
            ),
        ));
    }
    match meta_str(&new, "resourceVersion").filter(|rv| !rv.is_empty()) {
        Some(rv) if rv != old.rv.to_string() => {
            return Err(StatusError::conflict(&spec.group, &spec.plural, name));
        }
        Some(_) => {}
        None if spec.unconditional_update => {}
        None => {
            return Err(StatusError::invalid(
                &spec.kind,
                &spec.group,
                name,
                &[(
                    "metadata.resourceVersion",
                    "Invalid value: 0x0: must be specified for an update".to_owned(),
                )],
            ));
        }
    }
    let mut new = match sub {
        Sub::Status => strategy::status_update(&old_value, &new),
        Sub::Main => {
            let mut new = new;
            strategy::prepare_update(spec, &old_value, &mut new, name)?;
            namespace_lifecycle::prepare_update(spec, &old_value, &mut new);
            // A custom resource's metadata is checked with its schema, in one answer.
            if admits && spec.schema.is_none() {
                objectmeta::validate_update(spec, &old_value, &new)?;
            }
            new
        }
    };
    if admits {
        crd::validate_update(r, &old_value, &mut new, sub)?;
    }
    if strategy::being_deleted(&old_value)
        && !strategy::finalizers(&old_value).is_empty()
        && strategy::finalizers(&new).is_empty()
        && namespace_lifecycle::finalized(spec, &new)
    {
        return Ok(Change::DeleteAnswering(new));
    }
    Ok(Change::Put(new))
}

/// The etcd key kube-apiserver names in storage errors.
fn storage_key(spec: &ResourceSpec, namespace: Option<&str>, name: &str) -> String {
    let builtin_group =
        spec.group.is_empty() || !spec.group.contains('.') || spec.group.ends_with(".k8s.io");
    let prefix = if builtin_group {
        format!("/registry/{}", spec.plural)
    } else {
        format!("/registry/{}/{}", spec.group, spec.plural)
    };
    match namespace {
        Some(ns) => format!("{prefix}/{ns}/{name}"),
        None => format!("{prefix}/{name}"),
    }
}

/// Rejects a body whose `apiVersion`/`kind` name another type.
fn check_type(spec: &ResourceSpec, body: &Value) -> Result<(), StatusError> {
    if !body.is_object() {
        return Err(StatusError::bad_request(
            "couldn't get version/kind; json parse error: the body is not a JSON object",
        ));
    }
    if let Some(v) = body.get("apiVersion").and_then(Value::as_str) {
        if v != spec.api_version() {
            return Err(StatusError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({})",
                spec.api_version()
            )));
        }
    }
    if let Some(k) = body.get("kind").and_then(Value::as_str) {
        if k != spec.kind {
            return Err(StatusError::bad_request(format!(
                "the kind in the data ({k}) does not match the expected kind ({})",
                spec.kind
            )));
        }
    }
    Ok(())
}

/// The namespace a write applies to: the request's, which the body may repeat but not contradict.
fn effective_namespace(
    spec: &ResourceSpec,
    request: Option<&str>,
    body: &Value,
) -> Result<Option<String>, StatusError> {
    if !spec.namespaced {
        return Ok(None);
    }
    let in_body = meta_str(body, "namespace").filter(|s| !s.is_empty());
    match (request, in_body) {
        (Some(r), Some(b)) if r != b => Err(StatusError::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        )),
        (Some(r), _) => Ok(Some(r.to_owned())),
        (None, Some(b)) => Ok(Some(b.to_owned())),
        (None, None) => Ok(Some("default".to_owned())),
    }
}
