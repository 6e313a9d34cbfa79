//! Turns the SERVER part of the command line into a toolset.

use toolport::stdio::StdioServer;
use toolport::{McpToolset, McpToolsetBuilder, Timeouts};

use crate::args::ServerArgs;

/// A toolset builder for the server the command line names: a stdio child, or the built-in
/// demo task tracker when none is named.
pub(crate) fn toolset_builder(server: &ServerArgs, timeouts: Timeouts) -> McpToolsetBuilder {
    let builder = match server.command.split_first() {
        Some((program, args)) => McpToolset::builder(StdioServer::new(program).args(args)),
        None => McpToolset::builder(toolport_testkit::task_tracker_connector()),
    };
    builder.timeouts(timeouts)
}
