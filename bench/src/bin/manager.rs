//! `toolport-bench-manager`: Toolport's `fleet` workload, through its server manager
//! ([`toolport_bench::managed_fleet`]). A binary of its own, so that the manager's code weighs
//! on this row alone and not on the size and resident set of `toolport-bench-toolport`.

use std::process::ExitCode;

use toolport_bench::managed_fleet;

fn main() -> ExitCode {
    toolport_bench::entry::main_with(managed_fleet::CLIENT, |args| async move {
        managed_fleet::run(&args).await
    })
}
