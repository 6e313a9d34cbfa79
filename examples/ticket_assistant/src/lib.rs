//! A support-ticket assistant, the reference's worked example: an agent loop over two Toolport
//! toolsets, each cut to an allowlist and fitted to the model's provider.
//!
//! - [`SupportDesk`]: a filesystem server over stdio, offering three read tools of its five,
//!   and a billing server over Streamable HTTP, offering `get_invoice` and `list_invoices`.
//!   The billing server also has `issue_refund`: it is not on the allowlist, and it is guarded
//!   anyway, by an approval policy and an idempotency key, for the day a reviewed change adds it.
//! - [`TicketAssistant`]: the loop, in the message shapes of Gemini, OpenAI or Anthropic
//!   ([`ApiShape`]); each model turn gets the toolsets' provider function declarations.
//! - [`ScriptedModel`]: a model that replays [`script::double_charge`], so the whole example
//!   runs offline, and is tested, without a model.

mod assistant;
mod desk;
pub mod script;
mod scripted;
mod wire;

pub use assistant::{AssistantError, ChatModel, Event, TicketAssistant};
pub use desk::{
    BILLING_TOOLS, DeskError, FILE_TOOLS, REFUND_APPROVER, SupportDesk, billing_toolset,
    files_server, files_toolset, refund_approval, tickets_dir,
};
pub use scripted::{ScriptedModel, Step};
pub use wire::{ApiShape, CallResult, FunctionCall, ModelReply, UnreadableReply};
