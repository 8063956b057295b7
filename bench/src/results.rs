//! The results model: one record per figure, and `results.json` on disk.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::BenchError;

/// Which side of a target a figure must stay on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// The figure must be at most the target.
    #[serde(rename = "<=")]
    AtMost,
    /// The figure must be at least the target.
    #[serde(rename = ">=")]
    AtLeast,
}

/// What a target applies to: the figure itself or its ratio to the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Of {
    /// The record's `value`.
    Value,
    /// The record's `ratio` (value / baseline_value).
    Ratio,
}

/// A goal set by the issue for one figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// Direction of the bound.
    pub op: Op,
    /// The bound.
    pub value: f64,
    /// Which number the bound applies to.
    pub of: Of,
}

impl Target {
    /// `value <= bound`.
    pub fn value_at_most(bound: f64) -> Self {
        Self {
            op: Op::AtMost,
            value: bound,
            of: Of::Value,
        }
    }
    /// `value >= bound`.
    pub fn value_at_least(bound: f64) -> Self {
        Self {
            op: Op::AtLeast,
            value: bound,
            of: Of::Value,
        }
    }
    /// `ratio <= bound`.
    pub fn ratio_at_most(bound: f64) -> Self {
        Self {
            op: Op::AtMost,
            value: bound,
            of: Of::Ratio,
        }
    }
    /// `ratio >= bound`.
    pub fn ratio_at_least(bound: f64) -> Self {
        Self {
            op: Op::AtLeast,
            value: bound,
            of: Of::Ratio,
        }
    }

    /// Short text such as `ratio <= 1.3`.
    pub fn describe(&self) -> String {
        let of = match self.of {
            Of::Value => "value",
            Of::Ratio => "ratio",
        };
        let op = match self.op {
            Op::AtMost => "<=",
            Op::AtLeast => ">=",
        };
        format!("{of} {op} {}", crate::table::number(self.value))
    }
}

/// One measured figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The section that measured it (`sync`, `memory`, ...).
    pub section: String,
    /// What was measured, e.g. `sync.ours.n10000`.
    pub name: String,
    /// The figure; `None` when the measurement was skipped.
    pub value: Option<f64>,
    /// Unit of `value` and `baseline_value`.
    pub unit: String,
    /// What it is compared with, e.g. `kube-rs`.
    pub baseline: Option<String>,
    /// The baseline's figure in the same run.
    pub baseline_value: Option<f64>,
    /// `value / baseline_value`.
    pub ratio: Option<f64>,
    /// The issue's goal for this figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// Whether the target is met; `None` without a target or a number to judge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub met: Option<bool>,
    /// Why a figure is missing, or what it depends on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Samples over time behind the figure, for charts (e.g. the soak's heap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
}

/// A time series: `[seconds, value]` points of one quantity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// What is plotted, e.g. `heap`.
    pub label: String,
    /// The unit of the values.
    pub unit: String,
    /// `[seconds since the start, value]`, in time order.
    pub points: Vec<[f64; 2]>,
}

impl Series {
    /// A series of `points`.
    pub fn new(label: &str, unit: &str, points: Vec<[f64; 2]>) -> Self {
        Self {
            label: label.to_owned(),
            unit: unit.to_owned(),
            points,
        }
    }
}

impl Record {
    /// A figure without baseline or target.
    pub fn new(section: &str, name: impl Into<String>, value: f64, unit: &str) -> Self {
        Self {
            section: section.to_owned(),
            name: name.into(),
            value: Some(value),
            unit: unit.to_owned(),
            baseline: None,
            baseline_value: None,
            ratio: None,
            target: None,
            met: None,
            note: None,
            series: None,
        }
    }

    /// A figure that was not measured, and why.
    pub fn skipped(
        section: &str,
        name: impl Into<String>,
        unit: &str,
        why: impl Into<String>,
    ) -> Self {
        Self {
            value: None,
            note: Some(why.into()),
            ..Self::new(section, name, 0.0, unit)
        }
    }

    /// Compares with `baseline` measured at `baseline_value` in the same run.
    pub fn against(mut self, baseline: &str, baseline_value: f64) -> Self {
        self.baseline = Some(baseline.to_owned());
        self.baseline_value = Some(baseline_value);
        self.ratio = match self.value {
            Some(v) if baseline_value != 0.0 => Some(v / baseline_value),
            _ => None,
        };
        self.judge()
    }

    /// Sets the issue's goal.
    pub fn target(mut self, target: Target) -> Self {
        self.target = Some(target);
        self.judge()
    }

    /// Adds an explanation.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Attaches the samples behind the figure.
    pub fn with_series(mut self, series: Series) -> Self {
        self.series = Some(series);
        self
    }

    fn judge(mut self) -> Self {
        self.met = self.target.and_then(|t| {
            let x = match t.of {
                Of::Value => self.value,
                Of::Ratio => self.ratio,
            }?;
            Some(match t.op {
                Op::AtMost => x <= t.value,
                Op::AtLeast => x >= t.value,
            })
        });
        self
    }
}

/// Writes `records` to `path` as a JSON array, replacing any earlier records of the same
/// sections and keeping the others (so one section can be re-run alone); returns what it wrote.
pub fn write_merged(path: &Path, records: &[Record]) -> Result<Vec<Record>, BenchError> {
    let mut all: Vec<Record> = match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            tracing::warn!(path = %path.display(), error = %e, "earlier results unreadable; replacing them");
            Vec::new()
        }),
        Err(_) => Vec::new(),
    };
    all.retain(|old| !records.iter().any(|new| new.section == old.section));
    all.extend_from_slice(records);
    let json = serde_json::to_vec_pretty(&all).map_err(|e| BenchError::Encode {
        what: "results".into(),
        source: e,
    })?;
    crate::output::write_file(path, &json)?;
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_target_is_judged() {
        let r = Record::new("sync", "a", 2.0, "s")
            .against("kube-rs", 4.0)
            .target(Target::ratio_at_most(0.5));
        assert_eq!(r.ratio, Some(0.5));
        assert_eq!(r.met, Some(true));
        let r = Record::new("sync", "a", 3.0, "s")
            .against("kube-rs", 4.0)
            .target(Target::ratio_at_most(0.5));
        assert_eq!(r.met, Some(false));
    }

    #[test]
    fn skipped_figure_is_not_judged() {
        let r =
            Record::skipped("codegen", "build", "s", "quick").target(Target::value_at_most(1.0));
        assert_eq!(r.met, None);
        assert_eq!(r.value, None);
    }

    #[test]
    fn json_shape_matches_the_issue() {
        let r = Record::new("watch", "w", 250000.0, "events/s")
            .against("kube-rs", 100000.0)
            .target(Target::ratio_at_least(2.0));
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["target"]["op"], ">=");
        assert_eq!(v["target"]["of"], "ratio");
        assert_eq!(v["met"], true);
        assert_eq!(v["baseline"], "kube-rs");
        assert_eq!(v["ratio"], 2.5);
    }

    #[test]
    fn merge_replaces_only_rerun_sections() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        write_merged(
            &path,
            &[
                Record::new("sync", "a", 1.0, "s"),
                Record::new("memory", "b", 2.0, "B"),
            ],
        )
        .unwrap();
        let merged = write_merged(&path, &[Record::new("sync", "c", 3.0, "s")]).unwrap();
        let all: Vec<Record> = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let names: Vec<&str> = all.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["b", "c"]);
        assert_eq!(merged.len(), all.len());
    }
}
