//! Small helpers that tests of MCP clients share: a bounded wait, the parameters of a tool
//! call, the text of a result, and running futures concurrently.

use std::future::Future;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::Value;

/// How long [`bounded`] lets one step of a test take: long enough for a loaded CI machine,
/// short enough that a hang fails the test instead of the run.
pub const WAIT: Duration = Duration::from_secs(10);

/// `future`'s output, or a panic naming `what` once [`WAIT`] has passed.
///
/// # Panics
///
/// When `future` takes longer than [`WAIT`].
pub async fn bounded<F: Future>(what: &str, future: F) -> F::Output {
    tokio::time::timeout(WAIT, future)
        .await
        .unwrap_or_else(|_| panic!("{what} took longer than {WAIT:?}"))
}

/// The parameters of a `tools/call` of `tool` with `arguments`, a JSON object.
///
/// # Panics
///
/// When `arguments` is not a JSON object.
pub fn call_params(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("the arguments of {tool} must be a JSON object, got {arguments}");
    };
    CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments)
}

/// The text of the first text block of `result`, or `""` when it has none.
pub fn first_text(result: &CallToolResult) -> &str {
    result
        .content
        .iter()
        .find_map(|block| block.as_text())
        .map_or("", |text| text.text.as_str())
}

/// Runs `futures` concurrently, each on its own task, and returns their outputs in order.
///
/// # Panics
///
/// When one of them panics.
pub async fn join_all<F>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    for handle in handles {
        outputs.push(handle.await.expect("a joined task panicked"));
    }
    outputs
}
