//! Hand-written decoders of parts of Kubernetes messages, standing in for generated ones (an
//! integration test cannot implement `Message` for k8s-openapi's types), holding k8s-openapi's
//! field types.

use std::collections::BTreeMap;

use informer_protobuf::codec::{
    Bool, Duration, FieldsV1, IntOrString, MicroTime, Msg, Quantity, RawExtension, Str, Time, I32,
    I64,
};
use informer_protobuf::field::{
    inline, managed_fields, omitempty, optional, optional_map, optional_repeated, repeated, value,
};
use informer_protobuf::{DecodeError, Message, Reader, WireType};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as Q;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension as Raw;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString as IntOrStr;

type Result = std::result::Result<(), DecodeError>;

#[derive(Debug, Default, PartialEq)]
pub struct Meta {
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub resource_version: Option<String>,
    pub generation: Option<i64>,
    pub creation_timestamp: Option<meta::Time>,
    pub deletion_timestamp: Option<meta::Time>,
    pub labels: Option<BTreeMap<String, String>>,
    pub finalizers: Option<Vec<String>>,
    pub managed_fields: Option<Vec<Managed>>,
}

impl Message for Meta {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => omitempty::<Str>(&mut self.name, wire, r, "name"),
            3 => omitempty::<Str>(&mut self.namespace, wire, r, "namespace"),
            6 => omitempty::<Str>(&mut self.resource_version, wire, r, "resourceVersion"),
            7 => omitempty::<I64>(&mut self.generation, wire, r, "generation"),
            8 => optional::<Time>(&mut self.creation_timestamp, wire, r, "creationTimestamp"),
            9 => optional::<Time>(&mut self.deletion_timestamp, wire, r, "deletionTimestamp"),
            11 => optional_map::<Str, Str>(&mut self.labels, wire, r, "labels"),
            14 => optional_repeated::<Str>(&mut self.finalizers, wire, r, "finalizers"),
            17 => {
                managed_fields::<Msg<Managed>>(&mut self.managed_fields, wire, r, "managedFields")
            }
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Managed {
    pub manager: Option<String>,
    pub time: Option<meta::Time>,
    pub fields_v1: Option<meta::FieldsV1>,
}

impl Message for Managed {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => omitempty::<Str>(&mut self.manager, wire, r, "manager"),
            4 => optional::<Time>(&mut self.time, wire, r, "time"),
            7 => optional::<FieldsV1>(&mut self.fields_v1, wire, r, "fieldsV1"),
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Pod {
    pub metadata: Meta,
    pub spec: Option<Spec>,
}

impl Message for Pod {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => value::<Msg<Meta>>(&mut self.metadata, wire, r, "metadata"),
            2 => optional::<Msg<Spec>>(&mut self.spec, wire, r, "spec"),
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Spec {
    pub containers: Vec<Container>,
    pub termination_grace_period_seconds: Option<i64>,
    pub node_selector: Option<BTreeMap<String, String>>,
    pub automount_service_account_token: Option<bool>,
}

impl Message for Spec {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            2 => repeated::<Msg<Container>>(&mut self.containers, wire, r, "containers"),
            4 => optional::<I64>(
                &mut self.termination_grace_period_seconds,
                wire,
                r,
                "terminationGracePeriodSeconds",
            ),
            7 => optional_map::<Str, Str>(&mut self.node_selector, wire, r, "nodeSelector"),
            21 => optional::<Bool>(
                &mut self.automount_service_account_token,
                wire,
                r,
                "automountServiceAccountToken",
            ),
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Container {
    pub name: String,
    pub image: Option<String>,
    pub args: Option<Vec<String>>,
    pub ports: Option<Vec<Port>>,
    pub resources: Option<Resources>,
    pub readiness_probe: Option<Probe>,
}

impl Message for Container {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => value::<Str>(&mut self.name, wire, r, "name"),
            2 => omitempty::<Str>(&mut self.image, wire, r, "image"),
            4 => optional_repeated::<Str>(&mut self.args, wire, r, "args"),
            6 => optional_repeated::<Msg<Port>>(&mut self.ports, wire, r, "ports"),
            8 => optional::<Msg<Resources>>(&mut self.resources, wire, r, "resources"),
            11 => optional::<Msg<Probe>>(&mut self.readiness_probe, wire, r, "readinessProbe"),
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Port {
    pub name: Option<String>,
    pub host_port: Option<i32>,
    pub container_port: i32,
    pub protocol: Option<String>,
}

impl Message for Port {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => omitempty::<Str>(&mut self.name, wire, r, "name"),
            2 => omitempty::<I32>(&mut self.host_port, wire, r, "hostPort"),
            3 => value::<I32>(&mut self.container_port, wire, r, "containerPort"),
            4 => omitempty::<Str>(&mut self.protocol, wire, r, "protocol"),
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct Resources {
    pub limits: Option<BTreeMap<String, Q>>,
    pub requests: Option<BTreeMap<String, Q>>,
}

impl Message for Resources {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => optional_map::<Str, Quantity>(&mut self.limits, wire, r, "limits"),
            2 => optional_map::<Str, Quantity>(&mut self.requests, wire, r, "requests"),
            _ => r.skip(wire),
        }
    }
}

/// `Probe`, whose embedded `ProbeHandler` k8s-openapi flattens into it.
#[derive(Debug, Default, PartialEq)]
pub struct Probe {
    pub http_get: Option<HttpGet>,
    pub initial_delay_seconds: Option<i32>,
}

impl Message for Probe {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => inline(
                self,
                wire,
                r,
                "handler",
                |probe, number, wire, r| match number {
                    2 => optional::<Msg<HttpGet>>(&mut probe.http_get, wire, r, "httpGet"),
                    _ => r.skip(wire),
                },
            ),
            2 => omitempty::<I32>(
                &mut self.initial_delay_seconds,
                wire,
                r,
                "initialDelaySeconds",
            ),
            _ => r.skip(wire),
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct HttpGet {
    pub path: Option<String>,
    pub port: IntOrStr,
}

impl Message for HttpGet {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            1 => omitempty::<Str>(&mut self.path, wire, r, "path"),
            2 => value::<IntOrString>(&mut self.port, wire, r, "port"),
            _ => r.skip(wire),
        }
    }
}

/// `events.k8s.io/v1` `Event`.
#[derive(Debug, Default, PartialEq)]
pub struct Event {
    pub event_time: Option<meta::MicroTime>,
    pub deprecated_first_timestamp: Option<meta::Time>,
    pub deprecated_count: Option<i32>,
    pub note: Option<String>,
}

impl Message for Event {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            2 => optional::<MicroTime>(&mut self.event_time, wire, r, "eventTime"),
            10 => omitempty::<Str>(&mut self.note, wire, r, "note"),
            13 => optional::<Time>(
                &mut self.deprecated_first_timestamp,
                wire,
                r,
                "deprecatedFirstTimestamp",
            ),
            15 => omitempty::<I32>(&mut self.deprecated_count, wire, r, "deprecatedCount"),
            _ => r.skip(wire),
        }
    }
}

/// `metrics.k8s.io/v1beta1` `PodMetrics`.
#[derive(Debug, Default, PartialEq)]
pub struct PodMetrics {
    pub timestamp: Option<meta::Time>,
    pub window: String,
}

impl Message for PodMetrics {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            2 => optional::<Time>(&mut self.timestamp, wire, r, "timestamp"),
            3 => value::<Duration>(&mut self.window, wire, r, "window"),
            _ => r.skip(wire),
        }
    }
}

/// `apps/v1` `ControllerRevision`.
#[derive(Debug, Default, PartialEq)]
pub struct ControllerRevision {
    pub data: Option<Raw>,
    pub revision: i64,
}

impl Message for ControllerRevision {
    fn empty() -> Self {
        Self::default()
    }

    fn merge_field(&mut self, number: u32, wire: WireType, r: &mut Reader<'_>) -> Result {
        match number {
            2 => optional::<RawExtension>(&mut self.data, wire, r, "data"),
            3 => value::<I64>(&mut self.revision, wire, r, "revision"),
            _ => r.skip(wire),
        }
    }
}
