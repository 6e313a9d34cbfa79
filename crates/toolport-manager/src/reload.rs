//! [`McpServerManager::reload`]: a changed file, applied as a diff.

use std::path::Path;

use futures_util::future::join_all;

use crate::{ManagerError, McpConfig, McpServerManager, ServerConfig};

/// What a [`reload`](McpServerManager::reload) changed, by server id.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ReloadReport {
    /// Servers new in the file: added, and started unless disabled.
    pub added: Vec<String>,
    /// Servers gone from the file: stopped and removed.
    pub removed: Vec<String>,
    /// Servers whose entries changed (fields Toolport does not know aside): updated, and
    /// started unless disabled.
    pub changed: Vec<String>,
    /// Servers whose entries did not change: their sessions were kept.
    pub unchanged: Vec<String>,
    /// What failed: a start, an update (rolled back), or an entry that could not be read (the
    /// server keeps running as it was).
    pub errors: Vec<ManagerError>,
}

impl McpServerManager {
    /// Reads the file at `path` and applies what changed: servers added to it are added (and
    /// started unless disabled), servers gone from it are stopped and removed, servers whose
    /// entries changed are [updated](Self::update), and the rest keep running, their sessions
    /// untouched. A changed server that is enabled ends up running even if it was not
    /// (an entry fixed after a failure). A server whose new entry cannot be read keeps running as it was, and the
    /// report says why. The file becomes the one [`save`](Self::save) writes.
    ///
    /// Fails, changing nothing, when the file as a whole cannot be read.
    pub async fn reload(&self, path: impl AsRef<Path>) -> Result<ReloadReport, ManagerError> {
        let path = path.as_ref();
        let new = McpConfig::load(path)?;
        let mut report = ReloadReport::default();
        let broken: Vec<String> = new
            .broken_entries()
            .map(|(id, error, _)| {
                report.errors.push(ManagerError::Config(error.clone()));
                id.to_owned()
            })
            .collect();
        let current = self.ids();
        for id in &current {
            if new.server(id).is_none() && !broken.contains(id) {
                self.remove(id).await?;
                report.removed.push(id.clone());
            }
        }
        let mut updates = Vec::new();
        let mut additions = Vec::new();
        for (id, config) in new.servers() {
            match self.config(id) {
                None => {
                    self.add(id, config.clone())?;
                    report.added.push(id.to_owned());
                    if !config.disabled {
                        additions.push(id.to_owned());
                    }
                }
                Some(old) if old.same_settings(config) => {
                    // The fields Toolport does not read may have changed; they need no restart.
                    if let Ok(slot) = self.shared.slot(id) {
                        slot.lock().config = config.clone();
                    }
                    report.unchanged.push(id.to_owned());
                }
                Some(_) => {
                    report.changed.push(id.to_owned());
                    updates.push((id.to_owned(), config.clone()));
                }
            }
        }
        let starts = additions.iter().map(|id| self.start(id));
        let changes = updates
            .iter()
            .map(|(id, config)| self.apply_change(id, config));
        let (started, changed) = futures_util::join!(join_all(starts), join_all(changes));
        report
            .errors
            .extend(started.into_iter().chain(changed).filter_map(Result::err));
        self.adopt_file(new, path);
        Ok(report)
    }

    /// Updates server `id` to its changed entry, then starts it if the entry is enabled and
    /// it is not running (it had failed, or was disabled), as fixing an entry asks.
    async fn apply_change(&self, id: &str, config: &ServerConfig) -> Result<(), ManagerError> {
        self.update(id, config.clone()).await?;
        let running = self.status(id).is_some_and(|status| status.is_running());
        if config.disabled || running {
            return Ok(());
        }
        self.start(id).await
    }

    /// Makes `file` (read from `path`) the one a save writes, with each server's entry as the
    /// manager now runs it (a rolled-back update keeps the old entry); an entry that could
    /// not be read stays as the file has it.
    fn adopt_file(&self, mut file: McpConfig, path: &Path) {
        let broken: Vec<String> = file
            .broken_entries()
            .map(|(id, ..)| id.to_owned())
            .collect();
        for id in self.ids().into_iter().filter(|id| !broken.contains(id)) {
            if let Some(config) = self.config(&id)
                && !file
                    .server(&id)
                    .is_some_and(|entry| entry.same_settings(&config))
            {
                file.set(&id, config);
            }
        }
        *self.shared.lock_file() = file;
        *self.shared.lock_path() = Some(path.to_owned());
    }
}
