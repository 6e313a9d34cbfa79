//! [`Routes`]: what one generation of a fault host answers, by transport.

use std::sync::Arc;

use http::{Request, Response};
use hyper::body::Incoming;
use tokio_util::sync::CancellationToken;

use super::behaviour::HostTransport;
use super::body::HostBody;
use super::connection::ConnectionHandle;
use super::legacy_sse::LegacySseRoutes;
use super::state::Shared;
use super::streamable::StreamableRoutes;

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
