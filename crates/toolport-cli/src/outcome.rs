//! [`Outcome`]: how a run of a command that did not fail ended, which sets the exit status.

/// How a command that did not fail came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything succeeded: exit 0.
    Success,
    /// A tool reported an error (`isError`): exit 2.
    ToolError,
    /// SIGINT or SIGTERM stopped it, and its servers were closed: exit 128 plus the signal's
    /// number (130, 143), as a shell reports it.
    Interrupted(u8),
}
