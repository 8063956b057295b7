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
/// The apply configuration of [`Widget`]: every field optional, only the set ones sent; `new` sets what every apply needs.
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetApply {
    /// `apiVersion`: set by `new`.
    #[serde(rename = "apiVersion", default, skip_serializing_if = "Option::is_none")]
    pub api_version: ::core::option::Option<::std::string::String>,
    /// `kind`: set by `new`.
    #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
    pub kind: ::core::option::Option<::std::string::String>,
    /// `metadata`: the name (and namespace) set by `new`, and what else this apply
    /// sets of the object's metadata.
    #[serde(rename = "metadata", default, skip_serializing_if = "Option::is_none")]
    pub metadata: ::core::option::Option<::kube_informers::apply::ObjectMetaApply>,
    /// Desired state of the widget.
    /// - first point
    ///   continues here
    ///
    /// Validation rule: `!has(self.replicas) || self.replicas <= self.size` — replicas must not exceed size
    #[serde(rename = "spec", default, skip_serializing_if = "Option::is_none")]
    pub spec: ::core::option::Option<WidgetSpecApply>,
    /// Field `status`.
    #[serde(rename = "status", default, skip_serializing_if = "Option::is_none")]
    pub status: ::core::option::Option<WidgetStatusApply>,
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetApply {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::core::result::Result<Self, D::Error> {
        let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
            deserializer,
        )?;
        ::core::result::Result::Ok(Self {
            api_version: fields.take("apiVersion")?,
            kind: fields.take("kind")?,
            metadata: fields.take("metadata")?,
            spec: fields.take("spec")?,
            status: fields.take("status")?,
        })
    }
}
impl WidgetApply {
    /// A `Widget` configuration of `name` in `namespace`, with `apiVersion` and `kind` set.
    #[inline]
    pub fn new(
        name: impl ::core::convert::Into<::std::string::String>,
        namespace: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        Self {
            api_version: ::core::option::Option::Some(
                <Widget as ::kube_informers::k8s_openapi::Resource>::API_VERSION.into(),
            ),
            kind: ::core::option::Option::Some(
                <Widget as ::kube_informers::k8s_openapi::Resource>::KIND.into(),
            ),
            metadata: ::core::option::Option::Some(
                ::kube_informers::apply::ObjectMetaApply::new()
                    .name(name)
                    .namespace(namespace),
            ),
            ..::core::default::Default::default()
        }
    }
    /// Adds `metadata.labels`.
    #[inline]
    #[must_use]
    pub fn labels(
        mut self,
        entries: impl ::core::iter::IntoIterator<
            Item = (
                impl ::core::convert::Into<::std::string::String>,
                impl ::core::convert::Into<::std::string::String>,
            ),
        >,
    ) -> Self {
        self.metadata = ::core::option::Option::Some(
            self.metadata.take().unwrap_or_default().labels(entries),
        );
        self
    }
    /// Adds `metadata.annotations`.
    #[inline]
    #[must_use]
    pub fn annotations(
        mut self,
        entries: impl ::core::iter::IntoIterator<
            Item = (
                impl ::core::convert::Into<::std::string::String>,
                impl ::core::convert::Into<::std::string::String>,
            ),
        >,
    ) -> Self {
        self.metadata = ::core::option::Option::Some(
            self.metadata.take().unwrap_or_default().annotations(entries),
        );
        self
    }
    /// Adds `metadata.ownerReferences`.
    #[inline]
    #[must_use]
    pub fn owner_references(
        mut self,
        values: impl ::core::iter::IntoIterator<
            Item = ::kube_informers::apply::OwnerReferenceApply,
        >,
    ) -> Self {
        self.metadata = ::core::option::Option::Some(
            self.metadata.take().unwrap_or_default().owner_references(values),
        );
        self
    }
    /// Adds `metadata.finalizers`.
    #[inline]
    #[must_use]
    pub fn finalizers(
        mut self,
        values: impl ::core::iter::IntoIterator<
            Item = impl ::core::convert::Into<::std::string::String>,
        >,
    ) -> Self {
        self.metadata = ::core::option::Option::Some(
            self.metadata.take().unwrap_or_default().finalizers(values),
        );
        self
    }
    /// Sets `spec`.
    #[inline]
    #[must_use]
    pub fn spec(mut self, value: WidgetSpecApply) -> Self {
        self.spec = ::core::option::Option::Some(value);
        self
    }
    /// Sets `status`.
    #[inline]
    #[must_use]
    pub fn status(mut self, value: WidgetStatusApply) -> Self {
        self.status = ::core::option::Option::Some(value);
        self
    }
}
impl ::kube_informers::apply::ApplyConfiguration for WidgetApply {
    type Resource = Widget;
}
/// The `Widget` configuration `field_manager` applied to `object`, read from its `managedFields` (client-go's `ExtractWidget`).
#[inline]
pub fn extract_widget(
    object: &Widget,
    field_manager: &str,
) -> ::core::result::Result<WidgetApply, ::kube_informers::apply::ExtractError> {
    ::kube_informers::apply::extract(object, field_manager, "")
}
/// The `Widget` status configuration `field_manager` applied through the `status` subresource (client-go's `ExtractWidgetStatus`).
#[inline]
pub fn extract_widget_status(
    object: &Widget,
    field_manager: &str,
) -> ::core::result::Result<WidgetApply, ::kube_informers::apply::ExtractError> {
    ::kube_informers::apply::extract(object, field_manager, "status")
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
    /// Validation rule: `self >= 0` — message: `self < -100 ? 'size is far below zero' : 'size is negative'` (reason `FieldValueForbidden`)
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
/// The apply configuration of [`WidgetSpec`]: every field optional, only the set ones sent.
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpecApply {
    /// Field `config`.
    #[serde(rename = "config", default, skip_serializing_if = "Option::is_none")]
    pub config: ::core::option::Option<::kube_informers::serde_json::Value>,
    /// Field `for`.
    #[serde(rename = "for", default, skip_serializing_if = "Option::is_none")]
    pub r#for: ::core::option::Option<::std::string::String>,
    /// Free-form JSON: the `oneOf` branches of this schema share no single Rust type.
    #[serde(rename = "free", default, skip_serializing_if = "Option::is_none")]
    pub free: ::core::option::Option<::kube_informers::serde_json::Value>,
    /// Field `hugepages-1Gi`.
    #[serde(rename = "hugepages-1Gi", default, skip_serializing_if = "Option::is_none")]
    pub hugepages_1gi: ::core::option::Option<
        ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
    >,
    /// Validation rule (each value): `self.size() <= 63`
    #[serde(rename = "labels", default, skip_serializing_if = "Option::is_none")]
    pub labels: ::core::option::Option<
        ::std::collections::BTreeMap<::std::string::String, ::std::string::String>,
    >,
    /// Field `matrix`.
    #[serde(rename = "matrix", default, skip_serializing_if = "Option::is_none")]
    pub matrix: ::core::option::Option<
        ::std::vec::Vec<::std::vec::Vec<::std::string::String>>,
    >,
    /// Field `mode`.
    #[serde(rename = "mode", default, skip_serializing_if = "Option::is_none")]
    pub mode: ::core::option::Option<::std::string::String>,
    /// Field `port`.
    #[serde(rename = "port", default, skip_serializing_if = "Option::is_none")]
    pub port: ::core::option::Option<
        ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
    >,
    /// Field `ratio`.
    #[serde(rename = "ratio", default, skip_serializing_if = "Option::is_none")]
    pub ratio: ::core::option::Option<f64>,
    /// Validation rule: `!oldSelf.hasValue() || self >= oldSelf.value()` — replicas never decrease (`optionalOldSelf`: also checked on create)
    #[serde(rename = "replicas", default, skip_serializing_if = "Option::is_none")]
    pub replicas: ::core::option::Option<i64>,
    /// Validation rule (each item): `self.name != ''` — names are not empty (reported at `.name`)
    #[serde(rename = "rules", default, skip_serializing_if = "Option::is_none")]
    pub rules: ::core::option::Option<::std::vec::Vec<WidgetSpecRulesApply>>,
    /// Size in units.
    ///
    /// Default: `3`
    ///
    /// Validation rule: `self >= 0` — message: `self < -100 ? 'size is far below zero' : 'size is negative'` (reason `FieldValueForbidden`)
    #[serde(rename = "size", default, skip_serializing_if = "Option::is_none")]
    pub size: ::core::option::Option<i32>,
    /// An embedded Kubernetes object (`apiVersion`, `kind`, `metadata`).
    #[serde(rename = "template", default, skip_serializing_if = "Option::is_none")]
    pub template: ::core::option::Option<WidgetSpecTemplateApply>,
    /// The widget type.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub r#type: ::core::option::Option<WidgetSpecType>,
    /// Field `weight`.
    #[serde(rename = "weight", default, skip_serializing_if = "Option::is_none")]
    pub weight: ::core::option::Option<i64>,
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecApply {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::core::result::Result<Self, D::Error> {
        let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
            deserializer,
        )?;
        ::core::result::Result::Ok(Self {
            config: fields.take("config")?,
            r#for: fields.take("for")?,
            free: fields.take("free")?,
            hugepages_1gi: fields.take("hugepages-1Gi")?,
            labels: fields.take("labels")?,
            matrix: fields.take("matrix")?,
            mode: fields.take("mode")?,
            port: fields.take("port")?,
            ratio: fields.take("ratio")?,
            replicas: fields.take("replicas")?,
            rules: fields.take("rules")?,
            size: fields.take("size")?,
            template: fields.take("template")?,
            r#type: fields.take("type")?,
            weight: fields.take("weight")?,
        })
    }
}
impl WidgetSpecApply {
    /// A configuration with nothing set.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Sets `config`.
    #[inline]
    #[must_use]
    pub fn config(mut self, value: ::kube_informers::serde_json::Value) -> Self {
        self.config = ::core::option::Option::Some(value);
        self
    }
    /// Sets `for`.
    #[inline]
    #[must_use]
    pub fn r#for(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.r#for = ::core::option::Option::Some(value.into());
        self
    }
    /// Sets `free`.
    #[inline]
    #[must_use]
    pub fn free(mut self, value: ::kube_informers::serde_json::Value) -> Self {
        self.free = ::core::option::Option::Some(value);
        self
    }
    /// Sets `hugepages-1Gi`.
    #[inline]
    #[must_use]
    pub fn hugepages_1gi(
        mut self,
        value: ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
    ) -> Self {
        self.hugepages_1gi = ::core::option::Option::Some(value);
        self
    }
    /// Adds entries to `labels` (a key given again keeps its last value).
    #[inline]
    #[must_use]
    pub fn labels(
        mut self,
        entries: impl ::core::iter::IntoIterator<
            Item = (
                impl ::core::convert::Into<::std::string::String>,
                impl ::core::convert::Into<::std::string::String>,
            ),
        >,
    ) -> Self {
        self.labels
            .get_or_insert_with(::std::collections::BTreeMap::new)
            .extend(entries.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }
    /// Adds items to `matrix`.
    #[inline]
    #[must_use]
    pub fn matrix(
        mut self,
        values: impl ::core::iter::IntoIterator<
            Item = ::std::vec::Vec<::std::string::String>,
        >,
    ) -> Self {
        self.matrix.get_or_insert_with(::std::vec::Vec::new).extend(values);
        self
    }
    /// Sets `mode`.
    #[inline]
    #[must_use]
    pub fn mode(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.mode = ::core::option::Option::Some(value.into());
        self
    }
    /// Sets `port`.
    #[inline]
    #[must_use]
    pub fn port(
        mut self,
        value: ::kube_informers::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
    ) -> Self {
        self.port = ::core::option::Option::Some(value);
        self
    }
    /// Sets `ratio`.
    #[inline]
    #[must_use]
    pub fn ratio(mut self, value: f64) -> Self {
        self.ratio = ::core::option::Option::Some(value);
        self
    }
    /// Sets `replicas`.
    #[inline]
    #[must_use]
    pub fn replicas(mut self, value: i64) -> Self {
        self.replicas = ::core::option::Option::Some(value);
        self
    }
    /// Adds items to `rules`.
    #[inline]
    #[must_use]
    pub fn rules(
        mut self,
        values: impl ::core::iter::IntoIterator<Item = WidgetSpecRulesApply>,
    ) -> Self {
        self.rules.get_or_insert_with(::std::vec::Vec::new).extend(values);
        self
    }
    /// Sets `size`.
    #[inline]
    #[must_use]
    pub fn size(mut self, value: i32) -> Self {
        self.size = ::core::option::Option::Some(value);
        self
    }
    /// Sets `template`.
    #[inline]
    #[must_use]
    pub fn template(mut self, value: WidgetSpecTemplateApply) -> Self {
        self.template = ::core::option::Option::Some(value);
        self
    }
    /// Sets `type`.
    #[inline]
    #[must_use]
    pub fn r#type(mut self, value: WidgetSpecType) -> Self {
        self.r#type = ::core::option::Option::Some(value);
        self
    }
    /// Sets `weight`.
    #[inline]
    #[must_use]
    pub fn weight(mut self, value: i64) -> Self {
        self.weight = ::core::option::Option::Some(value);
        self
    }
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
/// The apply configuration of [`WidgetSpecRules`]: every field optional, only the set ones sent.
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpecRulesApply {
    /// Field `$ref`.
    #[serde(rename = "$ref", default, skip_serializing_if = "Option::is_none")]
    pub r#ref: ::core::option::Option<::std::string::String>,
    /// Field `name`.
    #[serde(rename = "name", default, skip_serializing_if = "Option::is_none")]
    pub name: ::core::option::Option<::std::string::String>,
    /// Field `nullableNote`.
    #[serde(rename = "nullableNote", default, skip_serializing_if = "Option::is_none")]
    pub nullable_note: ::core::option::Option<::std::string::String>,
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecRulesApply {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::core::result::Result<Self, D::Error> {
        let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
            deserializer,
        )?;
        ::core::result::Result::Ok(Self {
            r#ref: fields.take("$ref")?,
            name: fields.take("name")?,
            nullable_note: fields.take("nullableNote")?,
        })
    }
}
impl WidgetSpecRulesApply {
    /// A configuration with nothing set.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Sets `$ref`.
    #[inline]
    #[must_use]
    pub fn r#ref(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.r#ref = ::core::option::Option::Some(value.into());
        self
    }
    /// Sets `name`.
    #[inline]
    #[must_use]
    pub fn name(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.name = ::core::option::Option::Some(value.into());
        self
    }
    /// Sets `nullableNote`.
    #[inline]
    #[must_use]
    pub fn nullable_note(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.nullable_note = ::core::option::Option::Some(value.into());
        self
    }
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
/// The apply configuration of [`WidgetSpecTemplate`]: every field optional, only the set ones sent.
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpecTemplateApply {
    /// Field `apiVersion`.
    #[serde(rename = "apiVersion", default, skip_serializing_if = "Option::is_none")]
    pub api_version: ::core::option::Option<::std::string::String>,
    /// Field `kind`.
    #[serde(rename = "kind", default, skip_serializing_if = "Option::is_none")]
    pub kind: ::core::option::Option<::std::string::String>,
    /// Fields the schema does not declare, sent as they are.
    #[serde(flatten)]
    pub rest: ::std::collections::BTreeMap<
        ::std::string::String,
        ::kube_informers::serde_json::Value,
    >,
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecTemplateApply {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::core::result::Result<Self, D::Error> {
        let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
            deserializer,
        )?;
        ::core::result::Result::Ok(Self {
            api_version: fields.take("apiVersion")?,
            kind: fields.take("kind")?,
            rest: fields.rest()?,
        })
    }
}
impl WidgetSpecTemplateApply {
    /// A configuration with nothing set.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Sets `apiVersion`.
    #[inline]
    #[must_use]
    pub fn api_version(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.api_version = ::core::option::Option::Some(value.into());
        self
    }
    /// Sets `kind`.
    #[inline]
    #[must_use]
    pub fn kind(
        mut self,
        value: impl ::core::convert::Into<::std::string::String>,
    ) -> Self {
        self.kind = ::core::option::Option::Some(value.into());
        self
    }
    /// Adds fields the schema does not declare (a key given again keeps its last value).
    #[inline]
    #[must_use]
    pub fn rest(
        mut self,
        entries: impl ::core::iter::IntoIterator<
            Item = (
                impl ::core::convert::Into<::std::string::String>,
                ::kube_informers::serde_json::Value,
            ),
        >,
    ) -> Self {
        self.rest.extend(entries.into_iter().map(|(k, v)| (k.into(), v)));
        self
    }
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
/// The apply configuration of [`WidgetStatus`]: every field optional, only the set ones sent.
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetStatusApply {
    /// Field `lastUpdated`.
    #[serde(rename = "lastUpdated", default, skip_serializing_if = "Option::is_none")]
    pub last_updated: ::core::option::Option<
        ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
    >,
    /// Field `phase`.
    #[serde(rename = "phase", default, skip_serializing_if = "Option::is_none")]
    pub phase: ::core::option::Option<WidgetStatusPhase>,
    /// Field `replicas`.
    #[serde(rename = "replicas", default, skip_serializing_if = "Option::is_none")]
    pub replicas: ::core::option::Option<i32>,
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetStatusApply {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::core::result::Result<Self, D::Error> {
        let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
            deserializer,
        )?;
        ::core::result::Result::Ok(Self {
            last_updated: fields.take("lastUpdated")?,
            phase: fields.take("phase")?,
            replicas: fields.take("replicas")?,
        })
    }
}
impl WidgetStatusApply {
    /// A configuration with nothing set.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Sets `lastUpdated`.
    #[inline]
    #[must_use]
    pub fn last_updated(
        mut self,
        value: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
    ) -> Self {
        self.last_updated = ::core::option::Option::Some(value);
        self
    }
    /// Sets `phase`.
    #[inline]
    #[must_use]
    pub fn phase(mut self, value: WidgetStatusPhase) -> Self {
        self.phase = ::core::option::Option::Some(value);
        self
    }
    /// Sets `replicas`.
    #[inline]
    #[must_use]
    pub fn replicas(mut self, value: i32) -> Self {
        self.replicas = ::core::option::Option::Some(value);
        self
    }
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
