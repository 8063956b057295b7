//! A `ListWatch` over a collection path, for object types that serve many resources
//! (dynamic and metadata-only objects): each decoded object is completed by a fix-up
//! (list items arrive without `kind`/`apiVersion`).

use std::sync::Arc;

use futures_util::StreamExt;

use crate::client::Client;
use crate::list_options::{ListOptions, TweakListOptions};
use crate::lister_watcher::{ListWatch, WatchEvent};

/// Completes a decoded object, e.g. fills in the resource's `apiVersion` and `kind`.
pub type FixUp<T> = Arc<dyn Fn(&mut T) + Send + Sync>;

/// How to list and watch one collection path.
#[derive(Clone)]
pub struct PathListWatch<T> {
    /// The collection path, e.g. `/apis/example.com/v1/namespaces/a/widgets`.
    pub path: String,
    /// The `Accept` header of lists (`None`: `application/json`).
    pub list_accept: Option<&'static str>,
    /// The `Accept` header of watches (`None`: `application/json`).
    pub watch_accept: Option<&'static str>,
    /// Edits every list and watch request.
    pub tweak: Option<TweakListOptions>,
    /// Runs on every decoded list item and watch event object.
    pub fix_up: FixUp<T>,
}

impl<T: serde::de::DeserializeOwned + Send + 'static> PathListWatch<T> {
    /// The `ListWatch` that lists and watches `self.path` with `client`.
    pub fn build(self, client: &Client) -> ListWatch<T> {
        let Self {
            path,
            list_accept,
            watch_accept,
            tweak,
            fix_up,
        } = self;
        let (list_client, watch_client) = (client.clone(), client.clone());
        let (list_path, watch_path) = (path.clone(), path);
        let (list_fix, watch_fix) = (fix_up.clone(), fix_up);
        ListWatch::new(
            move |o: ListOptions| {
                let request = list_client.list_path::<T>(&list_path, &o, list_accept);
                let fix = list_fix.clone();
                async move {
                    let mut list = request.await?;
                    list.items.iter_mut().for_each(|i| fix(i));
                    Ok(list)
                }
            },
            move |o: ListOptions| {
                let request = watch_client.watch_path::<T>(&watch_path, &o, watch_accept);
                let fix = watch_fix.clone();
                async move {
                    let stream = request.await?;
                    Ok(stream
                        .map(move |event| {
                            event.map(|mut e| {
                                if let WatchEvent::Added(o)
                                | WatchEvent::Modified(o)
                                | WatchEvent::Deleted(o) = &mut e
                                {
                                    fix(o);
                                }
                                e
                            })
                        })
                        .boxed())
                }
            },
        )
        .tweaked(tweak)
    }
}
