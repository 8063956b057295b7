//! The list functions kube-apiserver 1.37 gives rules beyond cel-rust's standard
//! library: cel-go's lists extension at version 3 (`slice`, `flatten`, `sort`,
//! `distinct`, `reverse`, `lists.range`), the optional library's `first`, `last`,
//! `optional.unwrap` and `unwrapOpt`, and Kubernetes' `includes` (lists library
//! version 1). Errors keep cel-go's texts, which a rule's evaluation error shows.

use std::cmp::Ordering;
use std::sync::Arc;

use cel::common::types::{DYN_TYPE, INT_TYPE, LIST_TYPE};
use cel::objects::OptionalValue;
use cel::{DeclarationError, Env, ExecutionError, Value};

use super::{compare, list, no_overload};

pub(super) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let member = |env: &mut Env, name: &str, id: &str, args: Vec<_>, op| {
        env.add_member_overload(name, id, LIST_TYPE, args, op)
    };
    member(
        env,
        "slice",
        "list_slice",
        vec![INT_TYPE, INT_TYPE],
        lift!(slice),
    )?;
    member(
        env,
        "flatten",
        "list_flatten",
        vec![],
        lift!(|a| flatten_args(a, 1)),
    )?;
    member(
        env,
        "flatten",
        "list_flatten_int",
        vec![INT_TYPE],
        lift!(flatten_depth),
    )?;
    member(env, "sort", "list_sort", vec![], lift!(sort))?;
    member(env, "distinct", "list_distinct", vec![], lift!(distinct))?;
    member(env, "reverse", "list_reverse", vec![], lift!(reverse))?;
    member(
        env,
        "first",
        "list_first",
        vec![],
        lift!(|a| end(a, "first", false)),
    )?;
    member(
        env,
        "last",
        "list_last",
        vec![],
        lift!(|a| end(a, "last", true)),
    )?;
    member(
        env,
        "unwrapOpt",
        "optional_unwrapOpt",
        vec![],
        lift!(|a| unwrap(a, "unwrapOpt")),
    )?;
    env.add_member_overload(
        "includes",
        "list_includes_dyn_dyn",
        DYN_TYPE,
        vec![DYN_TYPE],
        lift!(includes),
    )?;
    env.add_overload("lists.range", "lists_range", vec![INT_TYPE], lift!(range))?;
    env.add_overload(
        "optional.unwrap",
        "optional_unwrap",
        vec![LIST_TYPE],
        lift!(|a| unwrap(a, "optional.unwrap")),
    )?;
    Ok(())
}

fn failed(name: &str, message: String) -> ExecutionError {
    ExecutionError::function_error(name, message)
}

fn int(args: &[Value], i: usize, name: &str) -> Result<i64, ExecutionError> {
    match args.get(i) {
        Some(Value::Int(n)) => Ok(*n),
        _ => Err(no_overload(name, args)),
    }
}

fn new_list(items: Vec<Value>) -> Value {
    Value::List(Arc::new(items))
}

fn slice(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list(args, "slice")?;
    let (start, end) = (int(args, 1, "slice")?, int(args, 2, "slice")?);
    let fail = |why: String| failed("slice", format!("cannot slice({start}, {end}), {why}"));
    if start < 0 || end < 0 {
        return Err(fail("negative indexes not supported".to_owned()));
    }
    if start > end {
        return Err(fail(
            "start index must be less than or equal to end index".to_owned(),
        ));
    }
    let len = items.len();
    match (usize::try_from(start), usize::try_from(end)) {
        (Ok(s), Ok(e)) if e <= len => Ok(new_list(items[s..e].to_vec())),
        _ => Err(fail(format!("list is length {len}"))),
    }
}

fn flatten_depth(args: &[Value]) -> Result<Value, ExecutionError> {
    let depth = int(args, 1, "flatten")?;
    if depth < 0 {
        return Err(failed("flatten", "level must be non-negative".to_owned()));
    }
    flatten_args(args, depth)
}

fn flatten_args(args: &[Value], depth: i64) -> Result<Value, ExecutionError> {
    let mut out = Vec::new();
    flatten(list(args, "flatten")?, depth, &mut out);
    Ok(new_list(out))
}

fn flatten(items: &[Value], depth: i64, out: &mut Vec<Value>) {
    for item in items {
        match item {
            Value::List(inner) if depth > 0 => flatten(inner, depth - 1, out),
            other => out.push(other.clone()),
        }
    }
}

fn sort(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list(args, "sort")?;
    let Some(first) = items.first() else {
        return Ok(new_list(Vec::new()));
    };
    if compare(first, first).is_none() {
        return Err(failed(
            "sort",
            "list elements must be comparable".to_owned(),
        ));
    }
    let mut sorted = items.to_vec();
    let mut mixed = false;
    sorted.sort_by(|a, b| {
        compare(a, b).unwrap_or_else(|| {
            mixed = true;
            Ordering::Equal
        })
    });
    if mixed {
        return Err(failed(
            "sort",
            "list elements must have the same type".to_owned(),
        ));
    }
    Ok(new_list(sorted))
}

fn distinct(args: &[Value]) -> Result<Value, ExecutionError> {
    let mut unique: Vec<Value> = Vec::new();
    for item in list(args, "distinct")? {
        if !unique.contains(item) {
            unique.push(item.clone());
        }
    }
    Ok(new_list(unique))
}

fn reverse(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(new_list(
        list(args, "reverse")?.iter().rev().cloned().collect(),
    ))
}

fn range(args: &[Value]) -> Result<Value, ExecutionError> {
    let n = int(args, 0, "lists.range")?;
    Ok(new_list((0..n.max(0)).map(Value::Int).collect()))
}

fn end(args: &[Value], name: &str, last: bool) -> Result<Value, ExecutionError> {
    let items = list(args, name)?;
    let item = if last { items.last() } else { items.first() };
    Ok(Value::Opaque(Arc::new(match item {
        Some(v) => OptionalValue::of(v.clone()),
        None => OptionalValue::none(),
    })))
}

/// `optional.unwrap(list)` / `list.unwrapOpt()`: the values of the present optionals.
fn unwrap(args: &[Value], name: &str) -> Result<Value, ExecutionError> {
    let mut out = Vec::new();
    for item in list(args, name)? {
        let opt: &OptionalValue = item.try_into().map_err(|_| no_overload(name, args))?;
        if let Some(v) = opt.value() {
            out.push(v.clone());
        }
    }
    Ok(new_list(out))
}

/// Kubernetes' `includes`: membership in a list, or equality with anything else.
fn includes(args: &[Value]) -> Result<Value, ExecutionError> {
    let (Some(target), Some(arg)) = (args.first(), args.get(1)) else {
        return Err(no_overload("includes", args));
    };
    Ok(Value::Bool(match target {
        Value::List(items) => items.contains(arg),
        other => other == arg,
    }))
}

#[cfg(test)]
mod tests {
    use cel::Value;

    use super::super::tests::eval;

    #[test]
    fn the_lists_extension_answers_as_cel_go() {
        for rule in [
            "[1, 2, 3, 4].slice(1, 3) == [2, 3]",
            "[[1, [2]], [3]].flatten() == [1, [2], 3]",
            "[[1, [2]], [3]].flatten(2) == [1, 2, 3]",
            "['b', 'c', 'a'].sort() == ['a', 'b', 'c']",
            "[1, 2, 1, 3, 2].distinct() == [1, 2, 3]",
            "[1, 2, 3].reverse() == [3, 2, 1]",
            "lists.range(3) == [0, 1, 2]",
            "[5, 6].first().value() == 5 && [5, 6].last().value() == 6 && ![].first().hasValue()",
            "optional.unwrap([optional.of(1), optional.none()]) == [1]",
            "[optional.none(), optional.of('a')].unwrapOpt() == ['a']",
            "[1, 2].includes(2) && !['a'].includes('b')",
        ] {
            assert_eq!(eval(rule), Ok(Value::Bool(true)), "{rule}");
        }
    }

    #[test]
    fn errors_keep_cel_go_s_texts() {
        for (rule, text) in [
            (
                "[1, 2].slice(2, 1)",
                "cannot slice(2, 1), start index must be less than or equal to end index",
            ),
            ("[1, 2].slice(0, 3)", "cannot slice(0, 3), list is length 2"),
            (
                "[1, 2].slice(-1, 1)",
                "cannot slice(-1, 1), negative indexes not supported",
            ),
            ("[[1]].flatten(-1)", "level must be non-negative"),
            ("[1, 'a'].sort()", "list elements must have the same type"),
        ] {
            let err = eval(rule).expect_err(rule);
            assert!(err.contains(text), "{rule}: {err}");
        }
    }
}
