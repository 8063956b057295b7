//! `example.com/v1beta1`: `Widget`.
/// Custom resource `example.com/v1beta1` `Widget` (`widgets`, namespaced), from CRD `widgets.example.com`.
///
/// Deprecated: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Deserialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct Widget {
    /// Standard object metadata.
    #[serde(default)]
    pub metadata: ::kube_informers::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    /// Field `spec`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub spec: ::std::option::Option<WidgetSpec>,
}
impl ::kube_informers::k8s_openapi::Resource for Widget {
    const API_VERSION: &'static str = "example.com/v1beta1";
    const GROUP: &'static str = "example.com";
    const KIND: &'static str = "Widget";
    const VERSION: &'static str = "v1beta1";
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
        if let ::std::option::Option::Some(value) = &self.spec {
            map.serialize_entry("spec", value)?;
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
    /// Field `spec`.
    #[serde(rename = "spec", default, skip_serializing_if = "Option::is_none")]
    pub spec: ::core::option::Option<WidgetSpecApply>,
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
/// Object at `spec.versions[1].schema.openAPIV3Schema.properties.spec`.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    ::kube_informers::serde::Serialize,
    ::kube_informers::serde::Deserialize
)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpec {
    /// Field `size`.
    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
    pub size: ::std::option::Option<i64>,
}
/// The apply configuration of [`WidgetSpec`]: every field optional, only the set ones sent.
#[derive(Clone, Debug, Default, PartialEq, ::kube_informers::serde::Serialize)]
#[serde(crate = "::kube_informers::serde")]
pub struct WidgetSpecApply {
    /// Field `size`.
    #[serde(rename = "size", default, skip_serializing_if = "Option::is_none")]
    pub size: ::core::option::Option<i64>,
}
impl<'de> ::kube_informers::serde::Deserialize<'de> for WidgetSpecApply {
    fn deserialize<D: ::kube_informers::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::core::result::Result<Self, D::Error> {
        let mut fields = <::kube_informers::apply::Fields as ::kube_informers::serde::Deserialize>::deserialize(
            deserializer,
        )?;
        ::core::result::Result::Ok(Self { size: fields.take("size")? })
    }
}
impl WidgetSpecApply {
    /// A configuration with nothing set.
    #[inline]
    pub fn new() -> Self {
        ::core::default::Default::default()
    }
    /// Sets `size`.
    #[inline]
    #[must_use]
    pub fn size(mut self, value: i64) -> Self {
        self.size = ::core::option::Option::Some(value);
        self
    }
}
