//! One module per subcommand.

pub(crate) mod batch;
pub(crate) mod call;
pub(crate) mod contract;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod search;
pub(crate) mod tools;
