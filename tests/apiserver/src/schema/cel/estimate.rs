//! The static cost estimate kube-apiserver makes of a CRD's validation rule when the
//! CRD is written: cel-go's `checker.Cost` over the checked rule, with Kubernetes'
//! `library.CostEstimator` pricing the Kubernetes library's calls and apiextensions'
//! size estimator bounding every value reachable from `self` by the schema's
//! `maxItems`, `maxProperties` and `maxLength` (or, without them, by how many of it
//! fit in one request). A rule whose worst case exceeds the per-rule limit, or a CRD
//! whose rules together (each times how often its node can occur) exceed the CRD
//! limit, is refused.
//!
//! The estimate is deliberately the same arithmetic as cel-go's, quirks included:
//! the real server accepts or refuses CRDs by these exact numbers, and a test server
//! that disagrees in the last unit would accept a CRD the real one refuses.
//!
//! Left out, as no CRD rule can reach them: two-variable comprehensions are estimated
//! (their walk is the same), but the strings extension's own estimators (registered
//! from its version 5, Kubernetes enables version 2) and the regex extension's (not
//! enabled by Kubernetes) are not ported.

use std::collections::HashMap;

use cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

use super::decl::{Decl, MAX_REQUEST_SIZE_BYTES};
use super::declarations::functions;
use super::ty::{Checked, Ty};

/// `StaticEstimatedCostLimit`: the most one rule (or `messageExpression`) may cost.
pub(super) const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;

/// `StaticEstimatedCRDCostLimit`: the most all the rules of a CRD may cost together,
/// each multiplied by how often its node can occur in one object.
pub(super) const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

// cel-go's `common/cost.go`.
const SELECT_AND_IDENT_COST: u64 = 1;
const CONST_COST: u64 = 0;
const LIST_CREATE_BASE_COST: u64 = 10;
const MAP_CREATE_BASE_COST: u64 = 30;
const STRUCT_CREATE_BASE_COST: u64 = 40;
const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;

/// What a presence test (`has(x.f)`) adds: Kubernetes passes
/// `checker.PresenceTestHasCost(false)` to keep the cost cel-go had before v0.17.7.
const PRESENCE_TEST_COST: u64 = 0;

/// The accumulators cel-go's macros declare; paths rooted at one are not sized.
const ACCUMULATOR_NAME: &str = "@result";
const HIDDEN_ACCUMULATOR_NAME: &str = "__result__";

// Kubernetes' `pkg/cel/limits.go`.
const MAX_FORMAT_SIZE: u64 = 64;
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;

/// A range of sizes: characters of a string, bytes, entries of a list or map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SizeEstimate {
    pub min: u64,
    pub max: u64,
}

/// A range of costs, in cel-go's cost units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CostEstimate {
    pub min: u64,
    pub max: u64,
}

/// Any size at all: what cel-go assumes where it can bound nothing.
const UNKNOWN_SIZE: SizeEstimate = SizeEstimate {
    min: 0,
    max: u64::MAX,
};

impl SizeEstimate {
    fn fixed(n: u64) -> Self {
        SizeEstimate { min: n, max: n }
    }

    /// Sums saturate at `u64::MAX`, as cel-go's do, so an unbounded input stays
    /// unbounded instead of wrapping to a small number.
    fn add(self, o: SizeEstimate) -> Self {
        SizeEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    fn multiply(self, o: SizeEstimate) -> Self {
        SizeEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    fn multiply_by_cost_factor(self, factor: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, factor),
            max: multiply_by_cost_factor(self.max, factor),
        }
    }

    fn multiply_by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }

    fn union(self, o: SizeEstimate) -> Self {
        SizeEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// Go's `CostEstimate(size)` conversion: the same two numbers, read as costs.
    fn as_cost(self) -> CostEstimate {
        CostEstimate {
            min: self.min,
            max: self.max,
        }
    }
}

impl CostEstimate {
    fn fixed(n: u64) -> Self {
        CostEstimate { min: n, max: n }
    }

    fn add(self, o: CostEstimate) -> Self {
        CostEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    fn multiply(self, o: CostEstimate) -> Self {
        CostEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    fn multiply_by_cost_factor(self, factor: f64) -> Self {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, factor),
            max: multiply_by_cost_factor(self.max, factor),
        }
    }

    fn union(self, o: CostEstimate) -> Self {
        CostEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// cel-go's `multiplyByCostFactor`: `x * factor` rounded up, `u64::MAX` where it
/// would not fit. Computed in `f64` exactly as Go does (so `3145726 * 0.1` is
/// `314572.60000000003`, which rounds up to 314573).
fn multiply_by_cost_factor(x: u64, factor: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && factor > 0.0 && xf > u64::MAX as f64 / factor {
        return u64::MAX;
    }
    let ceil = (xf * factor).ceil();
    if ceil >= TWO_TO_64 {
        return u64::MAX;
    }
    // In range and not negative for the factors used; `as` saturates anyway.
    ceil as u64
}

const TWO_TO_64: f64 = 18_446_744_073_709_551_616.0;

/// Go's `uint64(f)` on amd64 for a float that may not fit: values of 2^64 and above,
/// and NaN, come out as 2^63 there (the hardware's "indefinite" result). Kubernetes'
/// `replace` estimate can produce such a float from an unbounded string.
fn go_f64_to_u64(f: f64) -> u64 {
    if f.is_nan() || f >= TWO_TO_64 {
        1 << 63
    } else {
        f as u64
    }
}

/// `maxCardinality`: how many times data of at least `min_serialized_size` bytes can
/// repeat in one request (assuming a comma between each), which multiplies a rule's
/// cost into the CRD's total.
pub(super) fn max_cardinality(min_serialized_size: i64) -> u64 {
    // Go divides `int64`s and converts to `uint64`; a size below -1 would convert a
    // negative quotient by wrapping, and -1 would panic there: no schema gives either,
    // so the worst case stands in for the division by zero.
    match MAX_REQUEST_SIZE_BYTES.checked_div(min_serialized_size.saturating_add(1)) {
        Some(n) => n as u64,
        None => u64::MAX,
    }
}

/// `multiplyWithOverflowGuard`: a rule's cost times its node's cardinality, saturating.
pub(super) fn multiply_with_overflow_guard(base_cost: u64, cardinality: u64) -> u64 {
    base_cost.saturating_mul(cardinality)
}

/// `getCostErrorMessage`: how far `cost` is over `limit`, in the real server's words.
pub(super) fn cost_error_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let exceed = cost as f64 / limit as f64;
    let factor = if exceed > 100.0 {
        // Two orders of magnitude over is likely quadratic; the number says nothing more.
        "more than 100x".to_owned()
    } else if exceed < 1.5 {
        // Go's `%f`: six decimals, so a factor just over 1 does not read as "1.0x".
        format!("{exceed:.6}x")
    } else {
        format!("{exceed:.1}x")
    };
    format!(
        "{cost_name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// The estimated cost of the checked rule `expr`, whose `self` is a value of `this`.
pub(super) fn estimate(expr: &IdedExpr, checked: &Checked<'_>, this: &Decl) -> CostEstimate {
    let mut c = Coster {
        checked,
        this,
        paths: HashMap::new(),
        locals: HashMap::new(),
        sizes: HashMap::new(),
        entry_sizes: HashMap::new(),
    };
    c.cost(expr)
}

/// A type's parameters' first: a list's element, a map's key (sic: Kubernetes'
/// `listElementNode` takes the first parameter whatever the container), an
/// optional's value.
fn first_param<'t, 'a>(t: &'t Ty<'a>) -> Option<&'t Ty<'a>> {
    match t {
        Ty::List(e) | Ty::Map(e, _) | Ty::Optional(e) | Ty::Type(e) => Some(e),
        Ty::Opaque(_, params) => params.first(),
        _ => None,
    }
}

/// `isScalar`: types whose values have a size known before they are seen.
fn is_scalar(t: &Ty<'_>) -> bool {
    match t {
        Ty::Bool | Ty::Double | Ty::Duration | Ty::Int | Ty::Timestamp | Ty::Uint => true,
        Ty::Optional(inner) => is_scalar(inner),
        _ => false,
    }
}

/// The type of an expression the checker left untyped.
static DYN: Ty<'static> = Ty::Dyn;

/// cel-go's `AstNode`: what an estimator sees of an argument or target.
struct Node<'c> {
    /// The field path from a variable (`self`, `spec`, `@items`, ...); empty when the
    /// node is not reachable from a declared variable.
    path: Vec<String>,
    ty: &'c Ty<'c>,
    /// None for the element node Kubernetes makes up for a list's items.
    expr: Option<&'c IdedExpr>,
    /// The size worked out from the expression itself, if any.
    computed: Option<SizeEstimate>,
}

/// What a call costs and, for strings, bytes, lists and maps, how big its result is.
struct CallEstimate {
    cost: CostEstimate,
    result_size: Option<SizeEstimate>,
}

impl CallEstimate {
    fn cost(cost: CostEstimate) -> Self {
        CallEstimate {
            cost,
            result_size: None,
        }
    }

    fn sized(cost: CostEstimate, size: SizeEstimate) -> Self {
        CallEstimate {
            cost,
            result_size: Some(size),
        }
    }
}

/// The sizes of a container's keys (indices) and values, where both are known.
#[derive(Clone, Copy, Debug)]
struct EntrySize {
    /// Whether the container is a list (its keys are indices), else a map.
    list: bool,
    key: SizeEstimate,
    val: SizeEstimate,
}

/// cel-go's `entrySizeEstimate.union`: only when both sides are known.
fn union_entries(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
    let (a, b) = (a?, b?);
    Some(EntrySize {
        list: a.list,
        key: a.key.union(b.key),
        val: a.val.union(b.val),
    })
}

/// A comprehension's variable (or the accumulator) while its body is walked.
#[derive(Clone, Debug)]
struct LocalVar {
    path: Vec<String>,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

/// cel-go's `coster`: one walk over the rule, remembering per expression id the field
/// path it reads and the sizes it could work out, for the calls that read them.
struct Coster<'c> {
    checked: &'c Checked<'c>,
    this: &'c Decl,
    paths: HashMap<u64, Vec<String>>,
    /// Each variable name's stack of bindings, innermost last.
    locals: HashMap<String, Vec<LocalVar>>,
    sizes: HashMap<u64, SizeEstimate>,
    entry_sizes: HashMap<u64, EntrySize>,
}

/// The function a call resolves to and its receiver, if it is a member call. A function
/// the libraries declare under a namespace (`sets.contains(a, b)`) is parsed by cel-rust
/// as a member call on an identifier; cel-go's checker resolves it to the qualified
/// global function, so the namespace is no operand and costs nothing.
fn resolve(call: &CallExpr) -> (String, Option<&IdedExpr>) {
    if let Some(target) = call.target.as_deref() {
        if let Expr::Ident(ns) = &target.expr {
            let qualified = format!("{ns}.{}", call.func_name);
            if functions().contains_key(qualified.as_str()) {
                return (qualified, None);
            }
        }
    }
    (call.func_name.clone(), call.target.as_deref())
}

fn appended(path: &[String], step: &str) -> Vec<String> {
    let mut p = path.to_vec();
    p.push(step.to_owned());
    p
}

impl<'c> Coster<'c> {
    fn ty(&self, id: u64) -> &'c Ty<'c> {
        self.checked.types.get(&id).unwrap_or(&DYN)
    }

    fn local(&self, name: &str) -> Option<&LocalVar> {
        self.locals.get(name).and_then(|s| s.last())
    }

    fn push_local(&mut self, name: &str, var: LocalVar) {
        self.locals.entry(name.to_owned()).or_default().push(var);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    fn cost(&mut self, e: &'c IdedExpr) -> CostEstimate {
        match &e.expr {
            Expr::Literal(_) => CostEstimate::fixed(CONST_COST),
            Expr::Ident(name) => {
                let path = match self.local(name) {
                    Some(v) => v.path.clone(),
                    None => vec![name.clone()],
                };
                self.paths.insert(e.id, path);
                CostEstimate::fixed(SELECT_AND_IDENT_COST)
            }
            Expr::Select(sel) => {
                if sel.test {
                    // Like the runtime's presence test: the operand is walked, the
                    // test itself costs `PRESENCE_TEST_COST`.
                    return CostEstimate::fixed(PRESENCE_TEST_COST).add(self.cost(&sel.operand));
                }
                let mut sum = self.cost(&sel.operand);
                // cel-go charges selecting from maps, messages and type parameters.
                if matches!(
                    self.ty(sel.operand.id),
                    Ty::Map(..) | Ty::Object(..) | Ty::Named(_) | Ty::Param(_)
                ) {
                    sum = sum.add(CostEstimate::fixed(SELECT_AND_IDENT_COST));
                }
                let path = appended(&self.path(&sel.operand), &sel.field);
                self.paths.insert(e.id, path);
                sum
            }
            Expr::Call(call) => self.cost_call(e, call),
            Expr::List(list) => {
                let mut sum = CostEstimate::default();
                let mut item = SizeEstimate {
                    min: if list.elements.is_empty() {
                        0
                    } else {
                        u64::MAX
                    },
                    max: 0,
                };
                for el in &list.elements {
                    sum = sum.add(self.cost(el));
                    item = item.union(self.size_or_unknown(el));
                }
                self.entry_sizes.insert(
                    e.id,
                    EntrySize {
                        list: true,
                        key: SizeEstimate::fixed(1),
                        val: item,
                    },
                );
                sum.add(CostEstimate::fixed(LIST_CREATE_BASE_COST))
            }
            Expr::Map(map) => {
                let mut sum = CostEstimate::default();
                let empty_min = if map.entries.is_empty() { 0 } else { u64::MAX };
                let mut key = SizeEstimate {
                    min: empty_min,
                    max: 0,
                };
                let mut val = key;
                for entry in &map.entries {
                    let EntryExpr::MapEntry(m) = &entry.expr else {
                        continue;
                    };
                    sum = sum.add(self.cost(&m.key));
                    sum = sum.add(self.cost(&m.value));
                    key = key.union(self.size_or_unknown(&m.key));
                    val = val.union(self.size_or_unknown(&m.value));
                }
                self.entry_sizes.insert(
                    e.id,
                    EntrySize {
                        list: false,
                        key,
                        val,
                    },
                );
                sum.add(CostEstimate::fixed(MAP_CREATE_BASE_COST))
            }
            Expr::Struct(s) => {
                let mut sum = CostEstimate::default();
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        sum = sum.add(self.cost(&f.value));
                    }
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE_BASE_COST))
            }
            Expr::Comprehension(comp) => {
                if is_bind(comp) {
                    self.cost_bind(e, comp)
                } else {
                    self.cost_comprehension(e, comp)
                }
            }
            Expr::Unspecified => CostEstimate::default(),
        }
    }

    /// `getPath`: a local variable's path, or the one recorded for the expression.
    fn path(&self, e: &IdedExpr) -> Vec<String> {
        if let Expr::Ident(name) = &e.expr {
            if let Some(v) = self.local(name) {
                return v.path.clone();
            }
        }
        self.paths.get(&e.id).cloned().unwrap_or_default()
    }

    /// `newAstNode`: paths from the accumulator are not handed to estimators.
    fn node(&mut self, e: &'c IdedExpr) -> Node<'c> {
        let mut path = self.path(e);
        if path
            .first()
            .is_some_and(|p| p == ACCUMULATOR_NAME || p == HIDDEN_ACCUMULATOR_NAME)
        {
            path.clear();
        }
        Node {
            path,
            ty: self.ty(e.id),
            expr: Some(e),
            computed: self.compute_size(e),
        }
    }

    fn size_or_unknown(&mut self, e: &IdedExpr) -> SizeEstimate {
        self.compute_size(e).unwrap_or(UNKNOWN_SIZE)
    }

    /// `computeSize`: a size recorded for the expression, its literal size, the
    /// schema's bound for its path, a scalar's size 1, or a local variable's size, in
    /// that order (so a path's bound wins over what a variable was bound to).
    fn compute_size(&mut self, e: &IdedExpr) -> Option<SizeEstimate> {
        if let Some(size) = self.sizes.get(&e.id) {
            return Some(*size);
        }
        if let Some(size) = expr_size(e) {
            return Some(size);
        }
        if let Some(size) = self.schema_size(&self.path(e)) {
            self.sizes.insert(e.id, size);
            return Some(size);
        }
        if is_scalar(self.ty(e.id)) {
            return Some(SizeEstimate::fixed(1));
        }
        if let Expr::Ident(name) = &e.expr {
            return self.local(name).and_then(|v| v.size);
        }
        None
    }

    fn compute_entry_size(&self, e: &IdedExpr) -> Option<EntrySize> {
        if let Some(size) = self.entry_sizes.get(&e.id) {
            return Some(*size);
        }
        if let Expr::Ident(name) = &e.expr {
            return self.local(name).and_then(|v| v.entry);
        }
        None
    }

    /// apiextensions' `sizeEstimator.EstimateSize`: the path's first step (the
    /// variable, whichever it is: `self`, `oldSelf`, even `@items` for a variable
    /// ranging over a literal) is dropped and the rest walked from `self`'s node; the
    /// size is at most that node's `MaxElements`.
    fn schema_size(&self, path: &[String]) -> Option<SizeEstimate> {
        let (_, steps) = path.split_first()?;
        let mut node = self.this;
        for step in steps {
            node = node.at(step)?;
        }
        Some(SizeEstimate {
            min: 0,
            // Go's `uint64(MaxElements)`; never negative.
            max: node.max_elements as u64,
        })
    }

    /// Kubernetes' `sizeEstimate`: a node's computed size, else its schema size.
    fn node_size(&self, n: &Node<'_>) -> SizeEstimate {
        n.computed
            .or_else(|| self.schema_size(&n.path))
            .unwrap_or(UNKNOWN_SIZE)
    }

    /// `listElementNode`: a node for a container's element type, reached through
    /// `@items` when the container has a path.
    fn element_node(&self, list: &Node<'c>) -> Option<Node<'c>> {
        let ty = first_param(list.ty)?;
        let path = if list.path.is_empty() {
            Vec::new()
        } else {
            appended(&list.path, "@items")
        };
        Some(Node {
            path,
            ty,
            expr: None,
            computed: None,
        })
    }

    fn cost_call(&mut self, e: &'c IdedExpr, call: &'c CallExpr) -> CostEstimate {
        let (function, target) = resolve(call);
        if function == "dyn" {
            // `dyn(x)` only turns off type checking: 1 on top of its argument.
            let Some(arg) = call.args.first() else {
                return CostEstimate::fixed(1);
            };
            let cost = self.cost(arg);
            self.copy_sizes(e, arg);
            return CostEstimate::fixed(1).add(cost);
        }
        let mut arg_costs = Vec::with_capacity(call.args.len());
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            arg_costs.push(self.cost(a));
            args.push(self.node(a));
        }
        let checked = self.checked;
        let Some(overloads) = checked.overloads.get(&e.id).filter(|o| !o.is_empty()) else {
            // cel-go prices a call it has no overloads for at nothing, arguments and
            // receiver included.
            return CostEstimate::default();
        };
        let mut sum = CostEstimate::default();
        let target = match target {
            Some(t) => {
                sum = sum.add(self.cost(t));
                Some(self.node(t))
            }
            None => None,
        };
        let mut fn_cost = CostEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<SizeEstimate> = None;
        for &overload in overloads {
            let est =
                self.function_cost(e, &function, overload, target.as_ref(), &args, &arg_costs);
            fn_cost = fn_cost.union(est.cost);
            if let Some(size) = est.result_size {
                result_size = Some(result_size.map_or(size, |r| r.union(size)));
            }
            // An index reads an element: its path goes on through the container's.
            let step = match overload {
                "index_list" => Some("@items"),
                "index_map" => Some("@values"),
                _ => None,
            };
            if let (Some(step), Some(container)) = (step, call.args.first()) {
                result_size = self.compute_entry_size(container).map(|s| s.val);
                let path = appended(&self.path(container), step);
                self.paths.insert(e.id, path);
            }
            if result_size.is_none() {
                result_size = self.compute_size(e);
            }
        }
        if let Some(size) = result_size {
            self.sizes.insert(e.id, size);
        }
        sum.add(fn_cost)
    }

    fn copy_sizes(&mut self, dst: &IdedExpr, src: &IdedExpr) {
        if let Some(size) = self.compute_size(src) {
            self.sizes.insert(dst.id, size);
        }
        if let Some(entry) = self.compute_entry_size(src) {
            self.entry_sizes.insert(dst.id, entry);
        }
    }

    fn cost_comprehension(&mut self, e: &'c IdedExpr, comp: &'c ComprehensionExpr) -> CostEstimate {
        let mut sum = self.cost(&comp.iter_range);
        sum = sum.add(self.cost(&comp.accu_init));
        let accu = self.local_of(&comp.accu_init);
        self.push_local(&comp.accu_var, accu);

        let range = &comp.iter_range;
        let entry = self.compute_entry_size(range);
        let is_list = entry.map_or_else(|| matches!(self.ty(range.id), Ty::List(_)), |s| s.list);
        let range_path = self.path(range);
        let var = |step: &str, size: Option<SizeEstimate>| LocalVar {
            path: appended(&range_path, step),
            size,
            entry: None,
        };
        match &comp.iter_var2 {
            Some(second) => {
                let key = var(
                    if is_list { "@indices" } else { "@keys" },
                    entry.map(|s| s.key),
                );
                let value = var(
                    if is_list { "@items" } else { "@values" },
                    entry.map(|s| s.val),
                );
                self.push_local(&comp.iter_var, key);
                self.push_local(second, value);
            }
            None => {
                let single = if is_list {
                    var("@items", entry.map(|s| s.val))
                } else {
                    var("@keys", entry.map(|s| s.key))
                };
                self.push_local(&comp.iter_var, single);
            }
        }

        let loop_cost = self.cost(&comp.loop_cond);
        let step_cost = self.cost(&comp.loop_step);

        self.pop_local(&comp.iter_var);
        if let Some(second) = &comp.iter_var2 {
            self.pop_local(second);
        }
        sum = sum.add(self.cost(&comp.result));
        self.pop_local(&comp.accu_var);

        let range_count = self.size_or_unknown(range);
        sum = sum.add(range_count.multiply_by_cost(step_cost.add(loop_cost)));

        match &comp.accu_init.expr {
            Expr::Literal(_) => {
                if let Some(size) = self.compute_size(&comp.accu_init) {
                    self.sizes.insert(e.id, size);
                }
            }
            Expr::List(_) | Expr::Map(_) => {
                // A `map` or `filter` builds at most one element per element walked.
                self.sizes.insert(e.id, range_count);
                if let Some(step_entry) = self.compute_entry_size(&comp.loop_step) {
                    self.entry_sizes.insert(e.id, step_entry);
                }
            }
            _ => {}
        }
        sum
    }

    /// `pushLocalVar`'s binding: the bound expression's path and sizes.
    fn local_of(&mut self, e: &IdedExpr) -> LocalVar {
        LocalVar {
            path: self.path(e),
            size: self.compute_size(e),
            entry: self.compute_entry_size(e),
        }
    }

    /// `cel.bind(v, init, body)`: the binding is made once and the body walked once.
    fn cost_bind(&mut self, e: &'c IdedExpr, comp: &'c ComprehensionExpr) -> CostEstimate {
        // Binds are lazy, so the (empty) range's cost is kept as cel-go keeps it.
        let mut sum = self.cost(&comp.iter_range);
        sum = sum.add(self.cost(&comp.accu_init));
        let accu = self.local_of(&comp.accu_init);
        self.push_local(&comp.accu_var, accu);
        sum = sum.add(self.cost(&comp.result));
        self.pop_local(&comp.accu_var);
        self.copy_sizes(e, &comp.result);
        sum
    }

    /// `functionCost`: one overload's price, from (in this order) an extension
    /// library's estimator for the overload, Kubernetes' estimator for the function,
    /// cel-go's own rules for the standard overloads, or 1. Arguments' costs are added
    /// on top (except for the logical operators and `?:`, which price them
    /// themselves).
    fn function_cost(
        &mut self,
        e: &IdedExpr,
        function: &str,
        overload: &str,
        target: Option<&Node<'c>>,
        args: &[Node<'c>],
        arg_costs: &[CostEstimate],
    ) -> CallEstimate {
        let arg_sum = arg_costs
            .iter()
            .fold(CostEstimate::default(), |s, c| s.add(*c));
        let with_args = |est: CallEstimate| CallEstimate {
            cost: est.cost.add(arg_sum),
            result_size: est.result_size,
        };
        if let Some(est) = self.extension_cost(overload, target, args) {
            return with_args(est);
        }
        if let Some(est) = self.kubernetes_cost(function, overload, target, args) {
            return with_args(est);
        }
        // cel-go's own rules size a node by what `computeSize` found for it only.
        let traversal =
            |size: SizeEstimate| size.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
        match (overload, target, args) {
            ("string_format", Some(t), _) => {
                // No result size: the formatted string has no bound.
                return CallEstimate::cost(traversal(self.node_size_or_unknown(t)).add(arg_sum));
            }
            ("string_to_bytes", _, [a]) => {
                let sz = self.node_size_or_unknown(a);
                // A character becomes at most 4 bytes.
                let size = SizeEstimate {
                    min: sz.min,
                    max: sz.max.saturating_mul(4),
                };
                return CallEstimate::sized(traversal(sz).add(arg_sum), size);
            }
            ("bytes_to_string", _, [a]) => {
                let sz = self.node_size_or_unknown(a);
                let size = SizeEstimate {
                    min: sz.min / 4,
                    max: sz.max,
                };
                return CallEstimate::sized(traversal(sz).add(arg_sum), size);
            }
            ("strings_quote", _, [a]) => {
                let sz = self.node_size_or_unknown(a);
                // Every character may be escaped; the quotes are always added.
                let size = SizeEstimate {
                    min: sz.min.saturating_add(2),
                    max: sz.max.saturating_mul(2).saturating_add(2),
                };
                return CallEstimate::sized(traversal(sz).add(arg_sum), size);
            }
            ("starts_with_string" | "ends_with_string", _, [a]) => {
                // Only the prefix (suffix) is compared.
                return CallEstimate::cost(traversal(self.node_size_or_unknown(a)).add(arg_sum));
            }
            ("in_list", _, [_, list]) => {
                // Every element may be compared, even for a list of constants.
                return CallEstimate::cost(
                    self.node_size_or_unknown(list)
                        .multiply_by_cost_factor(1.0)
                        .add(arg_sum),
                );
            }
            ("matches_string", Some(t), [re]) => {
                // RE2 is linear in the string times the states of the regex, guessed
                // as one per 4 characters of the pattern; one is added to the string
                // so that an empty one still costs the regex.
                let str_cost = traversal(self.node_size_or_unknown(t).add(SizeEstimate::fixed(1)));
                let regex_cost = self
                    .node_size(re)
                    .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                return CallEstimate::cost(str_cost.multiply(regex_cost).add(arg_sum));
            }
            ("contains_string", Some(t), [sub]) => {
                let str_cost = traversal(self.node_size_or_unknown(t));
                let sub_cost = traversal(self.node_size_or_unknown(sub));
                return CallEstimate::cost(str_cost.multiply(sub_cost).add(arg_sum));
            }
            ("logical_or" | "logical_and", _, _) => {
                if let [lhs, rhs, ..] = arg_costs {
                    // The right side may be short-circuited away.
                    return CallEstimate::cost(CostEstimate {
                        min: lhs.min,
                        max: lhs.add(*rhs).max,
                    });
                }
            }
            ("conditional", _, [_, if_true, if_false, ..]) => {
                if let [cond, true_cost, false_cost, ..] = arg_costs {
                    let size = self
                        .node_size_or_unknown(if_true)
                        .union(self.node_size_or_unknown(if_false));
                    let entry = union_entries(
                        if_true.expr.and_then(|x| self.compute_entry_size(x)),
                        if_false.expr.and_then(|x| self.compute_entry_size(x)),
                    );
                    if let Some(entry) = entry {
                        self.entry_sizes.insert(e.id, entry);
                    }
                    return CallEstimate::sized(cond.add(true_cost.union(*false_cost)), size);
                }
            }
            ("add_string" | "add_bytes" | "add_list", _, [lhs, rhs]) => {
                let size = self
                    .node_size_or_unknown(lhs)
                    .add(self.node_size_or_unknown(rhs));
                let entry = union_entries(
                    lhs.expr.and_then(|x| self.compute_entry_size(x)),
                    rhs.expr.and_then(|x| self.compute_entry_size(x)),
                );
                if let Some(entry) = entry {
                    self.entry_sizes.insert(e.id, entry);
                }
                return if overload == "add_list" {
                    // Concatenating lists is O(1); it is priced here to track the size.
                    CallEstimate::sized(CostEstimate::fixed(1).add(arg_sum), size)
                } else {
                    CallEstimate::sized(traversal(size).add(arg_sum), size)
                };
            }
            (
                "less_string"
                | "greater_string"
                | "less_equals_string"
                | "greater_equals_string"
                | "less_bytes"
                | "greater_bytes"
                | "less_equals_bytes"
                | "greater_equals_bytes"
                | "equals"
                | "not_equals",
                _,
                [lhs, rhs, ..],
            ) => {
                // Comparing stops at the shorter side; scalars (size 1) cost 1.
                let smallest_max = self
                    .node_size_or_unknown(lhs)
                    .max
                    .min(self.node_size_or_unknown(rhs).max);
                let cost = CostEstimate {
                    min: u64::from(smallest_max > 0),
                    max: smallest_max,
                };
                return CallEstimate::cost(
                    cost.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
                        .add(arg_sum),
                );
            }
            _ => {}
        }
        // Everything else is O(1): about one base unit (50ns) per call.
        CallEstimate::cost(CostEstimate::fixed(1).add(arg_sum))
    }

    /// cel-go's `sizeOrUnknown` of a node: only its computed size counts.
    fn node_size_or_unknown(&self, n: &Node<'_>) -> SizeEstimate {
        n.computed.unwrap_or(UNKNOWN_SIZE)
    }

    /// The estimators extension libraries register for their overloads
    /// (`checker.OverloadCostEstimate`), which win over every other: the sets
    /// extension, and the lists extension from its version 3 (Kubernetes enables it
    /// since 1.34).
    fn extension_cost(
        &self,
        overload: &str,
        target: Option<&Node<'c>>,
        args: &[Node<'c>],
    ) -> Option<CallEstimate> {
        let call = CostEstimate::fixed(1);
        let sets = |factor: f64| -> Option<CallEstimate> {
            let [a, b] = args else { return None };
            let cost = self
                .node_size(a)
                .multiply(self.node_size(b))
                .multiply_by_cost_factor(factor)
                .add(call);
            Some(CallEstimate::cost(cost))
        };
        // The lists extension's calls that allocate a new list: `size` elements
        // handled at `factor` each, plus the call and the list.
        let allocating = |factor: f64, size: SizeEstimate| {
            let cost = size
                .multiply_by_cost_factor(factor)
                .add(call)
                .add(CostEstimate::fixed(LIST_CREATE_BASE_COST));
            Some(CallEstimate::sized(cost, size))
        };
        let sort = |n: &Node<'_>, elem: &str| {
            let sz = self.node_size(n);
            let mut factor = 2.0;
            if elem == "string" || elem == "bytes" {
                factor += STRING_TRAVERSAL_COST_FACTOR;
            }
            allocating(factor, sz.multiply(sz))
        };
        match overload {
            "list_sets_contains_list" | "list_sets_intersects_list" => sets(1.0),
            // Equivalence may need both containments: twice the comparisons.
            "list_sets_equivalent_list" => sets(2.0),
            "list_slice" => {
                let (Some(t), [start, end]) = (target, args) else {
                    return None;
                };
                let sz = self.node_size(t);
                let start = literal_uint(start, 0);
                let end = literal_uint(end, sz.max);
                // Go's unsigned subtraction wraps when the start is past the end.
                allocating(1.0, SizeEstimate::fixed(end.wrapping_sub(start)))
            }
            "lists_range" => {
                let (None, [n]) = (target, args) else {
                    return None;
                };
                allocating(1.0, SizeEstimate::fixed(literal_uint(n, u64::MAX)))
            }
            "list_reverse" => {
                let (Some(t), []) = (target, args) else {
                    return None;
                };
                allocating(1.0, self.node_size(t))
            }
            "list_flatten" | "list_flatten_int" => {
                let t = target?;
                let depth = match args {
                    [] => 1,
                    [d] => literal_uint(d, u64::MAX),
                    _ => return None,
                };
                allocating(depth as f64, self.node_size(t))
            }
            "list_distinct" => {
                let (Some(t), []) = (target, args) else {
                    return None;
                };
                let sz = self.node_size(t);
                allocating(2.0, sz.multiply(sz))
            }
            _ => {
                let elem = overload.strip_prefix("list_")?;
                if let Some(elem) = elem.strip_suffix("_sortByAssociatedKeys") {
                    let (Some(_), [keys]) = (target, args) else {
                        return None;
                    };
                    return SORTABLE.contains(&elem).then(|| sort(keys, elem)).flatten();
                }
                let elem = elem.strip_suffix("_sort")?;
                let (Some(t), []) = (target, args) else {
                    return None;
                };
                SORTABLE.contains(&elem).then(|| sort(t, elem)).flatten()
            }
        }
    }

    /// Kubernetes' `library.CostEstimator.EstimateCallCost`, which prices calls by
    /// their function's name (the overload only tells a few apart). Its sizes come
    /// from the node's computed size, else the schema.
    fn kubernetes_cost(
        &self,
        function: &str,
        overload: &str,
        target: Option<&Node<'c>>,
        args: &[Node<'c>],
    ) -> Option<CallEstimate> {
        let fixed = |n| Some(CallEstimate::cost(CostEstimate::fixed(n)));
        let traversal = |size: SizeEstimate, factor: f64| size.multiply_by_cost_factor(factor);
        let t = STRING_TRAVERSAL_COST_FACTOR;
        match function {
            // An authorization check: priced so that only two fit in one expression.
            "check" => fixed(350_000),
            "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace"
            | "name" | "allowed" | "reason" | "error" | "errored" => fixed(1),
            "fieldSelector" | "labelSelector" => match args {
                [a] => Some(CallEstimate::cost(selector_cost(self.node_size(a)))),
                _ => None,
            },
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
                let target = target?;
                // One comparison per element, plus a traversal of each string or bytes.
                let mut el_cost = CostEstimate::fixed(1);
                if let Some(el) = self.element_node(target) {
                    if matches!(el.ty, Ty::String | Ty::Bytes) {
                        el_cost = el_cost.add(traversal(self.node_size(&el), t));
                    }
                    return Some(CallEstimate::cost(
                        self.node_size(target).multiply_by_cost(el_cost),
                    ));
                }
                if function == "includes" {
                    // A dyn receiver may be a list: n comparisons of 1.
                    return Some(CallEstimate::cost(
                        self.node_size(target).multiply_by_cost(el_cost),
                    ));
                }
                // A string receiver (`indexOf`, `lastIndexOf`).
                Some(CallEstimate::cost(traversal(self.node_size(target), t)))
            }
            "url" | "jsonpatch.escapeKey" => match args {
                [a] => {
                    let sz = self.node_size(a);
                    Some(CallEstimate::sized(traversal(sz, t), sz))
                }
                _ => None,
            },
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let sz = self.node_size(target?);
                Some(CallEstimate::sized(traversal(sz, t), sz))
            }
            "replace" => {
                let (Some(target), [from, to, ..]) = (target, args) else {
                    return None;
                };
                let sz = self.node_size(target);
                let from = self.node_size(from);
                let to = self.node_size(to);
                Some(CallEstimate::sized(
                    traversal(sz, 2.0 * t),
                    replace_size(sz, from, to),
                ))
            }
            "split" => {
                let sz = self.node_size(target?);
                // At worst (an empty separator) every character is an element, unless
                // a literal limit says fewer.
                let mut max = sz.max;
                if let Some(Expr::Literal(LiteralValue::Int(n))) =
                    args.get(1).and_then(|a| a.expr).map(|x| &x.expr)
                {
                    // Go's `uint64(int64)`: a negative limit wraps.
                    max = *n.inner() as u64;
                }
                Some(CallEstimate::sized(
                    traversal(sz, 2.0 * t),
                    SizeEstimate { min: 0, max },
                ))
            }
            "join" => {
                let target = target?;
                let list = self.node_size(target);
                let mut sz = SizeEstimate::default();
                if let Some(el) = self.element_node(target) {
                    sz = list.multiply(self.node_size(&el));
                }
                if let Some(sep) = args.first() {
                    let separators = SizeEstimate {
                        min: list.min.saturating_sub(1),
                        max: list.max.saturating_sub(1),
                    };
                    sz = sz.add(self.node_size(sep).multiply(separators));
                }
                Some(CallEstimate::sized(traversal(sz, t), sz))
            }
            "find" | "findAll" => {
                let (Some(target), [re, ..]) = (target, args) else {
                    return None;
                };
                let sz = self.node_size(target);
                let str_cost = traversal(sz.add(SizeEstimate::fixed(1)), t);
                let regex_cost = traversal(self.node_size(re), REGEX_STRING_LENGTH_COST_FACTOR);
                // At worst every character is a match of its own.
                Some(CallEstimate::sized(
                    str_cost.multiply(regex_cost),
                    SizeEstimate {
                        min: 0,
                        max: sz.max,
                    },
                ))
            }
            "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver" => {
                let a = args.first()?;
                Some(CallEstimate::cost(traversal(self.node_size(a), t)))
            }
            "ip" => {
                if overload == "cidr_ip" {
                    // A CIDR's address is a field read.
                    return fixed(1);
                }
                let a = args.first()?;
                Some(CallEstimate::cost(traversal(self.node_size(a), t)))
            }
            // Parsed, then compared with the original: two traversals.
            "ip.isCanonical" => {
                let a = args.first()?;
                Some(CallEstimate::cost(traversal(self.node_size(a), 2.0 * t)))
            }
            "masked"
            | "prefixLength"
            | "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast" => fixed(1),
            "containsIP" | "containsCIDR" => {
                let a = args.first()?;
                // Two byte strings of an IPv4 (4) or IPv6 (16) address compared.
                let ip = SizeEstimate { min: 4, max: 16 };
                let mut cost = traversal(ip.add(ip), t);
                if function == "containsCIDR" {
                    // The base CIDR is masked and its bits compared too.
                    cost = cost.add(traversal(ip, t)).add(CostEstimate::fixed(1));
                }
                if overload == "cidr_contains_ip_string" || overload == "cidr_contains_cidr_string"
                {
                    // A string argument is parsed first.
                    cost = cost.add(self.node_size(a).as_cost().multiply_by_cost_factor(t));
                }
                Some(CallEstimate::cost(cost))
            }
            "validate" => {
                let a = args.first()?;
                // The named format's regex is not known here: the longest is assumed.
                let cost = traversal(self.node_size(a), t).multiply_by_cost_factor(
                    MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
                );
                Some(CallEstimate::cost(cost))
            }
            "format.named" => fixed(1),
            "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan"
            | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor" | "patch" => fixed(1),
            "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
                fixed(1)
            }
            "_==_" => {
                let [lhs, rhs] = args else { return None };
                if lhs.ty != rhs.ty {
                    return None;
                }
                match lhs.ty {
                    Ty::Opaque("net.IP" | "net.CIDR", _) => fixed(1),
                    Ty::Named(name) => match *name {
                        "kubernetes.Quantity"
                        | "kubernetes.Semver"
                        | "kubernetes.authorization.Authorizer"
                        | "kubernetes.authorization.PathCheck"
                        | "kubernetes.authorization.GroupCheck"
                        | "kubernetes.authorization.ResourceCheck"
                        | "kubernetes.authorization.Decision" => fixed(1),
                        "kubernetes.NamedFormat" => Some(CallEstimate::cost(
                            CostEstimate {
                                min: 1,
                                max: MAX_FORMAT_SIZE,
                            }
                            .multiply_by_cost_factor(t),
                        )),
                        "kubernetes.URL" => {
                            // Kubernetes reads the right side's size twice (sic).
                            let size = match rhs.computed {
                                Some(r) => r.union(r),
                                None => SizeEstimate::fixed(1),
                            };
                            Some(CallEstimate::cost(
                                CostEstimate {
                                    min: 1,
                                    max: size.max,
                                }
                                .multiply_by_cost_factor(t),
                            ))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The element types the lists extension sorts, by the names in its overload ids.
const SORTABLE: &[&str] = &[
    "int",
    "uint",
    "double",
    "bool",
    "google.protobuf.Duration",
    "google.protobuf.Timestamp",
    "string",
    "bytes",
];

/// The lists extension's `nodeAsUintValue`: an int literal's value (0 if negative),
/// else `default`.
fn literal_uint(n: &Node<'_>, default: u64) -> u64 {
    match n.expr.map(|e| &e.expr) {
        Some(Expr::Literal(LiteralValue::Int(i))) => u64::try_from(*i.inner()).unwrap_or(0),
        _ => default,
    }
}

/// Kubernetes' `selectorCostEstimate`: parsing a label or field selector of `len`
/// characters, at most one requirement (a struct and a slice of values) per 2 of them.
fn selector_cost(len: SizeEstimate) -> CostEstimate {
    let parse = len.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
    let requirements = len.multiply_by_cost_factor(0.5);
    let per_requirement = (LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64;
    CostEstimate::fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirements.multiply_by_cost_factor(per_requirement))
}

/// The size of `s.replace(from, to)` in Kubernetes' estimate: the most replacements
/// of the shortest `from` by the longest `to`, and the fewest of the longest by the
/// shortest.
fn replace_size(sz: SizeEstimate, from: SizeEstimate, to: SizeEstimate) -> SizeEstimate {
    let mut count = SizeEstimate::default();
    let mut retained = SizeEstimate::default();
    if from.min == 0 {
        // An empty `from` is replaced around every character.
        count.max = if sz.max < u64::MAX {
            sz.max + 1
        } else {
            sz.max
        };
        retained.max = sz.max;
    } else if to.max <= from.min {
        // The result is no longer than the input.
        retained.max = sz.max;
    } else {
        count.max = go_f64_to_u64((sz.max as f64 / from.min as f64).ceil());
    }
    if from.max == 0 {
        count.min = if sz.min < u64::MAX {
            sz.min + 1
        } else {
            sz.min
        };
        retained.min = sz.min;
    } else if from.max <= to.min {
        // The result is no shorter than the input.
        retained.min = sz.min;
    } else {
        count.min = go_f64_to_u64((sz.min as f64 / from.max as f64).ceil());
    }
    count.multiply(to).add(retained)
}

/// `computeExprSize`: the exact size of a literal, list or map written in the rule.
fn expr_size(e: &IdedExpr) -> Option<SizeEstimate> {
    let n = match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => s.inner().chars().count() as u64,
        Expr::Literal(LiteralValue::Bytes(b)) => b.inner().len() as u64,
        Expr::Literal(_) => 1,
        Expr::List(l) => l.elements.len() as u64,
        Expr::Map(m) => m.entries.len() as u64,
        _ => return None,
    };
    Some(SizeEstimate::fixed(n))
}

/// `isBind`: `cel.bind` expands to a comprehension over an empty list that never
/// loops, with its variable as the accumulator.
fn is_bind(comp: &ComprehensionExpr) -> bool {
    matches!(&comp.iter_range.expr, Expr::List(l) if l.elements.is_empty())
        && matches!(&comp.loop_cond.expr, Expr::Literal(LiteralValue::Boolean(b)) if !*b.inner())
        && comp.accu_var != ACCUMULATOR_NAME
}

#[cfg(test)]
mod tests {
    use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};

    use super::super::decl::Decl;
    use super::super::ty::{Checked, Ty};
    use super::*;
    use crate::schema::Schema;

    fn decl(schema: serde_json::Value) -> Decl {
        let s = Schema::compile(&schema, "s", &mut Vec::new());
        Decl::of(&s, false).expect("declarable")
    }

    /// A stand-in for the type checker, good for the few constructs these tests use:
    /// it types `self` by its schema node, comprehension variables by their range, and
    /// gives calls the overload ids cel-go's checker would.
    struct Typer<'a> {
        this: &'a Decl,
        checked: Checked<'a>,
        scopes: Vec<(String, Ty<'a>)>,
    }

    fn typed<'a>(expr: &IdedExpr, this: &'a Decl) -> Checked<'a> {
        let mut t = Typer {
            this,
            checked: Checked::default(),
            scopes: Vec::new(),
        };
        t.ty(expr);
        t.checked
    }

    fn elem<'a>(t: &Ty<'a>) -> Ty<'a> {
        match t {
            Ty::List(e) | Ty::Map(e, _) => (**e).clone(),
            _ => Ty::Dyn,
        }
    }

    fn suffix(t: &Ty<'_>) -> &'static str {
        match t {
            Ty::Int => "int64",
            Ty::Uint => "uint64",
            Ty::Double => "double",
            Ty::String => "string",
            Ty::Bytes => "bytes",
            Ty::List(_) => "list",
            Ty::Map(..) => "map",
            _ => "dyn",
        }
    }

    impl<'a> Typer<'a> {
        fn ty(&mut self, e: &IdedExpr) -> Ty<'a> {
            let t = self.infer(e);
            self.checked.types.insert(e.id, t.clone());
            t
        }

        fn call(&mut self, id: u64, overload: &'static str, t: Ty<'a>) -> Ty<'a> {
            self.checked.overloads.insert(id, vec![overload]);
            t
        }

        fn infer(&mut self, e: &IdedExpr) -> Ty<'a> {
            match &e.expr {
                Expr::Literal(l) => match l {
                    LiteralValue::Boolean(_) => Ty::Bool,
                    LiteralValue::Int(_) => Ty::Int,
                    LiteralValue::UInt(_) => Ty::Uint,
                    LiteralValue::Double(_) => Ty::Double,
                    LiteralValue::String(_) => Ty::String,
                    LiteralValue::Bytes(_) => Ty::Bytes,
                    LiteralValue::Null => Ty::Null,
                },
                Expr::Ident(name) => match self.scopes.iter().rev().find(|(n, _)| n == name) {
                    Some((_, t)) => t.clone(),
                    None if name == "self" || name == "oldSelf" => Ty::of(self.this, "selfType0"),
                    None => Ty::Dyn,
                },
                Expr::Select(s) => {
                    let operand = self.ty(&s.operand);
                    match (s.test, operand) {
                        (true, _) => Ty::Bool,
                        (false, Ty::Object(name, fields)) => match fields.get(&s.field) {
                            Some(f) => Ty::of(f, &format!("{name}.{}", s.field)),
                            None => Ty::Dyn,
                        },
                        (false, Ty::Map(_, v)) => *v,
                        _ => Ty::Dyn,
                    }
                }
                Expr::List(l) => {
                    let mut t = Ty::Dyn;
                    for el in &l.elements {
                        t = self.ty(el);
                    }
                    Ty::List(Box::new(t))
                }
                Expr::Map(m) => {
                    let (mut k, mut v) = (Ty::Dyn, Ty::Dyn);
                    for entry in &m.entries {
                        if let EntryExpr::MapEntry(me) = &entry.expr {
                            k = self.ty(&me.key);
                            v = self.ty(&me.value);
                        }
                    }
                    Ty::Map(Box::new(k), Box::new(v))
                }
                Expr::Struct(_) | Expr::Unspecified => Ty::Dyn,
                Expr::Comprehension(c) => {
                    let range = self.ty(&c.iter_range);
                    let init = self.ty(&c.accu_init);
                    self.scopes.push((c.accu_var.clone(), init));
                    self.scopes.push((c.iter_var.clone(), elem(&range)));
                    self.ty(&c.loop_cond);
                    self.ty(&c.loop_step);
                    self.scopes.pop();
                    let result = self.ty(&c.result);
                    self.scopes.pop();
                    result
                }
                Expr::Call(call) => {
                    let ns = matches!(
                        call.target.as_deref().map(|t| &t.expr),
                        Some(Expr::Ident(ns)) if ns == "sets"
                    );
                    let target = match call.target.as_deref() {
                        Some(t) if !ns => Some(self.ty(t)),
                        _ => None,
                    };
                    let args: Vec<Ty<'a>> = call.args.iter().map(|a| self.ty(a)).collect();
                    let first = args.first().cloned().unwrap_or(Ty::Dyn);
                    let id = e.id;
                    match (call.func_name.as_str(), target) {
                        ("_&&_", None) => self.call(id, "logical_and", Ty::Bool),
                        ("_||_", None) => self.call(id, "logical_or", Ty::Bool),
                        ("!_", None) => self.call(id, "logical_not", Ty::Bool),
                        ("@not_strictly_false", None) => {
                            self.call(id, "not_strictly_false", Ty::Bool)
                        }
                        ("_==_", None) => self.call(id, "equals", Ty::Bool),
                        ("_!=_", None) => self.call(id, "not_equals", Ty::Bool),
                        ("_?_:_", None) => {
                            let t = args.get(1).cloned().unwrap_or(Ty::Dyn);
                            self.call(id, "conditional", t)
                        }
                        (op @ ("_<_" | "_<=_" | "_>_" | "_>=_"), None) => {
                            let name = match op {
                                "_<_" => "less",
                                "_<=_" => "less_equals",
                                "_>_" => "greater",
                                _ => "greater_equals",
                            };
                            let overload = format!("{name}_{}", suffix(&first));
                            self.call(id, Box::leak(overload.into_boxed_str()), Ty::Bool)
                        }
                        ("_+_", None) => {
                            let overload = format!("add_{}", suffix(&first));
                            let t = match (&first, args.get(1)) {
                                (Ty::List(e), Some(rhs)) if **e == Ty::Dyn => rhs.clone(),
                                _ => first.clone(),
                            };
                            self.call(id, Box::leak(overload.into_boxed_str()), t)
                        }
                        ("_[_]", None) => match &first {
                            Ty::List(e) => {
                                let t = (**e).clone();
                                self.call(id, "index_list", t)
                            }
                            Ty::Map(_, v) => {
                                let t = (**v).clone();
                                self.call(id, "index_map", t)
                            }
                            _ => Ty::Dyn,
                        },
                        ("@in", None) => match args.get(1) {
                            Some(Ty::Map(..)) => self.call(id, "in_map", Ty::Bool),
                            _ => self.call(id, "in_list", Ty::Bool),
                        },
                        ("size", Some(t)) => {
                            let overload = format!("{}_size", suffix(&t));
                            self.call(id, Box::leak(overload.into_boxed_str()), Ty::Int)
                        }
                        ("startsWith", Some(_)) => self.call(id, "starts_with_string", Ty::Bool),
                        ("endsWith", Some(_)) => self.call(id, "ends_with_string", Ty::Bool),
                        ("contains", Some(_)) => self.call(id, "contains_string", Ty::Bool),
                        ("matches", Some(_)) => self.call(id, "matches_string", Ty::Bool),
                        ("lowerAscii", Some(_)) => self.call(id, "string_lower_ascii", Ty::String),
                        ("join", Some(_)) => self.call(id, "list_join_string", Ty::String),
                        ("split", Some(_)) => {
                            self.call(id, "string_split_string", Ty::List(Box::new(Ty::String)))
                        }
                        ("isSorted", Some(_)) => self.call(id, "list_is_sorted", Ty::Bool),
                        ("contains", None) if ns => {
                            self.call(id, "list_sets_contains_list", Ty::Bool)
                        }
                        _ => Ty::Dyn,
                    }
                }
            }
        }
    }

    /// Parses `rule`, types it with [`Typer`] over `schema` and estimates it.
    fn cost_of(rule: &str, schema: serde_json::Value) -> CostEstimate {
        let env = super::super::library::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        let this = decl(schema);
        let checked = typed(program.expression(), &this);
        estimate(program.expression(), &checked, &this)
    }

    fn range(min: u64, max: u64) -> CostEstimate {
        CostEstimate { min, max }
    }

    fn strings(max_items: Option<i64>, max_length: Option<i64>) -> serde_json::Value {
        let mut items = serde_json::json!({"type": "string"});
        if let Some(n) = max_length {
            items["maxLength"] = n.into();
        }
        let mut list = serde_json::json!({"type": "array", "items": items});
        if let Some(n) = max_items {
            list["maxItems"] = n.into();
        }
        list
    }

    /// An unbounded list of strings has (3 MiB - 2) / (2 + 1) = 1048575 items (an
    /// empty string serializes as `""`, plus a comma), each up to 3 MiB - 2 = 3145726
    /// bytes.
    const UNBOUNDED_ITEMS: u64 = 1_048_575;

    #[test]
    fn arithmetic_saturates_and_rounds_up_as_cel_go() {
        assert_eq!(multiply_by_cost_factor(3_145_726, 0.1), 314_573);
        assert_eq!(multiply_by_cost_factor(3_145_727, 0.1), 314_573);
        assert_eq!(multiply_by_cost_factor(1, 0.1), 1);
        assert_eq!(multiply_by_cost_factor(0, 0.1), 0);
        assert_eq!(multiply_by_cost_factor(u64::MAX, 2.0), u64::MAX);
        assert_eq!(multiply_by_cost_factor(u64::MAX, 1.0), u64::MAX);
        let big = SizeEstimate::fixed(u64::MAX - 1);
        assert_eq!(big.add(SizeEstimate::fixed(5)).max, u64::MAX);
        assert_eq!(big.multiply(SizeEstimate::fixed(2)).max, u64::MAX);
        assert_eq!(
            SizeEstimate { min: 2, max: 5 }.multiply_by_cost(range(3, 7)),
            range(6, 35)
        );
        assert_eq!(range(1, 9).union(range(0, 3)), range(0, 9));
        assert_eq!(go_f64_to_u64(1e30), 1 << 63);
        assert_eq!(go_f64_to_u64(f64::NAN), 1 << 63);
        assert_eq!(go_f64_to_u64(12.0), 12);
    }

    #[test]
    fn cardinality_and_overflow_guard() {
        // An object serializing to at least 2 bytes, plus a comma: 3 MiB / 3.
        assert_eq!(max_cardinality(2), 1_048_576);
        assert_eq!(max_cardinality(-1), u64::MAX);
        assert_eq!(multiply_with_overflow_guard(0, u64::MAX), 0);
        assert_eq!(multiply_with_overflow_guard(2, u64::MAX), u64::MAX);
        assert_eq!(multiply_with_overflow_guard(3, 4), 12);
    }

    #[test]
    fn cost_error_messages_say_the_factor_as_the_real_server() {
        let tail = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
        let msg =
            |cost| cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT);
        assert_eq!(
            msg(12_000_000),
            format!("estimated rule cost exceeds budget by factor of 1.200000x {tail}")
        );
        assert_eq!(
            msg(15_000_000),
            format!("estimated rule cost exceeds budget by factor of 1.5x {tail}")
        );
        assert_eq!(
            msg(25_000_001),
            format!("estimated rule cost exceeds budget by factor of 2.5x {tail}")
        );
        assert_eq!(
            msg(1_000_000_001),
            format!("estimated rule cost exceeds budget by factor of more than 100x {tail}")
        );
        assert_eq!(
            cost_error_message("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", 160_000_000, STATIC_ESTIMATED_CRD_COST_LIMIT),
            format!("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.6x {tail}")
        );
        assert_eq!(
            msg(u64::MAX),
            format!("estimated rule cost exceeds budget by factor of more than 100x {tail}")
        );
    }

    /// `self.all(x, x.contains('a'))`, per element: the loop condition
    /// `@not_strictly_false(@result)` is 1 (call) + 1 (`@result`) = 2; the step
    /// `@result && x.contains('a')` is at least its left side (1) and at most that
    /// plus the right: `x` (1) plus `contains`, (size of x * 0.1, rounded up) times
    /// (1 * 0.1, rounded up = 1). Around the loop: `self` (1) and the result
    /// `@result` (1).
    #[test]
    fn contains_over_an_unbounded_list_of_unbounded_strings_is_far_over_budget() {
        // contains: ceil(3145726 * 0.1) = 314573; the step's max 1 + 1 + 314573 =
        // 314575; per element 314575 + 2 = 314577.
        let c = cost_of("self.all(x, x.contains('a'))", strings(None, None));
        assert_eq!(c, range(2, 2 + UNBOUNDED_ITEMS * 314_577));
        assert_eq!(c.max, 329_857_577_777);
        assert!(
            cost_error_message("estimated rule cost", c.max, STATIC_ESTIMATED_COST_LIMIT)
                .contains("more than 100x")
        );
    }

    #[test]
    fn contains_over_a_bounded_list_is_small() {
        // maxLength 20 counts 4 bytes a character: 80, ceil(80 * 0.1) = 8; the step's
        // max 1 + 1 + 8 = 10, per element 12, 10 elements.
        let c = cost_of("self.all(x, x.contains('a'))", strings(Some(10), Some(20)));
        assert_eq!(c, range(2, 2 + 10 * 12));
    }

    #[test]
    fn starts_with_costs_the_prefix_only() {
        // startsWith: ceil(1 * 0.1) = 1, with x: 2; the step's max 1 + 2 = 3, per
        // element 3 + 2 = 5.
        let unbounded = cost_of("self.all(x, x.startsWith('a'))", strings(None, None));
        assert_eq!(unbounded, range(2, 2 + UNBOUNDED_ITEMS * 5));
        assert_eq!(unbounded.max, 5_242_877);
        let bounded = cost_of(
            "self.all(x, x.startsWith('a'))",
            strings(Some(10), Some(20)),
        );
        assert_eq!(bounded, range(2, 2 + 10 * 5));
    }

    #[test]
    fn matches_is_string_times_regex() {
        // (size + 1) * 0.1 rounded up, times the 8-character pattern * 0.25 = 2, plus
        // `self` (1). Unbounded: ceil(3145727 * 0.1) = 314573 at most, ceil(0.1) = 1 at
        // least.
        let unbounded = cost_of(
            "self.matches('^[a-z]+$')",
            serde_json::json!({"type": "string"}),
        );
        assert_eq!(unbounded, range(1 + 2, 1 + 314_573 * 2));
        // maxLength 20: ceil(81 * 0.1) = 9.
        let bounded = cost_of(
            "self.matches('^[a-z]+$')",
            serde_json::json!({"type": "string", "maxLength": 20}),
        );
        assert_eq!(bounded, range(1 + 2, 1 + 9 * 2));
    }

    #[test]
    fn size_and_comparison_are_constant() {
        // `self` 1, `size` 1, `>` 1.
        let c = cost_of("self.size() > 0", strings(None, None));
        assert_eq!(c, range(3, 3));
    }

    #[test]
    fn string_equality_is_bounded_by_the_shorter_side() {
        // `self` (1) + `==`: {1, min(80, 3)} * 0.1 rounded up = {1, 1}.
        let schema = serde_json::json!({"type": "string", "maxLength": 20});
        assert_eq!(cost_of("self == 'abc'", schema.clone()), range(2, 2));
        // Both sides are sized from the schema: `oldSelf`'s path is walked from the
        // rule's node too. ceil(80 * 0.1) = 8, plus the two identifiers.
        assert_eq!(cost_of("self == oldSelf", schema), range(3, 10));
        let unbounded = serde_json::json!({"type": "string"});
        assert_eq!(cost_of("self == oldSelf", unbounded), range(3, 2 + 314_573));
    }

    #[test]
    fn nested_comprehensions_multiply() {
        let schema = serde_json::json!({"type": "array", "maxItems": 10, "items": {
            "type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 20}}});
        // Inner, per element: condition 2 + step at most 1 + (1 + ceil(80 * 0.1) = 9)
        // = 12; over at most 5 elements, plus `x` and `@result`: {2, 2 + 60 = 62}.
        // Outer step at most 1 + 62 = 63, per element 65, 10 elements: {2, 652}.
        let c = cost_of("self.all(x, x.all(y, y.contains('a')))", schema);
        assert_eq!(c, range(2, 2 + 10 * (2 + 1 + 2 + 60)));
    }

    #[test]
    fn fields_selects_and_presence_tests() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 10},
            "tags": {"type": "array", "maxItems": 4, "items": {"type": "string"}},
        }});
        // A presence test costs its operand only (Kubernetes prices the test at 0).
        assert_eq!(cost_of("has(self.name)", schema.clone()), range(1, 1));
        // `self.name`: 1 + 1 for selecting from an object; `contains`:
        // ceil(40 * 0.1) = 4 times ceil(2 * 0.1) = 1.
        assert_eq!(
            cost_of("self.name.contains('ab')", schema.clone()),
            range(2, 2 + 4)
        );
        // `in`: the list's size, at most 4, plus `'a'` (0) and `self.tags` (2).
        assert_eq!(cost_of("'a' in self.tags", schema.clone()), range(2, 2 + 4));
        // An index reads the element's schema: `self.tags[0]` is an unbounded string.
        // `self.tags` 2, `[0]` 1, `==` against a 1-character literal: ceil(0.1) = 1.
        assert_eq!(cost_of("self.tags[0] == 'a'", schema), range(4, 4));
    }

    #[test]
    fn kubernetes_and_extension_library_calls() {
        // `lowerAscii` traverses its receiver: ceil(3145726 * 0.1); its result has the
        // receiver's size, which bounds `==`'s comparison to the literal's 1.
        let s = serde_json::json!({"type": "string"});
        assert_eq!(
            cost_of("self.lowerAscii() == 'a'", s),
            range(1 + 1, 1 + 314_573 + 1)
        );
        // sets.contains: |self| * |['a']| = {0, 10} * 1, plus the call (1), plus its
        // arguments: `self` 1 and the list (10 + its element 0).
        let list = strings(Some(10), Some(5));
        assert_eq!(
            cost_of("sets.contains(self, ['a'])", list.clone()),
            range(1 + 1 + 10, 10 + 1 + 1 + 10)
        );
        // isSorted: each element compared (1) and traversed (ceil(20 * 0.1) = 2), at
        // most 10 of them, plus `self`.
        assert_eq!(cost_of("self.isSorted()", list), range(1, 1 + 10 * 3));
    }

    #[test]
    fn a_call_without_overloads_costs_nothing() {
        let env = super::super::library::env().expect("environment");
        let program = env.compile("self.startsWith('a')").expect("parses");
        let this = decl(serde_json::json!({"type": "string"}));
        let checked = Checked::default();
        assert_eq!(estimate(program.expression(), &checked, &this), range(0, 0));
    }

    #[test]
    fn a_comprehension_over_a_literal_is_sized_by_self() {
        // cel-go gives the variable of a range without a path the path `@items`, which
        // apiserver's size estimator cuts off and answers with `self`'s size: here
        // ceil(3145726 * 0.1) = 314573 for `x.contains('b')`, though `x` is `'a'`.
        let c = cost_of(
            "['a'].all(x, x.contains('b'))",
            serde_json::json!({"type": "string"}),
        );
        // List 10; per element: condition 2, step at most 1 + 1 + 314573; 1 element;
        // `@result` 1.
        assert_eq!(c, range(10 + 1 + 3, 10 + 1 + 2 + 314_575));
    }

    #[test]
    fn map_and_filter_results_are_sized_by_their_range() {
        // `self.filter(...)` has at most as many elements as `self` (10): `size()` of
        // it is constant, and `all` over it loops 10 times.
        let list = strings(Some(10), Some(20));
        // filter: `self` 1, `[]` 10, `@result` 1; per element: condition `true` 0,
        // step `?:` = startsWith (2) + max(`@result + [x]` = 1 + 1 + (10 + 1), `@result`
        // 1) = 2 + 13 = 15 at most, 2 + 1 at least.
        let filter = range(1 + 10 + 1, 1 + 10 + 1 + 10 * 15);
        // `size()` 1 and `== 0`: 1.
        assert_eq!(
            cost_of("self.filter(x, x.startsWith('a')).size() == 0", list),
            range(filter.min + 2, filter.max + 2)
        );
    }

    /// Compiles `rule` and types it with the real checker, then estimates it.
    fn checked_cost(rule: &str, schema: serde_json::Value, root: bool) -> CostEstimate {
        let env = super::super::library::env().expect("environment");
        let program = env.compile(rule).expect("parses");
        let s = Schema::compile(&schema, "s", &mut Vec::new());
        let this = Decl::of(&s, root).expect("declarable");
        let self_type = super::super::check::SelfType {
            decl: &this,
            optional_old_self: false,
        };
        let checked = super::super::check::check(&program, rule, self_type).expect("checks");
        estimate(program.expression(), &checked, &this)
    }

    #[test]
    fn the_checker_gives_the_overloads_the_estimate_keys_on() {
        let object = serde_json::json!({"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 10},
            "tags": {"type": "array", "maxItems": 4, "items": {"type": "string"}},
        }});
        let nested = serde_json::json!({"type": "array", "maxItems": 10, "items": {
            "type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 20}}});
        let string = serde_json::json!({"type": "string"});
        let bounded = serde_json::json!({"type": "string", "maxLength": 20});
        let cases = [
            ("self.all(x, x.contains('a'))", strings(None, None)),
            ("self.all(x, x.contains('a'))", strings(Some(10), Some(20))),
            ("self.all(x, x.startsWith('a'))", strings(None, None)),
            ("self.matches('^[a-z]+$')", string.clone()),
            ("self.matches('^[a-z]+$')", bounded.clone()),
            ("self.size() > 0", strings(None, None)),
            ("self == 'abc'", bounded.clone()),
            ("self == oldSelf", bounded),
            ("self.all(x, x.all(y, y.contains('a')))", nested),
            ("has(self.name)", object.clone()),
            ("self.name.contains('ab')", object.clone()),
            ("'a' in self.tags", object.clone()),
            ("self.tags[0] == 'a'", object),
            ("self.lowerAscii() == 'a'", string.clone()),
            ("sets.contains(self, ['a'])", strings(Some(10), Some(5))),
            ("self.isSorted()", strings(Some(10), Some(5))),
            ("['a'].all(x, x.contains('b'))", string),
            (
                "self.filter(x, x.startsWith('a')).size() == 0",
                strings(Some(10), Some(20)),
            ),
        ];
        for (rule, schema) in cases {
            assert_eq!(
                checked_cost(rule, schema.clone(), false),
                cost_of(rule, schema),
                "{rule}"
            );
        }
    }

    #[test]
    fn real_rules_end_to_end() {
        let c = checked_cost("self.all(x, x.contains('a'))", strings(None, None), false);
        assert_eq!(c.max, 329_857_577_777);
        assert!(
            cost_error_message("estimated rule cost", c.max, STATIC_ESTIMATED_COST_LIMIT)
                .contains("by factor of more than 100x")
        );
        // At a resource's root `metadata.name` is capped at 253 characters, 1012
        // bytes: `self` 1, two selects from objects 2, `contains`
        // ceil(1012 * 0.1) = 102 times 1.
        let root = serde_json::json!({"type": "object", "properties": {}});
        assert_eq!(
            checked_cost("self.metadata.name.contains('a')", root, true),
            range(3, 3 + 102)
        );
        // `quantity(self)`: `self` 1 and a traversal of up to 40 bytes, 4;
        // `quantity('1')`: ceil(0.1) = 1; `isGreaterThan` 1 plus its argument.
        let q = serde_json::json!({"type": "string", "maxLength": 10});
        assert_eq!(
            checked_cost("quantity(self).isGreaterThan(quantity('1'))", q, false),
            range(1 + 1 + 1, 5 + 1 + 1)
        );
        // A qualified function's namespace is no operand: `format.dns1123Label()` is
        // 1 (Kubernetes prices only `format.named`; the rest cost cel-go's default).
        // `validate`: its argument `self` 1, plus a traversal of `self`
        // (ceil(4 * 0.1) = 1) times the longest format regex's 128 * 0.25 = 32, at
        // most. Then `hasValue` 1 and `!` 1.
        let label = serde_json::json!({"type": "string", "maxLength": 1});
        assert_eq!(
            checked_cost(
                "!format.dns1123Label().validate(self).hasValue()",
                label,
                false
            ),
            range(1 + 1 + 1 + 1, 1 + (1 + 32) + 1 + 1)
        );
    }
}
