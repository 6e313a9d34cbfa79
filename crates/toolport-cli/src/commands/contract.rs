//! `toolport lock` and `toolport check`: pin a server's tools in a lock file, and compare the
//! server with it.

use std::path::Path;

use toolport::Timeouts;
use toolport::contract::ContractLock;

use crate::args::{CheckArgs, LockArgs, ServerArgs};
use crate::outcome::Outcome;
use crate::server::{build, toolset_builder};
use crate::terminal::{errln, outln};

pub(crate) async fn lock(args: LockArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let mut lock = pin(&args.server, &args.allow, timeouts).await?;
    if !args.allow.is_empty() {
        lock = lock.with_allowlist(args.allow);
    }
    write_atomically(&args.out, &lock.to_json())?;
    errln!(
        "toolport: pinned {} tools in {}",
        lock.tools.len(),
        args.out.display()
    );
    Ok(Outcome::Success)
}

pub(crate) async fn check(args: CheckArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let shown = args.lock.display();
    let text = std::fs::read_to_string(&args.lock)
        .map_err(|error| anyhow::anyhow!("cannot read the lock {shown}: {error}"))?;
    let pinned = ContractLock::from_json(&text)
        .map_err(|error| anyhow::anyhow!("{shown} is not a toolport lock: {error}"))?;
    let allow: Vec<String> = if args.allow.is_empty() {
        pinned.allow.iter().flatten().cloned().collect()
    } else {
        args.allow
    };
    let now = pin(&args.server, &allow, timeouts).await?;
    let changes = pinned.check(&now);
    if changes.is_empty() {
        errln!("toolport: {} tools match {}", now.tools.len(), shown);
        return Ok(Outcome::Success);
    }
    for change in &changes {
        outln!("{change}");
    }
    anyhow::bail!(
        "{} {} against {}",
        changes.len(),
        if changes.len() == 1 {
            "change"
        } else {
            "changes"
        },
        shown
    )
}

/// The pin of the server's tools, filtered by `allow` unless it is empty.
async fn pin(
    server: &ServerArgs,
    allow: &[String],
    timeouts: Timeouts,
) -> anyhow::Result<ContractLock> {
    let mut builder = toolset_builder(server, timeouts)?;
    if !allow.is_empty() {
        builder = builder.allow(allow.iter().cloned()).strict(true);
    }
    let toolset = build(builder).await?;
    let lock = toolset.contract_lock(None).await;
    toolset.close().await;
    Ok(lock?)
}

/// Writes `text` to a file beside `path`, then renames it over `path`, so that a reader never
/// sees half a lock.
fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let shown = path.display();
    std::fs::write(&temporary, text)
        .map_err(|error| anyhow::anyhow!("cannot write {shown}: {error}"))?;
    std::fs::rename(&temporary, path)
        .map_err(|error| anyhow::anyhow!("cannot write {shown}: {error}"))
}
