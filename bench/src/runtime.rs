//! Running a client's async main on the tokio runtime flavour it was asked for.

use std::future::Future;

use anyhow::Result;

use crate::args::Flavour;

/// Builds a runtime of `flavour` and runs `main` on it to completion.
pub fn block_on<F: Future>(flavour: Flavour, main: F) -> Result<F::Output> {
    let mut builder = match flavour {
        Flavour::Current => tokio::runtime::Builder::new_current_thread(),
        Flavour::Multi => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = builder.enable_all().build()?;
    Ok(runtime.block_on(main))
}
