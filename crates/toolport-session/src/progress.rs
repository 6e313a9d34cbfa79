//! Progress of a request in flight: [`Progress`] as its caller sees it, and the routes that
//! take each `notifications/progress` to the request whose token it carries.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use tokio::sync::Notify;

use crate::lock::lock;

/// One progress report of a request in flight, as the server sent it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// How far the work is; it grows with each report.
    pub progress: f64,
    /// What `progress` will be when the work is done, if the server knows.
    pub total: Option<f64>,
    /// What the server says it is doing.
    pub message: Option<String>,
}

/// What a caller runs on each report of its request's progress
/// ([`CallOptions::on_progress`](crate::CallOptions::on_progress)). It runs on the session's
/// notification task, so it should return quickly.
#[derive(Clone)]
pub struct ProgressCallback(Arc<dyn Fn(Progress) + Send + Sync>);

impl ProgressCallback {
    /// A callback that runs `callback`.
    pub fn new(callback: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        Self(Arc::new(callback))
    }
}

impl fmt::Debug for ProgressCallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressCallback")
    }
}

/// What a call asked of its progress reports: a callback, and a bound they may extend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProgressWanted<'a> {
    /// The session's routes.
    pub(crate) routes: &'a Arc<ProgressRoutes>,
    /// Runs on each report.
    pub(crate) callback: Option<&'a ProgressCallback>,
    /// Each report restarts the request bound, up to this long in all.
    pub(crate) extend_to: Option<Duration>,
    /// Where a call the server answers with a task keeps its route while the session follows
    /// the task.
    pub(crate) task_route: Option<&'a TaskRoute>,
}

/// The progress of a call the server runs as a task. The task's reports carry the call's token
/// for the task's whole life, so the call's route is kept until the task is followed to its
/// end; and each new status message the task's polls bring is a report too.
#[derive(Debug, Default)]
pub(crate) struct TaskRoute {
    registration: Mutex<Option<ProgressRegistration>>,
    statuses: Mutex<StatusReports>,
}

/// The status messages reported so far.
#[derive(Debug, Default)]
struct StatusReports {
    count: u32,
    last: Option<String>,
}

impl TaskRoute {
    /// Keeps `registration`, the route of the call that made the task, while this lives.
    pub(crate) fn keep(&self, registration: ProgressRegistration) {
        *lock(&self.registration) = Some(registration);
    }

    /// Reports the task's status `message` to `callback` when it differs from the last one.
    /// Its `progress` counts the status messages so far.
    pub(crate) fn status(&self, message: Option<&str>, callback: Option<&ProgressCallback>) {
        let (Some(message), Some(callback)) = (message, callback) else {
            return;
        };
        let count = {
            let mut statuses = lock(&self.statuses);
            if statuses.last.as_deref() == Some(message) {
                return;
            }
            statuses.last = Some(message.to_owned());
            statuses.count += 1;
            statuses.count
        };
        (callback.0)(Progress {
            progress: f64::from(count),
            total: None,
            message: Some(message.to_owned()),
        });
    }
}

/// The requests in flight that asked for progress, by the token each was sent with.
#[derive(Debug, Default)]
pub(crate) struct ProgressRoutes {
    routes: Mutex<HashMap<ProgressToken, Route>>,
}

#[derive(Debug)]
struct Route {
    callback: Option<ProgressCallback>,
    progressed: Arc<Notify>,
}

impl ProgressRoutes {
    /// Routes the reports that carry `token` (the one rmcp sent the request with) to
    /// `callback` (if any) until the returned registration is dropped.
    ///
    /// A request is registered as soon as rmcp has taken it. On a `current_thread` runtime
    /// nothing runs in between, so no report can come first; on a multi-threaded one a server
    /// would have to answer within that instant, and a report that did would reach only the
    /// session's events.
    pub(crate) fn register(
        self: &Arc<Self>,
        token: ProgressToken,
        callback: Option<ProgressCallback>,
    ) -> ProgressRegistration {
        let progressed = Arc::new(Notify::new());
        let route = Route {
            callback,
            progressed: Arc::clone(&progressed),
        };
        self.lock().insert(token.clone(), route);
        ProgressRegistration {
            routes: Arc::clone(self),
            token,
            progressed,
        }
    }

    /// Hands `params` to the request whose token it carries: its callback runs, and a wait
    /// that progress extends is woken. A token no request holds is ignored.
    pub(crate) fn deliver(&self, params: &ProgressNotificationParam) {
        let (callback, progressed) = {
            let routes = self.lock();
            let Some(route) = routes.get(&params.progress_token) else {
                return;
            };
            (route.callback.clone(), Arc::clone(&route.progressed))
        };
        progressed.notify_one();
        if let Some(callback) = callback {
            (callback.0)(Progress {
                progress: params.progress,
                total: params.total,
                message: params.message.clone(),
            });
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, Route>> {
        lock(&self.routes)
    }
}

/// One request's progress route: its token, and a signal on each report. Dropping it removes
/// the route.
#[derive(Debug)]
pub(crate) struct ProgressRegistration {
    routes: Arc<ProgressRoutes>,
    token: ProgressToken,
    progressed: Arc<Notify>,
}

impl ProgressRegistration {
    /// Completes on the next report of progress (or at once, for one that came since the last
    /// wait).
    pub(crate) async fn progressed(&self) {
        self.progressed.notified().await;
    }
}

impl Drop for ProgressRegistration {
    fn drop(&mut self) {
        self.routes.lock().remove(&self.token);
    }
}
