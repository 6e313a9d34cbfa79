//! What every Toolport layer shares: the [`Connector`] trait that makes a fresh transport for each
//! (re)connect with the session's [`ConnectContext`], the [`Timeouts`] settings, the caller's
//! [`ReadonlyContext`], [`Secret`]s, the error-chain markers ([`AuthorizationRequired`],
//! [`NotDelivered`]), the ledger of lost answers ([`LostAnswers`]), what a server says that
//! rmcp's model drops ([`UnmodeledFields`]) and the shared errors.
//!
//! Transports (`toolport-stdio`, `toolport-http`, `toolport-sse`) implement [`Connector`]; the
//! session layer drives it. Nothing above this crate knows which transport it talks to. The
//! decoding of server messages the transports share (`toolport_codec::ServerMessageDecoder`,
//! `toolport_codec::oversized_answer_id`) is in `toolport-codec`.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod authorization;
mod boxed_transport;
mod connect_context;
mod connector;
mod context;
mod error;
mod error_chain;
mod lost_answers;
mod not_delivered;
mod protocol_choice;
mod secret;
mod server_exit;
mod timeouts;
mod unmodeled_fields;

pub use authorization::AuthorizationRequired;
pub use boxed_transport::{BoxedTransport, TransportError};
pub use connect_context::ConnectContext;
pub use connector::{Connection, ConnectionDiagnostics, Connector, NoDiagnostics};
pub use context::ReadonlyContext;
pub use error::{BoxError, ConnectError};
pub use error_chain::error_chain;
pub use lost_answers::LostAnswers;
pub use not_delivered::NotDelivered;
pub use protocol_choice::ProtocolChoice;
pub use secret::Secret;
pub use server_exit::ServerExit;
pub use timeouts::Timeouts;
pub use unmodeled_fields::{TaskSupport, UnmodeledFields};
