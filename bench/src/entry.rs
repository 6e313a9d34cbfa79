//! The `main` of every Rust client: parse the command line, run the workload on the asked
//! runtime, print the result line.

use std::process::ExitCode;

use crate::args::Args;
use crate::drive::{self, Client};
use crate::runtime;

/// Runs client `C` as this process's whole job. Errors go to stderr as one line.
pub fn main<C: Client>() -> ExitCode {
    let measured = Args::from_env().and_then(|args| {
        let measured = runtime::block_on(args.flavour, drive::run::<C>(args.clone()))??;
        Ok((args, measured))
    });
    match measured {
        Ok((args, measured)) => {
            measured.print(&args);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{} bench client: {error:#}", C::NAME);
            ExitCode::FAILURE
        }
    }
}
