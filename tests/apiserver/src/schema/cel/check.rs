//! cel-go's type check of a rule (`checker.Check`) and the AST validators kube-apiserver
//! adds to it: every identifier must be declared, every field selected from an object
//! the schema types must exist, every call must match an overload of a declared
//! function (type parameters unified as cel-go unifies them), comprehension ranges
//! must be lists or maps; then, once the rule checks, its list and map literals must
//! be homogeneous and its literal regexes, durations and timestamps must parse.
//! kube-apiserver refuses a CRD whose rule breaks any of these, every error in source
//! order with the line and a caret under it.

use std::collections::HashMap;

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};
use cel::Program;

use super::decl::Decl;
use super::declarations::{functions, Overload};
use super::ty::{Checked, Ty};

/// What `self` is for a rule: the declared schema node it sits on, and whether
/// `oldSelf` is an optional (`optionalOldSelf`).
#[derive(Clone, Copy)]
pub(super) struct SelfType<'a> {
    pub decl: &'a Decl,
    pub optional_old_self: bool,
}

/// The type name of `self`. cel-go's is `selfType<n>` with `n` new at every CRD write,
/// so no answer can depend on it.
const SELF_TYPE: &str = "selfType0";

/// Type substitutions of the checker's free variables.
type Mapping<'a> = HashMap<u32, Ty<'a>>;

/// Type-checks `program` (the text `source`) for a rule on `this`: its types and
/// overloads, or cel-go's rendering of every error.
pub(super) fn check<'a>(
    program: &Program,
    source: &str,
    this: SelfType<'a>,
) -> Result<Checked<'a>, String> {
    let self_ty = Ty::of(this.decl, SELF_TYPE);
    let old_self = if this.optional_old_self {
        Ty::Optional(Box::new(self_ty.clone()))
    } else {
        self_ty.clone()
    };
    let mut c = Checker {
        types: HashMap::new(),
        overloads: HashMap::new(),
        errors: Vec::new(),
        mapping: Mapping::new(),
        next_var: 0,
        scopes: vec![
            ("self".to_owned(), self_ty),
            ("oldSelf".to_owned(), old_self),
        ],
    };
    let root = program.expression();
    c.check(root);
    let types: HashMap<u64, Ty<'a>> = c
        .types
        .iter()
        .map(|(id, t)| (*id, substitute(&c.mapping, t, true)))
        .collect();
    if c.errors.is_empty() {
        validate(root, &types, &mut c.errors);
    }
    if !c.errors.is_empty() {
        return Err(render(program, source, c.errors));
    }
    Ok(Checked {
        types,
        overloads: c.overloads,
    })
}

/// cel-go's issue list: `ERROR: <input>:line:column: message`, the source line and a
/// caret, for every error in source order.
fn render(program: &Program, source: &str, found: Vec<(u64, String)>) -> String {
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
    errors
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
        .collect::<Vec<_>>()
        .join("\n")
}

struct Checker<'a> {
    types: HashMap<u64, Ty<'a>>,
    overloads: HashMap<u64, Vec<&'static str>>,
    errors: Vec<(u64, String)>,
    mapping: Mapping<'a>,
    next_var: u32,
    /// Variables in scope, innermost last: `self`, `oldSelf`, then comprehension
    /// variables and accumulators.
    scopes: Vec<(String, Ty<'a>)>,
}

impl<'a> Checker<'a> {
    fn error(&mut self, id: u64, msg: String) {
        self.errors.push((id, msg));
    }

    fn fresh(&mut self) -> Ty<'a> {
        self.next_var += 1;
        Ty::Var(self.next_var - 1)
    }

    fn type_of(&self, id: u64) -> Ty<'a> {
        self.types.get(&id).cloned().unwrap_or(Ty::Error)
    }

    fn assignable(&mut self, t1: &Ty<'a>, t2: &Ty<'a>) -> bool {
        let mut m = self.mapping.clone();
        let ok = is_assignable(&mut m, t1, t2);
        if ok {
            self.mapping = m;
        }
        ok
    }

    fn check(&mut self, e: &IdedExpr) -> Ty<'a> {
        let t = match &e.expr {
            Expr::Literal(l) => literal(l),
            Expr::Ident(name) => self.ident(e.id, name),
            Expr::Select(s) => {
                let t = self.select_field(e.id, &s.operand, &s.field, false);
                if s.test {
                    Ty::Bool
                } else {
                    substitute(&self.mapping, &t, false)
                }
            }
            Expr::Call(call) => self.call(e, call),
            Expr::List(l) => {
                let mut elems: Option<Ty<'a>> = None;
                for (i, el) in l.elements.iter().enumerate() {
                    let mut t = self.check(el);
                    if l.optional_indices.contains(&i) {
                        t = self.unwrap_optional_entry(el.id, t);
                    }
                    elems = Some(self.join(elems, t));
                }
                let elem = match elems {
                    Some(t) => t,
                    None => self.fresh(),
                };
                Ty::List(Box::new(elem))
            }
            Expr::Map(m) => {
                let (mut keys, mut values): (Option<Ty<'a>>, Option<Ty<'a>>) = (None, None);
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        let k = self.check(&me.key);
                        keys = Some(self.join(keys, k));
                        let mut v = self.check(&me.value);
                        if me.optional {
                            v = self.unwrap_optional_entry(me.value.id, v);
                        }
                        values = Some(self.join(values, v));
                    }
                }
                match (keys, values) {
                    (Some(k), Some(v)) => Ty::Map(Box::new(k), Box::new(v)),
                    _ => Ty::Map(Box::new(self.fresh()), Box::new(self.fresh())),
                }
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        self.check(&f.value);
                    }
                }
                self.error(
                    e.id,
                    format!(
                        "undeclared reference to '{}' (in container '')",
                        s.type_name
                    ),
                );
                Ty::Error
            }
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Unspecified => Ty::Error,
        };
        self.types.insert(e.id, t.clone());
        t
    }

    fn ident(&mut self, id: u64, name: &str) -> Ty<'a> {
        if let Some((_, t)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return t.clone();
        }
        match type_ident(name) {
            Some(t) => Ty::Type(Box::new(t)),
            None => {
                self.error(
                    id,
                    format!("undeclared reference to '{name}' (in container '')"),
                );
                Ty::Error
            }
        }
    }

    /// `checkSelectField`: a field of an object, a map's value, `dyn` for what is not
    /// typed; an optional operand (or `.?`) makes the result optional.
    fn select_field(&mut self, id: u64, operand: &IdedExpr, field: &str, optional: bool) -> Ty<'a> {
        let operand_ty = self.check(operand);
        let operand_ty = substitute(&self.mapping, &operand_ty, false);
        let (target, is_opt) = match operand_ty {
            Ty::Optional(inner) => (*inner, true),
            t => (t, false),
        };
        let result = match target {
            Ty::Map(_, v) => *v,
            Ty::Object(name, fields) => match fields.get(field) {
                Some(decl) => Ty::of(decl, &format!("{name}.{field}")),
                None => {
                    self.error(id, format!("undefined field '{field}'"));
                    Ty::Error
                }
            },
            Ty::Named(_) => {
                self.error(id, format!("undefined field '{field}'"));
                Ty::Error
            }
            t @ Ty::Var(_) => {
                self.assignable(&Ty::Dyn, &t);
                Ty::Dyn
            }
            Ty::Dyn | Ty::Error => Ty::Dyn,
            t => {
                self.error(id, format!("type '{t}' does not support field selection"));
                Ty::Dyn
            }
        };
        if is_opt || optional {
            Ty::Optional(Box::new(result))
        } else {
            result
        }
    }

    fn unwrap_optional_entry(&mut self, id: u64, t: Ty<'a>) -> Ty<'a> {
        match t {
            Ty::Optional(inner) => *inner,
            t if matches!(t, Ty::Dyn) => t,
            t => {
                let expected = Ty::Optional(Box::new(t.clone()));
                self.error(id, format!("expected type '{expected}' but found '{t}'"));
                t
            }
        }
    }

    /// `joinTypes` with dynamic aggregate literals: elements of different types make
    /// the literal's element type `dyn` (the homogeneity validator reports them later).
    fn join(&mut self, previous: Option<Ty<'a>>, current: Ty<'a>) -> Ty<'a> {
        let Some(previous) = previous else {
            return current;
        };
        if self.assignable(&previous, &current) {
            most_general(&previous, &current)
        } else {
            Ty::Dyn
        }
    }

    fn call(&mut self, e: &IdedExpr, call: &cel::common::ast::CallExpr) -> Ty<'a> {
        let name = call.func_name.as_str();
        if name == "_?._" {
            return self.optional_select(e, call);
        }
        for arg in &call.args {
            self.check(arg);
        }
        let Some(target) = call.target.as_deref() else {
            return match functions().get(name) {
                Some(overloads) => self.resolve(e.id, name, overloads, None, &call.args),
                None => self.undeclared(e.id, name),
            };
        };
        if let Some(prefix) = qualified_name(target) {
            let qualified = format!("{prefix}.{name}");
            if let Some(overloads) = functions().get(qualified.as_str()) {
                return self.resolve(e.id, &qualified, overloads, None, &call.args);
            }
        }
        self.check(target);
        match functions().get(name) {
            Some(overloads) => self.resolve(e.id, name, overloads, Some(target), &call.args),
            None => self.undeclared(e.id, name),
        }
    }

    fn undeclared(&mut self, id: u64, name: &str) -> Ty<'a> {
        self.error(
            id,
            format!("undeclared reference to '{name}' (in container '')"),
        );
        Ty::Error
    }

    /// `a.?b`: the parser's `_?._(a, "b")`.
    fn optional_select(&mut self, e: &IdedExpr, call: &cel::common::ast::CallExpr) -> Ty<'a> {
        let field = match (call.target.is_none(), call.args.as_slice()) {
            (true, [operand, field]) => match &field.expr {
                Expr::Literal(LiteralValue::String(s)) => Some((operand, s.inner().to_owned())),
                _ => None,
            },
            _ => None,
        };
        let Some((operand, field)) = field else {
            self.error(e.id, "unsupported optional field selection".to_owned());
            return Ty::Error;
        };
        let t = self.select_field(e.id, operand, &field, true);
        self.overloads.insert(e.id, vec!["select_optional_field"]);
        substitute(&self.mapping, &t, false)
    }

    /// `resolveOverload`: every overload whose parameters the arguments are assignable
    /// to; one result type, or `dyn` when they disagree.
    fn resolve(
        &mut self,
        id: u64,
        name: &str,
        overloads: &'static [Overload],
        target: Option<&IdedExpr>,
        args: &[IdedExpr],
    ) -> Ty<'a> {
        let mut arg_types: Vec<Ty<'a>> = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            arg_types.push(self.type_of(t.id));
        }
        arg_types.extend(args.iter().map(|a| self.type_of(a.id)));
        if target.is_none() && (name == "_&&_" || name == "_||_") {
            let mut failed = false;
            for (arg, t) in args.iter().zip(&arg_types) {
                if !self.assignable(t, &Ty::Bool) {
                    self.error(arg.id, format!("expected type 'bool' but found '{t}'"));
                    failed = true;
                }
            }
            if failed {
                return Ty::Error;
            }
            let id_name = if name == "_&&_" {
                "logical_and"
            } else {
                "logical_or"
            };
            self.overloads.insert(id, vec![id_name]);
            return Ty::Bool;
        }
        let mut result: Option<Ty<'a>> = None;
        let mut matched = Vec::new();
        for overload in overloads.iter().filter(|o| o.member == target.is_some()) {
            if overload.params.len() != arg_types.len() {
                continue;
            }
            let mut params: HashMap<&'static str, Ty<'a>> = HashMap::new();
            let candidate: Vec<Ty<'a>> = overload
                .params
                .iter()
                .map(|p| self.instantiate(p, &mut params))
                .collect();
            let overload_result = self.instantiate(&overload.result, &mut params);
            let mut m = self.mapping.clone();
            let fits = arg_types
                .iter()
                .zip(&candidate)
                .all(|(a, p)| is_assignable(&mut m, a, p));
            if !fits {
                continue;
            }
            self.mapping = m;
            matched.push(overload.id);
            let r = substitute(&self.mapping, &overload_result, false);
            result = Some(match result {
                None => r,
                Some(prev) if !matches!(prev, Ty::Dyn) && prev != r => Ty::Dyn,
                Some(prev) => prev,
            });
        }
        match result {
            Some(t) => {
                self.overloads.insert(id, matched);
                t
            }
            None => {
                let shown: Vec<String> = arg_types
                    .iter()
                    .map(|t| substitute(&self.mapping, t, true).to_string())
                    .collect();
                let signature = match target {
                    Some(_) => format!("{}.({})", shown[0], shown[1..].join(", ")),
                    None => format!("({})", shown.join(", ")),
                };
                self.error(
                    id,
                    format!("found no matching overload for '{name}' applied to '{signature}'"),
                );
                Ty::Error
            }
        }
    }

    /// `t` with each of an overload's type parameters replaced by a fresh variable.
    fn instantiate(
        &mut self,
        t: &Ty<'static>,
        params: &mut HashMap<&'static str, Ty<'a>>,
    ) -> Ty<'a> {
        match t {
            Ty::Param(p) => {
                if let Some(v) = params.get(p) {
                    return v.clone();
                }
                let v = self.fresh();
                params.insert(p, v.clone());
                v
            }
            Ty::List(e) => Ty::List(Box::new(self.instantiate(e, params))),
            Ty::Optional(e) => Ty::Optional(Box::new(self.instantiate(e, params))),
            Ty::Type(e) => Ty::Type(Box::new(self.instantiate(e, params))),
            Ty::Map(k, v) => Ty::Map(
                Box::new(self.instantiate(k, params)),
                Box::new(self.instantiate(v, params)),
            ),
            Ty::Opaque(n, ps) => {
                Ty::Opaque(n, ps.iter().map(|p| self.instantiate(p, params)).collect())
            }
            other => other.clone(),
        }
    }

    fn comprehension(&mut self, c: &cel::common::ast::ComprehensionExpr) -> Ty<'a> {
        self.check(&c.iter_range);
        self.check(&c.accu_init);
        let range = substitute(&self.mapping, &self.type_of(c.iter_range.id), false);
        let accu = self.type_of(c.accu_init.id);
        let depth = self.scopes.len();
        self.scopes.push((c.accu_var.clone(), accu.clone()));
        let (var, var2) = match range {
            Ty::List(e) => match c.iter_var2 {
                Some(_) => (Ty::Int, Some(*e)),
                None => (*e, None),
            },
            Ty::Map(k, v) => (*k, c.iter_var2.as_ref().map(|_| *v)),
            t @ (Ty::Dyn | Ty::Error | Ty::Var(_)) => {
                self.assignable(&Ty::Dyn, &t);
                (Ty::Dyn, c.iter_var2.as_ref().map(|_| Ty::Dyn))
            }
            t => {
                self.error(
                    c.iter_range.id,
                    format!(
                        "expression of type '{t}' cannot be range of a comprehension (must be list, map, or dynamic)"
                    ),
                );
                (Ty::Error, c.iter_var2.as_ref().map(|_| Ty::Error))
            }
        };
        self.scopes.push((c.iter_var.clone(), var));
        if let (Some(name), Some(t)) = (&c.iter_var2, var2) {
            self.scopes.push((name.clone(), t));
        }
        self.check(&c.loop_cond);
        self.assert_type(&c.loop_cond, &Ty::Bool);
        self.check(&c.loop_step);
        self.assert_type(&c.loop_step, &accu);
        self.scopes.truncate(depth + 1);
        self.check(&c.result);
        self.scopes.truncate(depth);
        substitute(&self.mapping, &self.type_of(c.result.id), false)
    }

    fn assert_type(&mut self, e: &IdedExpr, expected: &Ty<'a>) {
        let actual = self.type_of(e.id);
        if !self.assignable(expected, &actual) {
            self.error(
                e.id,
                format!("expected type '{expected}' but found '{actual}'"),
            );
        }
    }
}

fn literal(l: &LiteralValue) -> Ty<'static> {
    match l {
        LiteralValue::Boolean(_) => Ty::Bool,
        LiteralValue::Bytes(_) => Ty::Bytes,
        LiteralValue::Double(_) => Ty::Double,
        LiteralValue::Int(_) => Ty::Int,
        LiteralValue::Null => Ty::Null,
        LiteralValue::String(_) => Ty::String,
        LiteralValue::UInt(_) => Ty::Uint,
    }
}

/// The types an identifier names (cel-go's standard type declarations and the
/// optional library's).
fn type_ident(name: &str) -> Option<Ty<'static>> {
    Some(match name {
        "bool" => Ty::Bool,
        "bytes" => Ty::Bytes,
        "double" => Ty::Double,
        "int" => Ty::Int,
        "uint" => Ty::Uint,
        "string" => Ty::String,
        "null_type" => Ty::Null,
        "list" => Ty::List(Box::new(Ty::Dyn)),
        "map" => Ty::Map(Box::new(Ty::Dyn), Box::new(Ty::Dyn)),
        "type" => Ty::Type(Box::new(Ty::Dyn)),
        "optional_type" => Ty::Optional(Box::new(Ty::Dyn)),
        _ => return None,
    })
}

/// The dotted name a call's target spells when it is only identifiers (`sets` in
/// `sets.contains(...)`, `format` in `format.dns1123Label()`).
fn qualified_name(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Ident(name) => Some(name.clone()),
        Expr::Select(s) if !s.test => Some(format!("{}.{}", qualified_name(&s.operand)?, s.field)),
        _ => None,
    }
}

fn is_dyn_or_error(t: &Ty<'_>) -> bool {
    matches!(t, Ty::Dyn | Ty::Error)
}

/// The element types of a parameterized type, when `t1` and `t2` are the same kind of
/// parameterized type.
fn same_params<'t, 'a>(t1: &'t Ty<'a>, t2: &'t Ty<'a>) -> Option<Vec<(&'t Ty<'a>, &'t Ty<'a>)>> {
    Some(match (t1, t2) {
        (Ty::List(a), Ty::List(b)) | (Ty::Optional(a), Ty::Optional(b)) => vec![(&**a, &**b)],
        (Ty::Map(k1, v1), Ty::Map(k2, v2)) => vec![(&**k1, &**k2), (&**v1, &**v2)],
        (Ty::Opaque(n1, p1), Ty::Opaque(n2, p2)) if n1 == n2 && p1.len() == p2.len() => {
            p1.iter().zip(p2).collect()
        }
        _ => return None,
    })
}

/// `internalIsAssignable`: whether a `t1` may stand where a `t2` is expected (or the
/// other way round: cel-go's relation is symmetric but for type variables), binding
/// type variables in `m` as it goes.
fn is_assignable<'a>(m: &mut Mapping<'a>, t1: &Ty<'a>, t2: &Ty<'a>) -> bool {
    if let Ty::Var(_) = t2 {
        let (valid, has_sub) = valid_substitution(m, t1, t2);
        if valid {
            return true;
        }
        if has_sub {
            return false;
        }
    }
    if let Ty::Var(_) = t1 {
        return valid_substitution(m, t2, t1).0;
    }
    if is_dyn_or_error(t1) || is_dyn_or_error(t2) {
        return true;
    }
    if matches!(t1, Ty::Null) {
        return nullable(t2);
    }
    if matches!(t2, Ty::Null) {
        return nullable(t1);
    }
    match t1 {
        Ty::Type(_) => matches!(t2, Ty::Type(_)),
        Ty::List(_) | Ty::Map(..) | Ty::Optional(_) | Ty::Opaque(..) => match same_params(t1, t2) {
            Some(pairs) => pairs.into_iter().all(|(a, b)| is_assignable(m, a, b)),
            None => false,
        },
        _ => t1 == t2,
    }
}

/// Whether `null` may stand for a `t`: messages, opaque types, durations, timestamps.
fn nullable(t: &Ty<'_>) -> bool {
    matches!(
        t,
        Ty::Object(..)
            | Ty::Named(_)
            | Ty::Opaque(..)
            | Ty::Optional(_)
            | Ty::Duration
            | Ty::Timestamp
            | Ty::Null
            | Ty::Dyn
    )
}

/// `isValidTypeSubstitution` of `t1` for the variable `t2`.
fn valid_substitution<'a>(m: &mut Mapping<'a>, t1: &Ty<'a>, t2: &Ty<'a>) -> (bool, bool) {
    let Ty::Var(v) = t2 else {
        return (false, false);
    };
    if t1 == t2 {
        return (true, true);
    }
    if let Some(sub) = m.get(v).cloned() {
        if *t1 == sub {
            return (true, true);
        }
        if is_assignable(m, t1, &sub) {
            let general = most_general(t1, &sub);
            if not_referenced_in(m, t2, &general) {
                m.insert(*v, general);
            }
            return (true, true);
        }
        return (false, true);
    }
    if not_referenced_in(m, t2, t1) {
        m.insert(*v, t1.clone());
        return (true, false);
    }
    (false, false)
}

fn is_equal_or_less_specific(t1: &Ty<'_>, t2: &Ty<'_>) -> bool {
    if matches!(t1, Ty::Dyn | Ty::Var(_)) {
        return true;
    }
    if matches!(t2, Ty::Dyn | Ty::Var(_)) {
        return false;
    }
    if let (Ty::Type(_), Ty::Type(_)) = (t1, t2) {
        return true;
    }
    match same_params(t1, t2) {
        Some(pairs) => pairs
            .into_iter()
            .all(|(a, b)| is_equal_or_less_specific(a, b)),
        None => t1 == t2,
    }
}

fn most_general<'a>(t1: &Ty<'a>, t2: &Ty<'a>) -> Ty<'a> {
    if is_equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

fn not_referenced_in(m: &Mapping<'_>, t: &Ty<'_>, within: &Ty<'_>) -> bool {
    if t == within {
        return false;
    }
    match within {
        Ty::Var(w) => match m.get(w) {
            Some(sub) => not_referenced_in(m, t, sub),
            None => true,
        },
        Ty::List(e) | Ty::Optional(e) | Ty::Type(e) => not_referenced_in(m, t, e),
        Ty::Map(k, v) => not_referenced_in(m, t, k) && not_referenced_in(m, t, v),
        Ty::Opaque(_, ps) => ps.iter().all(|p| not_referenced_in(m, t, p)),
        _ => true,
    }
}

/// `t` with its bound variables replaced; unbound ones become `dyn` when `to_dyn`.
fn substitute<'a>(m: &Mapping<'a>, t: &Ty<'a>, to_dyn: bool) -> Ty<'a> {
    match t {
        Ty::Var(v) => match m.get(v) {
            Some(sub) => substitute(m, sub, to_dyn),
            None if to_dyn => Ty::Dyn,
            None => t.clone(),
        },
        Ty::List(e) => Ty::List(Box::new(substitute(m, e, to_dyn))),
        Ty::Optional(e) => Ty::Optional(Box::new(substitute(m, e, to_dyn))),
        Ty::Type(e) => Ty::Type(Box::new(substitute(m, e, to_dyn))),
        Ty::Map(k, v) => Ty::Map(
            Box::new(substitute(m, k, to_dyn)),
            Box::new(substitute(m, v, to_dyn)),
        ),
        Ty::Opaque(n, ps) => Ty::Opaque(n, ps.iter().map(|p| substitute(m, p, to_dyn)).collect()),
        other => other.clone(),
    }
}

/// The AST validators kube-apiserver adds (`ValidateDurationLiterals`,
/// `ValidateTimestampLiterals`, `ValidateRegexLiterals`,
/// `ValidateHomogeneousAggregateLiterals`), run on a rule that type-checked.
fn validate(e: &IdedExpr, types: &HashMap<u64, Ty<'_>>, errors: &mut Vec<(u64, String)>) {
    let ty = |id: u64| types.get(&id).cloned().unwrap_or(Ty::Dyn);
    match &e.expr {
        Expr::Call(call) => {
            if let Some(first) = call.args.first() {
                if let Expr::Literal(LiteralValue::String(s)) = &first.expr {
                    let text = s.inner();
                    let bad = match call.func_name.as_str() {
                        "matches" => regex::Regex::new(text).is_err(),
                        "duration" => super::library::parse_duration(text).is_none(),
                        "timestamp" => chrono::DateTime::parse_from_rfc3339(text).is_err(),
                        _ => false,
                    };
                    if bad {
                        errors.push((first.id, format!("invalid {} argument", call.func_name)));
                    }
                }
            }
            if let Some(t) = call.target.as_deref() {
                validate(t, types, errors);
            }
            call.args.iter().for_each(|a| validate(a, types, errors));
        }
        Expr::List(l) => {
            let mut first: Option<Ty<'_>> = None;
            for (i, el) in l.elements.iter().enumerate() {
                let mut t = ty(el.id);
                if l.optional_indices.contains(&i) {
                    if let Ty::Optional(inner) = t {
                        t = *inner;
                    }
                }
                match &first {
                    None => first = Some(t),
                    Some(f) if !equivalent(f, &t) => {
                        errors.push((el.id, format!("expected type '{f}' but found '{t}'")));
                        break;
                    }
                    Some(_) => {}
                }
            }
            l.elements.iter().for_each(|el| validate(el, types, errors));
        }
        Expr::Map(m) => {
            let mut first: Option<(Ty<'_>, Ty<'_>)> = None;
            for entry in &m.entries {
                let EntryExpr::MapEntry(me) = &entry.expr else {
                    continue;
                };
                let (k, mut v) = (ty(me.key.id), ty(me.value.id));
                if me.optional {
                    if let Ty::Optional(inner) = v {
                        v = *inner;
                    }
                }
                match &first {
                    None => first = Some((k, v)),
                    Some((fk, fv)) => {
                        if !equivalent(fk, &k) {
                            errors
                                .push((me.key.id, format!("expected type '{fk}' but found '{k}'")));
                        }
                        if !equivalent(fv, &v) {
                            errors.push((
                                me.value.id,
                                format!("expected type '{fv}' but found '{v}'"),
                            ));
                        }
                    }
                }
                validate(&me.key, types, errors);
                validate(&me.value, types, errors);
            }
        }
        Expr::Struct(s) => s.entries.iter().for_each(|entry| {
            if let EntryExpr::StructField(f) = &entry.expr {
                validate(&f.value, types, errors);
            }
        }),
        Expr::Select(s) => validate(&s.operand, types, errors),
        Expr::Comprehension(c) => {
            for part in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                validate(part, types, errors);
            }
        }
        Expr::Literal(_) | Expr::Ident(_) | Expr::Unspecified => {}
    }
}

/// cel-go's `IsEquivalentType`: the same type, parameters compared alike.
fn equivalent(a: &Ty<'_>, b: &Ty<'_>) -> bool {
    match same_params(a, b) {
        Some(pairs) => pairs.into_iter().all(|(x, y)| equivalent(x, y)),
        None => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::SelfType;
    use crate::schema::cel::decl::Decl;
    use crate::schema::cel::ty::Ty;
    use crate::schema::Schema;

    fn check_on(rule: &str, schema: serde_json::Value, root: bool) -> Result<Ty<'static>, String> {
        let env = super::super::library::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        let node = Schema::compile(&schema, "s", &mut Vec::new());
        let decl = Box::leak(Box::new(Decl::of(&node, root).expect("declarable")));
        let this = SelfType {
            decl,
            optional_old_self: false,
        };
        super::check(&program, rule, this).map(|c| c.types[&program.expression().id].clone())
    }

    fn spec() -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {
            "replicas": {"type": "integer"},
            "ratio": {"type": "number"},
            "my-field": {"type": "string"},
            "when": {"type": "string", "format": "date-time"},
            "names": {"type": "array", "items": {"type": "string"}},
            "ports": {"type": "array", "items": {"type": "object", "properties": {
                "port": {"type": "integer"}, "name": {"type": "string"}}}},
            "template": {"type": "object", "properties": {"name": {"type": "string"}}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "size": {"x-kubernetes-int-or-string": true},
        }})
    }

    #[test]
    fn well_typed_rules_check_to_bool() {
        for rule in [
            "self.replicas > 0 && self.my__dash__field != '' && self.template.name != ''",
            "has(self.labels) && self.labels.anything == 'x'",
            "self.metadata.name != '' && self.apiVersion != '' && self.kind != ''",
            "self.replicas >= 1.5 && self.ratio < 2",
            "self.names.all(n, n.startsWith('a')) && self.ports.exists(p, p.port == 80)",
            "self.ports.map(p, p.name).filter(n, n.size() > 3).size() < 10",
            "self.names.exists_one(x, x == 'a') || 'a' in self.names",
            "self.labels.all(k, self.labels[k].matches('^[a-z]+$'))",
            "type(self.replicas) == int && self.size == 1 || self.size == '1'",
            "self.when < timestamp('2024-01-01T00:00:00Z') && duration('1h') > duration('1m')",
            "quantity('1Gi').isGreaterThan(quantity('1Mi')) && isQuantity('x') == false",
            "sets.contains(self.names, ['a']) && self.names.isSorted() && self.names.join(',') != ''",
            "url('https://x').getHost() == 'x' && ip('1.2.3.4').family() == 4",
            "!format.dns1123Label().validate(self.my__dash__field).hasValue()",
            "self.?template.name.orValue('') == '' && optional.of(1).value() == 1",
            "self.replicas == oldSelf.replicas",
            "[1, 2].sum() == 3 && self.names.indexOf('a') >= 0 && 'abc'.indexOf('b') == 1",
            "self.names.size() == size(self.names) && {'a': 1}.size() == 1",
            "dyn(self.replicas) == 1 && int(self.ratio) == 1 && string(self.replicas) == '1'",
        ] {
            assert_eq!(check_on(rule, spec(), true), Ok(Ty::Bool), "{rule}");
        }
    }

    #[test]
    fn errors_are_cel_go_s() {
        let err = |rule: &str| check_on(rule, spec(), false).expect_err(rule);
        assert_eq!(
            err("self.replica > 0"),
            "ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0\n | ....^"
        );
        assert_eq!(
            err("self.replicas > 'a'"),
            "ERROR: <input>:1:15: found no matching overload for '_>_' applied to '(int, string)'\n | self.replicas > 'a'\n | ..............^"
        );
        assert!(err("self.names.size() == 'x'")
            .contains("found no matching overload for '_==_' applied to '(int, string)'"));
        assert!(err("self.my__dash__field.foo()")
            .contains("undeclared reference to 'foo' (in container '')"));
        assert!(err("self.replicas.size() > 0")
            .contains("found no matching overload for 'size' applied to 'int.()'"));
        assert!(err("self.extra.whatever == 1").contains("undefined field 'whatever'"));
        assert!(err("self.replicas.all(x, x > 0)").contains("expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"));
        assert!(err("self.metadata.name == ''").contains("undefined field 'metadata'"));
        assert!(err("[1, 'a'].size() == 2").contains("expected type 'int' but found 'string'"));
        assert!(err("self.my__dash__field.matches('[')").contains("invalid matches argument"));
        assert!(err("duration('1x') > duration('1s')").contains("invalid duration argument"));
        assert!(err("self.all(x, y > 0)").contains("undeclared reference to 'y' (in container '')"));
        assert!(err("self.replicas > 0 && self.ratio")
            .contains("expected type 'bool' but found 'double'"));
    }

    #[test]
    fn results_that_are_not_bool_are_typed_as_such() {
        assert_eq!(check_on("self.replicas", spec(), false), Ok(Ty::Int));
        assert_eq!(check_on("self.size", spec(), false), Ok(Ty::Dyn));
        assert_eq!(
            check_on("self.names.map(n, n.size())", spec(), false),
            Ok(Ty::List(Box::new(Ty::Int)))
        );
    }
}
