//! The stdout table.

use crate::results::Record;

/// A number with few significant digits and no float noise (`0.0123`, `12.3`, `123456`).
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if a >= 1000.0 {
        format!("{x:.0}")
    } else if a >= 100.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// Renders `records` as an aligned text table.
pub fn render(records: &[Record]) -> String {
    let header = [
        "figure",
        "value",
        "unit",
        "baseline",
        "baseline value",
        "ratio",
        "target",
        "met",
    ];
    let rows: Vec<[String; 8]> = records
        .iter()
        .map(|r| {
            [
                r.name.clone(),
                r.value.map(number).unwrap_or_else(|| "skipped".into()),
                r.unit.clone(),
                r.baseline.clone().unwrap_or_default(),
                r.baseline_value.map(number).unwrap_or_default(),
                r.ratio
                    .map(|x| format!("{}x", number(x)))
                    .unwrap_or_default(),
                r.target.map(|t| t.describe()).unwrap_or_default(),
                match r.met {
                    Some(true) => "yes".into(),
                    Some(false) => "NO".into(),
                    None => String::new(),
                },
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: &[String], out: &mut String| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(parts.join(" | ").trim_end());
        out.push('\n');
    };
    line(&header.map(String::from), &mut out);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&rule.join("-|-"));
    out.push('\n');
    for row in &rows {
        line(row, &mut out);
    }
    for r in records.iter().filter(|r| r.note.is_some()) {
        out.push_str(&format!(
            "note {}: {}\n",
            r.name,
            r.note.as_deref().unwrap_or_default()
        ));
    }
    out
}

/// Renders `records` as a Markdown table (for the README section).
pub fn markdown(records: &[Record]) -> String {
    let mut out = String::from(
        "| figure | value | baseline | ratio | target | met |\n|---|---|---|---|---|---|\n",
    );
    for r in records {
        let value = r
            .value
            .map(|v| format!("{} {}", number(v), r.unit))
            .unwrap_or_else(|| "skipped".into());
        let baseline = match (&r.baseline, r.baseline_value) {
            (Some(b), Some(v)) => format!("{b}: {} {}", number(v), r.unit),
            _ => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.name,
            value,
            baseline,
            r.ratio
                .map(|x| format!("{}x", number(x)))
                .unwrap_or_default(),
            r.target.map(|t| t.describe()).unwrap_or_default(),
            match r.met {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "",
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Target;

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(0.12345), "0.123");
        assert_eq!(number(12.345), "12.35");
        assert_eq!(number(123.45), "123.5");
        assert_eq!(number(123456.7), "123457");
    }

    #[test]
    fn table_has_one_line_per_record_and_flags_misses() {
        let records = [
            Record::new("sync", "sync.ours", 2.0, "s")
                .against("kube-rs", 1.0)
                .target(Target::ratio_at_most(0.5)),
            Record::skipped("codegen", "build", "s", "quick mode"),
        ];
        let t = render(&records);
        assert_eq!(t.lines().count(), 2 + 2 + 1);
        assert!(t.contains("NO"));
        assert!(t.contains("skipped"));
        assert!(t.contains("note build: quick mode"));
        let lens: Vec<usize> = t.lines().take(4).map(|l| l.find('|').unwrap()).collect();
        assert!(
            lens.windows(2).all(|w| w[0] == w[1]),
            "columns aligned: {t}"
        );
    }
}
