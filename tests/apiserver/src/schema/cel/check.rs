//! The part of cel-go's type check that needs no types: every name a rule reads must be
//! declared (`self`, `oldSelf`, a comprehension's variables, a type name, a function
//! namespace). kube-apiserver refuses a CRD whose rule reads anything else with
//! `undeclared reference to 'x' (in container '')`.

use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::Program;

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
const NAMESPACES: &[&str] = &["sets", "optional", "strings", "lists", "math", "base64"];

/// cel-go's error for the first undeclared name `program` reads, with the line of
/// `source` it is on and a caret under it.
pub(super) fn undeclared(program: &Program, source: &str) -> Option<String> {
    let mut scope = Vec::new();
    let (name, id) = find(program.expression(), &mut scope)?;
    let start = program
        .source_info()
        .offset_for(id)
        .map_or(0, |(start, _)| start as usize)
        .min(source.len());
    let before = source.get(..start).unwrap_or("");
    let line_no = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source.get(line_start..start).unwrap_or("").chars().count();
    let line = source.lines().nth(line_no - 1).unwrap_or("");
    Some(format!(
        "ERROR: <input>:{line_no}:{}: undeclared reference to '{name}' (in container '')\n | {line}\n | {}^",
        column + 1,
        ".".repeat(column)
    ))
}

fn find<'a>(expr: &'a IdedExpr, scope: &mut Vec<&'a str>) -> Option<(&'a str, u64)> {
    match &expr.expr {
        Expr::Ident(name) => {
            let known = DECLARED.contains(&name.as_str()) || scope.contains(&name.as_str());
            (!known).then_some((name.as_str(), expr.id))
        }
        Expr::Call(call) => {
            let qualified = matches!(
                call.target.as_deref().map(|t| &t.expr),
                Some(Expr::Ident(ns)) if NAMESPACES.contains(&ns.as_str())
            );
            if let Some(target) = call.target.as_deref().filter(|_| !qualified) {
                if let Some(found) = find(target, scope) {
                    return Some(found);
                }
            }
            call.args.iter().find_map(|a| find(a, scope))
        }
        Expr::Comprehension(c) => {
            if let Some(found) = find(&c.iter_range, scope).or_else(|| find(&c.accu_init, scope)) {
                return Some(found);
            }
            let depth = scope.len();
            scope.push(&c.accu_var);
            let found = find(&c.result, scope).or_else(|| {
                scope.push(&c.iter_var);
                if let Some(second) = &c.iter_var2 {
                    scope.push(second);
                }
                find(&c.loop_cond, scope).or_else(|| find(&c.loop_step, scope))
            });
            scope.truncate(depth);
            found
        }
        Expr::List(l) => l.elements.iter().find_map(|e| find(e, scope)),
        Expr::Map(m) => m.entries.iter().find_map(|e| entry(&e.expr, scope)),
        Expr::Struct(s) => s.entries.iter().find_map(|e| entry(&e.expr, scope)),
        Expr::Select(s) => find(&s.operand, scope),
        Expr::Literal(_) | Expr::Unspecified => None,
    }
}

fn entry<'a>(e: &'a EntryExpr, scope: &mut Vec<&'a str>) -> Option<(&'a str, u64)> {
    match e {
        EntryExpr::StructField(f) => find(&f.value, scope),
        EntryExpr::MapEntry(m) => find(&m.key, scope).or_else(|| find(&m.value, scope)),
    }
}

#[cfg(test)]
mod tests {
    use super::undeclared;

    fn check(rule: &str) -> Option<String> {
        let env = super::super::library::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        undeclared(&program, rule)
    }

    #[test]
    fn declared_names_pass() {
        for rule in [
            "self.all(x, x > 0)",
            "self.map(k, self[k]).exists_one(v, v == 1)",
            "!oldSelf.hasValue() || self >= oldSelf.value()",
            "sets.contains(self, ['a'])",
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
}
