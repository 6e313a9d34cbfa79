//! [`FilesystemServer`]: a fixture file server over one directory, with tools named as the
//! reference filesystem server names them, reads and writes both.

mod confined;
mod params;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{Json, ServerHandler, tool, tool_handler, tool_router};

use self::confined::ConfinedRoot;
use self::params::{FileInfo, PathParams, SearchMatches, SearchParams, WriteParams};

/// How deep `search_files` goes below the directory it searches.
const SEARCH_DEPTH: usize = 8;
/// The largest file whose contents `search_files` reads.
const SEARCH_FILE_LIMIT: u64 = 1024 * 1024;

/// A filesystem MCP server named `toolport-files`, serving one directory, with five tools:
///
/// - `read_text_file(path)` returns a file's text (read-only);
/// - `list_directory(path)` returns one line per entry, `[FILE] name` or `[DIR] name`, in name
///   order (read-only);
/// - `search_files(path, pattern)` returns `{matches}`, the files below `path` whose name or
///   text contains `pattern`, ignoring case (read-only);
/// - `get_file_info(path)` returns `{path, kind, size}` (read-only);
/// - `write_file(path, content)` creates or replaces a file (destructive).
///
/// Every path is relative to the served directory. One that is absolute, climbs out with
/// `..`, or leads out through a symbolic link is a tool error, and so is a missing file. The
/// server lists its write tool like any other: an agent that must only read offers the model
/// an allowlist of the read tools. It reads and writes with blocking calls, which suits the
/// small files of a test.
///
/// # Examples
///
/// ```
/// use toolport_testkit::DuplexConnector;
/// use toolport_fixtures::FilesystemServer;
///
/// let files = FilesystemServer::new(env!("CARGO_MANIFEST_DIR")).unwrap();
/// let connector = DuplexConnector::new(move || files.clone());
/// # drop(connector);
/// ```
#[derive(Debug, Clone)]
pub struct FilesystemServer {
    root: ConfinedRoot,
    tool_router: ToolRouter<Self>,
}

impl FilesystemServer {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = "toolport-files";

    /// A server for the directory at `root`.
    ///
    /// # Errors
    ///
    /// When `root` does not exist or is not a directory.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        Ok(Self {
            root: ConfinedRoot::new(root)?,
            tool_router: Self::tool_router(),
        })
    }

    /// The directory served, resolved.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// The files below `dir` (to [`SEARCH_DEPTH`]) whose name or text holds `needle`, which
    /// is lower case.
    fn search(&self, dir: &Path, needle: &str, depth: usize, matches: &mut Vec<String>) {
        let Ok(entries) = sorted_entries(dir) else {
            return;
        };
        for path in entries {
            if path.is_dir() {
                if depth < SEARCH_DEPTH {
                    self.search(&path, needle, depth + 1, matches);
                }
                continue;
            }
            let name_matches = path
                .file_name()
                .is_some_and(|name| name.to_string_lossy().to_lowercase().contains(needle));
            let text_matches = || {
                fs::metadata(&path).is_ok_and(|meta| meta.len() <= SEARCH_FILE_LIMIT)
                    && fs::read_to_string(&path)
                        .is_ok_and(|text| text.to_lowercase().contains(needle))
            };
            if name_matches || text_matches() {
                matches.push(self.root.relative(&path));
            }
        }
    }
}

/// The entries of `dir`, in name order.
fn sorted_entries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut entries = fs::read_dir(dir)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<io::Result<Vec<_>>>()?;
    entries.sort();
    Ok(entries)
}

#[tool_router(router = tool_router)]
impl FilesystemServer {
    #[tool(
        description = "Reads a text file under the served directory.",
        annotations(read_only_hint = true)
    )]
    async fn read_text_file(
        &self,
        Parameters(params): Parameters<PathParams>,
    ) -> Result<String, String> {
        let path = self.root.existing(&params.path)?;
        fs::read_to_string(&path).map_err(|error| format!("{}: {error}", params.path))
    }

    #[tool(
        description = "Lists a directory: one line per entry, [FILE] or [DIR] and its name.",
        annotations(read_only_hint = true)
    )]
    async fn list_directory(
        &self,
        Parameters(params): Parameters<PathParams>,
    ) -> Result<String, String> {
        let dir = self.root.existing(&params.path)?;
        let entries = sorted_entries(&dir).map_err(|error| format!("{}: {error}", params.path))?;
        let lines: Vec<String> = entries
            .iter()
            .map(|path| {
                let kind = if path.is_dir() { "[DIR]" } else { "[FILE]" };
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                format!("{kind} {name}")
            })
            .collect();
        Ok(lines.join("\n"))
    }

    #[tool(
        description = "Finds files whose name or text contains the pattern, ignoring case.",
        annotations(read_only_hint = true)
    )]
    async fn search_files(
        &self,
        Parameters(params): Parameters<SearchParams>,
    ) -> Result<Json<SearchMatches>, String> {
        let dir = self.root.existing(&params.path)?;
        let mut matches = Vec::new();
        self.search(&dir, &params.pattern.to_lowercase(), 0, &mut matches);
        Ok(Json(SearchMatches { matches }))
    }

    #[tool(
        description = "Gets a file's or directory's kind and size.",
        annotations(read_only_hint = true)
    )]
    async fn get_file_info(
        &self,
        Parameters(params): Parameters<PathParams>,
    ) -> Result<Json<FileInfo>, String> {
        let path = self.root.existing(&params.path)?;
        let meta = fs::metadata(&path).map_err(|error| format!("{}: {error}", params.path))?;
        Ok(Json(FileInfo {
            path: self.root.relative(&path),
            kind: if meta.is_dir() { "directory" } else { "file" }.to_owned(),
            size: meta.len(),
        }))
    }

    #[tool(
        description = "Creates or replaces a text file under the served directory.",
        annotations(read_only_hint = false, destructive_hint = true)
    )]
    async fn write_file(
        &self,
        Parameters(params): Parameters<WriteParams>,
    ) -> Result<String, String> {
        let path = self.root.writable(&params.path)?;
        fs::write(&path, params.content.as_bytes())
            .map_err(|error| format!("{}: {error}", params.path))?;
        Ok(format!(
            "Wrote {} bytes to {}",
            params.content.len(),
            params.path
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FilesystemServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(Self::NAME, env!("CARGO_PKG_VERSION")))
    }
}
