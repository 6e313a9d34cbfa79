//! `toolport-bench-http-server`: the fixtures' [`LabServer`] over rmcp's Streamable HTTP on
//! `127.0.0.1` (the fixtures' [`HttpFixtureServer`], TCP_NODELAY), on a `current_thread`
//! runtime, as its own process so the client's CPU is measured apart from the server's.
//!
//! ```text
//! toolport-bench-http-server
//! ```
//!
//! It prints its endpoint (`http://127.0.0.1:<port>/mcp`) as the first line on stdout, then
//! serves until its stdin closes.

use std::io::{self, Write};
use std::process::ExitCode;

use tokio::io::AsyncReadExt;
use toolport_fixtures::{HttpFixtureServer, LabServer, run_server_process};

fn main() -> ExitCode {
    run_server_process("toolport-bench-http-server", async {
        let server = HttpFixtureServer::start(LabServer::new).await?;
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "{}", server.url())?;
        stdout.flush()?;
        drop(stdout);
        // Serve until the client closes our stdin (or exits).
        let mut stdin = tokio::io::stdin();
        let mut sink = [0_u8; 64];
        while stdin.read(&mut sink).await? > 0 {}
        server.stop().await;
        Ok(())
    })
}
