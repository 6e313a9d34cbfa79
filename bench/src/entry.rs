//! The `main` of every Rust client: parse the command line, run the workload on the asked
//! runtime, print the result line.

use std::future::Future;
use std::process::ExitCode;

use anyhow::Result;

use crate::args::Args;
use crate::drive::{self, Client};
use crate::measurement::Measurement;
use crate::runtime;

/// Runs client `C` as this process's whole job. Errors go to stderr as one line.
pub fn main<C: Client>() -> ExitCode {
    main_with(C::NAME, drive::run::<C>)
}

/// Runs `workload` on the command line's arguments as this process's whole job, for a client
/// named `name` that measures its own way (not through [`Client`]). Errors go to stderr as one
/// line.
pub fn main_with<F>(name: &str, workload: impl FnOnce(Args) -> F) -> ExitCode
where
    F: Future<Output = Result<Measurement>>,
{
    let measured = Args::from_env().and_then(|args| {
        let measured = runtime::block_on(args.flavour, workload(args.clone()))??;
        Ok((args, measured))
    });
    match measured {
        Ok((args, measured)) => {
            measured.print(&args);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{name} bench client: {error:#}");
            ExitCode::FAILURE
        }
    }
}
