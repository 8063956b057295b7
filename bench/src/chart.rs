//! One SVG chart per section, hand-written to keep the dependency tree lean.
//!
//! A chart is a stack of panels, each one question a reader asks ("how much heap per
//! Pod?"), answered by horizontal bars on one axis with its unit: our configurations, the
//! baselines measured in the same run (kube-rs, a bare HashMap) and the floors (decoding
//! alone), with a dashed line where a figure measured elsewhere exists (client-go). Labels
//! sit above their bars, so no label runs into a bar. Our bars are green when they beat
//! the baseline they are compared with in the same run, orange when they do not; targets
//! are in the table, not in the colours.

use crate::results::Record;
use crate::table::number;

const WIDTH: f64 = 900.0;
const LEFT: f64 = 20.0;
/// Room for the longest bar; the value text follows it.
const PLOT_W: f64 = 560.0;
const ROW_H: f64 = 36.0;
const BAR_H: f64 = 14.0;

const GREEN: &str = "#2f855a";
const ORANGE: &str = "#c05621";
const BLUE: &str = "#2b6cb0";
const GREY: &str = "#4a5568";
const LIGHT: &str = "#a0aec0";
const PURPLE: &str = "#6b46c1";

/// Heap the same kind of Pods take in client-go 1.20's cache (JSON or protobuf), measured
/// against a real kube-apiserver in another run (issue 19).
const CLIENT_GO_BYTES_PER_POD: f64 = 8_600.0;

/// What a bar stands for, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// One of our configurations.
    Ours,
    /// Another implementation measured in the same run.
    Baseline,
    /// Work any implementation must do (decoding alone).
    Floor,
}

struct Bar {
    label: String,
    value: f64,
    kind: Kind,
    /// The same-run figure this bar is judged against, and its name.
    compare: Option<(f64, String)>,
}

struct Panel {
    title: String,
    /// The axis title, with the unit.
    axis: String,
    /// Raw values are divided by this for display (bytes → KB: 1000).
    scale: f64,
    /// Short unit after each value.
    unit: String,
    lower_is_better: bool,
    bars: Vec<Bar>,
    /// A dashed vertical line: (raw value, label).
    reference: Option<(f64, String)>,
}

impl Panel {
    fn new(title: impl Into<String>, axis: impl Into<String>, unit: &str, scale: f64) -> Self {
        Self {
            title: title.into(),
            axis: axis.into(),
            scale,
            unit: unit.to_owned(),
            lower_is_better: true,
            bars: Vec::new(),
            reference: None,
        }
    }

    fn higher_is_better(mut self) -> Self {
        self.lower_is_better = false;
        self
    }

    fn bar(&mut self, label: impl Into<String>, value: Option<f64>, kind: Kind) {
        if let Some(value) = value {
            self.bars.push(Bar {
                label: label.into(),
                value,
                kind,
                compare: None,
            });
        }
    }

    /// An ours bar judged against `compare` (named `against`).
    fn ours(
        &mut self,
        label: impl Into<String>,
        value: Option<f64>,
        compare: Option<f64>,
        against: &str,
    ) {
        if let Some(value) = value {
            self.bars.push(Bar {
                label: label.into(),
                value,
                kind: Kind::Ours,
                compare: compare.map(|c| (c, against.to_owned())),
            });
        }
    }

    fn height(&self) -> f64 {
        let reference = if self.reference.is_some() { 18.0 } else { 0.0 };
        28.0 + reference + ROW_H * self.bars.len() as f64 + 44.0
    }

    fn colour(&self, bar: &Bar) -> &'static str {
        match bar.kind {
            Kind::Baseline => GREY,
            Kind::Floor => LIGHT,
            Kind::Ours => match &bar.compare {
                Some((c, _)) => {
                    let better = if self.lower_is_better {
                        bar.value < *c
                    } else {
                        bar.value > *c
                    };
                    if better {
                        GREEN
                    } else {
                        ORANGE
                    }
                }
                None => BLUE,
            },
        }
    }

    /// Draws the panel with its top at `top`; returns the SVG.
    fn svg(&self, top: f64) -> String {
        let max = self
            .bars
            .iter()
            .map(|b| b.value.abs())
            .chain(self.reference.as_ref().map(|(v, _)| v.abs()))
            .fold(0.0, f64::max)
            / self.scale;
        let step = nice_step(max / 4.0);
        let axis_max = if step > 0.0 {
            (max / step).ceil() * step
        } else {
            1.0
        };
        let x = |raw: f64| LEFT + (raw.abs() / self.scale / axis_max * PLOT_W).min(PLOT_W);
        let mut s = format!(
            "<text x=\"{LEFT}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
            top + 16.0,
            escape(&self.title)
        );
        let mut y = top + 28.0;
        let bars_top = y;
        if let Some((v, label)) = &self.reference {
            let rx = x(*v);
            let anchor = if rx > LEFT + PLOT_W / 2.0 {
                "end"
            } else {
                "start"
            };
            s.push_str(&format!(
                "<text x=\"{rx:.1}\" y=\"{:.1}\" fill=\"{PURPLE}\" text-anchor=\"{anchor}\">{}</text>\n",
                y + 10.0,
                escape(label)
            ));
            y += 18.0;
        }
        for bar in &self.bars {
            let len = (x(bar.value) - LEFT).max(1.0);
            let mut text = format!("{} {}", number(bar.value / self.scale), self.unit);
            if let Some((c, name)) = &bar.compare {
                if *c != 0.0 {
                    text.push_str(&format!(" · {}× {}", number(bar.value / c), name));
                }
            }
            s.push_str(&format!(
                "<text x=\"{LEFT}\" y=\"{:.1}\">{}</text>\n\
                 <rect x=\"{LEFT}\" y=\"{:.1}\" width=\"{len:.1}\" height=\"{BAR_H}\" fill=\"{}\"/>\n\
                 <text x=\"{:.1}\" y=\"{:.1}\">{}</text>\n",
                y + 11.0,
                escape(&bar.label),
                y + 15.0,
                self.colour(bar),
                LEFT + len + 6.0,
                y + 26.0,
                escape(&text)
            ));
            y += ROW_H;
        }
        let axis_y = y + 4.0;
        if let Some((v, _)) = &self.reference {
            let rx = x(*v);
            s.push_str(&format!(
                "<line x1=\"{rx:.1}\" y1=\"{:.1}\" x2=\"{rx:.1}\" y2=\"{axis_y:.1}\" stroke=\"{PURPLE}\" stroke-width=\"1.5\" stroke-dasharray=\"5,4\"/>\n",
                bars_top + 14.0
            ));
        }
        s.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{axis_y:.1}\" x2=\"{:.1}\" y2=\"{axis_y:.1}\" stroke=\"#333\"/>\n",
            LEFT + PLOT_W
        ));
        if step > 0.0 {
            let ticks = (axis_max / step).round() as usize;
            for i in 0..=ticks {
                let v = step * i as f64;
                let tx = LEFT + v / axis_max * PLOT_W;
                s.push_str(&format!(
                    "<line x1=\"{tx:.1}\" y1=\"{axis_y:.1}\" x2=\"{tx:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
                     <text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n",
                    axis_y + 4.0,
                    axis_y + 16.0,
                    number(v)
                ));
            }
        }
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
            LEFT + PLOT_W / 2.0,
            axis_y + 32.0,
            escape(&self.axis)
        ));
        s
    }
}

/// A round axis step (1, 2 or 5 times a power of ten) of about `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 0.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let f = raw / magnitude;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `10000` → `10,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Looks records up by name.
struct Figures<'a> {
    records: &'a [Record],
}

impl<'a> Figures<'a> {
    fn get(&self, name: &str) -> Option<&'a Record> {
        self.records
            .iter()
            .find(|r| r.name == name && r.value.is_some())
    }

    fn value(&self, name: &str) -> Option<f64> {
        self.get(name).and_then(|r| r.value)
    }

    fn baseline(&self, name: &str) -> Option<f64> {
        self.get(name).and_then(|r| r.baseline_value)
    }

    /// The sizes `N` of names `{prefix}{N}.…` (prefix e.g. `sync.n`), ascending.
    fn sizes(&self, prefix: &str) -> Vec<u64> {
        let mut sizes: Vec<u64> = self
            .records
            .iter()
            .filter_map(|r| r.name.strip_prefix(prefix))
            .filter_map(|rest| rest.split('.').next())
            .filter_map(|n| n.parse().ok())
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }
}

fn memory_panels(f: &Figures) -> Vec<Panel> {
    let mut panels = Vec::new();
    for n in f.sizes("memory.n") {
        let p = format!("memory.n{n}");
        let kube = f.value(&format!("{p}.kube-rs_per_pod"));
        let json = f
            .value(&format!("{p}.pod_json"))
            .map(|b| format!(" ({} KB of JSON each", number(b / 1000.0)))
            .unwrap_or_default();
        let managed = match (
            json.is_empty(),
            f.value(&format!("{p}.managed_fields_json")),
        ) {
            (false, Some(m)) => format!(", {} KB of it managedFields)", number(m / 1000.0)),
            (false, None) => ")".to_owned(),
            (true, _) => String::new(),
        };
        let mut heap = Panel::new(
            format!("Heap per cached Pod, {} Pods{json}{managed}", thousands(n)),
            "KB of heap per cached Pod (lower is better)",
            "KB",
            1000.0,
        );
        for (label, name) in [
            (
                "ours: projection PodView (ViewMeta, nodeName, images, phase)",
                "ours_projection_per_pod",
            ),
            (
                "ours: the same projection keeping the whole ObjectMeta",
                "ours_projection_object_meta_per_pod",
            ),
            ("ours: metadata-only informer", "ours_metadata_only_per_pod"),
            (
                "ours: CacheMode::compact (LZ4 JSON, small decoded hot set)",
                "ours_compact_per_pod",
            ),
            (
                "ours: default (whole Pods, managedFields dropped)",
                "ours_default_per_pod",
            ),
            (
                "ours: keep_managed_fields() (whole Pods as sent)",
                "ours_keep_managed_fields_per_pod",
            ),
        ] {
            heap.ours(label, f.value(&format!("{p}.{name}")), kube, "kube-rs");
        }
        heap.bar(
            "kube-rs 5 reflector (whole Pods, keeps managedFields)",
            kube,
            Kind::Baseline,
        );
        heap.reference = Some((
            CLIENT_GO_BYTES_PER_POD,
            "client-go 1.20: 8.6 KB (measured elsewhere, real kube-apiserver, same kind of Pods)"
                .to_owned(),
        ));
        if !heap.bars.is_empty() {
            panels.push(heap);
        }
        let relist = format!("{p}.relist_peak_over_steady");
        let mut peak = Panel::new(
            "Peak heap during a full relist",
            "peak heap ÷ steady-state heap (lower is better)",
            "×",
            1.0,
        );
        peak.ours(
            "ours: default",
            f.value(&relist),
            f.baseline(&relist),
            "kube-rs",
        );
        peak.bar("kube-rs 5 reflector", f.baseline(&relist), Kind::Baseline);
        if !peak.bars.is_empty() {
            panels.push(peak);
        }
        let miss = format!("{p}.compact_miss");
        let mut compact = Panel::new(
            "CacheMode::compact: a lister get that misses the hot set",
            "µs per get (lower is better)",
            "µs",
            1.0,
        );
        compact.bar(
            "ours: decompress and decode one Pod",
            f.value(&miss),
            Kind::Ours,
        );
        compact.bar(
            "floor: decompress and decode alone, then free it",
            f.value(&format!("{p}.compact_decode.lz4_json_simd")),
            Kind::Floor,
        );
        compact.bar(
            "floor: the same, freeing the Pod it evicts instead",
            f.value(&format!("{p}.compact_decode.lz4_json_simd_evicting")),
            Kind::Floor,
        );
        if let Some(t) = f.get(&miss).and_then(|r| r.target) {
            compact.reference = Some((t.value, format!("target: {} µs", number(t.value))));
        }
        if !compact.bars.is_empty() {
            panels.push(compact);
        }
    }
    panels
}

fn sync_panels(f: &Figures) -> Vec<Panel> {
    f.sizes("sync.n")
        .into_iter()
        .map(|n| {
            let p = format!("sync.n{n}");
            let kube = f.value(&format!("{p}.kube-rs"));
            let json = f
                .value(&format!("{p}.list_json_per_pod"))
                .map(|b| format!(" ({} KB of JSON each)", number(b / 1000.0)))
                .unwrap_or_default();
            let mut panel = Panel::new(
                format!("Initial sync of {} Pods{json}", thousands(n)),
                "seconds from start to has_synced (lower is better)",
                "s",
                1.0,
            );
            panel.ours(
                "ours: projection PodView",
                f.value(&format!("{p}.projection")),
                kube,
                "kube-rs",
            );
            panel.ours(
                "ours: projection PodView keeping the whole ObjectMeta",
                f.value(&format!("{p}.projection_object_meta")),
                kube,
                "kube-rs",
            );
            panel.ours(
                "ours: whole Pods (default)",
                f.value(&format!("{p}.ours_vs_kube-rs")),
                kube,
                "kube-rs",
            );
            panel.bar("kube-rs 5 reflector", kube, Kind::Baseline);
            panel.bar(
                "decode floor: serde_json decoding the list, warm heap (best of 5)",
                f.value(&format!("{p}.decode_floor")),
                Kind::Floor,
            );
            panel.bar(
                "decode floor: its first decode, into fresh heap pages",
                f.value(&format!("{p}.decode_floor_cold")),
                Kind::Floor,
            );
            panel
        })
        .filter(|p| !p.bars.is_empty())
        .collect()
}

fn watch_panels(f: &Figures) -> Vec<Panel> {
    let mut panels = Vec::new();
    for m in f.sizes("watch.m") {
        let p = format!("watch.m{m}");
        let kube = f.value(&format!("{p}.kube-rs"));
        let mut panel = Panel::new(
            format!(
                "Watch throughput: {} MODIFIED Pod events applied and delivered",
                thousands(m)
            ),
            "events per second (higher is better)",
            "events/s",
            1.0,
        )
        .higher_is_better();
        panel.ours(
            "ours: 1 handler",
            f.value(&format!("{p}.ours_1_handler")),
            kube,
            "kube-rs",
        );
        panel.ours(
            "ours: 10 handlers, each sees every event",
            f.value(&format!("{p}.ours_10_handlers")),
            kube,
            "kube-rs",
        );
        panel.ours(
            "ours: the decoded watch stream alone, no informer",
            f.value(&format!("{p}.ours_stream")),
            kube,
            "kube-rs",
        );
        panel.bar("kube-rs 5 reflector", kube, Kind::Baseline);
        panel.bar(
            "decode floor: serde_json on every core, doing nothing else",
            f.value("watch.parallel_decode_floor"),
            Kind::Floor,
        );
        panel.bar(
            "decode floor on every core, holding each pod and freeing what an update replaces",
            f.value("watch.parallel_holding_decode_floor"),
            Kind::Floor,
        );
        panel.bar(
            "decode floor: serde_json, one thread",
            f.value("watch.decode_floor_one_pass"),
            Kind::Floor,
        );
        if !panel.bars.is_empty() {
            panels.push(panel);
        }
    }
    for rate in f.sizes("watch.paced") {
        let p = format!("watch.paced{rate}");
        let mut panel = Panel::new(
            format!(
                "Watch latency at {} events/s, server write to handler",
                thousands(rate)
            ),
            "milliseconds (lower is better)",
            "ms",
            1.0,
        );
        for (label, name) in [
            ("ours, 1 handler: median", "ours_1_handler_p50"),
            ("ours, 1 handler: 99th percentile", "ours_1_handler_p99"),
            ("ours, 10 handlers: median", "ours_10_handlers_p50"),
            ("ours, 10 handlers: 99th percentile", "ours_10_handlers_p99"),
        ] {
            let name = format!("{p}.{name}");
            panel.ours(label, f.value(&name), f.baseline(&name), "kube-rs");
        }
        panel.bar(
            "kube-rs: median",
            f.baseline(&format!("{p}.ours_1_handler_p50")),
            Kind::Baseline,
        );
        panel.bar(
            "kube-rs: 99th percentile",
            f.baseline(&format!("{p}.ours_1_handler_p99")),
            Kind::Baseline,
        );
        if !panel.bars.is_empty() {
            panels.push(panel);
        }
    }
    panels
}

fn listers_panels(f: &Figures) -> Vec<Panel> {
    let mut panels = Vec::new();
    for n in f.sizes("listers.n") {
        let p = format!("listers.n{n}");
        let get = format!("{p}.get");
        let mut gets = Panel::new(
            format!("Lister get, {} cached Pods, one reader", thousands(n)),
            "ns per get (lower is better)",
            "ns",
            1.0,
        );
        gets.ours(
            "ours: lister get, keys far apart",
            f.value(&get),
            f.baseline(&get),
            "HashMap",
        );
        gets.bar(
            "bare HashMap<String, Arc<Pod>>, same keys and order",
            f.baseline(&get),
            Kind::Baseline,
        );
        gets.bar(
            "ours: keys in store order",
            f.value(&format!("{p}.get_store_order")),
            Kind::Ours,
        );
        gets.bar(
            "ours: keys in random order",
            f.value(&format!("{p}.get_random_order")),
            Kind::Ours,
        );
        if !gets.bars.is_empty() {
            panels.push(gets);
        }
        let mut during = Panel::new(
            "Lister get while the informer applies updates (slowest reader)",
            "ns per get (lower is better)",
            "ns",
            1.0,
        );
        for readers in [1, 2] {
            let s = format!("{p}.get_{readers}_readers");
            let r = if readers == 1 { "reader" } else { "readers" };
            during.bar(
                format!("{readers} {r}, no writes"),
                f.value(&format!("{s}_idle")),
                Kind::Ours,
            );
            let busy = format!("{s}_during_updates");
            during.bar(
                format!("{readers} {r}, during updates: wall clock"),
                f.value(&busy),
                Kind::Ours,
            );
            let cpu = format!("{busy}_cpu");
            during.bar(
                format!("{readers} {r}, during updates: the reader's own CPU time"),
                f.value(&cpu),
                Kind::Ours,
            );
        }
        if !during.bars.is_empty() {
            panels.push(during);
        }
        let mut lists = Panel::new("Lister list", "µs per call (lower is better)", "µs", 1.0);
        lists.bar(
            "ours: one namespace",
            f.value(&format!("{p}.list_namespace")),
            Kind::Ours,
        );
        lists.bar(
            "ours: one label value",
            f.value(&format!("{p}.list_label")),
            Kind::Ours,
        );
        if !lists.bars.is_empty() {
            panels.push(lists);
        }
    }
    panels
}

/// `sync.n10000.ours_vs_floor` → `ours vs floor (n10000)`: the figure's own words, for
/// sections without panels of their own.
fn humanize(name: &str) -> String {
    let mut parts: Vec<&str> = name.split('.').skip(1).collect();
    let size = parts
        .iter()
        .position(|p| {
            p.len() > 1
                && (p.starts_with('n') || p.starts_with('m'))
                && p[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map(|i| parts.remove(i));
    let text = parts.join(" ").replace(['_', '.'], " ");
    match size {
        Some(s) => format!("{text} ({s})"),
        None => text,
    }
}

/// One panel per figure with a baseline: for sections whose figures share no unit.
fn generic_panels(records: &[Record]) -> Vec<Panel> {
    records
        .iter()
        .filter(|r| r.value.is_some() && r.baseline_value.is_some())
        .map(|r| {
            let higher = r.unit.ends_with("/s");
            let axis = format!(
                "{} ({} is better)",
                r.unit,
                if higher { "higher" } else { "lower" }
            );
            let mut panel = Panel::new(humanize(&r.name), axis, &r.unit, 1.0);
            if higher {
                panel = panel.higher_is_better();
            }
            let baseline = r.baseline.clone().unwrap_or_default();
            panel.ours("ours", r.value, r.baseline_value, &baseline);
            panel.bar(baseline, r.baseline_value, Kind::Baseline);
            panel
        })
        .collect()
}

/// The chart for one section, or `None` when it has nothing to compare.
pub fn section_svg(section: &str, title: &str, records: &[Record]) -> Option<String> {
    let f = Figures { records };
    let panels = match section {
        "memory" => memory_panels(&f),
        "sync" => sync_panels(&f),
        "watch" => watch_panels(&f),
        "listers" => listers_panels(&f),
        _ => generic_panels(records),
    };
    if panels.is_empty() {
        return None;
    }
    let legend_h = 50.0;
    let height = 40.0 + panels.iter().map(Panel::height).sum::<f64>() + legend_h;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{LEFT}\" y=\"24\" font-size=\"17\" font-weight=\"bold\">{}</text>\n",
        escape(title)
    );
    let mut top = 40.0;
    for panel in &panels {
        svg.push_str(&panel.svg(top));
        top += panel.height();
    }
    let y = height - legend_h + 16.0;
    let mut x = LEFT;
    for (colour, text) in [
        (GREEN, "ours, better than the same-run baseline named"),
        (ORANGE, "ours, not better"),
        (BLUE, "ours"),
        (GREY, "other implementation, same run"),
        (LIGHT, "decoding alone, same run"),
    ] {
        svg.push_str(&format!(
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"10\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"11\">{}</text>\n",
            y - 9.0,
            x + 16.0,
            escape(text)
        ));
        x += 22.0 + 5.6 * text.len() as f64;
    }
    svg.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555\">Each panel has its own axis. Dashed line: a figure from elsewhere or a target. Targets and ratios: table.md.</text>\n</svg>\n",
        y + 18.0
    ));
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_chart_compares_configurations_with_kube_rs_and_client_go() {
        let records = [
            Record::new("memory", "memory.n10000.kube-rs_per_pod", 27_500.0, "B"),
            Record::new("memory", "memory.n10000.ours_default_per_pod", 9_000.0, "B")
                .against("kube-rs", 27_500.0),
            Record::new(
                "memory",
                "memory.n10000.ours_keep_managed_fields_per_pod",
                28_000.0,
                "B",
            )
            .against("kube-rs", 27_500.0),
            Record::new("memory", "memory.n10000.pod_json", 4_100.0, "B"),
        ];
        let svg = section_svg("memory", "Heap & more", &records).unwrap();
        assert!(svg.contains("Heap &amp; more"));
        assert!(svg.contains("Heap per cached Pod, 10,000 Pods (4.10 KB of JSON each)"));
        assert!(svg.contains("ours: default (whole Pods, managedFields dropped)"));
        assert!(svg.contains("client-go 1.20: 8.6 KB"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains("KB of heap per cached Pod"));
        // Leaner than kube-rs: green; not leaner: orange; kube-rs itself: grey.
        assert!(svg.contains(&format!("fill=\"{GREEN}\"")));
        assert!(svg.contains(&format!("fill=\"{ORANGE}\"")));
        assert!(svg.contains(&format!("fill=\"{GREY}\"")));
        assert!(!svg.contains("memory.n10000"), "no metric ids as labels");
        assert!(svg.contains("0.327× kube-rs"));
    }

    #[test]
    fn faster_is_green_whatever_the_target() {
        let records = [
            Record::new("sync", "sync.n10000.kube-rs", 0.6, "s"),
            Record::new("sync", "sync.n10000.ours_vs_kube-rs", 0.33, "s")
                .against("kube-rs", 0.6)
                .target(crate::results::Target::ratio_at_most(0.5)),
        ];
        let svg = section_svg("sync", "Sync", &records).unwrap();
        // One bar plus its legend key in green; orange only in the legend.
        assert_eq!(svg.matches(&format!("fill=\"{GREEN}\"")).count(), 2);
        assert_eq!(svg.matches(&format!("fill=\"{ORANGE}\"")).count(), 1);
        assert!(svg.contains("seconds from start to has_synced"));
    }

    #[test]
    fn other_sections_get_one_panel_per_compared_figure() {
        let records = [
            Record::new("codegen", "codegen.build.a<b", 1.0, "s").against("k8s-openapi", 2.0),
            Record::new("codegen", "codegen.c", 3.0, "s"),
            Record::skipped("codegen", "codegen.d", "s", "quick"),
        ];
        let svg = section_svg("codegen", "Codegen", &records).unwrap();
        assert!(svg.contains("build a&lt;b"));
        assert!(!svg.contains(">c<"));
        assert!(section_svg("codegen", "x", &records[1..]).is_none());
    }

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(nice_step(0.0), 0.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(7_000.0), 10_000.0);
        assert!((nice_step(0.15) - 0.2).abs() < 1e-12);
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(
            humanize("sync.n10000.ours_vs_floor"),
            "ours vs floor (n10000)"
        );
    }
}
