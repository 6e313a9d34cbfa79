//! Contract pins: a [`ContractLock`] records each tool's description and canonical input and
//! output schemas, and [`ContractLock::check`] says how the server's tools of today differ from
//! it, down to the property: added, removed, retyped, required or not. `toolport lock` and
//! `toolport check` are this on the command line, so that a CI run fails when a server an agent
//! depends on changes its tools.

mod diff;
mod file;
mod lock;
mod pinned;
mod schema_diff;

pub use diff::{ContractChange, ContractChangeKind, ToolSchema};
pub use lock::{ContractLock, ToolPin};
pub use pinned::Pinned;
