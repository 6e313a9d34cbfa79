//! [`ApprovalPolicy`]: a ready before-call hook, and a tower layer of its own, that lets a call
//! through, asks the application's approver, or refuses it, by the tool's names and
//! annotations, never by anything the model sent.

mod risk;

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

pub use risk::{Risk, Verdict};

use tower::Layer;

use crate::{BeforeCall, BeforeCallLayer, BeforeCallService, Decision, ToolCall, ToolDefinition};

/// A before-call hook keyed on tool risk, and the layer that asks it
/// ([`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer)).
///
/// Each call gets a [`Verdict`] from the tool alone: its server-side name in the
/// [`deny`](Self::deny), [`ask`](Self::ask) or [`allow`](Self::allow) set (checked in that
/// order), else its [`Risk`] by annotations. By default read-only tools are allowed and every
/// other tool (additive, destructive or unannotated) needs approval; change that per risk with
/// [`on`](Self::on). A call that needs approval goes to the [`approver`](Self::approver) the
/// application supplies (a closure asking a person, or reading the caller's context); with no
/// approver it is denied.
///
/// **The model's say-so never counts.** The policy never reads the call's arguments, so an
/// argument such as `{"approved": true}` changes nothing; only the application's approver,
/// which may read the caller's [`context`](ToolCall::context), can approve.
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use toolport_tools::{ApprovalPolicy, Decision, McpToolset, Risk, ToolCall, Verdict};
///
/// let policy = ApprovalPolicy::new()
///     .deny(["drop_database"])
///     .allow(["add_task"])
///     .on(Risk::Additive, Verdict::Allow)
///     .approver(|call: &ToolCall| {
///         // What the application recorded of the user's confirmation, never the model's word.
///         let context = call.context.as_ref();
///         let confirmed = context.and_then(|c| c.get("confirmed")) == Some(&json!(call.name));
///         async move {
///             if confirmed {
///                 Decision::Approve
///             } else {
///                 Decision::deny("this needs the user's confirmation; ask them")
///             }
///         }
///     });
/// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).layer(policy);
/// # drop(builder);
/// ```
#[derive(Clone)]
#[must_use]
pub struct ApprovalPolicy {
    allow: BTreeSet<String>,
    ask: BTreeSet<String>,
    deny: BTreeSet<String>,
    read_only: Verdict,
    additive: Verdict,
    destructive: Verdict,
    unknown: Verdict,
    approver: Option<Arc<dyn BeforeCall>>,
}

impl ApprovalPolicy {
    /// Read-only tools allowed, every other tool asked about, and no approver (so a call that
    /// needs approval is denied until one is set).
    pub fn new() -> Self {
        Self {
            allow: BTreeSet::new(),
            ask: BTreeSet::new(),
            deny: BTreeSet::new(),
            read_only: Verdict::Allow,
            additive: Verdict::Ask,
            destructive: Verdict::Ask,
            unknown: Verdict::Ask,
            approver: None,
        }
    }

    /// Asks `approver` about every call that needs approval; its [`Decision`] is final.
    pub fn approver(mut self, approver: impl BeforeCall + 'static) -> Self {
        self.approver = Some(Arc::new(approver));
        self
    }

    /// Always allows the tools the server names so, whatever their annotations.
    pub fn allow<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.allow.extend(names.into_iter().map(Into::into));
        self
    }

    /// Always asks about the tools the server names so; this beats [`allow`](Self::allow).
    pub fn ask<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.ask.extend(names.into_iter().map(Into::into));
        self
    }

    /// Always denies the tools the server names so; this beats the other sets.
    pub fn deny<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.deny.extend(names.into_iter().map(Into::into));
        self
    }

    /// What to do with the tools of `risk` that no set names.
    pub fn on(mut self, risk: Risk, verdict: Verdict) -> Self {
        *match risk {
            Risk::ReadOnly => &mut self.read_only,
            Risk::Additive => &mut self.additive,
            Risk::Destructive => &mut self.destructive,
            Risk::Unknown => &mut self.unknown,
        } = verdict;
        self
    }

    /// The verdict on any call of `tool`: by its name, else by its risk.
    pub fn verdict(&self, tool: &ToolDefinition) -> Verdict {
        let name = tool.name.as_ref();
        if self.deny.contains(name) {
            Verdict::Deny
        } else if self.ask.contains(name) {
            Verdict::Ask
        } else if self.allow.contains(name) {
            Verdict::Allow
        } else {
            match Risk::of(tool) {
                Risk::ReadOnly => self.read_only,
                Risk::Additive => self.additive,
                Risk::Destructive => self.destructive,
                Risk::Unknown => self.unknown,
            }
        }
    }
}

impl Default for ApprovalPolicy {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait::async_trait]
impl BeforeCall for ApprovalPolicy {
    async fn before(&self, call: &ToolCall) -> Decision {
        match (self.verdict(&call.tool), &self.approver) {
            (Verdict::Allow, _) => Decision::Approve,
            (Verdict::Ask, Some(approver)) => approver.before(call).await,
            (Verdict::Ask, None) => Decision::deny(format!(
                "{} needs a person's approval, and there is no one to ask; tell the user",
                call.name
            )),
            (Verdict::Deny, _) => Decision::deny(format!("{} is not allowed here", call.name)),
        }
    }
}

impl<S> Layer<S> for ApprovalPolicy {
    type Service = BeforeCallService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        BeforeCallLayer::new(self.clone()).layer(inner)
    }
}

impl fmt::Debug for ApprovalPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApprovalPolicy")
            .field("allow", &self.allow)
            .field("ask", &self.ask)
            .field("deny", &self.deny)
            .field("read_only", &self.read_only)
            .field("additive", &self.additive)
            .field("destructive", &self.destructive)
            .field("unknown", &self.unknown)
            .field("approver", &self.approver.is_some())
            .finish()
    }
}
