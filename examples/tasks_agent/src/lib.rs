//! A small agent loop over any [`Toolset`]: the model picks a tool, the loop calls it and feeds
//! the result back, until the model answers. Tool errors reach the model as messages.
//!
//! The [`Model`] trait stands in for an LLM; [`ScriptedModel`] replays recorded turns, so the
//! whole loop runs, and is tested, without one.

mod agent;
mod model;
mod scripted;

pub use agent::{Agent, AgentError, Message};
pub use model::{Model, ModelTurn};
pub use scripted::ScriptedModel;

pub use toolport::Toolset;
