//! A scripted mock transport, in the style of tower-test's `mock::pair()`: [`pair`] gives a
//! [`Connector`](toolport_core::Connector) for the code under test and a [`ScriptedServer`]
//! handle with which the test asserts each message the client sends and answers it.

mod connection;
mod connector;
mod transport;

pub use connection::{ClientMessage, ScriptedConnection, initialize_result};
pub use connector::{ScriptedConnector, ScriptedServer, pair};
