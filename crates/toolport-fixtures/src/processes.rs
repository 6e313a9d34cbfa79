//! [`processes_with`] and [`wait_until_gone`]: a scan of `/proc` for child processes a test
//! expects to be running, or to be gone.

use std::time::{Duration, Instant};

/// The PIDs of live processes (not zombies) whose command line contains every one of
/// `needles`. Linux only: it reads `/proc`.
pub fn processes_with(needles: &[&str]) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie_or_dead = state
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with(['Z', 'X']));
        if !zombie_or_dead && needles.iter().all(|needle| cmdline.contains(needle)) {
            found.push(pid);
        }
    }
    found
}

/// Waits up to 10 s for no process to match `needles` ([`processes_with`]); returns those
/// still there.
pub async fn wait_until_gone(needles: &[&str]) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = processes_with(needles);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
