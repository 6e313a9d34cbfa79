//! The decoding of server messages every Toolport transport shares, as hyper-util is for hyper:
//! the decoder of what a server sends ([`ServerMessageDecoder`], [`decode_server_message`]),
//! which also keeps in core's [`UnmodeledFields`](toolport_core::UnmodeledFields) what rmcp's
//! model drops from the `initialize` result and each `tools/list` page, and the id of an answer
//! too large to keep ([`oversized_answer_id`]) with the error its request gets in its place
//! ([`dropped_answer_error`]).
//!
//! The transports (`toolport-stdio`, `toolport-http`, `toolport-sse`) and the testkit's
//! scripted transport decode with it; depend on it to write a transport of your own.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod decode;
mod oversized_answer;
mod unmodeled_fields;

pub use decode::{ServerMessageDecoder, decode_server_message};
pub use oversized_answer::{dropped_answer_error, oversized_answer_id};
