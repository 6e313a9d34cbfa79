//! [`Layers`]: the tower layers a user puts around a toolset's call path, each boxed so that
//! the toolset's type never changes, and [`ToolService`], the service they wrap.

use std::fmt;
use std::sync::Arc;

use rmcp::model::CallToolResult;
use toolport_core::BoxError;
use tower::util::BoxCloneSyncService;
use tower::{Layer, Service, ServiceExt};

use crate::{ToolCall, ToolError};

/// The call path of a toolset as a tower service: a [`ToolCall`] in, the server's
/// `CallToolResult` or a [`ToolError`] out. Each layer of
/// [`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer) wraps one, and is boxed back
/// into one; the innermost is a [`SessionService`](crate::SessionService).
pub type ToolService = BoxCloneSyncService<ToolCall, CallToolResult, ToolError>;

/// One user layer, boxed: it wraps a [`ToolService`] and gives one back.
type BoxedLayer = Arc<dyn Fn(ToolService) -> ToolService + Send + Sync>;

/// The user's layers, in the order they were added: the first is the outermost.
#[derive(Clone, Default)]
pub(crate) struct Layers(Vec<BoxedLayer>);

impl Layers {
    /// Adds `layer` inside the layers added before it. Its errors become [`ToolError`]s: a
    /// `ToolError` from further in comes back as it was, anything else is a
    /// [`ToolError::Layer`].
    pub(crate) fn push<L>(&mut self, layer: L)
    where
        L: Layer<ToolService> + Send + Sync + 'static,
        L::Service: Service<ToolCall, Response = CallToolResult> + Clone + Send + Sync + 'static,
        <L::Service as Service<ToolCall>>::Error: Into<BoxError>,
        <L::Service as Service<ToolCall>>::Future: Send + 'static,
    {
        self.0.push(Arc::new(move |inner| {
            BoxCloneSyncService::new(layer.layer(inner).map_err(ToolError::from_layer))
        }));
    }

    /// Whether no layer was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `inner` wrapped in every layer.
    pub(crate) fn around(&self, inner: ToolService) -> ToolService {
        self.0
            .iter()
            .rev()
            .fold(inner, |service, layer| layer(service))
    }
}

impl fmt::Debug for Layers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layers({})", self.0.len())
    }
}
