//! Fault injection, switchable at run time: failing, stalling or cutting the next
//! requests, dropping watches after N events, malformed watch lines, compaction, streaming
//! lists without their `initial-events-end` bookmark.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::state::State;
use crate::status::StatusError;

/// Which requests a fault applies to. The default matches every resource request
/// (discovery is never affected).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultTarget {
    verb: Option<String>,
    resource: Option<String>,
}

impl FaultTarget {
    /// Every resource request.
    pub fn any() -> Self {
        Self::default()
    }

    /// Requests for one resource: `pods`, or `plural.group` such as `deployments.apps`.
    pub fn resource(resource: &str) -> Self {
        Self {
            verb: None,
            resource: Some(resource.to_owned()),
        }
    }

    /// Only requests with this verb: `list`, `watch`, `get`, `create`, `update`, `patch`, `delete`.
    pub fn verb(mut self, verb: &str) -> Self {
        self.verb = Some(verb.to_owned());
        self
    }

    fn matches(&self, verb: &str, resource: &str) -> bool {
        self.verb.as_deref().is_none_or(|v| v == verb)
            && self.resource.as_deref().is_none_or(|r| r == resource)
    }
}

/// What a matching request gets.
#[derive(Clone, Debug)]
pub(crate) enum Action {
    Fail(StatusError),
    Stall(Duration),
    Cut,
}

#[derive(Debug)]
struct Rule {
    remaining: u64,
    target: FaultTarget,
    action: Action,
}

/// The fault switches, held by the server state.
#[derive(Debug, Default)]
pub(crate) struct FaultState {
    /// 0: off.
    drop_watches_after: AtomicU64,
    omit_initial_events_end: AtomicBool,
    rules: Mutex<VecDeque<Rule>>,
}

impl FaultState {
    /// The action for this request, consuming one use of the first matching rule.
    pub fn take(&self, verb: &str, resource: &str) -> Option<Action> {
        let mut rules = self.rules.lock().unwrap_or_else(|p| p.into_inner());
        let i = rules
            .iter()
            .position(|r| r.target.matches(verb, resource))?;
        let rule = rules.get_mut(i)?;
        rule.remaining -= 1;
        let action = rule.action.clone();
        if rule.remaining == 0 {
            rules.remove(i);
        }
        Some(action)
    }

    /// Events after which every watch ends, if set.
    pub fn drop_watches_after(&self) -> Option<u64> {
        Some(self.drop_watches_after.load(Ordering::Relaxed)).filter(|n| *n > 0)
    }

    /// True when streaming lists leave out their `initial-events-end` bookmark.
    pub fn omits_initial_events_end(&self) -> bool {
        self.omit_initial_events_end.load(Ordering::Relaxed)
    }

    fn push(&self, count: u64, target: FaultTarget, action: Action) {
        if count == 0 {
            return;
        }
        self.rules
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push_back(Rule {
                remaining: count,
                target,
                action,
            });
    }
}

/// The fault-injection handle of a running server (cheap to clone).
///
/// Request faults (`fail_next`, `stall_next`, `cut_next`) queue up: each request uses
/// the first queued rule whose target matches it.
#[derive(Clone)]
pub struct Faults {
    pub(crate) state: Arc<State>,
}

impl Faults {
    /// Answers the next `count` matching requests with `code`: 429 (`TooManyRequests`, with
    /// `Retry-After: 1`), 500 (`InternalError`), 503 (`ServiceUnavailable`), or any other
    /// code with reason `InternalError`.
    pub fn fail_next(&self, count: u64, code: u16, target: FaultTarget) {
        let status = match code {
            429 => StatusError::too_many_requests(1),
            500 => StatusError::internal("injected fault"),
            503 => StatusError::service_unavailable(
                "injected fault: the server is currently unable to handle the request",
            ),
            other => StatusError::new(other, "InternalError", "injected fault"),
        };
        self.state.faults.push(count, target, Action::Fail(status));
    }

    /// Delays the next `count` matching requests by `delay` before they are served.
    pub fn stall_next(&self, count: u64, delay: Duration, target: FaultTarget) {
        self.state.faults.push(count, target, Action::Stall(delay));
    }

    /// Closes the TCP connection of the next `count` matching requests in the middle of
    /// their response: the head and the start of the first body chunk are sent, then the
    /// connection ends inside that chunk.
    pub fn cut_next(&self, count: u64, target: FaultTarget) {
        self.state.faults.push(count, target, Action::Cut);
    }

    /// Ends every watch, open or new, cleanly after it has sent `n` events (0: off).
    pub fn drop_watches_after(&self, n: u64) {
        self.state
            .faults
            .drop_watches_after
            .store(n, Ordering::Relaxed);
    }

    /// Makes every streaming list opened from now on (`sendInitialEvents=true`) send its
    /// initial ADDED events and then go on with live events without the
    /// `k8s.io/initial-events-end` bookmark, as some servers and proxies have shipped.
    /// Until [`clear`](Self::clear).
    pub fn omit_initial_events_end(&self) {
        self.state
            .faults
            .omit_initial_events_end
            .store(true, Ordering::Relaxed);
    }

    /// Writes one line that is not valid JSON into every open watch stream.
    pub fn malformed_watch_line(&self) {
        for store in self.state.stores() {
            store.broadcast_fault(true);
        }
    }

    /// Cuts the TCP connection of every open watch in the middle of a chunk (and of a line).
    pub fn cut_watches(&self) {
        for store in self.state.stores() {
            store.broadcast_fault(false);
        }
    }

    /// Compacts every resource's history now: a watch, `continue` or exact list from an
    /// older resourceVersion gets 410 Expired.
    pub fn compact_history(&self) {
        for store in self.state.stores() {
            store.compact(&self.state.clock);
        }
    }

    /// Removes every queued request fault, the watch drop and the omitted bookmark.
    pub fn clear(&self) {
        self.state
            .faults
            .rules
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        self.drop_watches_after(0);
        self.state
            .faults
            .omit_initial_events_end
            .store(false, Ordering::Relaxed);
    }
}
