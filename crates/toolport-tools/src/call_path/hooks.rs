//! Before-call and after-call hooks: [`BeforeCall`] approves, denies or answers a call before it
//! goes down the call path, [`AfterCall`] rewrites the server's result, and [`Hooks`] runs a
//! toolset's hooks in order.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};

use crate::ToolCall;

/// What a [`BeforeCall`] hook decides about one call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Decision {
    /// Let the call go on, to the next hook and then to the server.
    Approve,
    /// Refuse the call. The model reads the reason as the tool's error result
    /// (`isError` set); nothing is sent to the server.
    Deny(String),
    /// Answer in the server's place: the model reads this result as the tool's. Nothing is
    /// sent to the server, and no after-call hook runs on it.
    Answer(CallToolResult),
}

impl Decision {
    /// A refusal the model reads as `reason`.
    pub fn deny(reason: impl Into<String>) -> Self {
        Self::Deny(reason.into())
    }
}

/// A hook that sees each call after its arguments passed the input schema and before it enters
/// the toolset's layers, and [decides](Decision) whether it goes on. It judges the call by the
/// tool and the caller; the model's arguments are the model's word, not the user's.
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

/// A hook that rewrites the server's result of a call before it is mapped for the model (after
/// the output schema check). It sees only results that came from the server.
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

/// A toolset's hooks, each kind in the order they were added.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    before: Vec<Arc<dyn BeforeCall>>,
    after: Vec<Arc<dyn AfterCall>>,
}

impl Hooks {
    /// Adds a before-call hook after those added before it.
    pub(crate) fn push_before(&mut self, hook: Arc<dyn BeforeCall>) {
        self.before.push(hook);
    }

    /// Adds an after-call hook after those added before it.
    pub(crate) fn push_after(&mut self, hook: Arc<dyn AfterCall>) {
        self.after.push(hook);
    }

    /// The first decision that is not [`Decision::Approve`], or that one when every hook
    /// approves.
    pub(crate) async fn decide(&self, call: &ToolCall) -> Decision {
        for hook in &self.before {
            let decision = hook.before(call).await;
            if decision != Decision::Approve {
                return decision;
            }
        }
        Decision::Approve
    }

    /// Whether any after-call hook is set.
    pub(crate) fn rewrites(&self) -> bool {
        !self.after.is_empty()
    }

    /// `result` rewritten by each after-call hook in turn.
    pub(crate) async fn rewrite(
        &self,
        call: &ToolCall,
        mut result: CallToolResult,
    ) -> CallToolResult {
        for hook in &self.after {
            result = hook.after(call, result).await;
        }
        result
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("before", &self.before.len())
            .field("after", &self.after.len())
            .finish()
    }
}

/// The result the model reads for a call denied with `reason`.
pub(crate) fn denial(reason: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(reason)])
}
