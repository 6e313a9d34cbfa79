//! The `lab-2025-http` and `lab-2025-sse` modes: the lab server serving only the versions up
//! to 2025-11-25, over Streamable HTTP or legacy SSE on a given port of 127.0.0.1, for the
//! interop matrix's row of a server that knows `server/discover` but serves older versions.
//!
//! ```text
//! toolport-fixture lab-2025-http PORT
//! toolport-fixture lab-2025-sse PORT
//! ```
//!
//! It serves for 300 s, then exits.

use std::time::Duration;

use rmcp::model::ProtocolVersion;
use toolport_fixtures::{HttpFixtureServer, LabServer, LegacySseFixtureServer};

use crate::serve;

/// How long the mode serves.
const LIFETIME: Duration = Duration::from_secs(300);

/// How the server is reached.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Http {
    /// Streamable HTTP, on `/mcp`.
    Streamable,
    /// Legacy HTTP+SSE, on `/sse`.
    LegacySse,
}

/// Serves the capped lab server over `http` on the port `args` names; returns the exit status.
pub(crate) fn run(http: Http, args: &[String]) -> i32 {
    let [port] = args else {
        eprintln!("usage: toolport-fixture lab-2025-http|lab-2025-sse PORT");
        return 2;
    };
    let Ok(port) = port.parse::<u16>() else {
        eprintln!("toolport-fixture: `{port}` is not a port");
        return 2;
    };
    let Some(runtime) = serve::runtime() else {
        return 1;
    };
    runtime.block_on(async move {
        let capped = || LabServer::new().serving_up_to(&ProtocolVersion::V_2025_11_25);
        // Held until the lifetime ends: dropping a server stops it.
        let started = match http {
            Http::Streamable => HttpFixtureServer::start_on(port, capped)
                .await
                .map(|s| Box::new(s) as Box<dyn Send>),
            Http::LegacySse => LegacySseFixtureServer::start_on(port, capped)
                .await
                .map(|s| Box::new(s) as Box<dyn Send>),
        };
        match started {
            Ok(_serving) => {
                tokio::time::sleep(LIFETIME).await;
                0
            }
            Err(error) => {
                eprintln!("toolport-fixture: cannot listen on 127.0.0.1:{port}: {error}");
                1
            }
        }
    })
}
