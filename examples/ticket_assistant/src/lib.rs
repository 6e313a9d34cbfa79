//! A support-ticket assistant, the reference's worked example: an agent loop over two Toolport
//! toolsets, each cut to an allowlist and fitted to the model's provider.
//!
//! - [`SupportDesk`]: a filesystem server over stdio, offering three read tools of its five,
//!   and a billing server over Streamable HTTP, offering `get_invoice` and `list_invoices`.
//!   The billing server also has `issue_refund`: it is not on the allowlist, and it is guarded
//!   anyway, by an approval policy and an idempotency key, for the day a reviewed change adds it.
//!   [`SupportDesk::tools`] joins both toolsets as one (`toolport::JoinedToolset`);
//!   [`SupportDesk::tools_with_search`] puts them behind tool search (`toolport::search`), so
//!   that the model is offered the search tool alone until it finds what it needs.
//! - [`TicketAssistant`]: the loop, in the messages of the Gemini API, OpenAI's Chat
//!   Completions or Responses API, or Anthropic's Messages API, written and read by
//!   `toolport::provider_messages` (its `ApiShape`); each model turn gets the desk's tools (all,
//!   or the search tool and what it found), declared as the API's request takes them.
//! - [`ScriptedModel`]: a model that replays [`script::double_charge`] (or, with search,
//!   [`script::double_charge_with_search`]), so the whole example runs offline, and is tested,
//!   without a model.

mod assistant;
mod desk;
mod fake_api;
pub mod script;
mod scripted;

pub use assistant::{AssistantError, ChatModel, Event, TicketAssistant};
pub use desk::{
    BILLING_TOOLS, DeskError, FILE_TOOLS, REFUND_APPROVER, SupportDesk, billing_toolset,
    files_server, files_toolset, refund_approval, tickets_dir,
};
pub use scripted::{ScriptedModel, Step};
