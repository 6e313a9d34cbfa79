//! [`BeforeCall`]: a hook that approves, denies or answers a call, and [`BeforeCallLayer`], the
//! tower layer that puts one on a toolset's call path.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rmcp::model::{CallToolResult, ContentBlock};
use tower::{Layer, Service};

use crate::ToolCall;

/// What a [`BeforeCall`] hook decides about one call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Decision {
    /// Let the call go on, further down the call path.
    Approve,
    /// Refuse the call. The model reads the reason as the tool's error result
    /// (`isError` set); nothing is sent to the server.
    Deny(String),
    /// Answer in the server's place: the model reads this result as the tool's. Nothing is
    /// sent to the server, and the layers further in never see the call.
    Answer(CallToolResult),
}

impl Decision {
    /// A refusal the model reads as `reason`.
    pub fn deny(reason: impl Into<String>) -> Self {
        Self::Deny(reason.into())
    }
}

/// A hook that [decides](Decision) whether a call goes on. It judges the call by the tool and
/// the caller; the model's arguments are the model's word, not the user's. Put it on a
/// toolset's call path with [`BeforeCallLayer`].
///
/// A closure `Fn(&ToolCall) -> impl Future<Output = Decision>` is a hook; its future must not
/// borrow the call (clone what it needs).
#[async_trait::async_trait]
pub trait BeforeCall: Send + Sync {
    /// Decides about `call`.
    async fn before(&self, call: &ToolCall) -> Decision;
}

#[async_trait::async_trait]
impl<F, Fut> BeforeCall for F
where
    F: Fn(&ToolCall) -> Fut + Send + Sync,
    Fut: Future<Output = Decision> + Send,
{
    async fn before(&self, call: &ToolCall) -> Decision {
        self(call).await
    }
}

/// A tower layer that asks a [`BeforeCall`] hook about each call, for
/// [`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer): an approved call goes on to
/// the service it wraps; a denied or answered one comes back at once, as the tool's result.
///
/// # Examples
///
/// ```
/// use toolport_tools::{BeforeCallLayer, Decision, McpToolset, ToolCall};
///
/// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).layer(
///     BeforeCallLayer::new(|call: &ToolCall| {
///         let dropping = call.name == "drop_table";
///         async move {
///             if dropping {
///                 Decision::deny("drop_table is off today")
///             } else {
///                 Decision::Approve
///             }
///         }
///     }),
/// );
/// # drop(builder);
/// ```
#[derive(Clone)]
pub struct BeforeCallLayer {
    hook: Arc<dyn BeforeCall>,
}

impl BeforeCallLayer {
    /// A layer that asks `hook`.
    pub fn new(hook: impl BeforeCall + 'static) -> Self {
        Self {
            hook: Arc::new(hook),
        }
    }
}

impl std::fmt::Debug for BeforeCallLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BeforeCallLayer").finish_non_exhaustive()
    }
}

impl<S> Layer<S> for BeforeCallLayer {
    type Service = BeforeCallService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        BeforeCallService {
            hook: Arc::clone(&self.hook),
            inner,
        }
    }
}

/// The service of a [`BeforeCallLayer`] around `S`.
#[derive(Clone)]
pub struct BeforeCallService<S> {
    hook: Arc<dyn BeforeCall>,
    inner: S,
}

impl<S> std::fmt::Debug for BeforeCallService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BeforeCallService").finish_non_exhaustive()
    }
}

impl<S> Service<ToolCall> for BeforeCallService<S>
where
    S: Service<ToolCall, Response = CallToolResult> + Clone + Send + 'static,
    S::Future: Send,
{
    type Response = CallToolResult;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<CallToolResult, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, call: ToolCall) -> Self::Future {
        let hook = Arc::clone(&self.hook);
        // The service made ready is the one that takes the call; a clone waits for the next.
        let fresh = self.inner.clone();
        let mut ready = std::mem::replace(&mut self.inner, fresh);
        Box::pin(async move {
            match hook.before(&call).await {
                Decision::Approve => ready.call(call).await,
                Decision::Deny(reason) => {
                    tracing::info!(tool = %call.name, %reason, "a before-call hook denied the call");
                    Ok(CallToolResult::error(vec![ContentBlock::text(reason)]))
                }
                Decision::Answer(result) => {
                    tracing::debug!(tool = %call.name, "a before-call hook answered the call");
                    Ok(result)
                }
            }
        })
    }
}
