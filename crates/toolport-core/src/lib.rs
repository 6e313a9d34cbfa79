//! What every Toolport layer shares: the [`Connector`] trait that makes a fresh transport for each
//! (re)connect, the [`Timeouts`] settings, the redacted [`Secret`] string and the shared errors.
//!
//! Transports (`toolport-stdio`, `toolport-http`, `toolport-sse`) implement [`Connector`]; the
//! session layer drives it. Nothing above this crate knows which transport it talks to.
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod boxed_transport;
mod connector;
mod error;
mod secret;
mod timeouts;

pub use boxed_transport::{BoxedTransport, TransportError};
pub use connector::{Connection, ConnectionDiagnostics, Connector, NoDiagnostics};
pub use error::{BoxError, ConnectError};
pub use secret::Secret;
pub use timeouts::Timeouts;

/// The MCP protocol version Toolport asks for unless told otherwise.
pub const DEFAULT_PROTOCOL_VERSION: rmcp::model::ProtocolVersion =
    rmcp::model::ProtocolVersion::V_2025_11_25;
