//! `mcp-manager-lab-server`: the fixtures' lab server (echo, sleep, add, ...) over stdio, one
//! of the example's own child servers. It exits when stdin closes, or after two minutes.

use std::process::ExitCode;
use std::time::Duration;

use toolport_fixtures::{LabServer, run_server_process};
use toolport_testkit::serve;

fn main() -> ExitCode {
    run_server_process("mcp-manager-lab-server", async {
        let stdio = tokio::io::join(tokio::io::stdin(), tokio::io::stdout());
        let _ =
            tokio::time::timeout(Duration::from_secs(120), serve(LabServer::new(), stdio)).await;
        Ok(())
    })
}
