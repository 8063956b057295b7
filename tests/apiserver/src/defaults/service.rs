//! Services: `SetDefaults_Service`, the REST storage's IP family initialisation,
//! `normalizeClusterIPs` and `patchAllocatedValues`, and the allocation of cluster IPs
//! and node ports.

use serde_json::{json, Map, Value};

use super::ipalloc::{format_ip, parse_ip, Allocator, Pool, Refused, SERVICE_CIDR};
use super::{child, default_ptr, default_str, each_item};
use crate::schema::field::go_quote;
use crate::status::StatusError;

/// `DefaultClientIPServiceAffinitySeconds`.
const CLIENT_IP_TIMEOUT: i64 = 10800;

fn spec_str<'a>(svc: &'a Value, key: &str) -> &'a str {
    svc.get("spec")
        .and_then(|s| s.get(key))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// `SetDefaults_Service`.
pub(crate) fn default_service(obj: &mut Value) {
    let Some(spec) = super::spec_mut(obj) else {
        return;
    };
    default_str(spec, "sessionAffinity", "None");
    match spec.get("sessionAffinity").and_then(Value::as_str) {
        Some("None") => {
            spec.remove("sessionAffinityConfig");
        }
        Some("ClientIP") => {
            let has_timeout = spec
                .get("sessionAffinityConfig")
                .and_then(|c| c.get("clientIP"))
                .and_then(|c| c.get("timeoutSeconds"))
                .is_some_and(|t| !t.is_null());
            if !has_timeout {
                spec.insert(
                    "sessionAffinityConfig".into(),
                    json!({"clientIP": {"timeoutSeconds": CLIENT_IP_TIMEOUT}}),
                );
            }
        }
        _ => {}
    }
    default_str(spec, "type", "ClusterIP");
    each_item(spec, "ports", |p| {
        default_str(p, "protocol", "TCP");
        let unset = match p.get("targetPort") {
            None | Some(Value::Null) => true,
            Some(Value::Number(n)) => n.as_i64() == Some(0),
            Some(Value::String(s)) => s.is_empty(),
            Some(_) => false,
        };
        if unset {
            if let Some(port) = p.get("port").cloned() {
                p.insert("targetPort".into(), port);
            }
        }
    });
    let kind = spec
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let external_ips = spec
        .get("externalIPs")
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty());
    let externally_accessible =
        kind == "LoadBalancer" || kind == "NodePort" || (kind == "ClusterIP" && external_ips);
    if externally_accessible {
        default_str(spec, "externalTrafficPolicy", "Cluster");
    }
    if matches!(kind.as_str(), "NodePort" | "LoadBalancer" | "ClusterIP") {
        default_ptr(spec, "internalTrafficPolicy", json!("Cluster"));
    }
    if kind == "LoadBalancer" {
        default_ptr(spec, "allocateLoadBalancerNodePorts", json!(true));
    }
}

/// `needsClusterIP`: every type but ExternalName.
fn needs_cluster_ip(svc: &Value) -> bool {
    spec_str(svc, "type") != "ExternalName"
}

/// `needsNodePort`: NodePort, and LoadBalancer unless it opts out.
fn needs_node_ports(svc: &Value) -> bool {
    match spec_str(svc, "type") {
        "NodePort" => true,
        "LoadBalancer" => {
            svc.pointer("/spec/allocateLoadBalancerNodePorts")
                .and_then(Value::as_bool)
                != Some(false)
        }
        _ => false,
    }
}

/// A Service's `spec.clusterIPs`.
pub(crate) fn cluster_ips(svc: &Value) -> Vec<String> {
    svc.get("spec")
        .and_then(Value::as_object)
        .map(spec_cluster_ips)
        .unwrap_or_default()
}

/// The `clusterIPs` of a Service's `spec`.
fn spec_cluster_ips(spec: &Map<String, Value>) -> Vec<String> {
    spec.get("clusterIPs")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// A create: `clusterIPs` from a lone `clusterIP`, then the IP families of a single-stack
/// IPv4 cluster.
pub(crate) fn prepare_create(obj: &mut Value) {
    let ip = spec_str(obj, "clusterIP").to_owned();
    let needs = needs_cluster_ip(obj);
    let headless_without_selector = ip == "None"
        && obj
            .pointer("/spec/selector")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
    let Some(spec) = child(obj, "spec") else {
        return;
    };
    if !ip.is_empty()
        && spec
            .get("clusterIPs")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
    {
        spec.insert("clusterIPs".into(), json!([ip]));
    }
    if needs {
        init_ip_families(spec, headless_without_selector);
    }
}

/// `initIPFamilyFields` on a single-stack IPv4 cluster: SingleStack `[IPv4]`, except that
/// headless Services without a selector are RequireDualStack over both families.
fn init_ip_families(spec: &mut Map<String, Value>, headless_without_selector: bool) {
    if headless_without_selector {
        default_ptr(spec, "ipFamilyPolicy", json!("RequireDualStack"));
    } else {
        default_ptr(spec, "ipFamilyPolicy", json!("SingleStack"));
    }
    if spec
        .get("ipFamilies")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
    {
        spec.insert("ipFamilies".into(), json!(["IPv4"]));
    }
    let single = spec.get("ipFamilyPolicy").and_then(Value::as_str) == Some("SingleStack");
    if headless_without_selector && !single {
        if let Some(families) = spec.get_mut("ipFamilies").and_then(Value::as_array_mut) {
            if families.len() == 1 {
                let other = if families[0] == "IPv6" {
                    "IPv4"
                } else {
                    "IPv6"
                };
                families.push(json!(other));
            }
        }
    }
}

/// An update: `patchAllocatedValues` (cluster IPs and node ports a client left out are
/// kept), `normalizeClusterIPs`, and the IP families kept from the stored object.
pub(crate) fn prepare_update(old: &Value, new: &mut Value) {
    let both_ip = needs_cluster_ip(old) && needs_cluster_ip(new);
    let both_ports = needs_node_ports(old) && needs_node_ports(new);
    let old_ips = cluster_ips(old);
    let old_ip = spec_str(old, "clusterIP").to_owned();
    let old_ports: Vec<(String, i64)> = old
        .pointer("/spec/ports")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|p| {
                    (
                        p.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned(),
                        p.get("nodePort").and_then(Value::as_i64).unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let node_ports = |svc: &Value| -> Vec<i64> {
        svc.pointer("/spec/ports")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|p| p.get("nodePort").and_then(Value::as_i64))
                    .collect()
            })
            .unwrap_or_default()
    };
    let new_used = node_ports(new);
    let used: Vec<i64> = node_ports(old)
        .into_iter()
        .filter(|p| *p != 0 && new_used.contains(p))
        .collect();
    let Some(spec) = child(new, "spec") else {
        return;
    };
    if both_ip {
        default_str(spec, "clusterIP", &old_ip);
        if spec
            .get("clusterIPs")
            .and_then(Value::as_array)
            .is_none_or(Vec::is_empty)
            && !old_ips.is_empty()
        {
            spec.insert("clusterIPs".into(), json!(old_ips));
        }
    }
    if both_ports {
        each_item(spec, "ports", |p| {
            if p.get("nodePort").and_then(Value::as_i64).unwrap_or(0) == 0 {
                let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
                let old_value = old_ports
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0, |(_, v)| *v);
                if old_value != 0 && !used.contains(&old_value) {
                    p.insert("nodePort".into(), json!(old_value));
                }
            }
        });
    }
    normalize_cluster_ips(&old_ip, &old_ips, spec);
    if both_ip {
        for field in ["ipFamilyPolicy", "ipFamilies"] {
            let missing = spec
                .get(field)
                .is_none_or(|v| v.is_null() || v.as_array().is_some_and(Vec::is_empty));
            if missing {
                if let Some(v) = old.pointer(&format!("/spec/{field}")) {
                    spec.insert(field.into(), v.clone());
                }
            }
        }
    }
}

/// `normalizeClusterIPs` on an update.
fn normalize_cluster_ips(old_ip: &str, old_ips: &[String], spec: &mut Map<String, Value>) {
    let new_ip = spec
        .get("clusterIP")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if !old_ips.is_empty() && spec_cluster_ips(spec).is_empty() && old_ip == new_ip {
        spec.insert("clusterIPs".into(), json!(old_ips));
    }
    if old_ip != new_ip {
        let same = spec_cluster_ips(spec) == old_ips;
        if !old_ip.is_empty() && new_ip.is_empty() && same {
            spec.remove("clusterIPs");
        }
        if !new_ip.is_empty() && same {
            spec.insert("clusterIPs".into(), json!([new_ip]));
        }
    }
}

/// The values of `svc` in each pool.
fn held(svc: &Value) -> Vec<(Pool, u32)> {
    let mut out = Vec::new();
    if needs_cluster_ip(svc) {
        for ip in cluster_ips(svc) {
            if let Some(n) = parse_ip(&ip) {
                out.push((Pool::ClusterIp, n));
            }
        }
    }
    if let Some(ports) = svc.pointer("/spec/ports").and_then(Value::as_array) {
        for p in ports {
            if let Some(n) = p.get("nodePort").and_then(Value::as_u64).filter(|n| *n > 0) {
                out.push((Pool::NodePort, u32::try_from(n).unwrap_or(u32::MAX)));
            }
        }
    }
    out
}

/// The allocations of a create (`old` none) or update: a cluster IP for a Service that
/// needs one and has none, the IP it asks for, a node port for each port of a NodePort
/// or LoadBalancer Service without one, the ports it asks for; on an update, what the
/// old object held and the new one does not is freed. All or nothing.
pub(crate) fn allocate(
    alloc: &Allocator,
    old: Option<&Value>,
    svc: &mut Value,
    dry_run: bool,
) -> Result<(), StatusError> {
    let name = crate::meta::meta_str(svc, "name")
        .unwrap_or_default()
        .to_owned();
    let before: Vec<(Pool, u32)> = old.map(held).unwrap_or_default();
    let mut taken: Vec<(Pool, u32)> = Vec::new();
    let result = allocate_into(alloc, &before, svc, dry_run, &mut taken);
    if let Err(field_error) = result {
        if !dry_run {
            for (pool, v) in taken {
                alloc.release(pool, v);
            }
        }
        return Err(StatusError::invalid(
            "Service",
            "",
            &name,
            &[(field_error.0.as_str(), field_error.1)],
        ));
    }
    if !dry_run {
        let after = held(svc);
        for (pool, v) in before {
            if !after.contains(&(pool, v)) {
                alloc.release(pool, v);
            }
        }
    }
    Ok(())
}

fn allocate_into(
    alloc: &Allocator,
    before: &[(Pool, u32)],
    svc: &mut Value,
    dry_run: bool,
    taken: &mut Vec<(Pool, u32)>,
) -> Result<(), (String, String)> {
    let wants_ports = needs_node_ports(svc);
    if needs_cluster_ip(svc) {
        let ips = cluster_ips(svc);
        let shown = format!(
            "[]string{{{}}}",
            ips.iter()
                .map(|i| go_quote(i))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let refused = |ip: &str, why: String| {
            (
                "spec.clusterIPs".to_owned(),
                format!("Invalid value: {shown}: failed to allocate IP {ip}: {why}"),
            )
        };
        match ips.first().map(String::as_str) {
            None => {
                let ip = alloc
                    .next(Pool::ClusterIp, dry_run)
                    .map_err(|_| refused("", "range is full".to_owned()))?;
                if !dry_run {
                    taken.push((Pool::ClusterIp, ip));
                }
                if let Some(spec) = child(svc, "spec") {
                    spec.insert("clusterIP".into(), json!(format_ip(ip)));
                    spec.insert("clusterIPs".into(), json!([format_ip(ip)]));
                }
            }
            Some("None") => {}
            Some(ip) => {
                if let Some(n) = parse_ip(ip).filter(|n| !before.contains(&(Pool::ClusterIp, *n))) {
                    match alloc.take(Pool::ClusterIp, n, dry_run) {
                        Ok(()) => {
                            if !dry_run {
                                taken.push((Pool::ClusterIp, n));
                            }
                        }
                        Err(Refused::NotInRange) => {
                            return Err(refused(ip, format!("the provided IP ({ip}) is not in the valid range. The range of valid IPs is {SERVICE_CIDR}")));
                        }
                        Err(_) => {
                            return Err(refused(ip, "provided IP is already allocated".to_owned()))
                        }
                    }
                }
            }
        }
    }
    let Some(ports) = svc.pointer_mut("/spec/ports").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for (i, p) in ports.iter_mut().enumerate() {
        let Some(p) = p.as_object_mut() else {
            continue;
        };
        let asked = p.get("nodePort").and_then(Value::as_i64).unwrap_or(0);
        if !wants_ports {
            if asked != 0 {
                p.remove("nodePort");
            }
            continue;
        }
        if asked == 0 {
            let port = alloc.next(Pool::NodePort, dry_run).map_err(|_| {
                (
                    format!("spec.ports[{i}].nodePort"),
                    "Invalid value: 0: range is full".to_owned(),
                )
            })?;
            if !dry_run {
                taken.push((Pool::NodePort, port));
            }
            p.insert("nodePort".into(), json!(port));
            continue;
        }
        let value = u32::try_from(asked).unwrap_or(0);
        if before.contains(&(Pool::NodePort, value)) || taken.contains(&(Pool::NodePort, value)) {
            continue;
        }
        let why = match alloc.take(Pool::NodePort, value, dry_run) {
            Ok(()) => {
                if !dry_run {
                    taken.push((Pool::NodePort, value));
                }
                continue;
            }
            Err(Refused::NotInRange) => format!(
                "provided port is not in the valid range. The range of valid ports is {}-{}",
                super::ipalloc::NODE_PORTS.start(),
                super::ipalloc::NODE_PORTS.end()
            ),
            Err(_) => "provided port is already allocated".to_owned(),
        };
        return Err((
            format!("spec.ports[{i}].nodePort"),
            format!("Invalid value: {asked}: {why}"),
        ));
    }
    Ok(())
}

/// A deleted Service's cluster IPs and node ports go back to their pools.
pub(crate) fn release(alloc: &Allocator, svc: &Value) {
    for (pool, v) in held(svc) {
        alloc.release(pool, v);
    }
}
