//! The servers of the interop matrix, the transports, and one server running on a free port.

use std::ffi::OsString;
use std::fs::File;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};

use super::operation::Expectations;
use crate::step;

/// How the `toolport` command reaches the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// The CLI starts the server as its child: `-- <command>`.
    Stdio,
    /// `--url http://127.0.0.1:<port>/mcp`.
    StreamableHttp,
    /// `--url http://127.0.0.1:<port>/sse --transport sse`.
    Sse,
}

impl Transport {
    /// Every transport, in the matrix's order.
    pub(crate) const ALL: [Self; 3] = [Self::Stdio, Self::StreamableHttp, Self::Sse];

    /// The name the matrix shows.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::StreamableHttp => "streamable http",
            Self::Sse => "sse",
        }
    }
}

/// How a server is told its port.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PortStyle {
    /// In this environment variable.
    Env(&'static str),
    /// As the last argument.
    Argument,
}

/// A real server nobody here wrote, and what the matrix expects of it.
#[derive(Debug)]
pub(crate) struct PeerServer {
    /// The name the matrix shows.
    pub(crate) name: &'static str,
    /// The program and its leading arguments, before the mode.
    pub(crate) command: Vec<OsString>,
    /// The mode argument for stdio, Streamable HTTP and SSE, in [`Transport::ALL`] order.
    pub(crate) modes: [&'static str; 3],
    /// How the HTTP modes learn their port.
    pub(crate) port: PortStyle,
    /// The tools each operation calls, and what it must see.
    pub(crate) expect: Expectations,
}

impl PeerServer {
    /// The mode argument for `transport`.
    fn mode(&self, transport: Transport) -> &'static str {
        let index = Transport::ALL
            .iter()
            .position(|t| *t == transport)
            .expect("every transport is in ALL");
        self.modes[index]
    }

    /// The SERVER part of a `toolport` command line for `transport`, given the port of a
    /// running server for the HTTP transports.
    pub(crate) fn cli_args(&self, transport: Transport, port: Option<u16>) -> Vec<OsString> {
        let url = |path: &str| format!("http://127.0.0.1:{}{path}", port.unwrap_or_default());
        match transport {
            Transport::Stdio => {
                let mut args: Vec<OsString> = vec!["--".into()];
                args.extend(self.command.iter().cloned());
                args.push(self.mode(transport).into());
                args
            }
            Transport::StreamableHttp => vec!["--url".into(), url("/mcp").into()],
            Transport::Sse => vec![
                "--url".into(),
                url("/sse").into(),
                "--transport".into(),
                "sse".into(),
            ],
        }
    }

    /// Starts the server for an HTTP `transport` on a free port, logging to `log`, and waits
    /// until the port accepts connections.
    pub(crate) fn start(&self, transport: Transport, log: &Path) -> Result<RunningServer> {
        let port = free_port()?;
        let (program, leading) = self
            .command
            .split_first()
            .context("a peer server needs a program")?;
        let mut cmd = Command::new(program);
        cmd.args(leading).arg(self.mode(transport));
        match self.port {
            PortStyle::Env(variable) => cmd.env(variable, port.to_string()),
            PortStyle::Argument => cmd.arg(port.to_string()),
        };
        let output = File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let child = cmd
            .stdin(Stdio::null())
            .stdout(output.try_clone()?)
            .stderr(output)
            .spawn()
            .with_context(|| format!("could not start {}", step::show(&cmd)))?;
        let mut server = RunningServer { child, port };
        server.wait_for_port(STARTUP_LIMIT).with_context(|| {
            format!(
                "{} ({}); see {}",
                self.name,
                transport.label(),
                log.display()
            )
        })?;
        Ok(server)
    }
}

/// How long a server may take to start listening.
const STARTUP_LIMIT: Duration = Duration::from_secs(20);

/// A server process; dropping it kills it by its PID and reaps it.
#[derive(Debug)]
pub(crate) struct RunningServer {
    child: Child,
    /// The port it listens on.
    pub(crate) port: u16,
}

impl RunningServer {
    /// Waits until the port accepts a connection, failing if the server exits first or
    /// `limit` passes.
    fn wait_for_port(&mut self, limit: Duration) -> Result<()> {
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let deadline = Instant::now() + limit;
        loop {
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            if let Some(status) = self.child.try_wait()? {
                bail!("the server exited ({status}) before listening on {address}");
            }
            if Instant::now() >= deadline {
                bail!("the server did not listen on {address} within {limit:?}");
            }
            thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        // Killing a server that already exited is harmless; reaping it is what matters.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port that was free a moment ago on 127.0.0.1.
fn free_port() -> Result<u16> {
    let listener =
        TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).context("finding a free local port")?;
    Ok(listener.local_addr()?.port())
}
