//! `toolport-bench-search`: the fleet-of-tools row ([`toolport_bench::fleet_of_tools`]), one
//! JSON line per size.

use anyhow::Result;
use toolport_bench::fleet_of_tools;

fn main() -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        for tools in fleet_of_tools::SIZES {
            println!("{}", fleet_of_tools::measure(tools).await?);
        }
        Ok(())
    })
}
