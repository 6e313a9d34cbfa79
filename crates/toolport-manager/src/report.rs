//! [`StartReport`]: how each server's start went, from
//! [`start_all`](crate::McpServerManager::start_all).

use std::fmt;

use crate::ManagerError;

/// How one server's start went.
#[derive(Debug)]
#[non_exhaustive]
pub struct StartOutcome {
    /// The server's id.
    pub server: String,
    /// Whether its entry says `required`.
    pub required: bool,
    /// Whether it started, or why not (for a broken entry, what is wrong with it).
    pub result: Result<(), ManagerError>,
}

impl fmt::Display for StartOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.result {
            Ok(()) => write!(f, "server `{}` started", self.server),
            Err(error) => error.fmt(f),
        }
    }
}

/// How each server's start went, in the order the servers were configured (the file's broken
/// entries last).
#[derive(Debug)]
#[non_exhaustive]
pub struct StartReport {
    /// One outcome for each enabled server whose start ended, and each broken entry.
    pub outcomes: Vec<StartOutcome>,
    /// The servers not marked `required` that were still starting at the end of the start-up
    /// grace, in the order they were configured: they go on starting, and join the aggregate
    /// when they are up.
    pub joining: Vec<String>,
}

impl StartReport {
    /// How many servers started.
    pub fn started(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.result.is_ok())
            .count()
    }

    /// The servers that did not start, each with why.
    pub fn failures(&self) -> impl Iterator<Item = &StartOutcome> {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.result.is_err())
    }

    /// Whether every server started: none failed, and none is still starting.
    pub fn all_started(&self) -> bool {
        self.failures().next().is_none() && self.joining.is_empty()
    }

    /// The report, or the first required server that did not start
    /// ([`ManagerError::RequiredFailed`], its start's error kept as the `source`).
    pub fn check_required(mut self) -> Result<Self, ManagerError> {
        let failed = self
            .outcomes
            .iter()
            .position(|outcome| outcome.required && outcome.result.is_err());
        let Some(failed) = failed else {
            return Ok(self);
        };
        let outcome = self.outcomes.swap_remove(failed);
        let source = outcome
            .result
            .expect_err("a failed outcome holds its error");
        Err(ManagerError::RequiredFailed {
            server: outcome.server,
            source: Box::new(source),
        })
    }
}
