//! The lab server's tool parameters and structured results.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The arguments of `echo`, and its structured result.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub(crate) struct EchoText {
    /// The text to send back.
    pub(crate) text: String,
}

/// The arguments of `sleep`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub(crate) struct SleepParams {
    /// How long to sleep, in milliseconds.
    pub(crate) ms: u64,
}

/// The arguments of `add`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub(crate) struct AddParams {
    /// The first number.
    pub(crate) a: i64,
    /// The second number.
    pub(crate) b: i64,
}

/// The result of `add`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Sum {
    /// `a + b`.
    pub(crate) sum: i64,
}
