//! [`ConfigError`]: what is wrong with an `mcp.json`, or with one server in it.

use std::path::PathBuf;
use std::sync::Arc;

use super::expand::ExpandError;

/// What is wrong with a configuration file, or with one server's entry. Every variant names
/// where: the file and its line and column, or the server's id and the field. None of them
/// quotes an `env` or `headers` value.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The file is not valid JSON.
    #[error("{origin}:{line}:{column}: {message}")]
    Syntax {
        /// The file, or what the text came from.
        origin: String,
        /// The line of the error, from 1.
        line: usize,
        /// The column of the error, from 1.
        column: usize,
        /// What the JSON parser says.
        message: String,
    },
    /// The file is JSON, but has no servers object where one belongs.
    #[error("{origin}: {problem}")]
    Shape {
        /// The file, or what the text came from.
        origin: String,
        /// What is wrong.
        problem: String,
    },
    /// One server's entry is wrong. The other servers are unaffected.
    #[error("server `{server}`: {problem}")]
    Entry {
        /// The server's id.
        server: String,
        /// What is wrong, naming the field.
        problem: String,
    },
    /// A `${...}` in one of the server's fields could not be expanded.
    #[error("server `{server}`: `{field}`: {source}")]
    Expand {
        /// The server's id.
        server: String,
        /// The field that holds the reference, such as `env.API_KEY` or `headers.Authorization`.
        field: String,
        /// What was wrong with it.
        #[source]
        source: ExpandError,
    },
}

impl ConfigError {
    /// The error for `server`'s entry, which `problem` describes.
    pub(crate) fn entry(server: &str, problem: impl Into<String>) -> Self {
        Self::Entry {
            server: server.to_owned(),
            problem: problem.into(),
        }
    }

    /// The server this error is about, when it is about one entry.
    pub fn server(&self) -> Option<&str> {
        match self {
            Self::Entry { server, .. } | Self::Expand { server, .. } => Some(server),
            Self::Io { .. } | Self::Syntax { .. } | Self::Shape { .. } => None,
        }
    }
}
