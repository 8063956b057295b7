//! A work queue's metrics, as client-go's `workqueue` package defines them, and their
//! Prometheus text.

use std::fmt::Write as _;
use std::time::Duration;

use informer_runtime::stats::escape_label;

/// Upper bounds of the duration histograms in seconds: client-go's
/// `ExponentialBuckets(10e-9, 10, 10)`, 10 ns to 10 s.
pub const BUCKETS: [f64; 10] = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1];

/// A histogram of durations in seconds over [`BUCKETS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    /// Observations at most each bound of [`BUCKETS`] (cumulative, as Prometheus counts).
    pub cumulative: [u64; BUCKETS.len()],
    /// Sum of all observations, in seconds.
    pub sum: f64,
    /// Observations.
    pub count: u64,
}

impl Histogram {
    pub(super) fn observe(&mut self, d: Duration) {
        let secs = d.as_secs_f64();
        for (bound, n) in BUCKETS.iter().zip(self.cumulative.iter_mut()) {
            if secs <= *bound {
                *n += 1;
            }
        }
        self.sum += secs;
        self.count += 1;
    }
}

/// A snapshot of a work queue's metrics (cheap to take; plain data to export).
#[derive(Clone, Debug, PartialEq)]
pub struct WorkQueueStats {
    /// The queue's name (the `name` label).
    pub name: String,
    /// Items waiting to be handed out, or re-added while they are processed.
    pub depth: usize,
    /// Adds that put an item in the queue (adds of an item already queued do not count).
    pub adds: u64,
    /// Delayed and rate-limited adds.
    pub retries: u64,
    /// How long items waited in the queue before a worker took them.
    pub queue_duration: Histogram,
    /// How long workers took from `get` to `done`.
    pub work_duration: Histogram,
    /// Total time the items now in process have been in process: large values mean stuck workers.
    pub unfinished_work: Duration,
    /// How long the longest running item now in process has been in process.
    pub longest_running_processor: Duration,
    /// Items handed out and not yet done.
    pub in_flight: usize,
    /// Items waiting for their delay (`add_after`, `add_rate_limited`) to pass.
    pub waiting: usize,
}

/// Renders snapshots in the Prometheus text exposition format (version 0.0.4) with client-go's
/// metric names (`workqueue_depth`, `workqueue_adds_total`, ...), one series per queue under
/// the label `name`, ready to serve next to
/// [`stats::render_prometheus`](informer_runtime::stats::render_prometheus).
pub fn render_prometheus(stats: &[WorkQueueStats]) -> String {
    type Field = fn(&WorkQueueStats) -> f64;
    let scalars: [(&str, &str, &str, Field); 6] = [
        ("depth", "gauge", "Current depth of the work queue.", |s| {
            s.depth as f64
        }),
        ("adds_total", "counter", "Adds handled by the work queue.", |s| {
            s.adds as f64
        }),
        ("retries_total", "counter", "Retries handled by the work queue.", |s| {
            s.retries as f64
        }),
        (
            "unfinished_work_seconds",
            "gauge",
            "Seconds of work in progress not yet observed by work_duration; large values mean stuck workers.",
            |s| s.unfinished_work.as_secs_f64(),
        ),
        (
            "longest_running_processor_seconds",
            "gauge",
            "Seconds the longest running item of the work queue has been in process.",
            |s| s.longest_running_processor.as_secs_f64(),
        ),
        ("waiting", "gauge", "Items waiting for their delay to pass.", |s| {
            s.waiting as f64
        }),
    ];
    let mut out = String::new();
    for (name, kind, help, get) in scalars {
        let _ = writeln!(
            out,
            "# HELP workqueue_{name} {help}\n# TYPE workqueue_{name} {kind}"
        );
        for s in stats {
            let _ = writeln!(
                out,
                "workqueue_{name}{{name=\"{}\"}} {}",
                escape_label(&s.name),
                get(s)
            );
        }
    }
    type Hist = fn(&WorkQueueStats) -> &Histogram;
    let histograms: [(&str, &str, Hist); 2] = [
        (
            "queue_duration_seconds",
            "Seconds an item stays in the work queue before a worker takes it.",
            |s| &s.queue_duration,
        ),
        (
            "work_duration_seconds",
            "Seconds processing an item from the work queue takes.",
            |s| &s.work_duration,
        ),
    ];
    for (name, help, get) in histograms {
        let _ = writeln!(
            out,
            "# HELP workqueue_{name} {help}\n# TYPE workqueue_{name} histogram"
        );
        for s in stats {
            let label = escape_label(&s.name);
            let h = get(s);
            for (bound, n) in BUCKETS.iter().zip(h.cumulative) {
                let _ = writeln!(
                    out,
                    "workqueue_{name}_bucket{{name=\"{label}\",le=\"{bound:e}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "workqueue_{name}_bucket{{name=\"{label}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(out, "workqueue_{name}_sum{{name=\"{label}\"}} {}", h.sum);
            let _ = writeln!(
                out,
                "workqueue_{name}_count{{name=\"{label}\"}} {}",
                h.count
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_counts_cumulatively() {
        let mut h = Histogram::default();
        h.observe(Duration::from_micros(5));
        h.observe(Duration::from_millis(50));
        h.observe(Duration::from_secs(60));
        assert_eq!(h.cumulative, [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]);
        assert_eq!(h.count, 3);
        assert!((h.sum - 60.050005).abs() < 1e-9);
    }

    #[test]
    fn prometheus_text_has_every_metric_with_the_name_label() {
        let mut queue_duration = Histogram::default();
        queue_duration.observe(Duration::from_millis(2));
        let s = WorkQueueStats {
            name: "foo\"s".into(),
            depth: 3,
            adds: 7,
            retries: 2,
            queue_duration,
            work_duration: Histogram::default(),
            unfinished_work: Duration::from_millis(1500),
            longest_running_processor: Duration::from_secs(1),
            in_flight: 1,
            waiting: 4,
        };
        let text = render_prometheus(&[s]);
        for line in [
            "# TYPE workqueue_depth gauge\n",
            "workqueue_depth{name=\"foo\\\"s\"} 3\n",
            "workqueue_adds_total{name=\"foo\\\"s\"} 7\n",
            "workqueue_retries_total{name=\"foo\\\"s\"} 2\n",
            "workqueue_unfinished_work_seconds{name=\"foo\\\"s\"} 1.5\n",
            "workqueue_longest_running_processor_seconds{name=\"foo\\\"s\"} 1\n",
            "# TYPE workqueue_queue_duration_seconds histogram\n",
            "workqueue_queue_duration_seconds_bucket{name=\"foo\\\"s\",le=\"1e-3\"} 0\n",
            "workqueue_queue_duration_seconds_bucket{name=\"foo\\\"s\",le=\"1e-2\"} 1\n",
            "workqueue_queue_duration_seconds_bucket{name=\"foo\\\"s\",le=\"+Inf\"} 1\n",
            "workqueue_queue_duration_seconds_count{name=\"foo\\\"s\"} 1\n",
            "workqueue_work_duration_seconds_count{name=\"foo\\\"s\"} 0\n",
        ] {
            assert!(text.contains(line), "missing {line:?} in\n{text}");
        }
    }
}
