//! Tool names the model providers accept: a [`NameRule`] per provider, and a [`ToolNamer`] that
//! names a server's tools by it, with an optional prefix, a hash suffix for a name too long or
//! taken, and the way back to the server's name ([`ToolNames::lookup`]).
//!
//! MCP lets a server name a tool almost anything (`get.user`, `überprüfen`, 200 characters);
//! OpenAI, Anthropic and Gemini accept `[a-zA-Z0-9_-]` and 64 characters at most. A name the
//! rule accepts goes through unchanged; any other is changed as [`ToolNamer`] describes, the
//! same way every time, and every change is reported as a [`NameChange`].

mod change;
mod hash;
mod namer;
mod resolve;
mod rule;
mod sanitize;
mod tool_names;

pub use change::{NameChange, NameChangeKind};
pub use namer::ToolNamer;
pub use rule::{InvalidNameRule, NameChars, NameRule};
pub use tool_names::ToolNames;
