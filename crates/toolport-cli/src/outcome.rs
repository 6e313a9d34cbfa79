//! [`Outcome`]: how a successful run of a command ended, which sets the exit status.

/// How a command that ran to the end came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything succeeded: exit 0.
    Success,
    /// A tool reported an error (`isError`): exit 2.
    ToolError,
}
