//! The runtime cost of a rule, measured before it runs: cel-go charges each evaluated
//! step, and a comprehension (`all`, `exists`, `map`, ...) its step and condition once
//! per element of the range it walks. cel-rust keeps no such count, so the rule's
//! syntax tree is walked over the actual values: ranges are evaluated (with the
//! enclosing comprehensions' variables bound), every step costs 1, and the walk stops
//! as soon as the limit is passed, so a rule that loops too much is refused without
//! being run.

use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::{Context, Value};

/// cel-go's `PerCallLimit` as kube-apiserver sets it for one rule evaluation.
pub(super) const PER_CALL_LIMIT: u64 = 1_000_000;

/// kube-apiserver's `RuntimeCELCostBudget`: all the rules of one object together.
pub(super) const RUNTIME_BUDGET: u64 = 10_000_000;

/// The cost of evaluating `expr` in `ctx`, or none once it passes `limit`.
pub(super) fn cost(expr: &IdedExpr, ctx: &Context<'_, '_>, limit: u64) -> Option<u64> {
    let mut spent = 0;
    walk(expr, ctx, limit, &mut spent).then_some(spent)
}

fn charge(spent: &mut u64, n: u64, limit: u64) -> bool {
    *spent = spent.saturating_add(n);
    *spent <= limit
}

fn walk(expr: &IdedExpr, ctx: &Context<'_, '_>, limit: u64, spent: &mut u64) -> bool {
    if !charge(spent, 1, limit) {
        return false;
    }
    match &expr.expr {
        Expr::Call(call) => {
            call.target
                .as_deref()
                .is_none_or(|t| walk(t, ctx, limit, spent))
                && call.args.iter().all(|a| walk(a, ctx, limit, spent))
        }
        Expr::Comprehension(c) => {
            if !walk(&c.iter_range, ctx, limit, spent) || !walk(&c.accu_init, ctx, limit, spent) {
                return false;
            }
            // A range that fails to evaluate fails the rule itself; nothing to charge.
            let elements: Vec<(Value, Option<Value>)> = match Value::resolve(&c.iter_range, ctx) {
                Ok(Value::List(items)) => items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match &c.iter_var2 {
                        Some(_) => (Value::Int(i as i64), Some(v.clone())),
                        None => (v.clone(), None),
                    })
                    .collect(),
                Ok(Value::Map(m)) => m
                    .map
                    .iter()
                    .map(|(k, v)| (Value::from(k.clone()), Some(v.clone())))
                    .collect(),
                _ => Vec::new(),
            };
            for (first, second) in elements {
                let mut inner = ctx.new_inner_scope();
                inner.add_variable_from_value(c.iter_var.clone(), first);
                if let (Some(name), Some(v)) = (&c.iter_var2, second) {
                    inner.add_variable_from_value(name.clone(), v);
                }
                if !walk(&c.loop_cond, &inner, limit, spent)
                    || !walk(&c.loop_step, &inner, limit, spent)
                {
                    return false;
                }
            }
            walk(&c.result, ctx, limit, spent)
        }
        Expr::List(l) => l.elements.iter().all(|e| walk(e, ctx, limit, spent)),
        Expr::Map(m) => m.entries.iter().all(|e| entry(&e.expr, ctx, limit, spent)),
        Expr::Struct(s) => s.entries.iter().all(|e| entry(&e.expr, ctx, limit, spent)),
        Expr::Select(s) => walk(&s.operand, ctx, limit, spent),
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => true,
    }
}

fn entry(e: &EntryExpr, ctx: &Context<'_, '_>, limit: u64, spent: &mut u64) -> bool {
    match e {
        EntryExpr::StructField(f) => walk(&f.value, ctx, limit, spent),
        EntryExpr::MapEntry(m) => {
            walk(&m.key, ctx, limit, spent) && walk(&m.value, ctx, limit, spent)
        }
    }
}
