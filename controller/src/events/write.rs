//! Writing one Event (client-go's `recordEvent` and `attemptRecording`), to
//! `events.k8s.io/v1` or core `v1`.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Event as CoreEvent, EventSeries as CoreEventSeries};
use k8s_openapi::api::events::v1::Event;
use rand::Rng;
use serde_json::json;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use informer_runtime::{Api, Client, Discovery, Error, Patch, PatchParams, PostParams};

use super::{bump, EventsApi, Shared};

/// How one attempt ended.
enum Attempt {
    Written,
    /// Refused or unwritable: do not try again.
    GiveUp,
    /// Try again after a pause.
    Retry(Error),
}

/// One of the recorder's writer tasks.
pub(super) struct Writer {
    pub(super) client: Client,
    pub(super) shared: Arc<Shared>,
    pub(super) max_tries: u32,
    pub(super) retry_pause: Duration,
}

impl Writer {
    pub(super) async fn run(
        self,
        mut writes: mpsc::Receiver<Box<Event>>,
        cancel: CancellationToken,
    ) {
        loop {
            let next = tokio::select! {
                biased;
                () = cancel.cancelled() => return,
                next = writes.recv() => next,
            };
            let Some(event) = next else { return };
            tokio::select! {
                biased;
                () = cancel.cancelled() => return,
                () = self.write(*event) => {}
            }
            self.shared.write_finished();
        }
    }

    /// Up to `max_tries` attempts, `retry_pause` ±25 % apart.
    async fn write(&self, mut event: Event) {
        let mut tries = 0;
        loop {
            match self.attempt(&mut event).await {
                Attempt::Written => {
                    bump(&self.shared.counters.written);
                    return;
                }
                Attempt::GiveUp => return,
                Attempt::Retry(e) => {
                    tries += 1;
                    if tries >= self.max_tries {
                        bump(&self.shared.counters.abandoned);
                        tracing::error!(error = %e, tries, "unable to write event (retry limit exceeded)");
                        return;
                    }
                    tracing::warn!(error = %e, "unable to write event (may retry after sleeping)");
                    let jitter = rand::rng().random_range(0.0..0.25);
                    tokio::time::sleep(self.retry_pause.mul_f64(1.0 + jitter)).await;
                }
            }
        }
    }

    /// Which API to write to: discovery's answer, asked once.
    async fn api(&self) -> EventsApi {
        if let Some(api) = self.shared.api() {
            return api;
        }
        let api = match Discovery::new(self.client.clone())
            .resources("events.k8s.io", "v1")
            .await
        {
            Ok(resources) if resources.iter().any(|r| r.plural == "events") => EventsApi::EventsV1,
            Ok(_) => EventsApi::CoreV1,
            Err(Error::UnknownResource { .. }) => EventsApi::CoreV1,
            Err(e) if e.status_code() == Some(404) => EventsApi::CoreV1,
            // Unknown (discovery failed): try the new API; a 404 falls back.
            Err(e) => {
                tracing::debug!(error = %e, "events discovery failed; trying events.k8s.io/v1");
                EventsApi::EventsV1
            }
        };
        if self.shared.api().is_none() {
            self.shared.set_api(api);
            tracing::info!(?api, "recording events");
        }
        self.shared.api().unwrap_or(api)
    }

    /// One attempt: a series patches its Event's `series` (creating the Event if it is
    /// gone), anything else creates it.
    async fn attempt(&self, event: &mut Event) -> Attempt {
        let api = self.api().await;
        let outcome = match api {
            EventsApi::EventsV1 => self.write_v1(event).await,
            EventsApi::CoreV1 => self.write_core(event).await,
        };
        match outcome {
            Ok(()) => Attempt::Written,
            Err(e) if api == EventsApi::EventsV1 && group_not_served(&e) => {
                tracing::info!(error = %e, "events.k8s.io/v1 is not served; recording core v1 Events");
                self.shared.set_api(EventsApi::CoreV1);
                match self.write_core(event).await {
                    Ok(()) => Attempt::Written,
                    Err(e) => self.classify(event, e),
                }
            }
            Err(e) => self.classify(event, e),
        }
    }

    /// client-go's answer to a failed write: a `Status` is final (but a series whose
    /// Event is being created elsewhere tries again), anything else may pass next time.
    fn classify(&self, event: &Event, e: Error) -> Attempt {
        let Some(status) = e.api() else {
            return Attempt::Retry(e);
        };
        if e.is_already_exists() && event.series.is_some() {
            return Attempt::Retry(e);
        }
        bump(&self.shared.counters.rejected);
        if e.is_already_exists() {
            tracing::debug!(error = %e, "server rejected event (will not retry)");
        } else {
            tracing::warn!(code = status.code, reason = %status.reason, error = %e, "server rejected event (will not retry)");
        }
        Attempt::GiveUp
    }

    async fn write_v1(&self, event: &mut Event) -> Result<(), Error> {
        let namespace = event.metadata.namespace.clone().unwrap_or_default();
        let name = event.metadata.name.clone().unwrap_or_default();
        let api: Api<Event> = Api::namespaced(self.client.clone(), &namespace);
        if let Some(series) = &event.series {
            let patch = Patch::Merge(json!({ "series": series }));
            match api.patch(&name, &patch, &PatchParams::default()).await {
                Ok(_) => return Ok(()),
                Err(e) if e.is_not_found() && !namespace_missing(&e) => {}
                Err(e) => return Err(e),
            }
        }
        event.metadata.resource_version = None;
        api.create(event, &PostParams::default()).await.map(drop)
    }

    async fn write_core(&self, event: &Event) -> Result<(), Error> {
        let core = to_core(event);
        let namespace = core.metadata.namespace.clone().unwrap_or_default();
        let name = core.metadata.name.clone().unwrap_or_default();
        let api: Api<CoreEvent> = Api::namespaced(self.client.clone(), &namespace);
        if let Some(series) = &core.series {
            let patch = Patch::Merge(json!({ "series": series }));
            match api.patch(&name, &patch, &PatchParams::default()).await {
                Ok(_) => return Ok(()),
                Err(e) if e.is_not_found() && !namespace_missing(&e) => {}
                Err(e) => return Err(e),
            }
        }
        api.create(&core, &PostParams::default()).await.map(drop)
    }
}

/// A 404 about the Event's namespace, not about the Event.
fn namespace_missing(e: &Error) -> bool {
    e.api()
        .and_then(|s| s.details.as_ref())
        .is_some_and(|d| d.kind.as_deref() == Some("namespaces"))
}

/// A 404 on a create: the server does not serve `events.k8s.io/v1` (a missing namespace
/// names itself in the details).
fn group_not_served(e: &Error) -> bool {
    e.status_code() == Some(404) && !namespace_missing(e)
}

/// The same Event in core `v1`'s shape, as kube-apiserver converts it.
fn to_core(e: &Event) -> CoreEvent {
    CoreEvent {
        metadata: e.metadata.clone(),
        involved_object: e.regarding.clone().unwrap_or_default(),
        related: e.related.clone(),
        reason: e.reason.clone(),
        message: e.note.clone(),
        type_: e.type_.clone(),
        action: e.action.clone(),
        event_time: e.event_time.clone(),
        reporting_component: e.reporting_controller.clone(),
        reporting_instance: e.reporting_instance.clone(),
        series: e.series.as_ref().map(|s| CoreEventSeries {
            count: Some(s.count),
            last_observed_time: Some(s.last_observed_time.clone()),
        }),
        ..CoreEvent::default()
    }
}
