//! CEL types as cel-go's checker infers them for a rule, and the checked rule the
//! static cost estimate reads: each expression's type and each call's overloads.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use super::decl::{Decl, DeclKind};

/// A CEL type.
#[derive(Clone, Debug)]
pub(super) enum Ty<'a> {
    Dyn,
    /// The type of an expression that failed to check (`!error!`).
    Error,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    List(Box<Ty<'a>>),
    Map(Box<Ty<'a>>, Box<Ty<'a>>),
    /// A schema object: its type name and its declared fields.
    Object(String, &'a BTreeMap<String, Decl>),
    /// `optional_type(T)`.
    Optional(Box<Ty<'a>>),
    /// The type of a type (`type(int)`, what the identifier `int` is).
    Type(Box<Ty<'a>>),
    /// An opaque library type with its parameters: `net.IP`, `net.CIDR`.
    Opaque(&'static str, Vec<Ty<'a>>),
    /// A library type declared as a message (cel-go's struct kind):
    /// `kubernetes.URL`, `kubernetes.Quantity`, `kubernetes.NamedFormat`,
    /// `kubernetes.Semver`.
    Named(&'static str),
    /// A type parameter of an overload's signature (`A`, `K`, `V`).
    Param(&'static str),
    /// A free type variable of the checker; never left in a [`Checked`] rule, where
    /// one nothing bound is `dyn`.
    Var(u32),
}

impl PartialEq for Ty<'_> {
    /// cel-go's `IsExactType`: objects are the same type when their names are.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Ty::List(a), Ty::List(b)) | (Ty::Optional(a), Ty::Optional(b)) => a == b,
            (Ty::Type(a), Ty::Type(b)) => a == b,
            (Ty::Map(k1, v1), Ty::Map(k2, v2)) => k1 == k2 && v1 == v2,
            (Ty::Object(a, _), Ty::Object(b, _)) => a == b,
            (Ty::Opaque(a, p), Ty::Opaque(b, q)) => a == b && p == q,
            (Ty::Named(a), Ty::Named(b)) | (Ty::Param(a), Ty::Param(b)) => a == b,
            (Ty::Var(a), Ty::Var(b)) => a == b,
            _ => {
                std::mem::discriminant(self) == std::mem::discriminant(other)
                    && !matches!(
                        self,
                        Ty::List(_)
                            | Ty::Optional(_)
                            | Ty::Type(_)
                            | Ty::Map(..)
                            | Ty::Object(..)
                            | Ty::Opaque(..)
                            | Ty::Named(_)
                            | Ty::Param(_)
                            | Ty::Var(_)
                    )
            }
        }
    }
}

impl<'a> Ty<'a> {
    /// The type of a value of `decl`, named `name` when it is an object (cel-go names
    /// a rule's `self` `selfType<n>`, unique per CRD write, and a nested object by its
    /// path below it).
    pub fn of(decl: &'a Decl, name: &str) -> Ty<'a> {
        match &decl.kind {
            DeclKind::Dyn => Ty::Dyn,
            DeclKind::Bool => Ty::Bool,
            DeclKind::Int => Ty::Int,
            DeclKind::Double => Ty::Double,
            DeclKind::String => Ty::String,
            DeclKind::Bytes => Ty::Bytes,
            DeclKind::Duration => Ty::Duration,
            DeclKind::Timestamp => Ty::Timestamp,
            DeclKind::List(elem) => Ty::List(Box::new(Ty::of(elem, &format!("{name}.@idx")))),
            DeclKind::Map(elem) => Ty::Map(
                Box::new(Ty::String),
                Box::new(Ty::of(elem, &format!("{name}.@elem"))),
            ),
            DeclKind::Object(fields) => Ty::Object(name.to_owned(), fields),
        }
    }
}

impl fmt::Display for Ty<'_> {
    /// cel-go's `FormatCELType`, as its checker's messages print types.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Dyn => f.write_str("dyn"),
            Ty::Error => f.write_str("!error!"),
            Ty::Null => f.write_str("null"),
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Uint => f.write_str("uint"),
            Ty::Double => f.write_str("double"),
            Ty::String => f.write_str("string"),
            Ty::Bytes => f.write_str("bytes"),
            Ty::Duration => f.write_str("duration"),
            Ty::Timestamp => f.write_str("timestamp"),
            Ty::List(e) => write!(f, "list({e})"),
            Ty::Map(k, v) => write!(f, "map({k}, {v})"),
            Ty::Object(name, _) => f.write_str(name),
            Ty::Optional(t) => write!(f, "optional_type({t})"),
            Ty::Type(t) => write!(f, "type({t})"),
            Ty::Opaque(name, params) if params.is_empty() => f.write_str(name),
            Ty::Opaque(name, params) => {
                write!(f, "{name}(")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")")
            }
            Ty::Named(name) | Ty::Param(name) => f.write_str(name),
            Ty::Var(n) => write!(f, "_var{n}"),
        }
    }
}

/// A rule that passed the type check.
#[derive(Debug, Default)]
pub(super) struct Checked<'a> {
    /// The type of every expression, by its id.
    pub types: HashMap<u64, Ty<'a>>,
    /// The overloads every call may resolve to, by the call's id, named as cel-go and
    /// the Kubernetes libraries name them (`add_int64`, `size_string`,
    /// `matches_string`, `list_sum`, ...).
    pub overloads: HashMap<u64, Vec<&'static str>>,
}
