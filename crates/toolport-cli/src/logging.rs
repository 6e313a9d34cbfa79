//! The log on stderr: off unless asked for with `--verbose` or `RUST_LOG`.

use std::io::IsTerminal as _;

use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// What `--verbose` shows.
const VERBOSE: &str = "info,toolport=debug,toolport_stdio=debug,toolport_session=debug";

/// Starts logging to stderr when `RUST_LOG` names what to log (`target=level` directives, such
/// as `debug` or `info,toolport_http=trace`) or `verbose` is set; in colour only when stderr
/// is a terminal and `NO_COLOR` is not set. A `RUST_LOG` that does not parse is reported and
/// ignored.
pub(crate) fn init(verbose: bool) {
    let directives = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.is_empty() => directives,
        _ if verbose => VERBOSE.to_owned(),
        _ => return,
    };
    let filter: Targets = match directives.parse() {
        Ok(filter) => filter,
        Err(error) => {
            eprintln!("toolport: RUST_LOG `{directives}` is ignored: {error}");
            return;
        }
    };
    let ansi = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    tracing_subscriber::registry()
        .with(layer)
        .with(filter)
        .init();
}
