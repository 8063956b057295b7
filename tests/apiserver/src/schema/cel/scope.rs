//! Where a schema node sits, as the CRD validator's CEL context tracks it while it
//! walks a schema (`CELSchemaContext`): how many times the node's rules can run on one
//! object, whether old and new values can still be correlated there (transition
//! rules need that), and the estimated cost of every rule of the schema together.

use serde_json::{Map, Value};

use super::super::field::FieldError;
use super::estimate::{
    cost_error_message, multiply_with_overflow_guard, STATIC_ESTIMATED_CRD_COST_LIMIT,
};

/// The context of one schema node.
#[derive(Clone, Debug)]
pub(crate) struct RuleScope {
    /// Whether the node is the schema's root (the resource itself).
    pub(super) root: bool,
    /// `MaxCardinality`: how many times the node can occur in one object; none when
    /// an ancestor list or map has no `maxItems`/`maxProperties`.
    pub(super) cardinality: Option<u64>,
    /// The path of the highest ancestor below which old values cannot be correlated
    /// with new ones (a list that is not a `map` list, an atomic map), where rules may
    /// not read `oldSelf`.
    pub(super) uncorrelatable: Option<String>,
}

impl RuleScope {
    /// The schema's root: one occurrence, correlatable.
    pub(crate) fn root() -> Self {
        RuleScope {
            root: true,
            cardinality: Some(1),
            uncorrelatable: None,
        }
    }

    /// The scope of a property of the object `parent` (at `path`).
    pub(crate) fn property(&self, parent: &Map<String, Value>, path: &str) -> Self {
        let atomic_map =
            parent.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
        self.child(parent, atomic_map.then_some(path))
    }

    /// The scope of the `additionalProperties` of the object `parent`.
    pub(crate) fn additional_properties(&self, parent: &Map<String, Value>) -> Self {
        self.child(parent, None)
    }

    /// The scope of the `items` of the array `parent` (at `path`): only the items of a
    /// `map` list correlate.
    pub(crate) fn items(&self, parent: &Map<String, Value>, path: &str) -> Self {
        let map_list = parent.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map");
        self.child(parent, (!map_list).then_some(path))
    }

    /// The scope of an `allOf`/`anyOf`/`oneOf`/`not` branch, where no rule may be.
    pub(crate) fn branch(&self) -> Self {
        RuleScope {
            root: false,
            ..self.clone()
        }
    }

    fn child(&self, parent: &Map<String, Value>, uncorrelatable: Option<&str>) -> Self {
        RuleScope {
            root: false,
            cardinality: self
                .cardinality
                .zip(max_elements(parent))
                .map(|(c, n)| multiply_with_overflow_guard(c, n)),
            uncorrelatable: self
                .uncorrelatable
                .clone()
                .or_else(|| uncorrelatable.map(str::to_owned)),
        }
    }
}

/// `extractMaxElements`: how many children a node has at most; none: unbounded.
fn max_elements(schema: &Map<String, Value>) -> Option<u64> {
    let bound = |key: &str| {
        schema
            .get(key)
            .and_then(Value::as_i64)
            .map(|n| n.max(0).unsigned_abs())
    };
    match schema.get("type").and_then(Value::as_str) {
        Some("object") if schema.contains_key("additionalProperties") => bound("maxProperties"),
        Some("array") => bound("maxItems"),
        _ => Some(1),
    }
}

/// `TotalCost`: the estimated costs of a schema's rules added up, and the four most
/// expensive among those above 1% of the schema's limit.
#[derive(Debug, Default)]
pub(crate) struct TotalCost {
    total: u64,
    most_expensive: Vec<(String, u64)>,
}

impl TotalCost {
    /// `ObserveExpressionCost`.
    pub(super) fn observe(&mut self, path: String, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive
            .sort_by_key(|(_, c)| std::cmp::Reverse(*c));
        self.most_expensive.truncate(4);
    }

    /// The errors of a schema (at `path`) whose rules together cost too much.
    pub(crate) fn errors(&self, path: &str) -> Vec<FieldError> {
        if self.total <= STATIC_ESTIMATED_CRD_COST_LIMIT {
            return Vec::new();
        }
        let mut out: Vec<FieldError> = self
            .most_expensive
            .iter()
            .map(|(p, _)| {
                FieldError::forbidden(p.clone(), "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema")
            })
            .collect();
        out.push(FieldError::forbidden(
            path.to_owned(),
            cost_error_message(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                self.total,
                STATIC_ESTIMATED_CRD_COST_LIMIT,
            ),
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{RuleScope, TotalCost};

    fn object(v: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn cardinality_multiplies_down_bounded_lists_and_stops_at_unbounded_ones() {
        let root = RuleScope::root();
        let bounded = object(serde_json::json!({"type": "array", "maxItems": 10}));
        let items = root.items(&bounded, "s.list");
        assert_eq!(items.cardinality, Some(10));
        assert_eq!(items.uncorrelatable.as_deref(), Some("s.list"));
        let map = object(
            serde_json::json!({"type": "object", "additionalProperties": {}, "maxProperties": 3}),
        );
        assert_eq!(items.additional_properties(&map).cardinality, Some(30));
        let unbounded =
            object(serde_json::json!({"type": "array", "x-kubernetes-list-type": "map"}));
        let inner = items.items(&unbounded, "s.list.items.inner");
        assert_eq!(inner.cardinality, None);
        assert_eq!(
            inner.uncorrelatable.as_deref(),
            Some("s.list"),
            "the highest path is kept"
        );
        let plain = object(serde_json::json!({"type": "object"}));
        assert_eq!(root.property(&plain, "s").cardinality, Some(1));
        assert_eq!(root.items(&unbounded, "s").uncorrelatable, None);
    }

    #[test]
    fn a_schema_over_its_total_names_its_most_expensive_rules() {
        let mut total = TotalCost::default();
        for i in 0..6u64 {
            total.observe(format!("r{i}"), 20_000_000 + i);
        }
        total.observe("cheap".to_owned(), 10);
        let errs = total.errors("spec.validation.openAPIV3Schema");
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["r5", "r4", "r3", "r2", "spec.validation.openAPIV3Schema"]
        );
        assert!(TotalCost::default().errors("x").is_empty());
    }
}
