//! `example.com/v1`: `Widget`.
/// A Widget is a configurable gadget.
///
/// Validation rule: `self.metadata.name.size() <= 40` — the name has at most 40 characters
///
/// Custom resource `example.com/v1` `Widget` (`widgets`, namespaced), from CRD `widgets.example.com`.
///
/// This is the storage version.
///
/// Subresources: `scale`, `status`.
#[derive(Clone, Debug, PartialEq, ::kube_informers::serde::Deserialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct Widget {
    /// Standard object metadata.
    #[serde(default)]
    pub metadata: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    /// Desired state of the widget.
    /// - first point
    ///   continues here
    ///
    /// Validation rule: `!has(self.replicas) || self.replicas <= self.size` — replicas must not exceed size
    pub spec: WidgetSpec,
    /// Field `status`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub status: ::std::option::Option<WidgetStatus>,
}
impl ::kube_informers::k8s_openapi::Resource for Widget {
    const API_VERSION: &'static str = "example.com/v1";
    const GROUP: &'static str = "example.com";
    const KIND: &'static str = "Widget";
    const VERSION: &'static str = "v1";
    const URL_PATH_SEGMENT: &'static str = "widgets";
    type Scope = ::kube_informers::k8s_openapi::NamespaceResourceScope;
}
impl ::kube_informers::k8s_openapi::ListableResource for Widget {
    const LIST_KIND: &'static str = "WidgetList";
}
impl ::kube_informers::k8s_openapi::Metadata for Widget {
    type Ty = ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    fn metadata(&self) -> &Self::Ty {
        &self.metadata
    }
    fn metadata_mut(&mut self) -> &mut Self::Ty {
        &mut self.metadata
    }
}
/// Writes `apiVersion` and `kind` first, like the built-in k8s-openapi types.
impl ::kube_informers::serde::Serialize for Widget {
    fn serialize<S: ::kube_informers::serde::Serializer>(
        &self,
        serializer: S,
    ) -> ::std::result::Result<S::Ok, S::Error> {
        use ::kube_informers::serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(::std::option::Option::None)?;
        map.serialize_entry(
            "apiVersion",
            <Self as ::kube_informers::k8s_openapi::Resource>::API_VERSION,
        )?;
        map.serialize_entry(
            "kind",
            <Self as ::kube_informers::k8s_openapi::Resource>::KIND,
        )?;
        map.serialize_entry("metadata", &self.metadata)?;
        map.serialize_entry("spec", &self.spec)?;
        if let ::std::option::Option::Some(value) = &self.status {
            map.serialize_entry("status", value)?;
        }
        map.end()
    }
}
/// Desired state of the widget.
/// - first point
///   continues here
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::kube_informers::serde::Serialize,
    ::kube_informers::serde::Deserialize
)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpec {
    /// Field `config`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub config: ::std::option::Option<::kube_informers::serde_json::Value>,
    /// Field `for`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub r#for: ::std::option::Option<::std::string::String>,
    /// Free-form JSON: the `oneOf` branches of this schema share no single Rust type.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub free: ::std::option::Option<::kube_informers::serde_json::Value>,
    /// Field `hugepages-1Gi`.
    #[serde(
        rename = "hugepages-1Gi",
        default,
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub hugepages_1gi: ::std::option::Option<
        ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
    >,
    /// Validation rule (each value): `self.size() <= 63`
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub labels: ::std::option::Option<
        ::std::collections::BTreeMap<::std::string::String, ::std::string::String>,
    >,
    /// Field `matrix`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub matrix: ::std::option::Option<
        ::std::vec::Vec<::std::vec::Vec<::std::string::String>>,
    >,
    /// Field `mode`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub mode: ::std::option::Option<::std::string::String>,
    /// Field `port`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub port: ::std::option::Option<
        ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
    >,
    /// Field `ratio`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub ratio: ::std::option::Option<f64>,
    /// Validation rule: `!oldSelf.hasValue() || self >= oldSelf.value()` — replicas never decrease (`optionalOldSelf`: also checked on create)
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub replicas: ::std::option::Option<i64>,
    /// Validation rule (each item): `self.name != ''` — names are not empty (reported at `.name`)
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub rules: ::std::option::Option<::std::vec::Vec<WidgetSpecRules>>,
    /// Size in units.
    ///
    /// Default: `3`
    ///
    /// Validation rule: `self >= 0` — message: `'size ' + string(self) + ' is negative'` (reason `FieldValueForbidden`)
    pub size: i32,
    /// An embedded Kubernetes object (`apiVersion`, `kind`, `metadata`).
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub template: ::std::option::Option<WidgetSpecTemplate>,
    /// The widget type.
    pub r#type: WidgetSpecType,
    /// Field `weight`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub weight: ::std::option::Option<i64>,
}
/// Object at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.rules.items`.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    ::kube_informers::serde::Serialize,
    ::kube_informers::serde::Deserialize
)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpecRules {
    /// Field `$ref`.
    #[serde(
        rename = "$ref",
        default,
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub r#ref: ::std::option::Option<::std::string::String>,
    /// Field `name`.
    pub name: ::std::string::String,
    /// Field `nullableNote`.
    #[serde(
        rename = "nullableNote",
        default,
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub nullable_note: ::std::option::Option<::std::string::String>,
}
/// Object at `spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template`.
///
/// Fields the schema does not declare are kept in `rest`.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    ::kube_informers::serde::Serialize,
    ::kube_informers::serde::Deserialize
)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpecTemplate {
    /// Field `apiVersion`.
    #[serde(
        rename = "apiVersion",
        default,
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub api_version: ::std::option::Option<::std::string::String>,
    /// Field `kind`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub kind: ::std::option::Option<::std::string::String>,
    /// Fields the schema does not declare, kept as they arrived.
    #[serde(flatten)]
    pub rest: ::std::collections::BTreeMap<
        ::std::string::String,
        ::kube_informers::serde_json::Value,
    >,
}
/// The widget type.
///
/// Values other than these decode as `Other(value)`, so new server values never fail decoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WidgetSpecType {
    /// `"round"`
    Round,
    /// `"square edged"`
    SquareEdged,
    /// `"="`
    Eq,
    /// `"!="`
    NotEq,
    /// `"*"`
    Star,
    /// `""`
    Empty,
    /// A value this version of the schema does not list.
    Other(::std::string::String),
}
impl WidgetSpecType {
    /// The value as it appears on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Round => "round",
            Self::SquareEdged => "square edged",
            Self::Eq => "=",
            Self::NotEq => "!=",
            Self::Star => "*",
            Self::Empty => "",
            Self::Other(value) => value,
        }
    }
}
impl ::std::convert::From<::std::string::String> for WidgetSpecType {
    fn from(value: ::std::string::String) -> Self {
        match value.as_str() {
            "round" => Self::Round,
            "square edged" => Self::SquareEdged,
            "=" => Self::Eq,
            "!=" => Self::NotEq,
            "*" => Self::Star,
            "" => Self::Empty,
            _ => Self::Other(value),
        }
    }
}
impl ::kube_informers::serde::Serialize for WidgetSpecType {
    fn serialize<S: ::kube_informers::serde::Serializer>(
        &self,
        serializer: S,
    ) -> ::std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecType {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::std::result::Result<Self, D::Error> {
        <::std::string::String as ::kube_informers::serde::Deserialize<
            'de,
        >>::deserialize(deserializer)
            .map(Self::from)
    }
}
/// Object at `spec.versions[0].schema.openAPIV3Schema.properties.status`.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    ::kube_informers::serde::Serialize,
    ::kube_informers::serde::Deserialize
)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetStatus {
    /// Field `lastUpdated`.
    #[serde(
        rename = "lastUpdated",
        default,
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub last_updated: ::std::option::Option<
        ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
    >,
    /// Field `phase`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub phase: ::std::option::Option<WidgetStatusPhase>,
    /// Field `replicas`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub replicas: ::std::option::Option<i32>,
}
/// String enum at `spec.versions[0].schema.openAPIV3Schema.properties.status.properties.phase`.
///
/// Values other than these decode as `Other(value)`, so new server values never fail decoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WidgetStatusPhase {
    /// `"round"`
    Round,
    /// `"square edged"`
    SquareEdged,
    /// `"="`
    Eq,
    /// `"!="`
    NotEq,
    /// `"*"`
    Star,
    /// `""`
    Empty,
    /// A value this version of the schema does not list.
    Other(::std::string::String),
}
impl WidgetStatusPhase {
    /// The value as it appears on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Round => "round",
            Self::SquareEdged => "square edged",
            Self::Eq => "=",
            Self::NotEq => "!=",
            Self::Star => "*",
            Self::Empty => "",
            Self::Other(value) => value,
        }
    }
}
impl ::std::convert::From<::std::string::String> for WidgetStatusPhase {
    fn from(value: ::std::string::String) -> Self {
        match value.as_str() {
            "round" => Self::Round,
            "square edged" => Self::SquareEdged,
            "=" => Self::Eq,
            "!=" => Self::NotEq,
            "*" => Self::Star,
            "" => Self::Empty,
            _ => Self::Other(value),
        }
    }
}
impl ::kube_informers::serde::Serialize for WidgetStatusPhase {
    fn serialize<S: ::kube_informers::serde::Serializer>(
        &self,
        serializer: S,
    ) -> ::std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetStatusPhase {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::std::result::Result<Self, D::Error> {
        <::std::string::String as ::kube_informers::serde::Deserialize<
            'de,
        >>::deserialize(deserializer)
            .map(Self::from)
    }
}
