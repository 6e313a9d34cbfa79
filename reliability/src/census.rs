//! [`Census`]: what this process holds at one moment, its live and unreaped descendants, its
//! open file descriptors and its resident memory, read from `/proc` (Linux only).

use std::collections::{HashMap, HashSet};
use std::fmt;

/// A process this one started (or one of theirs), as `/proc` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Descendant {
    /// Its process id.
    pub pid: u32,
    /// Its state letter from `/proc/PID/stat`: `Z` for a zombie nobody reaped.
    pub state: char,
    /// Its command line, arguments joined by spaces.
    pub command: String,
}

/// What this process holds at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Census {
    /// Every descendant, live or zombie. A zombie is a leak too: its owner never waited.
    pub descendants: Vec<Descendant>,
    /// How many file descriptors are open (`/proc/self/fd`).
    pub open_fds: usize,
    /// Resident memory in KiB (`VmRSS` of `/proc/self/status`).
    pub rss_kib: u64,
}

impl Census {
    /// Reads `/proc` now. A process that ends while it is being read is left out.
    pub fn take() -> Self {
        Self {
            descendants: descendants_of(std::process::id()),
            open_fds: open_fds(),
            rss_kib: rss_kib(),
        }
    }

    /// What `later` holds that `self` did not: descendants not there before, and how many file
    /// descriptors more. `None` when nothing leaked.
    pub fn leaks_since(&self, later: &Census) -> Option<Leak> {
        let before: HashSet<u32> = self.descendants.iter().map(|d| d.pid).collect();
        let new_descendants: Vec<Descendant> = later
            .descendants
            .iter()
            .filter(|d| !before.contains(&d.pid))
            .cloned()
            .collect();
        let extra_fds = later.open_fds.saturating_sub(self.open_fds);
        if new_descendants.is_empty() && extra_fds == 0 {
            None
        } else {
            Some(Leak {
                descendants: new_descendants,
                extra_fds,
            })
        }
    }
}

/// What a [`Census`] found left over since an earlier one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// Descendants that were not there before.
    pub descendants: Vec<Descendant>,
    /// File descriptors open now beyond those open before.
    pub extra_fds: usize,
}

impl fmt::Display for Leak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.extra_fds > 0 {
            parts.push(format!("{} more file descriptors", self.extra_fds));
        }
        for child in &self.descendants {
            parts.push(format!(
                "process {} ({}) in state {}",
                child.pid, child.command, child.state
            ));
        }
        f.write_str(&parts.join(", "))
    }
}

/// One line of `/proc/PID/stat`: the parent and the state.
struct ProcessStat {
    parent: u32,
    state: char,
}

/// Reads a process's parent and state. The command name in parentheses may hold spaces and
/// parentheses itself, so the fields are read after its last `)`.
fn process_stat(pid: u32) -> Option<ProcessStat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some(ProcessStat { parent, state })
}

/// Every process whose chain of parents reaches `root`.
fn descendants_of(root: u32) -> Vec<Descendant> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children: HashMap<u32, Vec<(u32, char)>> = HashMap::new();
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Some(stat) = process_stat(pid) {
            children
                .entry(stat.parent)
                .or_default()
                .push((pid, stat.state));
        }
    }
    let mut found = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for &(pid, state) in children.get(&parent).into_iter().flatten() {
            frontier.push(pid);
            found.push(Descendant {
                pid,
                state,
                command: command_line(pid),
            });
        }
    }
    found.sort_by_key(|d| d.pid);
    found
}

/// A process's command line, its arguments joined by spaces (empty for a zombie).
fn command_line(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|raw| {
            String::from_utf8_lossy(&raw)
                .split('\0')
                .filter(|arg| !arg.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// How many file descriptors this process has open, not counting the one reading the list.
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .map(|entries| entries.count().saturating_sub(1))
        .unwrap_or(0)
}

/// This process's resident memory in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test, not two: a census counts the whole process, so tests run as threads of one
    // process would see each other's children and files.
    #[test]
    fn children_and_files_are_counted_until_reaped_and_closed() {
        let before = Census::take();
        assert!(before.rss_kib > 0);

        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep starts");
        let leak = before
            .leaks_since(&Census::take())
            .expect("the child is new");
        assert!(
            leak.descendants.iter().any(|d| d.pid == child.id()),
            "{leak}"
        );
        child.kill().expect("kill");
        child.wait().expect("reap");
        assert_eq!(before.leaks_since(&Census::take()), None);

        let file = std::fs::File::open("/proc/self/status").expect("open");
        let leak = before.leaks_since(&Census::take()).expect("one more fd");
        assert_eq!(leak.extra_fds, 1);
        drop(file);
        assert_eq!(before.leaks_since(&Census::take()), None);
    }
}
