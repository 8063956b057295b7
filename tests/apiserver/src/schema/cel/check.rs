//! The part of cel-go's type check that needs no type inference: every name a rule reads
//! must be declared (`self`, `oldSelf`, a comprehension's variables, a type name, a
//! function namespace), and a field selected from `self` (or `oldSelf`) through objects
//! whose schema declares their properties must be one of them. kube-apiserver refuses a
//! CRD whose rule breaks either with `undeclared reference to 'x' (in container '')` or
//! `undefined field 'x'`, every error in source order.

use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::Program;

use super::value::escape;
use crate::schema::{Additional, JsonType, Schema};

/// The names every rule may read besides the comprehension variables in scope.
const DECLARED: &[&str] = &[
    "self",
    "oldSelf",
    "int",
    "uint",
    "double",
    "bool",
    "string",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "dyn",
];

/// Namespaces of qualified functions (`sets.contains(...)`): their first name is no
/// variable.
const NAMESPACES: &[&str] = &[
    "sets", "optional", "strings", "lists", "math", "base64", "format", "ip",
];

/// What `self` is for a rule: the schema node it sits on, whether that node is the
/// object's root (which also has `apiVersion`, `kind` and `metadata`), and whether
/// `oldSelf` is an optional (`optionalOldSelf`), whose fields are not checked.
#[derive(Clone, Copy)]
pub(super) struct SelfType<'a> {
    pub node: &'a Schema,
    pub root: bool,
    pub optional_old_self: bool,
}

/// The static type of an expression, where the check knows it.
#[derive(Clone, Copy)]
enum Known<'a> {
    /// A value of this schema node; `resource` when it is the root or an embedded
    /// resource.
    Node(&'a Schema, bool),
    /// A resource's `metadata`, of which rules see `name` and `generateName` only.
    Meta,
}

impl<'a> Known<'a> {
    /// The fields of an object type, when the schema fixes them.
    fn fields(self) -> Option<Vec<String>> {
        match self {
            Known::Meta => Some(vec!["name".to_owned(), "generateName".to_owned()]),
            Known::Node(s, resource) => {
                let closed = s.types == [JsonType::Object]
                    && !s.preserve_unknown
                    && !matches!(s.additional, Some(Additional::Schema(_)))
                    && (!s.properties.is_empty() || resource);
                closed.then(|| {
                    let mut names: Vec<String> =
                        s.properties.keys().filter_map(|k| escape(k)).collect();
                    if resource {
                        names.extend(["apiVersion", "kind", "metadata"].map(String::from));
                    }
                    names
                })
            }
        }
    }

    /// The type of field `name` of this object type.
    fn field(self, name: &str) -> Option<Known<'a>> {
        let Known::Node(s, resource) = self else {
            return None;
        };
        if resource && name == "metadata" {
            return Some(Known::Meta);
        }
        s.properties
            .iter()
            .find(|(k, _)| escape(k).as_deref() == Some(name))
            .map(|(_, p)| Known::Node(p, p.embedded))
    }
}

/// cel-go's errors for the undeclared names and undefined fields `program` reads, each
/// with the line of `source` it is on and a caret under it; none when it has none.
pub(super) fn check(program: &Program, source: &str, this: Option<SelfType<'_>>) -> Option<String> {
    let mut found = Vec::new();
    let mut scope = Vec::new();
    find(program.expression(), &mut scope, this, &mut found);
    let mut errors: Vec<(usize, String)> = found
        .into_iter()
        .map(|(id, msg)| {
            let start = program
                .source_info()
                .offset_for(id)
                .map_or(0, |(start, _)| start as usize)
                .min(source.len());
            (start, msg)
        })
        .collect();
    errors.sort_by_key(|(start, _)| *start);
    errors.dedup();
    let rendered: Vec<String> = errors
        .into_iter()
        .map(|(start, msg)| {
            let before = source.get(..start).unwrap_or("");
            let line_no = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = source.get(line_start..start).unwrap_or("").chars().count();
            let line = source.lines().nth(line_no - 1).unwrap_or("");
            format!(
                "ERROR: <input>:{line_no}:{}: {msg}\n | {line}\n | {}^",
                column + 1,
                ".".repeat(column)
            )
        })
        .collect();
    (!rendered.is_empty()).then(|| rendered.join("\n"))
}

/// The static type of `expr`: `self`, `oldSelf` and fields selected from them.
fn known<'a>(expr: &IdedExpr, this: Option<SelfType<'a>>) -> Option<Known<'a>> {
    let this = this?;
    match &expr.expr {
        Expr::Ident(name) if name == "self" => Some(Known::Node(this.node, this.root)),
        Expr::Ident(name) if name == "oldSelf" && !this.optional_old_self => {
            Some(Known::Node(this.node, this.root))
        }
        Expr::Select(s) if !s.test => known(&s.operand, Some(this))?.field(&s.field),
        _ => None,
    }
}

fn find(
    expr: &IdedExpr,
    scope: &mut Vec<String>,
    this: Option<SelfType<'_>>,
    found: &mut Vec<(u64, String)>,
) {
    match &expr.expr {
        Expr::Ident(name) => {
            let known = DECLARED.contains(&name.as_str()) || scope.contains(name);
            if !known {
                found.push((
                    expr.id,
                    format!("undeclared reference to '{name}' (in container '')"),
                ));
            }
        }
        Expr::Call(call) => {
            let qualified = matches!(
                call.target.as_deref().map(|t| &t.expr),
                Some(Expr::Ident(ns)) if NAMESPACES.contains(&ns.as_str())
            );
            if let Some(target) = call.target.as_deref().filter(|_| !qualified) {
                find(target, scope, this, found);
            }
            for a in &call.args {
                find(a, scope, this, found);
            }
        }
        Expr::Comprehension(c) => {
            find(&c.iter_range, scope, this, found);
            find(&c.accu_init, scope, this, found);
            let depth = scope.len();
            scope.push(c.accu_var.clone());
            find(&c.result, scope, this, found);
            scope.push(c.iter_var.clone());
            if let Some(second) = &c.iter_var2 {
                scope.push(second.clone());
            }
            find(&c.loop_cond, scope, this, found);
            find(&c.loop_step, scope, this, found);
            scope.truncate(depth);
        }
        Expr::List(l) => l.elements.iter().for_each(|e| find(e, scope, this, found)),
        Expr::Map(m) => m
            .entries
            .iter()
            .for_each(|e| entry(&e.expr, scope, this, found)),
        Expr::Struct(s) => s
            .entries
            .iter()
            .for_each(|e| entry(&e.expr, scope, this, found)),
        Expr::Select(s) => {
            let fields = known(&s.operand, this).and_then(Known::fields);
            if fields.is_some_and(|f| !f.contains(&s.field)) {
                found.push((expr.id, format!("undefined field '{}'", s.field)));
            }
            find(&s.operand, scope, this, found);
        }
        Expr::Literal(_) | Expr::Unspecified => {}
    }
}

fn entry(
    e: &EntryExpr,
    scope: &mut Vec<String>,
    this: Option<SelfType<'_>>,
    found: &mut Vec<(u64, String)>,
) {
    match e {
        EntryExpr::StructField(f) => find(&f.value, scope, this, found),
        EntryExpr::MapEntry(m) => {
            find(&m.key, scope, this, found);
            find(&m.value, scope, this, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SelfType;
    use crate::schema::Schema;

    fn check(rule: &str) -> Option<String> {
        let env = super::super::library::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        super::check(&program, rule, None)
    }

    fn check_on(rule: &str, schema: serde_json::Value, root: bool) -> Option<String> {
        let env = super::super::library::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        let node = Schema::compile(&schema, "s", &mut Vec::new());
        let this = SelfType {
            node: &node,
            root,
            optional_old_self: false,
        };
        super::check(&program, rule, Some(this))
    }

    #[test]
    fn declared_names_pass() {
        for rule in [
            "self.all(x, x > 0)",
            "self.map(k, self[k]).exists_one(v, v == 1)",
            "!oldSelf.hasValue() || self >= oldSelf.value()",
            "sets.contains(self, ['a'])",
            "ip.isCanonical(self) && format.named('uuid').hasValue()",
            "!format.dns1123Label().validate(self).hasValue()",
            "type(self) == int",
            "[has(self.a), has(self.b)].filter(x, x == true).size() == 1",
        ] {
            assert_eq!(check(rule), None, "{rule}");
        }
    }

    #[test]
    fn an_undeclared_name_is_reported_where_it_is() {
        assert_eq!(
            check("self.a > 0 && slef.b > 0").as_deref(),
            Some(
                "ERROR: <input>:1:15: undeclared reference to 'slef' (in container '')\n | self.a > 0 && slef.b > 0\n | ..............^"
            )
        );
        assert!(check("self.all(x, y > 0)").is_some());
    }

    #[test]
    fn fields_the_schema_does_not_declare_are_undefined() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "replicas": {"type": "integer"},
            "my-field": {"type": "string"},
            "template": {"type": "object", "properties": {"name": {"type": "string"}}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        }});
        for rule in [
            "self.replicas > 0 && self.my__dash__field != '' && self.template.name != ''",
            "has(self.labels) && self.labels.anything == 'x' && self.extra.whatever == 1",
            "self.metadata.name != '' && self.apiVersion != '' && self.kind != ''",
        ] {
            assert_eq!(check_on(rule, schema.clone(), true), None, "{rule}");
        }
        assert_eq!(
            check_on("self.replica > 0", schema.clone(), false).as_deref(),
            Some("ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0\n | ....^")
        );
        assert_eq!(
            check_on("self.metadata.labels.size() > 0", schema.clone(), false).as_deref(),
            Some("ERROR: <input>:1:5: undefined field 'metadata'\n | self.metadata.labels.size() > 0\n | ....^")
        );
        assert_eq!(
            check_on("self.metadata.labels.size() > 0 || has(self.template.id) || x", schema, true).as_deref(),
            Some("ERROR: <input>:1:14: undefined field 'labels'\n | self.metadata.labels.size() > 0 || has(self.template.id) || x\n | .............^\nERROR: <input>:1:39: undefined field 'id'\n | self.metadata.labels.size() > 0 || has(self.template.id) || x\n | ......................................^\nERROR: <input>:1:61: undeclared reference to 'x' (in container '')\n | self.metadata.labels.size() > 0 || has(self.template.id) || x\n | ............................................................^")
        );
    }
}
