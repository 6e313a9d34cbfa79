//! Contract pins: a [`ContractLock`] records a sha256 of each tool's canonical input schema,
//! output schema and description, and [`ContractLock::check`] says how the server's tools of
//! today differ from it. `toolport lock` and `toolport check` are this on the command line, so
//! that a CI run fails when a server an agent depends on changes its tools.

mod diff;
pub(crate) mod digest;
mod lock;

pub use diff::{ContractChange, ContractChangeKind};
pub use lock::{ContractLock, ToolPin};
