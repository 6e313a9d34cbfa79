//! [`run_server_process`]: the `main` of a fixture server that runs as its own process.

use std::future::Future;
use std::io;
use std::process::ExitCode;

/// Runs `serve` to completion on a fresh `current_thread` runtime and returns the exit status:
/// success, or failure with one `name: error` line on stderr (failing to start the runtime
/// included).
///
/// The runtime is then shut down without waiting for its blocking threads: tokio reads stdin
/// on one, which may still be waiting for a line the client will never send.
pub fn run_server_process(name: &str, serve: impl Future<Output = io::Result<()>>) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{name}: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(serve);
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{name}: {error}");
            ExitCode::FAILURE
        }
    }
}
