//! [`AfterCall`]: a hook that rewrites a call's result, and [`AfterCallLayer`], the tower layer
//! that puts one on a toolset's call path.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rmcp::model::CallToolResult;
use tower::{Layer, Service};

use crate::ToolCall;

/// A hook that rewrites the result of a call before it is mapped for the model. Put it on a
/// toolset's call path with [`AfterCallLayer`].
///
/// A closure `Fn(&ToolCall, CallToolResult) -> impl Future<Output = CallToolResult>` is a
/// hook; its future must not borrow the call.
#[async_trait::async_trait]
pub trait AfterCall: Send + Sync {
    /// The result the model is to read instead of `result`.
    async fn after(&self, call: &ToolCall, result: CallToolResult) -> CallToolResult;
}

#[async_trait::async_trait]
impl<F, Fut> AfterCall for F
where
    F: Fn(&ToolCall, CallToolResult) -> Fut + Send + Sync,
    Fut: Future<Output = CallToolResult> + Send,
{
    async fn after(&self, call: &ToolCall, result: CallToolResult) -> CallToolResult {
        self(call, result).await
    }
}

/// A tower layer that hands each result of the service it wraps to an [`AfterCall`] hook, for
/// [`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer). It sees what comes back from
/// further in: the server's result, once its structured content passed the output schema, or
/// the answer of a [`BeforeCallLayer`](crate::BeforeCallLayer) added after it. An error passes
/// it by.
#[derive(Clone)]
pub struct AfterCallLayer {
    hook: Arc<dyn AfterCall>,
}

impl AfterCallLayer {
    /// A layer that hands results to `hook`.
    pub fn new(hook: impl AfterCall + 'static) -> Self {
        Self {
            hook: Arc::new(hook),
        }
    }
}

impl std::fmt::Debug for AfterCallLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AfterCallLayer").finish_non_exhaustive()
    }
}

impl<S> Layer<S> for AfterCallLayer {
    type Service = AfterCallService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AfterCallService {
            hook: Arc::clone(&self.hook),
            inner,
        }
    }
}

/// The service of an [`AfterCallLayer`] around `S`.
#[derive(Clone)]
pub struct AfterCallService<S> {
    hook: Arc<dyn AfterCall>,
    inner: S,
}

impl<S> std::fmt::Debug for AfterCallService<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AfterCallService").finish_non_exhaustive()
    }
}

impl<S> Service<ToolCall> for AfterCallService<S>
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
        let fresh = self.inner.clone();
        let mut ready = std::mem::replace(&mut self.inner, fresh);
        Box::pin(async move {
            let kept = call.clone();
            let result = ready.call(call).await?;
            Ok(hook.after(&kept, result).await)
        })
    }
}
