//! CRD validation rules (`x-kubernetes-validations`) as apiextensions-apiserver runs
//! them (`pkg/apiserver/schema/cel`): compiled when the CRD is written (a rule that
//! does not compile makes the CRD invalid), evaluated on every write of a custom
//! resource with `self` bound to the node's value typed by its schema, and, for
//! transition rules, `oldSelf` bound to the old object's value at the same place.

mod check;
mod cost;
mod decl;
mod declarations;
// Not called outside its tests until the CRD validation is wired to it.
mod estimate;
#[cfg(test)]
mod estimate_k8s_cases;
mod library;
mod scope;
mod ty;
mod value;

use std::fmt;
use std::sync::Arc;

use cel::{Context, ExecutionError, Program, Value as Cel};
use serde_json::{json, Value};

use self::decl::Decl;
pub(crate) use self::scope::{RuleScope, TotalCost};
use self::ty::{Checked, Ty};
use super::field::{go_quote, ErrorType, FieldError};
use super::{Additional, ListType, Schema};

/// The `reason` of a rule: the type of the field error it reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    Invalid,
    Forbidden,
    Required,
    Duplicate,
}

/// One compiled `x-kubernetes-validations` entry.
pub(crate) struct Rule {
    source: String,
    program: Program,
    message: String,
    message_expression: Option<Program>,
    reason: Reason,
    field_path: String,
    optional_old_self: bool,
    /// Whether the rule reads `oldSelf` (a transition rule).
    transition: bool,
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule").field("rule", &self.source).finish()
    }
}

impl Rule {
    /// `ruleErrorString`: the message when there is one, else the rule.
    fn error_string(&self) -> &str {
        if self.message.is_empty() {
            self.source.trim()
        } else {
            &self.message
        }
    }

    /// `ruleMessageOrDefault`.
    fn default_message(&self) -> String {
        if self.message.is_empty() {
            format!("failed rule: {}", self.source.trim())
        } else {
            self.message.clone()
        }
    }
}

/// cel-go's rendering of a parse error: `ERROR: <input>:l:c: msg` and the source line
/// with a caret under the column, each indented by ` | `.
fn compile_error(e: &cel::ParseErrors) -> String {
    e.to_string().replace("\n| ", "\n | ")
}

/// Compiles the `x-kubernetes-validations` of the schema node `node` at `path` (the
/// object's root when `root`), adding to `errs` what the CRD validator rejects.
pub(crate) fn compile_rules(
    v: Option<&Value>,
    path: &str,
    node: &Schema,
    scope: &RuleScope,
    total: &mut TotalCost,
    errs: &mut Vec<FieldError>,
) -> Vec<Rule> {
    let Some(list) = v.and_then(Value::as_array) else {
        return Vec::new();
    };
    let env = match library::env() {
        Ok(env) => env,
        Err(e) => {
            errs.push(FieldError::new(
                ErrorType::Invalid,
                format!("{path}.x-kubernetes-validations"),
                Value::Null,
                format!("CEL environment: {e}"),
            ));
            return Vec::new();
        }
    };
    let decl = Decl::of(node, scope.root);
    let mut rules = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let at = format!("{path}.x-kubernetes-validations[{i}]");
        let text = |k: &str| entry.get(k).and_then(Value::as_str).unwrap_or("");
        let source = text("rule").to_owned();
        if source.trim().is_empty() {
            errs.push(FieldError::required(
                format!("{at}.rule"),
                "rule is not specified",
            ));
            continue;
        }
        let reason = match text("reason") {
            "" | "FieldValueInvalid" => Reason::Invalid,
            "FieldValueForbidden" => Reason::Forbidden,
            "FieldValueRequired" => Reason::Required,
            "FieldValueDuplicate" => Reason::Duplicate,
            other => {
                errs.push(FieldError::not_supported(
                    format!("{at}.reason"),
                    json!(other),
                    &[
                        "FieldValueDuplicate",
                        "FieldValueForbidden",
                        "FieldValueInvalid",
                        "FieldValueRequired",
                    ]
                    .map(String::from),
                ));
                continue;
            }
        };
        let optional_old_self = entry
            .get("optionalOldSelf")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let (program, checked) = match compile(&env, &source, decl.as_ref(), optional_old_self) {
            Ok((p, checked)) if result_is(&p, checked.as_ref(), &Ty::Bool) => (p, checked),
            Ok(_) => {
                errs.push(rule_invalid(
                    format!("{at}.rule"),
                    entry,
                    "cel expression must evaluate to a bool".to_owned(),
                ));
                continue;
            }
            Err(e) => {
                errs.push(rule_invalid(
                    format!("{at}.rule"),
                    entry,
                    format!("compilation failed: {e}"),
                ));
                continue;
            }
        };
        if let (Some(decl), Some(checked)) = (&decl, &checked) {
            let cardinality = scope
                .cardinality
                .unwrap_or_else(|| estimate::max_cardinality(decl.min_serialized_size));
            let cost = estimate::multiply_with_overflow_guard(
                estimate::estimate(program.expression(), checked, decl).max,
                cardinality,
            );
            charge(
                errs,
                total,
                format!("{at}.rule"),
                "estimated rule cost",
                cost,
            );
        }
        let mut refused = false;
        let message_expression = match text("messageExpression") {
            "" => None,
            m => match compile(&env, m, decl.as_ref(), optional_old_self) {
                Ok((p, checked)) if result_is(&p, checked.as_ref(), &Ty::String) => {
                    if let (Some(decl), Some(checked)) = (&decl, &checked) {
                        let cost = estimate::estimate(p.expression(), checked, decl).max;
                        let at = format!("{at}.messageExpression");
                        charge(errs, total, at, "estimated messageExpression cost", cost);
                    }
                    Some(p)
                }
                Ok(_) => {
                    errs.push(rule_invalid(
                        format!("{at}.messageExpression"),
                        entry,
                        "messageExpression must evaluate to a string".to_owned(),
                    ));
                    refused = true;
                    None
                }
                Err(e) => {
                    errs.push(rule_invalid(
                        format!("{at}.messageExpression"),
                        entry,
                        format!("messageExpression compilation failed: {e}"),
                    ));
                    refused = true;
                    None
                }
            },
        };
        let transition = program.references().has_variable("oldSelf");
        if let Some(within) = scope.uncorrelatable.as_deref().filter(|_| transition) {
            errs.push(FieldError::new(
                ErrorType::Invalid,
                format!("{at}.rule"),
                json!(source),
                format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {within}"),
            ));
            refused = true;
        }
        if optional_old_self && !transition {
            errs.push(FieldError::new(
                ErrorType::Invalid,
                format!("{at}.optionalOldSelf"),
                json!(true),
                "may not be set if oldSelf is not used in rule",
            ));
            refused = true;
        }
        if refused {
            continue;
        }
        rules.push(Rule {
            message: text("message").trim().to_owned(),
            field_path: normalize_field_path(text("fieldPath")),
            source,
            program,
            message_expression,
            reason,
            optional_old_self,
            transition,
        });
    }
    rules
}

/// Parses and type-checks `source` for a rule on `decl`: the program and what the
/// check found (none when the node has no CEL type, and only parsing is possible), or
/// cel-go's errors.
fn compile<'a>(
    env: &cel::Env,
    source: &str,
    decl: Option<&'a Decl>,
    optional_old_self: bool,
) -> Result<(Program, Option<Checked<'a>>), String> {
    let program = env.compile(source).map_err(|e| compile_error(&e))?;
    let Some(decl) = decl else {
        return Ok((program, None));
    };
    let this = check::SelfType {
        decl,
        optional_old_self,
    };
    let checked = check::check(&program, source, this)?;
    Ok((program, Some(checked)))
}

/// Whether a checked program's result is of type `want` (`ast.OutputType()`);
/// an unchecked one passes.
fn result_is(program: &Program, checked: Option<&Checked<'_>>, want: &Ty<'_>) -> bool {
    checked.is_none_or(|c| c.types.get(&program.expression().id) == Some(want))
}

/// Adds an expression's estimated `cost` to the schema's total, and the error of one
/// over the per-expression limit.
fn charge(errs: &mut Vec<FieldError>, total: &mut TotalCost, at: String, name: &str, cost: u64) {
    if cost > estimate::STATIC_ESTIMATED_COST_LIMIT {
        errs.push(FieldError::forbidden(
            at.clone(),
            estimate::cost_error_message(name, cost, estimate::STATIC_ESTIMATED_COST_LIMIT),
        ));
    }
    total.observe(at, cost);
}

/// An `Invalid` error whose value is the whole `ValidationRule`, which the real server
/// prints with Go's `%#v`. Its pointer fields print as addresses there (a set `reason`
/// or `optionalOldSelf`); a fixed stand-in address is shown instead.
fn rule_invalid(field: String, entry: &Value, detail: String) -> FieldError {
    let text = |k: &str| go_quote(entry.get(k).and_then(Value::as_str).unwrap_or(""));
    let pointer = |k: &str, ty: &str| match entry.get(k) {
        Some(v) if !v.is_null() => format!("(*{ty})(0xc000000000)"),
        _ => format!("(*{ty})(nil)"),
    };
    let mut e = FieldError::invalid(field, entry.clone(), detail);
    e.go_struct = Some(format!(
        "apiextensions.ValidationRule{{Rule:{}, Message:{}, MessageExpression:{}, Reason:{}, FieldPath:{}, OptionalOldSelf:{}}}",
        text("rule"),
        text("message"),
        text("messageExpression"),
        pointer("reason", "apiextensions.FieldValueErrorReason"),
        text("fieldPath"),
        pointer("optionalOldSelf", "bool"),
    ));
    e
}

/// A rule's `fieldPath` (`.a.b`, `.a['b']`) as the child path errors are reported at.
fn normalize_field_path(p: &str) -> String {
    let mut out = String::new();
    let mut rest = p.trim();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("['") {
            let end = after.find("']").unwrap_or(after.len());
            push_segment(&mut out, &after[..end]);
            rest = after.get(end + 2..).unwrap_or("");
        } else if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            push_segment(&mut out, &after[..end]);
            rest = &after[end..];
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            push_segment(&mut out, &rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

fn push_segment(out: &mut String, seg: &str) {
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(seg);
}

/// Whether any node of `s` carries rules (most schemas have none: no walk then).
fn has_rules(s: &Schema) -> bool {
    !s.rules.is_empty()
        || s.properties.values().any(has_rules)
        || s.items.as_deref().is_some_and(has_rules)
        || matches!(&s.additional, Some(Additional::Schema(a)) if has_rules(a))
}

/// Evaluates every rule of `s` over `new` (the whole object), with `old` for updates.
/// A rule's failure on a value equal to its old value is dropped (validation
/// ratcheting), unless the rule reads `oldSelf`.
pub(crate) fn validate(s: &Schema, new: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut run = Run {
        errs: Vec::new(),
        remaining: cost::RUNTIME_BUDGET,
        stopped: false,
    };
    if has_rules(s) {
        let equal = old == Some(new);
        run.walk(s, new, old, equal, "", true);
    }
    run.errs
}

/// The error the real server adds instead of evaluating the rules of `s` over an
/// object that already failed a blocking schema check (`hasBlockingErr`); a schema
/// without rules has no CEL validator, and so no such error.
pub(crate) fn blocked(s: &Schema, errs: &[FieldError]) -> Option<FieldError> {
    if !has_rules(s) {
        return None;
    }
    errs.iter()
        .any(|e| {
            matches!(
                e.kind,
                ErrorType::NotSupported
                    | ErrorType::Required
                    | ErrorType::TooLong
                    | ErrorType::TooMany
                    | ErrorType::TypeInvalid
            )
        })
        .then(|| {
            // A nil bad value, which `ErrorBody` prints as the string "null".
            FieldError::invalid(
                "<nil>",
                json!("null"),
                "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            )
        })
}

fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn index(path: &str, i: impl fmt::Display) -> String {
    format!("{}[{i}]", path_or_nil(path))
}

/// The rules of node `s` and below it run on its `default` (`ValidateDefaults`), their
/// errors named under `path` (the default's field path). As kube-apiserver does, the
/// default is first both the new and the old value, which leaves only transition rules
/// to fail (the others are ratcheted: the value did not change); when none fails, it is
/// a new value alone, for the other rules.
pub(crate) fn validate_default(s: &Schema, default: &Value, path: &str) -> Vec<FieldError> {
    if !has_rules(s) {
        return Vec::new();
    }
    let mut run = Run {
        errs: Vec::new(),
        remaining: cost::RUNTIME_BUDGET,
        stopped: false,
    };
    run.walk(s, default, Some(default), true, path, false);
    if run.errs.is_empty() {
        run.walk(s, default, None, false, path, false);
    }
    run.errs
}

/// One object's validation: its errors and what is left of its cost budget.
struct Run {
    errs: Vec<FieldError>,
    remaining: u64,
    /// Set once a rule ran out of budget: the real server runs no further rules.
    stopped: bool,
}

impl Run {
    /// Validates the node `new` of schema `s` at `path`; `old` is the old value
    /// correlated with it (by key in objects, maps and map lists), `equal` whether this
    /// node, or its nearest correlated ancestor, is unchanged.
    fn walk(
        &mut self,
        s: &Schema,
        new: &Value,
        old: Option<&Value>,
        equal: bool,
        path: &str,
        resource: bool,
    ) {
        if new.is_null() || self.stopped {
            return;
        }
        if !s.rules.is_empty() {
            self.evaluate(s, new, old, equal, path, resource);
        }
        match new {
            Value::Object(fields) => {
                for (k, v) in fields {
                    let (sub, sub_path) = match s.properties.get(k) {
                        Some(p) => (p, child(path, k)),
                        None => match &s.additional {
                            Some(Additional::Schema(a)) => (&**a, index(path, k)),
                            _ => continue,
                        },
                    };
                    if !has_rules(sub) {
                        continue;
                    }
                    let old_v = old.and_then(|o| o.get(k));
                    let sub_equal = old_v.map_or(equal, |o| o == v);
                    self.walk(sub, v, old_v, sub_equal, &sub_path, false);
                }
            }
            Value::Array(items) => {
                let Some(item_schema) = s.items.as_deref().filter(|i| has_rules(i)) else {
                    return;
                };
                for (i, item) in items.iter().enumerate() {
                    let old_item = old.and_then(|o| correlate(s, item, o));
                    let item_equal = match old_item {
                        Some(o) => o == item,
                        None if s.list_type == Some(ListType::Set) => {
                            equal
                                || old
                                    .and_then(Value::as_array)
                                    .is_some_and(|l| l.contains(item))
                        }
                        None => equal,
                    };
                    self.walk(
                        item_schema,
                        item,
                        old_item,
                        item_equal,
                        &index(path, i),
                        false,
                    );
                }
            }
            _ => {}
        }
    }

    fn evaluate(
        &mut self,
        s: &Schema,
        new: &Value,
        old: Option<&Value>,
        equal: bool,
        path: &str,
        resource: bool,
    ) {
        let field = path_or_nil(path);
        let env = match library::env() {
            Ok(env) => env,
            Err(e) => {
                self.errs.push(FieldError::invalid(
                    field,
                    type_value(s),
                    format!("rule compiler initialization error: {e}"),
                ));
                return;
            }
        };
        let self_value = value::to_cel(Some(s), new, resource);
        let old_value = old.map(|o| value::to_cel(Some(s), o, resource));
        for rule in &s.rules {
            if rule.transition && old_value.is_none() && !rule.optional_old_self {
                continue;
            }
            let mut ctx = Context::with_env(Arc::clone(&env));
            ctx.add_variable_from_value("self", self_value.clone());
            if rule.transition {
                let old_self = match (&old_value, rule.optional_old_self) {
                    (Some(o), false) => o.clone(),
                    (o, true) => Cel::Opaque(Arc::new(match o {
                        Some(o) => cel::objects::OptionalValue::of(o.clone()),
                        None => cel::objects::OptionalValue::none(),
                    })),
                    (None, false) => continue,
                };
                ctx.add_variable_from_value("oldSelf", old_self);
            }
            let invalid =
                |detail: String| FieldError::invalid(field.clone(), type_value(s), detail);
            let Some(spent) = cost::cost(rule.program.expression(), &ctx, cost::PER_CALL_LIMIT)
            else {
                self.errs.push(invalid(format!(
                    "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                    rule.error_string()
                )));
                self.stopped = true;
                return;
            };
            if spent > self.remaining {
                self.errs.push(invalid(
                    "validation failed due to running out of cost budget, no further validation rules will be run".to_owned(),
                ));
                self.stopped = true;
                return;
            }
            self.remaining -= spent;
            // A result other than `true` fails the rule (the real server's type check
            // lets only boolean rules in; without one here, other results fail too).
            match rule.program.execute(&ctx) {
                Ok(Cel::Bool(true)) => {}
                Ok(_) => {
                    if equal && !rule.transition {
                        continue;
                    }
                    let at = if rule.field_path.is_empty() {
                        field.clone()
                    } else {
                        child(path, &rule.field_path)
                    };
                    let message = rule
                        .message_expression
                        .as_ref()
                        .and_then(|m| message_of(m, &ctx))
                        .unwrap_or_else(|| rule.default_message());
                    let failed = |kind, detail| failure(s, new, kind, at.clone(), detail);
                    self.errs.push(match rule.reason {
                        Reason::Invalid => failed(ErrorType::Invalid, message),
                        Reason::Forbidden => failed(ErrorType::Forbidden, message),
                        Reason::Required => failed(ErrorType::Required, message),
                        Reason::Duplicate => failed(ErrorType::Duplicate, String::new()),
                    });
                }
                Err(e) => self.errs.push(invalid(evaluation_error(&e, rule))),
            }
        }
    }
}

/// The old element an element of a list corresponds to: by key in a `map` list;
/// elements of other lists correspond to none (no `oldSelf` below them).
fn correlate<'a>(s: &Schema, item: &Value, old: &'a Value) -> Option<&'a Value> {
    if s.list_type != Some(ListType::Map) {
        return None;
    }
    old.as_array()?
        .iter()
        .find(|o| s.list_map_keys.iter().all(|k| o.get(k) == item.get(k)))
}

/// The field error of a failed rule (`fieldErrorForReason`): since 1.35 its bad value is
/// the node's value when that is a scalar, and none (`field.OmitValueType`) for an object
/// or array.
fn failure(s: &Schema, value: &Value, kind: ErrorType, at: String, detail: String) -> FieldError {
    let e = FieldError::new(kind, at, value.clone(), detail);
    if matches!(s.types.as_slice(), [t] if matches!(t.name(), "object" | "array")) {
        e.omitting_value()
    } else {
        e
    }
}

/// The type name the real server shows as the bad value of a rule's runtime error.
fn type_value(s: &Schema) -> Value {
    match s.types.as_slice() {
        [t] => json!(t.name()),
        _ => json!(""),
    }
}

fn path_or_nil(path: &str) -> String {
    if path.is_empty() {
        "<nil>".to_owned()
    } else {
        path.to_owned()
    }
}

/// A `messageExpression`'s message: a non-blank string without line breaks; otherwise
/// the real server logs the problem and uses the rule's message.
fn message_of(m: &Program, ctx: &Context<'_, '_>) -> Option<String> {
    match m.execute(ctx) {
        Ok(Cel::String(s)) => {
            let trimmed = s.trim();
            (!trimmed.is_empty() && !trimmed.contains('\n') && trimmed.len() <= 5120)
                .then(|| trimmed.to_owned())
        }
        _ => None,
    }
}

/// cel-go's texts of runtime errors, in the sentence the real server wraps them in.
fn evaluation_error(e: &ExecutionError, rule: &Rule) -> String {
    let rule_text = rule.error_string();
    let go = match e {
        ExecutionError::NoSuchOverload(_) | ExecutionError::UnexpectedType { .. } => {
            return format!(
                "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {rule_text}"
            );
        }
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        ExecutionError::DivisionByZero(_) => "division by zero".to_owned(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_owned(),
        ExecutionError::Overflow(..) => "integer overflow".to_owned(),
        ExecutionError::IndexOutOfBounds(i) => match i {
            Cel::Int(i) => format!("index out of bounds: {i}"),
            other => format!("index out of bounds: {other:?}"),
        },
        ExecutionError::FunctionError { message, .. } => message.clone(),
        other => other.to_string(),
    };
    format!("{go} evaluating rule: {rule_text}")
}
