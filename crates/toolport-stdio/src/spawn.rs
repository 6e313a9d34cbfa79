//! Starting the child: the command, its pipes, its process group (and on Linux its place as
//! the subreaper of what it starts, and its death with this process), and the tasks around it.

use std::io;
use std::process::Stdio;
use std::sync::Arc;

use tokio::process::Command;
use toolport_core::ConnectError;

#[cfg(target_os = "linux")]
use crate::owner;
use crate::process::ChildProcess;
use crate::transport::Parts;
use crate::writer::MessageWriter;
use crate::{StdioDiagnostics, StdioServer, StdioTransport, descendants, env, stderr};

impl StdioServer {
    /// Starts the server and returns its transport, ready for the `initialize` handshake.
    ///
    /// [`Connector::connect`](toolport_core::Connector::connect) calls this and boxes the
    /// result; call it directly to keep the concrete type (for its [`pid`](StdioTransport::pid)).
    ///
    /// # Errors
    ///
    /// [`ConnectError::InvalidSettings`] for an empty command, [`ConnectError::CommandNotFound`]
    /// when the program does not exist or is not executable, and [`ConnectError::Spawn`] for
    /// any other failure to start it.
    ///
    /// # Panics
    ///
    /// When called outside a Tokio runtime.
    pub fn spawn(&self) -> Result<StdioTransport, ConnectError> {
        if self.command.value.is_empty() {
            return Err(ConnectError::invalid_settings(
                "the stdio server's command is empty",
            ));
        }
        let mut command = Command::new(&self.command.value);
        command
            .args(self.args.iter().map(|arg| &arg.value))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        env::apply(&mut command, self.inherit_env, &self.env);
        if let Some(cwd) = &self.cwd {
            command.current_dir(&cwd.value);
        }
        #[cfg(unix)]
        command.process_group(0);
        descendants::keep_orphans_in_tree(&mut command);
        #[cfg(target_os = "linux")]
        let spawned = {
            owner::die_with_owner(&mut command);
            owner::spawn(command)
        };
        #[cfg(not(target_os = "linux"))]
        let spawned = command.spawn();

        let mut child = spawned.map_err(|error| self.spawn_error(error))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            // Cannot happen with piped stdio; the child is killed on drop.
            return Err(self.spawn_error(io::Error::other("the child's pipes are missing")));
        };

        let server: Arc<str> = self.command_line().into();
        let process = ChildProcess::spawn_reaper(child, self.close_grace, self.term_grace);
        tracing::debug!(server = %server, pid = ?process.pid(), "started stdio server");
        let diagnostics = Arc::new(StdioDiagnostics::new(
            server.to_string(),
            process.exit_receiver(),
            self.stderr_lines,
        ));
        let stderr_drain = stderr::spawn_drain(
            stderr,
            Arc::clone(&diagnostics),
            Arc::clone(&server),
            Self::MAX_STDERR_LINE_BYTES,
        );
        Ok(StdioTransport::new(Parts {
            stdout,
            writer: MessageWriter::new(stdin),
            process,
            diagnostics,
            stderr_drain,
            server,
            max_message: Self::MAX_MESSAGE_BYTES,
        }))
    }

    fn spawn_error(&self, source: io::Error) -> ConnectError {
        let command = self.command.text().into_owned();
        let cwd_is_fine = self.cwd.as_ref().is_none_or(|dir| dir.value.is_dir());
        match source.kind() {
            io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied if cwd_is_fine => {
                ConnectError::CommandNotFound { command }
            }
            _ => ConnectError::Spawn { command, source },
        }
    }
}
