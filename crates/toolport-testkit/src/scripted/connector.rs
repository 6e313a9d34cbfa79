//! [`ScriptedConnector`] and [`ScriptedServer`]: each connect of the one is a connection the
//! other accepts.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{Mutex, mpsc};
use toolport_core::{
    BoxedTransport, ConnectContext, ConnectError, Connection, Connector, UnmodeledFields,
};

use super::connection::ScriptedConnection;
use super::transport::ScriptedTransport;

/// A connected pair: the connector for the client under test, the server handle for the test.
///
/// Every [`connect`](Connector::connect) makes a fresh connection, which
/// [`ScriptedServer::accept`] hands to the test; the test then plays the server's side message
/// by message. Nothing is answered unless the test answers it, so a test can hold a request
/// unanswered (to see a timeout), drop a connection (to see a crash), or send a notification
/// between two requests. Run it with `#[tokio::test(start_paused = true)]` and timeouts pass
/// without waiting.
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use toolport_core::{ConnectContext, Connector};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let (connector, mut server) = toolport_testkit::scripted::pair();
/// let client = tokio::spawn(async move {
///     let connection = connector.connect(&ConnectContext::default()).await.unwrap();
///     rmcp::serve_client((), connection.transport).await.unwrap();
/// });
/// let mut connection = server.accept().await;
/// let initialize = connection.expect_request("initialize").await;
/// connection.respond(&initialize, toolport_testkit::scripted::initialize_result());
/// connection.expect_notification("notifications/initialized").await;
/// client.await.unwrap();
/// # }
/// ```
pub fn pair() -> (ScriptedConnector, ScriptedServer) {
    let (accepted, connections) = mpsc::unbounded_channel();
    let connector = ScriptedConnector {
        accepted,
        connects: AtomicUsize::new(0),
    };
    let server = ScriptedServer {
        connections: Mutex::new(connections),
    };
    (connector, server)
}

/// The client's side of [`pair`]: a [`Connector`] whose every connect reaches the
/// [`ScriptedServer`].
pub struct ScriptedConnector {
    accepted: mpsc::UnboundedSender<ScriptedConnection>,
    connects: AtomicUsize,
}

impl ScriptedConnector {
    /// How many times [`connect`](Connector::connect) was called.
    pub fn connect_count(&self) -> usize {
        self.connects.load(Ordering::SeqCst)
    }
}

impl fmt::Debug for ScriptedConnector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScriptedConnector")
            .field("connects", &self.connect_count())
            .finish_non_exhaustive()
    }
}

#[async_trait::async_trait]
impl Connector for ScriptedConnector {
    /// A fresh connection, which the server handle accepts. Fails as unreachable once the
    /// handle is gone.
    async fn connect(&self, _context: &ConnectContext) -> Result<Connection, ConnectError> {
        self.connects.fetch_add(1, Ordering::SeqCst);
        let unmodeled_fields = Arc::new(UnmodeledFields::default());
        let (transport, connection) = ScriptedTransport::pair(unmodeled_fields.clone());
        self.accepted
            .send(connection)
            .map_err(|_| ConnectError::unreachable("the scripted server is gone"))?;
        Ok(Connection::new(BoxedTransport::new(transport)).with_unmodeled_fields(unmodeled_fields))
    }

    fn target(&self) -> String {
        "the scripted server".to_owned()
    }
}

/// The test's side of [`pair`]: accepts each connection the client makes.
#[derive(Debug)]
pub struct ScriptedServer {
    connections: Mutex<mpsc::UnboundedReceiver<ScriptedConnection>>,
}

impl ScriptedServer {
    /// The next connection the client makes, waiting for it.
    ///
    /// # Panics
    ///
    /// When the connector is gone and no connection is left to accept.
    pub async fn accept(&self) -> ScriptedConnection {
        self.connections
            .lock()
            .await
            .recv()
            .await
            .expect("the client made no further connection")
    }
}
