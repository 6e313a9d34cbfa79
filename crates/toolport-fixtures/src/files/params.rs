//! The arguments and answers of the filesystem server's tools.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The arguments of the tools that take one path.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct PathParams {
    /// A path relative to the served directory; `.` is the directory itself.
    pub(crate) path: String,
}

/// The arguments of `search_files`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct SearchParams {
    /// The directory to search, relative to the served directory.
    pub(crate) path: String,
    /// Text to look for, case-insensitively, in file names and contents.
    pub(crate) pattern: String,
}

/// What `search_files` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct SearchMatches {
    /// The matching files, relative to the served directory, in name order.
    pub(crate) matches: Vec<String>,
}

/// What `get_file_info` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FileInfo {
    /// The path, relative to the served directory.
    pub(crate) path: String,
    /// `file` or `directory`.
    pub(crate) kind: String,
    /// The size in bytes.
    pub(crate) size: u64,
}

/// The arguments of `write_file`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct WriteParams {
    /// The file to create or replace, relative to the served directory.
    pub(crate) path: String,
    /// Its new contents.
    pub(crate) content: String,
}
