//! [`TenantId`]: the key a [`TenantToolsets`](super::TenantToolsets) cache keeps toolsets by.

use std::fmt;
use std::sync::Arc;

/// Who a toolset acts for: a user, an organization, any string the application keys on.
/// Cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TenantId(Arc<str>);

impl TenantId {
    /// A tenant named `id`.
    pub fn new(id: impl Into<Arc<str>>) -> Self {
        Self(id.into())
    }

    /// The id as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TenantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for TenantId {
    fn from(id: &str) -> Self {
        Self::new(id)
    }
}

impl From<String> for TenantId {
    fn from(id: String) -> Self {
        Self::new(id)
    }
}
