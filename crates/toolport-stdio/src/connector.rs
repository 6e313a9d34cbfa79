//! [`StdioServer`] as a [`Connector`]: each connect spawns a fresh child.

use std::sync::Arc;

use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};

use crate::StdioServer;

#[async_trait::async_trait]
impl Connector for StdioServer {
    /// Spawns the child. Nothing here waits: the session bounds the `initialize` that follows.
    async fn connect(&self, _context: &ConnectContext) -> Result<Connection, ConnectError> {
        let transport = self.spawn()?;
        let diagnostics = transport.diagnostics();
        let unmodeled_fields = transport.unmodeled_fields();
        Ok(Connection::new(BoxedTransport::new(transport))
            .with_diagnostics(diagnostics as Arc<_>)
            .with_unmodeled_fields(unmodeled_fields))
    }

    /// `` `<command> <args...>` over stdio ``. Environment values are left out: they may be secrets.
    fn target(&self) -> String {
        format!("`{}` over stdio", self.command_line())
    }
}
