//! The log on stderr: off unless asked for with `--verbose` or `RUST_LOG`.

use std::fmt;

use tracing::field::Field;
use tracing_subscriber::Layer as _;
use tracing_subscriber::field::MakeExt as _;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::format::{Writer, debug_fn};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use crate::terminal::{self, errln};

/// What `--verbose` shows: rmcp's own lines only from warnings up, since it logs every
/// normal end of a session as a cancelled task.
const VERBOSE: &str = "info,rmcp=warn,toolport=debug,toolport_stdio=debug,toolport_session=debug";

/// Starts logging to stderr when `RUST_LOG` names what to log (`target=level` directives, such
/// as `debug` or `info,toolport_http=trace`) or `verbose` is set; in colour only when stderr
/// is a terminal and `NO_COLOR` is not set. On a terminal, every field's value (a server's
/// stderr line, its log message) has its control characters escaped, as the command's output
/// does. A `RUST_LOG` that does not parse is reported and ignored.
pub(crate) fn init(verbose: bool) {
    let directives = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.is_empty() => directives,
        _ if verbose => VERBOSE.to_owned(),
        _ => return,
    };
    let filter: Targets = match directives.parse() {
        Ok(filter) => filter,
        Err(error) => {
            errln!("toolport: RUST_LOG `{directives}` is ignored: {error}");
            return;
        }
    };
    let terminal = terminal::stderr_is_terminal();
    let ansi = terminal && std::env::var_os("NO_COLOR").is_none();
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    let layer = if terminal {
        layer
            .fmt_fields(debug_fn(escaped_field).delimited(" "))
            .boxed()
    } else {
        layer.boxed()
    };
    tracing_subscriber::registry()
        .with(layer)
        .with(filter)
        .init();
}

/// Writes one field as the default formatter does (`name=value`, the message bare), its
/// control characters escaped.
fn escaped_field(writer: &mut Writer<'_>, field: &Field, value: &dyn fmt::Debug) -> fmt::Result {
    let text = if field.name() == "message" {
        format!("{value:?}")
    } else {
        format!("{}={value:?}", field.name())
    };
    writer.write_str(&terminal::escape_text(&text))
}
