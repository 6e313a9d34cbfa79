//! [`McpConfig`]: a whole `mcp.json`, in the `mcpServers` form (Claude, Cursor, Cline) or the
//! `servers` form (VS Code), read by one parser and saved atomically.

use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::entry::{parse_entry, write_entry};
use super::{ConfigError, ServerConfig};

/// Which key of the file holds the servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigForm {
    /// `{"mcpServers": {...}}`: Claude Desktop, Claude Code, Cursor, Cline, Windsurf.
    McpServers,
    /// `{"servers": {...}}`: VS Code.
    Servers,
}

impl ConfigForm {
    /// The key that holds the servers.
    pub fn key(self) -> &'static str {
        match self {
            Self::McpServers => "mcpServers",
            Self::Servers => "servers",
        }
    }
}

/// One server's entry as the file has it: read, or the reason it could not be.
struct Entry {
    id: String,
    config: Result<ServerConfig, ConfigError>,
    /// The JSON the entry was read from, written back around its changes.
    raw: Option<Value>,
}

/// A configuration file of MCP servers.
///
/// [`parse`](Self::parse) fails only when the file as a whole is unusable: not JSON (the error
/// gives the line and column) or without a servers object. A server whose entry is wrong is
/// kept with its error ([`errors`](Self::errors)), which names the server, and the others are
/// read as usual.
///
/// Edits ([`set`](Self::set), [`remove`](Self::remove)) change only the entries they name;
/// [`save`](Self::save) writes the file through a temporary file and a rename, keeping the
/// fields Toolport does not know, the order of the keys, and broken entries as they were.
///
/// # Examples
///
/// ```
/// use toolport_manager::{McpConfig, ServerConfig};
///
/// let text = r#"{
///   "mcpServers": {
///     "tasks": {"command": "tasks-server", "args": ["--db", "${HOME}/tasks.db"], "icon": "✓"},
///     "broken": {"command": 42}
///   }
/// }"#;
/// let mut config = McpConfig::parse(text, "mcp.json")?;
/// assert_eq!(config.servers().count(), 1);
/// let error = config.errors().next().unwrap();
/// assert_eq!(error.to_string(), "server `broken`: `command` must be a string");
///
/// config.set("docs", ServerConfig::http("http://127.0.0.1:8080/mcp"));
/// let saved = config.to_json_string();
/// assert!(saved.contains(r#""icon": "✓""#), "unknown fields are kept");
/// assert!(saved.contains("${HOME}"), "references are saved unexpanded");
/// # Ok::<(), toolport_manager::ConfigError>(())
/// ```
pub struct McpConfig {
    origin: String,
    form: ConfigForm,
    /// The whole file, whose servers object is rebuilt from `entries` on save.
    document: Map<String, Value>,
    entries: Vec<Entry>,
}

impl McpConfig {
    /// An empty configuration in `form`.
    pub fn new(form: ConfigForm) -> Self {
        let mut document = Map::new();
        document.insert(form.key().to_owned(), Value::Object(Map::new()));
        Self {
            origin: "mcp.json".to_owned(),
            form,
            document,
            entries: Vec::new(),
        }
    }

    /// Reads the file at `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_owned(),
            source: Arc::new(source),
        })?;
        Self::parse(&text, path.display().to_string())
    }

    /// Reads `text`; `origin` (the file's path, say) prefixes the errors.
    pub fn parse(text: &str, origin: impl Into<String>) -> Result<Self, ConfigError> {
        let origin = origin.into();
        let document: Value = serde_json::from_str(text).map_err(|error| ConfigError::Syntax {
            origin: origin.clone(),
            line: error.line(),
            column: error.column(),
            message: syntax_message(&error),
        })?;
        let Value::Object(document) = document else {
            return Err(ConfigError::Shape {
                origin,
                problem: "the file must hold a JSON object".to_owned(),
            });
        };
        let form = match (document.get("mcpServers"), document.get("servers")) {
            (Some(_), Some(_)) => {
                return Err(ConfigError::Shape {
                    origin,
                    problem: "the file has both `mcpServers` and `servers`; keep one".to_owned(),
                });
            }
            (Some(_), None) => ConfigForm::McpServers,
            (None, Some(_)) => ConfigForm::Servers,
            (None, None) => {
                return Err(ConfigError::Shape {
                    origin,
                    problem: "no `mcpServers` object (Claude, Cursor, Cline) or `servers` object \
                              (VS Code) in the file"
                        .to_owned(),
                });
            }
        };
        let Some(Value::Object(servers)) = document.get(form.key()) else {
            return Err(ConfigError::Shape {
                origin,
                problem: format!("`{}` must be an object of servers by id", form.key()),
            });
        };
        let entries = servers
            .iter()
            .map(|(id, raw)| Entry {
                id: id.clone(),
                config: check_id(id).and_then(|()| parse_entry(id, raw)),
                raw: Some(raw.clone()),
            })
            .collect();
        Ok(Self {
            origin,
            form,
            document,
            entries,
        })
    }

    /// Where the file came from, as given to [`parse`](Self::parse) or [`load`](Self::load).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Which form the file is in.
    pub fn form(&self) -> ConfigForm {
        self.form
    }

    /// The servers whose entries were read, by id, in the file's order.
    pub fn servers(&self) -> impl Iterator<Item = (&str, &ServerConfig)> {
        self.entries.iter().filter_map(|entry| match &entry.config {
            Ok(config) => Some((entry.id.as_str(), config)),
            Err(_) => None,
        })
    }

    /// The server `id`, if its entry was read.
    pub fn server(&self, id: &str) -> Option<&ServerConfig> {
        self.servers()
            .find_map(|(server, config)| (server == id).then_some(config))
    }

    /// What is wrong with each entry that could not be read, in the file's order.
    pub fn errors(&self) -> impl Iterator<Item = &ConfigError> {
        self.entries
            .iter()
            .filter_map(|entry| entry.config.as_ref().err())
    }

    /// Each entry that could not be read: its id, the error, and whether it says
    /// `"required": true` (so that a broken required server still fails a start).
    pub(crate) fn broken_entries(&self) -> impl Iterator<Item = (&str, &ConfigError, bool)> {
        self.entries.iter().filter_map(|entry| {
            let error = entry.config.as_ref().err()?;
            let required = entry
                .raw
                .as_ref()
                .and_then(|raw| raw.get("required"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            Some((entry.id.as_str(), error, required))
        })
    }

    /// Sets server `id`'s entry to `config`: replaces the entry (a save keeps the fields
    /// Toolport does not know from the old one) or adds it at the end.
    pub fn set(&mut self, id: &str, config: ServerConfig) {
        match self.entries.iter_mut().find(|entry| entry.id == id) {
            Some(entry) => entry.config = Ok(config),
            None => self.entries.push(Entry {
                id: id.to_owned(),
                config: Ok(config),
                raw: None,
            }),
        }
    }

    /// Removes server `id`'s entry, read or not; whether there was one.
    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|entry| entry.id != id);
        self.entries.len() != before
    }

    /// The file as it would be saved: two-space indented JSON ending in a newline.
    pub fn to_json_string(&self) -> String {
        let servers: Map<String, Value> = self
            .entries
            .iter()
            .map(|entry| {
                let value = match (&entry.config, &entry.raw) {
                    (Ok(config), raw) => {
                        write_entry(config, raw.as_ref().and_then(Value::as_object))
                    }
                    (Err(_), Some(raw)) => raw.clone(),
                    (Err(_), None) => Value::Object(Map::new()),
                };
                (entry.id.clone(), value)
            })
            .collect();
        let mut document = self.document.clone();
        document.insert(self.form.key().to_owned(), Value::Object(servers));
        let mut text = serde_json::to_string_pretty(&Value::Object(document))
            .expect("a JSON value always serializes");
        text.push('\n');
        text
    }

    /// Writes the file to `path` atomically: to a temporary file beside it, synced, then
    /// renamed over it, so a crash leaves the old file or the new one, never half of one. The
    /// new file keeps the old one's permissions (a new file is readable by its owner only,
    /// since entries may hold secrets).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), ConfigError> {
        let path = path.as_ref();
        let io_error = |source| ConfigError::Io {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let temporary = temporary_beside(path);
        let written = (|| {
            let mut file = std::fs::File::create(&temporary)?;
            let permissions = match std::fs::metadata(path) {
                Ok(metadata) => metadata.permissions(),
                Err(_) => owner_only(),
            };
            file.set_permissions(permissions)?;
            file.write_all(self.to_json_string().as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temporary, path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written.map_err(io_error)
    }
}

impl fmt::Debug for McpConfig {
    /// The servers, without the file's raw JSON, which may hold secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries: Vec<(&str, &Result<ServerConfig, ConfigError>)> = self
            .entries
            .iter()
            .map(|entry| (entry.id.as_str(), &entry.config))
            .collect();
        f.debug_struct("McpConfig")
            .field("origin", &self.origin)
            .field("form", &self.form)
            .field("entries", &entries)
            .finish_non_exhaustive()
    }
}

/// A server id names the server in tool names, logs and errors: it must not be blank.
fn check_id(id: &str) -> Result<(), ConfigError> {
    if id.trim().is_empty() {
        return Err(ConfigError::entry(id, "the server id is empty"));
    }
    Ok(())
}

/// serde_json's message without its own " at line L column C" (the error has them apart).
fn syntax_message(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// A name for the temporary file of a save of `path`, in the same directory so that the rename
/// stays on one file system.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(
        || "mcp.json".into(),
        |name| name.to_string_lossy().into_owned(),
    );
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Read and write for the owner alone.
fn owner_only() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::Permissions::from_mode(0o600)
}
