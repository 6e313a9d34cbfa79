//! `cargo xtask interop`: the `toolport` command, run as a user runs it, against real servers
//! over every transport, printed as a matrix. Any red cell fails the run.
//!
//! Servers: the reference `server-everything` (TypeScript SDK), the task tracker on the
//! official Python SDK (`tests/peers/python_tasks_server.py`), and rmcp's server serving only
//! the versions up to 2025-11-25 (`toolport-fixture lab-2025`), which refuses
//! `server/discover` as a server of that kind does. Transports: stdio, Streamable
//! HTTP and legacy SSE. Operations: initialize and list, a call, a tool error (exit status 2)
//! and an image result. HTTP servers start on free 127.0.0.1 ports, with their logs under
//! `target/interop/`, and are killed by PID when their row is done.

mod operation;
mod server;

use std::fs;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};

use self::operation::{Expectations, Operation, Probe};
use self::server::{PeerServer, PortStyle, Transport};
use crate::peers::{self, Peers};
use crate::workspace;

/// One row of the matrix: a server over a transport, and each operation's cell.
#[derive(Debug)]
struct Row {
    server: &'static str,
    transport: Transport,
    cells: Vec<Result<String, String>>,
}

/// Runs the matrix and fails on any red cell.
pub(crate) fn run() -> Result<()> {
    let start = Instant::now();
    let peers = peers::run()?;
    let cli = workspace::build_bin("toolport")?;
    let fixture = workspace::build_bin("toolport-fixture")?;
    let logs = workspace::root().join("target").join("interop");
    fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;

    let mut rows = Vec::new();
    for server in servers(&peers, &fixture) {
        for transport in Transport::ALL {
            let log = logs.join(format!(
                "{}-{}.log",
                server.name,
                transport.label().replace(' ', "-")
            ));
            let cells = match transport {
                Transport::Stdio => Ok(None),
                _ => server.start(transport, &log).map(Some),
            }
            .map(|running| {
                let port = running.as_ref().map(|r| r.port);
                let args = server.cli_args(transport, port);
                Operation::ALL
                    .iter()
                    .map(|op| operation::run(*op, &cli, &args, &server.expect))
                    .collect::<Vec<_>>()
                // `running` is dropped here: the server is killed before the next row.
            })
            .unwrap_or_else(|error| {
                let why = format!("the server did not start: {error:#}");
                vec![Err(why); Operation::ALL.len()]
            });
            rows.push(Row {
                server: server.name,
                transport,
                cells,
            });
        }
    }

    print_matrix(&rows);
    let red: Vec<String> = rows
        .iter()
        .flat_map(|row| {
            Operation::ALL
                .iter()
                .zip(&row.cells)
                .filter_map(move |(op, cell)| {
                    cell.as_ref().err().map(|why| {
                        format!(
                            "{} / {} / {}: {why}",
                            row.server,
                            row.transport.label(),
                            op.label()
                        )
                    })
                })
        })
        .collect();
    if !red.is_empty() {
        bail!("interop: {} red cells:\n  {}", red.len(), red.join("\n  "));
    }
    println!(
        "interop: ok: {} cells green in {:.1}s",
        rows.len() * Operation::ALL.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The servers of the matrix, from the installed peers and the `toolport-fixture` binary at
/// `fixture`.
fn servers(peers: &Peers, fixture: &Path) -> [PeerServer; 3] {
    let script = workspace::root()
        .join("tests")
        .join("peers")
        .join("python_tasks_server.py");
    [
        PeerServer {
            name: "server-everything",
            command: vec![peers.server_everything.clone().into()],
            modes: ["stdio", "streamableHttp", "sse"],
            port: PortStyle::Env("PORT"),
            expect: Expectations {
                listed: "echo",
                call: Probe {
                    tool: "echo",
                    args: r#"{"message":"hi"}"#,
                    shows: "Echo: hi",
                },
                // A file to fetch from a loopback port nothing listens on: the server's fetch
                // fails and it answers with a tool error. (Arguments the schema refuses never
                // reach a server: the client checks them first.)
                error: Probe {
                    tool: "gzip-file-as-resource",
                    args: r#"{"name":"x.gz","data":"http://127.0.0.1:9/x"}"#,
                    shows: "fetch failed",
                },
                image: Probe {
                    tool: "get-tiny-image",
                    args: "{}",
                    shows: "[image image/png",
                },
            },
        },
        PeerServer {
            name: "python-sdk-tasks",
            command: vec![peers.python.clone().into(), script.into()],
            modes: ["stdio", "streamable-http", "sse"],
            port: PortStyle::Argument,
            expect: Expectations {
                listed: "list_tasks",
                call: Probe {
                    tool: "list_tasks",
                    args: "{}",
                    shows: "T-1",
                },
                error: Probe {
                    tool: "complete_task",
                    args: r#"{"task_id":"T-9"}"#,
                    shows: "No task with ID T-9",
                },
                image: Probe {
                    tool: "get_logo",
                    args: "{}",
                    shows: "[image image/png",
                },
            },
        },
        // rmcp's server with its versions capped at 2025-11-25: it knows `server/discover` and
        // refuses it with -32022 and the versions it serves, and the default `auto` falls back
        // to `initialize` on the same connection.
        PeerServer {
            name: "rmcp-up-to-2025",
            command: vec![fixture.into()],
            modes: ["lab-2025", "lab-2025-http", "lab-2025-sse"],
            port: PortStyle::Argument,
            expect: Expectations {
                listed: "echo",
                call: Probe {
                    tool: "echo",
                    args: r#"{"text":"hi"}"#,
                    shows: "hi",
                },
                error: Probe {
                    tool: "crash",
                    args: "{}",
                    shows: "crash() exits only the toolport-fixture process",
                },
                image: Probe {
                    tool: "get_image",
                    args: "{}",
                    shows: "[image image/png",
                },
            },
        },
    ]
}

/// Prints the matrix: one row per server and transport, one column per operation.
fn print_matrix(rows: &[Row]) {
    let cell_text = |cell: &Result<String, String>| match cell {
        Ok(text) => text.clone(),
        Err(_) => "FAIL".to_owned(),
    };
    let mut header = format!("\n{:<18}  {:<15}", "server", "transport");
    for op in Operation::ALL {
        header.push_str(&format!("  {:<16}", op.label()));
    }
    println!("{}", header.trim_end());
    for row in rows {
        let mut line = format!("{:<18}  {:<15}", row.server, row.transport.label());
        for cell in &row.cells {
            line.push_str(&format!("  {:<16}", cell_text(cell)));
        }
        println!("{}", line.trim_end());
    }
    println!();
}
