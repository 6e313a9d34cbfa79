//! [`FaultLedger`]: a file in which a misbehaving fixture process writes down what it did, so
//! that the test that started it can count starts, side effects and cancellations after the
//! process is gone.

use std::fs::OpenOptions;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A log of what a fixture server did, one entry a line, shared by every process started with
/// the same path (the `toolport-fixture faulty --ledger PATH` mode writes it).
///
/// Each entry is appended with a single write to a file opened for appending, so entries from
/// a process that is killed right after are whole, and two processes never interleave theirs.
///
/// # Examples
///
/// ```
/// use toolport_fixtures::FaultLedger;
///
/// let dir = std::env::temp_dir().join(format!("ledger-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let ledger = FaultLedger::new(dir.join("ledger"));
/// ledger.record("started")?;
/// ledger.record("charged order-1")?;
/// assert_eq!(ledger.count("started"), 1);
/// assert_eq!(ledger.entries_starting("charged "), vec!["charged order-1"]);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct FaultLedger {
    path: PathBuf,
}

impl FaultLedger {
    /// A ledger kept in the file at `path`, created on the first entry.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// Where the ledger is kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `entry` as one line. A newline inside `entry` is replaced by a space.
    pub fn record(&self, entry: &str) -> io::Result<()> {
        let mut line = entry.replace('\n', " ");
        line.push('\n');
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        file.write_all(line.as_bytes())
    }

    /// Every entry so far, oldest first; none when the file does not exist yet.
    pub fn entries(&self) -> Vec<String> {
        std::fs::read_to_string(&self.path)
            .map(|text| text.lines().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// How many entries are exactly `entry`.
    pub fn count(&self, entry: &str) -> usize {
        self.entries().iter().filter(|line| *line == entry).count()
    }

    /// The entries that start with `prefix`, oldest first.
    pub fn entries_starting(&self, prefix: &str) -> Vec<String> {
        self.entries()
            .into_iter()
            .filter(|line| line.starts_with(prefix))
            .collect()
    }

    /// Waits up to `timeout` for an entry that starts with `prefix`, polling the file, and
    /// returns the first one.
    pub async fn wait_for(&self, prefix: &str, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(entry) = self.entries_starting(prefix).into_iter().next() {
                return Some(entry);
            }
            if Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
