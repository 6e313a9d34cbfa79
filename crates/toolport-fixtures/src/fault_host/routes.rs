//! [`Routes`]: what one generation of a fault host answers, by transport, and reading the
//! JSON-RPC message a `POST` carries.

use std::sync::Arc;

use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::behaviour::HostTransport;
use super::body::{HostBody, text};
use super::legacy_sse::LegacySseRoutes;
use super::listener::ConnectionHandle;
use super::state::Shared;
use super::streamable::StreamableRoutes;

/// The largest `POST` body read.
const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// The routes of one generation; their sessions die with it.
#[derive(Debug)]
pub(super) enum Routes {
    Streamable(StreamableRoutes),
    LegacySse(LegacySseRoutes),
}

impl Routes {
    /// Fresh routes for `transport`; `dead` kills the generation (a crash).
    pub(super) fn new(
        transport: HostTransport,
        shared: Arc<Shared>,
        dead: CancellationToken,
    ) -> Self {
        match transport {
            HostTransport::StreamableHttp => Self::Streamable(StreamableRoutes::new(shared, dead)),
            HostTransport::LegacySse => Self::LegacySse(LegacySseRoutes::new(shared, dead)),
        }
    }

    /// Answers `request`, which came on `connection`.
    pub(super) async fn handle(
        &self,
        request: Request<Incoming>,
        connection: ConnectionHandle,
    ) -> Response<HostBody> {
        match self {
            Self::Streamable(routes) => routes.handle(request, connection).await,
            Self::LegacySse(routes) => routes.handle(request, connection).await,
        }
    }
}

/// The JSON-RPC message a `POST` carries, or the `400` that refuses it.
pub(super) async fn read_message(request: Request<Incoming>) -> Result<Value, Response<HostBody>> {
    let Ok(body) = Limited::new(request.into_body(), MAX_MESSAGE_BYTES)
        .collect()
        .await
    else {
        return Err(text(StatusCode::BAD_REQUEST, "could not read the body"));
    };
    serde_json::from_slice(&body.to_bytes())
        .map_err(|_| text(StatusCode::BAD_REQUEST, "the body is not JSON"))
}
