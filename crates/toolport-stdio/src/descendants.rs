//! [`Descendants`]: the processes a server started that its process group does not hold (a
//! grandchild that called `setsid`, a double-forked daemon). On Linux the server is made a
//! child subreaper, so they stay in its tree while it lives; closing and dropping find them in
//! `/proc` and signal them with the group. Elsewhere this does nothing.

use tokio::process::Command;

use crate::signal::{Signal, signal_process};

/// A process as `/proc` names it: its pid, and its start time, which tells it from a later
/// process given the same pid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Process {
    pid: u32,
    /// Field 22 of `/proc/<pid>/stat`, in clock ticks since boot.
    start_time: u64,
}

/// The server process and every descendant of it seen so far.
#[derive(Debug)]
pub(crate) struct Descendants {
    /// The server, read while it was surely ours (spawned, not yet reaped); `None` where
    /// `/proc` cannot tell.
    root: Option<Process>,
    seen: Vec<Process>,
}

impl Descendants {
    /// Tracks the descendants of the child `pid`, which must not have been reaped yet.
    pub(crate) fn of(pid: Option<u32>) -> Self {
        let root = pid.and_then(|pid| {
            let start_time = proc::start_time(pid)?;
            Some(Process { pid, start_time })
        });
        Self {
            root,
            seen: Vec::new(),
        }
    }

    /// Adds the descendants the server has now. Finds none once the server is gone: its
    /// orphans are then init's, and its pid may be another process's.
    pub(crate) fn record(&mut self) {
        let Some(root) = self.root else { return };
        if proc::start_time(root.pid) != Some(root.start_time) {
            return;
        }
        for process in proc::descendants_of(root.pid) {
            if !self.seen.contains(&process) {
                self.seen.push(process);
            }
        }
    }

    /// Sends `signal` to every descendant seen that is still the process it was (same pid,
    /// same start time, checked just before).
    pub(crate) fn signal(&self, signal: Signal) {
        for process in &self.seen {
            if proc::start_time(process.pid) == Some(process.start_time) {
                signal_process(process.pid, signal);
            }
        }
    }
}

/// Makes the child a child subreaper between fork and exec, so that whatever the server starts
/// and then orphans (a double fork, a daemon that called `setsid`) is reparented to the server
/// rather than to init while the server lives. The attribute survives `execve`; it is not
/// inherited by the server's own children. Only the child is changed: this process never
/// becomes a subreaper.
#[cfg(target_os = "linux")]
pub(crate) fn keep_orphans_in_tree(command: &mut Command) {
    // SAFETY: the closure runs in the forked child before exec, where only async-signal-safe
    // calls are allowed; it makes one `prctl` system call, with no allocation and no lock.
    unsafe {
        command.pre_exec(|| {
            // A kernel before 3.4 refuses it; the server then runs as it would have anyway.
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0);
            Ok(())
        });
    }
}

/// There is no child subreaper outside Linux: a process group is all that holds a server's
/// descendants.
#[cfg(not(target_os = "linux"))]
pub(crate) fn keep_orphans_in_tree(_command: &mut Command) {}

/// Reading processes from `/proc`.
#[cfg(target_os = "linux")]
mod proc {
    use super::Process;

    /// The fields of `/proc/<pid>/stat` this module reads.
    #[derive(Debug, Clone, Copy)]
    struct Stat {
        ppid: u32,
        start_time: u64,
    }

    /// The start time of process `pid`, if it exists.
    pub(super) fn start_time(pid: u32) -> Option<u64> {
        stat(pid).map(|stat| stat.start_time)
    }

    /// `/proc/<pid>/stat`, if the process exists.
    fn stat(pid: u32) -> Option<Stat> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        parse_stat(&text)
    }

    /// The parent pid (field 4) and start time (field 22) of a `/proc/<pid>/stat` line. The
    /// command name (field 2) may hold spaces and parentheses, so fields are counted from the
    /// last `)`.
    fn parse_stat(text: &str) -> Option<Stat> {
        let after_name = &text[text.rfind(')')? + 1..];
        let mut fields = after_name.split_ascii_whitespace();
        // Field 3 is the state; fields 4 to 22 follow.
        let ppid = fields.nth(1)?.parse().ok()?;
        let start_time = fields.nth(17)?.parse().ok()?;
        Some(Stat { ppid, start_time })
    }

    /// Every process whose chain of parents leads to `root`, each with its start time.
    pub(super) fn descendants_of(root: u32) -> Vec<Process> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let all: Vec<(Process, u32)> = entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
            .filter_map(|pid| {
                let stat = stat(pid)?;
                let process = Process {
                    pid,
                    start_time: stat.start_time,
                };
                Some((process, stat.ppid))
            })
            .collect();
        let mut found: Vec<Process> = Vec::new();
        let mut parents = vec![root];
        while let Some(parent) = parents.pop() {
            for (process, ppid) in &all {
                if *ppid == parent && !found.contains(process) {
                    found.push(*process);
                    parents.push(process.pid);
                }
            }
        }
        found
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_stat_line_is_read_past_a_name_with_spaces_and_parentheses() {
            let line = "4242 (my (odd) server) S 4200 4242 4242 0 -1 4194560 120 0 0 0 1 2 0 0 \
                        20 0 1 0 987654 1000 200 18446744073709551615";
            let stat = parse_stat(line).unwrap();
            assert_eq!((stat.ppid, stat.start_time), (4200, 987654));
        }

        #[test]
        fn this_process_is_a_descendant_of_its_parent() {
            let me = std::process::id();
            let parent = stat(me).unwrap().ppid;
            let found = descendants_of(parent);
            assert!(found.iter().any(|process| process.pid == me), "{found:?}");
        }
    }
}

/// Without `/proc`, no process is ever found.
#[cfg(not(target_os = "linux"))]
mod proc {
    use super::Process;

    /// Nothing to read.
    pub(super) fn start_time(_pid: u32) -> Option<u64> {
        None
    }

    /// Nothing to find.
    pub(super) fn descendants_of(_root: u32) -> Vec<Process> {
        Vec::new()
    }
}
