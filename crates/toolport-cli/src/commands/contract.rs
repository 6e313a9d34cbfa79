//! `toolport lock` and `toolport check`: pin a server's tools in a lock file, and compare the
//! server with it.

use std::collections::BTreeSet;
use std::path::Path;

use toolport::contract::{ContractChangeKind, ContractLock};
use toolport::{McpToolsetBuilder, Timeouts};

use crate::args::{CheckArgs, LockArgs};
use crate::outcome::Outcome;
use crate::server::{build, toolset_builder};
use crate::terminal::{errln, outln};

pub(crate) async fn lock(args: LockArgs, timeouts: Timeouts) -> anyhow::Result<Outcome> {
    let mut builder = toolset_builder(&args.server, timeouts)?;
    if !args.allow.is_empty() {
        // A name the server lacks is an error: the lock would pin nothing under it.
        builder = builder.allow(args.allow.iter().cloned()).strict(true);
    }
    let mut lock = pin(builder).await?;
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
    let mut pinned = ContractLock::from_json(&text)
        .map_err(|error| anyhow::anyhow!("{shown} is not a toolport lock: {error}"))?;
    let allow: Option<BTreeSet<String>> = if args.allow.is_empty() {
        pinned.allow.clone()
    } else {
        Some(args.allow.into_iter().collect())
    };
    let mut builder = toolset_builder(&args.server, timeouts)?;
    if let Some(allow) = &allow {
        // Not strict: an allowed tool the server no longer lists is a change to report.
        builder = builder.allow(allow.iter().cloned());
        pinned = pinned.with_allowlist(allow.iter().cloned());
    }
    let now = pin(builder).await?;
    let unknown: Vec<String> = allow
        .iter()
        .flatten()
        .filter(|name| !pinned.tools.contains_key(*name) && !now.tools.contains_key(*name))
        .map(|name| format!("`{name}`"))
        .collect();
    if !unknown.is_empty() {
        anyhow::bail!(
            "no tool named {} in {shown} or on the server",
            unknown.join(", ")
        );
    }
    let changes = pinned.check(&now);
    if changes.is_empty() {
        errln!("toolport: {} tools match {}", now.tools.len(), shown);
        return Ok(Outcome::Success);
    }
    for change in &changes {
        outln!("{change}");
    }
    let count = match changes.len() {
        1 => "1 change".to_owned(),
        many => format!("{many} changes"),
    };
    let unrecorded_schema_changed = changes
        .iter()
        .any(|change| matches!(change.kind, ContractChangeKind::SchemaSha256Changed { .. }));
    if unrecorded_schema_changed {
        anyhow::bail!(
            "{count} against {shown}, a lock of format 1 that keeps only a sha256 of each \
             schema: run `toolport lock` again to record the schemas, so that a check says \
             what changed in them"
        );
    }
    anyhow::bail!("{count} against {shown}")
}

/// The pin of the tools `builder`'s toolset offers.
async fn pin(builder: McpToolsetBuilder) -> anyhow::Result<ContractLock> {
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
