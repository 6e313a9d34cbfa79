//! [`TaskPolicy`]: whether a session lets a server run its tool calls as tasks (the tasks
//! extension of 2026-07-28), and how long it follows one.

use std::time::Duration;

/// How a session treats a tool call that the server runs as a task (the
/// `io.modelcontextprotocol/tasks` extension, SEP-2663).
///
/// When offered (the default), the session declares the extension, and a server may answer a
/// `tools/call` with a task instead of a result. The session then polls `tasks/get` at the
/// interval the server suggests, answers the task's questions through the elicitation
/// handler (at most [`max_input_rounds`](crate::SessionBuilder::max_input_rounds) rounds), and
/// hands back the task's result as the call's. The caller sees an ordinary call.
///
/// The task is cancelled (`tasks/cancel`) when it runs past `timeout`, when `max_polls` polls
/// have not seen it end, when it asks for too many rounds of input, and when the caller stops
/// waiting (drops the call's future).
///
/// A server that does not offer the extension never runs a call as a task, and nothing
/// changes for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskPolicy {
    /// Whether the session declares the tasks extension. Default true.
    pub offered: bool,
    /// The longest a call run as a task is followed, from the server's answer that made it.
    /// Default 10 minutes.
    pub timeout: Duration,
    /// The most `tasks/get` polls for one task. Default 1,000.
    pub max_polls: u32,
}

impl TaskPolicy {
    /// Default for [`TaskPolicy::timeout`].
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);
    /// Default for [`TaskPolicy::max_polls`].
    pub const DEFAULT_MAX_POLLS: u32 = 1_000;

    /// A policy that does not offer tasks: every call is answered as a plain call, and a server
    /// that can run a tool only as a task refuses it.
    pub fn not_offered() -> Self {
        Self {
            offered: false,
            ..Self::default()
        }
    }

    /// Sets [`TaskPolicy::timeout`].
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets [`TaskPolicy::max_polls`]. A bound below 1 counts as 1.
    #[must_use]
    pub fn with_max_polls(mut self, polls: u32) -> Self {
        self.max_polls = polls.max(1);
        self
    }
}

impl Default for TaskPolicy {
    fn default() -> Self {
        Self {
            offered: true,
            timeout: Self::DEFAULT_TIMEOUT,
            max_polls: Self::DEFAULT_MAX_POLLS,
        }
    }
}
