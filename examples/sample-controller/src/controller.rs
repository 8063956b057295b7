//! The controller: a Foo informer and a Deployment informer fill one work queue of Foo
//! keys; workers [reconcile](crate::reconcile) them (upstream's `NewController` and `Run`).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use kube_informers::controller::events::{EventRecorder, RecorderConfig, Reporter};
use kube_informers::controller::{
    enqueue, enqueue_owner, filtered, generation_changed, Controller, ObjectRef, ShardRing,
};
use kube_informers::k8s_openapi::api::apps::v1::Deployment;
use kube_informers::sharding::ShardBy;
use kube_informers::workqueue::{default_rate_limiter, Config as QueueConfig};
use kube_informers::{Client, InformerFactory, WorkQueue};
use tokio_util::sync::CancellationToken;

use crate::generated::samplecontroller::v1alpha1::FooInformer;
use crate::reconcile::{reconcile, Context};
use crate::{generated, Error, Foo};

/// The field manager every write of the controller names, so the server's managedFields
/// (and audit logs) tell its writes apart from users'.
pub const FIELD_MANAGER: &str = "sample-controller";

/// The Foo controller: built with [`new`](Self::new), run with [`run`](Self::run).
///
/// Its informers list and watch every namespace; they start when `run` is called (under
/// leader election: once this replica leads), so a standby replica holds no cache.
pub struct SampleController {
    client: Client,
    kube_factory: kube_informers::informers::SharedInformerFactory,
    foo_factory: generated::SharedInformerFactory,
    foos: FooInformer,
    deployments: kube_informers::informers::apps::v1::DeploymentInformer,
    queue: WorkQueue<ObjectRef>,
    context: Arc<Context>,
    workers: usize,
}

impl SampleController {
    /// A controller over `client`, with client-go's default retry backoff (per Foo 5 ms
    /// doubling to 1000 s, overall 10 retries/s with a burst of 100) and two workers.
    pub fn new(client: Client) -> Self {
        let queue = WorkQueue::with_config(
            QueueConfig::default()
                .name("foos")
                .rate_limiter(default_rate_limiter()),
        );
        Self::with_queue(client, queue)
    }

    /// A controller working off `queue`: for a retry policy of your own
    /// ([`WorkQueue::rate_limited`]), or to read the queue's metrics.
    pub fn with_queue(client: Client, queue: WorkQueue<ObjectRef>) -> Self {
        // Two factories, as upstream has: the built-in one for Deployments, the one
        // generated from the CRD for Foos. No resync: every change already queues a key.
        // The Deployments keep their managedFields: the reconcile reads from them what the
        // controller applied last, to skip an apply that would change nothing.
        let kube_factory =
            kube_informers::informers::SharedInformerFactory::builder(client.clone())
                .keep_managed_fields()
                .build();
        let foo_factory = generated::SharedInformerFactory::new(client.clone());
        Self::with_factories(client, queue, kube_factory, foo_factory)
    }

    /// One replica of a sharded controller on `ring` (run it with [`run_sharded`](Self::run_sharded)):
    /// its informers follow the replica's share, Foos by their uid (the server filters them,
    /// or the client when the server cannot) and Deployments by their controlling Foo's
    /// uid (filtered by the informer, as no server can: it caches only the Deployments of
    /// its own Foos).
    pub fn sharded(client: Client, queue: WorkQueue<ObjectRef>, ring: &ShardRing) -> Self {
        let kube_factory =
            kube_informers::informers::SharedInformerFactory::builder(client.clone())
                .shard_assignments(ring.assignments())
                .shard_by(ShardBy::ControllerOwner)
                .keep_managed_fields()
                .build();
        let foo_factory = generated::SharedInformerFactory::builder(client.clone())
            .shard_assignments(ring.assignments())
            .build();
        Self::with_factories(client, queue, kube_factory, foo_factory)
    }

    fn with_factories(
        client: Client,
        queue: WorkQueue<ObjectRef>,
        kube_factory: kube_informers::informers::SharedInformerFactory,
        foo_factory: generated::SharedInformerFactory,
    ) -> Self {
        let foos = foo_factory.samplecontroller().v1alpha1().foos();
        let deployments = kube_factory.apps().v1().deployments();

        // A Foo's status write (ours) does not move its generation: reacting to it would
        // only reconcile the Foo once more for nothing. Adds and deletes always pass.
        foos.informer()
            .add_event_handler(filtered(generation_changed(), enqueue(queue.clone())));
        // A Deployment's change concerns the Foo controlling it (upstream's handleObject);
        // Deployments without a Foo as controller are ignored.
        deployments
            .informer()
            .add_event_handler(enqueue_owner::<Foo, Deployment>(queue.clone()));

        let context = Arc::new(Context {
            foos: foos.lister(),
            deployments: deployments.lister(),
            kube: kube_informers::informers::Clientset::new(client.clone()),
            samples: generated::Clientset::new(client.clone()),
            recorder: OnceLock::new(),
        });
        Self {
            client,
            kube_factory,
            foo_factory,
            foos,
            deployments,
            queue,
            context,
            workers: 2,
        }
    }

    /// Reconciles up to `n` Foos at once (at least one); one Foo is never reconciled by
    /// two workers at once.
    #[must_use]
    pub fn workers(mut self, n: usize) -> Self {
        self.workers = n.max(1);
        self
    }

    /// The queue of Foo keys (a handle to the same queue): its
    /// [`stats`](WorkQueue::stats) are client-go's workqueue metrics.
    pub fn queue(&self) -> WorkQueue<ObjectRef> {
        self.queue.clone()
    }

    /// Starts the informers, waits for both caches to sync, then reconciles until
    /// `cancel` fires; returns after the reconciles in flight have finished and the
    /// informers have stopped. Records upstream's Events (`Synced`, `ErrResourceExists`)
    /// about the Foos, as `sample-controller` from this replica's [`identity`](crate::identity).
    pub async fn run(self, cancel: CancellationToken) -> Result<(), Error> {
        self.run_with(None, cancel).await
    }

    /// The same as one replica of the sharded controller on `ring`, which it runs too: the
    /// controller must have been built by [`sharded`](Self::sharded) on the same ring.
    pub async fn run_sharded(
        self,
        ring: ShardRing,
        cancel: CancellationToken,
    ) -> Result<(), Error> {
        self.run_with(Some(ring), cancel).await
    }

    async fn run_with(
        self,
        ring: Option<ShardRing>,
        cancel: CancellationToken,
    ) -> Result<(), Error> {
        let events = CancellationToken::new();
        match EventRecorder::new(
            self.client.clone(),
            Reporter::new(FIELD_MANAGER, crate::identity()),
            RecorderConfig::default(),
            events.clone(),
        ) {
            Ok(recorder) => {
                let _ = self.context.recorder.set(recorder);
            }
            Err(e) => tracing::warn!(error = %e, "recording no Events"),
        }
        self.kube_factory.start();
        self.foo_factory.start();
        let context = self.context;
        let recorder = context.recorder.get().cloned();
        let controller = Controller::new(self.queue, move |key: ObjectRef| {
            reconcile(context.clone(), key)
        })
        .workers(self.workers)
        .wait_for(self.foos.informer())
        .wait_for(self.deployments.informer());
        let ran = match ring {
            Some(ring) => {
                controller
                    .run_sharded(ring, self.foos.informer(), cancel)
                    .await
            }
            None => controller.run(cancel).await,
        };
        self.kube_factory.shutdown().await;
        self.foo_factory.shutdown().await;
        if let Some(recorder) = recorder {
            // Writes the Events' open series; a server that cannot take them must not
            // hold the shutdown up.
            let _ = tokio::time::timeout(Duration::from_secs(5), recorder.flush()).await;
        }
        events.cancel();
        Ok(ran?)
    }
}
