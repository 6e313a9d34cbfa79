//! The command line of the `faulty` mode.

use std::path::PathBuf;
use std::time::Duration;

/// What `toolport-fixture faulty` prints on a bad command line.
pub(super) const USAGE: &str = "usage: toolport-fixture faulty [--ledger PATH] \
     [--hang-initialize-starts N] [--lifetime-secs N]";

/// The `faulty` mode's settings.
#[derive(Debug)]
pub(super) struct Options {
    /// Where the server writes what it did.
    pub(super) ledger: Option<PathBuf>,
    /// How many starts, counted in the ledger, hang in `initialize`.
    pub(super) hang_initialize_starts: usize,
    /// How long the process lives at most.
    pub(super) lifetime: Duration,
}

impl Options {
    /// Parses the arguments after `faulty`; `None` for anything it does not know.
    pub(super) fn parse(args: &[String]) -> Option<Self> {
        let mut options = Self {
            ledger: None,
            hang_initialize_starts: 0,
            lifetime: Duration::from_secs(60),
        };
        let mut rest = args;
        while let [flag, value, tail @ ..] = rest {
            match flag.as_str() {
                "--ledger" => options.ledger = Some(PathBuf::from(value)),
                "--hang-initialize-starts" => {
                    options.hang_initialize_starts = value.parse().ok()?
                }
                "--lifetime-secs" => {
                    options.lifetime = Duration::from_secs(value.parse().ok()?);
                }
                _ => return None,
            }
            rest = tail;
        }
        rest.is_empty().then_some(options)
    }
}
