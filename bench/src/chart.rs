//! One SVG bar chart per section, hand-written to keep the dependency tree lean.
//!
//! A chart shows the comparisons: every figure measured against a baseline of the same
//! run. Figures have different units, so each row is scaled on its own: our bar and the
//! baseline's bar share one scale per row, and the text gives the numbers. Figures without
//! a baseline are in the table only.

use crate::results::Record;
use crate::table::number;

const LABEL_W: f64 = 300.0;
const BAR_W: f64 = 420.0;
const TEXT_W: f64 = 260.0;
const ROW_H: f64 = 44.0;
const BAR_H: f64 = 16.0;
const TOP: f64 = 40.0;
/// The legend sits right of the title's room.
const LEGEND_X: f64 = LABEL_W + BAR_W;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart for one section, or `None` when it has no figure with a baseline.
pub fn section_svg(title: &str, records: &[Record]) -> Option<String> {
    let rows: Vec<&Record> = records
        .iter()
        .filter(|r| r.value.is_some() && r.baseline_value.is_some())
        .collect();
    if rows.is_empty() {
        return None;
    }
    let width = LABEL_W + BAR_W + TEXT_W;
    let height = TOP + ROW_H * rows.len() as f64 + 30.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{}</text>\n\
         <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"#2b6cb0\"/>\
         <text x=\"{}\" y=\"{}\">ours</text>\n\
         <rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"#a0aec0\"/>\
         <text x=\"{}\" y=\"{}\">baseline (same run)</text>\n",
        escape(title),
        LEGEND_X,
        12.0,
        LEGEND_X + 16.0,
        21.0,
        LEGEND_X + 70.0,
        12.0,
        LEGEND_X + 86.0,
        21.0,
    );
    for (i, r) in rows.iter().enumerate() {
        let y = TOP + ROW_H * i as f64;
        let v = r.value.unwrap_or_default();
        let b = r.baseline_value;
        let scale = b.unwrap_or(0.0).abs().max(v.abs());
        let len = |x: f64| {
            if scale > 0.0 {
                (x.abs() / scale * BAR_W).max(1.0)
            } else {
                1.0
            }
        };
        svg.push_str(&format!(
            "<text x=\"10\" y=\"{}\">{}</text>\n",
            y + BAR_H,
            escape(&r.name)
        ));
        let colour = match r.met {
            Some(false) => "#c53030",
            _ => "#2b6cb0",
        };
        svg.push_str(&format!(
            "<rect x=\"{LABEL_W}\" y=\"{y}\" width=\"{:.1}\" height=\"{BAR_H}\" fill=\"{colour}\"/>\n\
             <text x=\"{}\" y=\"{}\">{} {}</text>\n",
            len(v),
            LABEL_W + BAR_W + 6.0,
            y + BAR_H - 3.0,
            number(v),
            escape(&r.unit)
        ));
        if let (Some(b), Some(name)) = (b, &r.baseline) {
            let yb = y + BAR_H + 2.0;
            svg.push_str(&format!(
                "<rect x=\"{LABEL_W}\" y=\"{yb}\" width=\"{:.1}\" height=\"{BAR_H}\" fill=\"#a0aec0\"/>\n\
                 <text x=\"{}\" y=\"{}\">{}: {} ({})</text>\n",
                len(b),
                LABEL_W + BAR_W + 6.0,
                yb + BAR_H - 3.0,
                escape(name),
                number(b),
                r.ratio.map(|x| format!("{}x", number(x))).unwrap_or_default()
            ));
        }
    }
    svg.push_str(&format!(
        "<text x=\"10\" y=\"{}\" fill=\"#555\">red: misses its target. Bars of one row share a scale.</text>\n</svg>\n",
        height - 10.0
    ));
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_has_bars_for_figures_with_a_baseline_and_escapes_text() {
        let records = [
            Record::new("sync", "a<b", 1.0, "s").against("kube-rs", 2.0),
            Record::new("sync", "c", 3.0, "s"),
            Record::skipped("sync", "d", "s", "quick"),
        ];
        let svg = section_svg("sync & more", &records).unwrap();
        // Background, two legend keys, and two bars for the one figure with a baseline.
        assert_eq!(svg.matches("<rect").count(), 1 + 2 + 2);
        assert!(!svg.contains(">c<"));
        assert!(svg.contains("a&lt;b"));
        assert!(svg.contains("sync &amp; more"));
        assert!(svg.contains(&format!("width=\"{:.1}\"", BAR_W / 2.0)));
        assert!(section_svg("x", &records[1..]).is_none());
    }
}
