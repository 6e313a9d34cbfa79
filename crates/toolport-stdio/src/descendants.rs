//! [`Descendants`]: the processes a server started that its process group does not hold (a
//! grandchild that called `setsid`, a double-forked daemon). On Linux the server is made a
//! child subreaper, so they stay in its tree while it lives; closing and dropping find them in
//! `/proc` and signal them with the group. Only the processes created since the server was are
//! read, not every process on the machine. Elsewhere this does nothing.

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
    /// How far the kernel had gone in giving out pids just after the server was spawned:
    /// every descendant was created after.
    pids_at_spawn: Option<proc::PidsGiven>,
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
            pids_at_spawn: proc::pids_given(),
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
        for process in proc::descendants_of(root.pid, self.pids_at_spawn) {
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

    /// Pids below this are given out only at boot: the kernel goes round to it, not to 1.
    const RESERVED_PIDS: u64 = 300;

    /// How far the kernel has gone in giving out pids, which processes and threads take from
    /// one space, in turn, going round to [`RESERVED_PIDS`] after `pid_max`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) struct PidsGiven {
        /// The pid given last (the last field of `/proc/loadavg`).
        last: u32,
        /// Processes and threads alive (the total after the `/` of `/proc/loadavg`).
        alive: u64,
        /// Processes and threads created since boot (`processes` in `/proc/stat`).
        created: u64,
    }

    /// How far the kernel has gone in giving out pids now, if `/proc` says.
    pub(super) fn pids_given() -> Option<PidsGiven> {
        let loadavg = std::fs::read_to_string("/proc/loadavg").ok()?;
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        parse_pids_given(&loadavg, &stat)
    }

    /// [`PidsGiven`] from the text of `/proc/loadavg` and `/proc/stat`.
    fn parse_pids_given(loadavg: &str, stat: &str) -> Option<PidsGiven> {
        let mut fields = loadavg.split_ascii_whitespace();
        let alive = fields.nth(3)?.split_once('/')?.1.parse().ok()?;
        let last = fields.next()?.parse().ok()?;
        let created = stat
            .lines()
            .find_map(|line| line.strip_prefix("processes "))?
            .trim()
            .parse()
            .ok()?;
        Some(PidsGiven {
            last,
            alive,
            created,
        })
    }

    /// The pids given out after `root`, as a stretch of the pid space that may go round its
    /// end: after `after`, up to and with `through`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct NewPids {
        after: u32,
        through: u32,
    }

    impl NewPids {
        /// The pids given after `root`, which was given just before `then`, as they stand
        /// `now`, in a space of `pid_max`. `None` when the kernel may have gone all the way
        /// round since, so that any pid may be new. Going round takes `pid_max` less
        /// [`RESERVED_PIDS`] steps, one per pid given and one per pid skipped because it is
        /// in use; the pids skipped are at most those alive then and those created since, so
        /// twice both, with room for the few created between `root` and `then`, stays short
        /// of a round.
        fn since(root: u32, then: PidsGiven, now: PidsGiven, pid_max: u64) -> Option<Self> {
            let created = now.created.checked_sub(then.created)?;
            let steps = created.saturating_add(then.alive).saturating_mul(2);
            (steps < pid_max.saturating_sub(RESERVED_PIDS)).then_some(Self {
                after: root,
                through: now.last,
            })
        }

        /// Whether `pid` was given after the root.
        fn holds(self, pid: u32) -> bool {
            if self.after <= self.through {
                self.after < pid && pid <= self.through
            } else {
                self.after < pid || pid <= self.through
            }
        }
    }

    /// The new pids since `root`, given just before `then`, or `None` when every pid must be
    /// read.
    fn new_pids(root: u32, then: Option<PidsGiven>) -> Option<NewPids> {
        let pid_max = std::fs::read_to_string("/proc/sys/kernel/pid_max").ok()?;
        NewPids::since(root, then?, pids_given()?, pid_max.trim().parse().ok()?)
    }

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

    /// Every process whose chain of parents leads to `root`, each with its start time. `then`
    /// is how far pids had been given just after `root` was: only the processes created
    /// since are read (every one when that cannot be told).
    pub(super) fn descendants_of(root: u32, then: Option<PidsGiven>) -> Vec<Process> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let new_pids = new_pids(root, then);
        let all: Vec<(Process, u32)> = entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| new_pids.is_none_or(|new| new.holds(pid)))
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
            let found = descendants_of(parent, None);
            assert!(found.iter().any(|process| process.pid == me), "{found:?}");
        }

        #[test]
        fn a_child_is_found_among_the_pids_given_since_its_parent_was() {
            let then = pids_given().unwrap();
            let me = std::process::id();
            let mut child = std::process::Command::new("sleep")
                .arg("30")
                .spawn()
                .unwrap();
            let found = descendants_of(me, Some(then));
            child.kill().unwrap();
            child.wait().unwrap();
            assert!(found.iter().any(|p| p.pid == child.id()), "{found:?}");
        }

        #[test]
        fn pids_given_are_read_from_loadavg_and_stat() {
            let loadavg = "0.86 1.32 0.99 1/107 16224\n";
            let stat = "cpu  1 2 3\nctxt 99\nprocesses 210995\nprocs_running 1\n";
            let given = parse_pids_given(loadavg, stat).unwrap();
            let expected = PidsGiven {
                last: 16224,
                alive: 107,
                created: 210995,
            };
            assert_eq!(given, expected);
        }

        fn given(last: u32, alive: u64, created: u64) -> PidsGiven {
            PidsGiven {
                last,
                alive,
                created,
            }
        }

        #[test]
        fn the_new_pids_run_from_the_root_to_the_last_given_going_round_the_end() {
            let then = given(1_001, 100, 5_000);
            let straight = NewPids::since(1_000, then, given(1_050, 110, 5_050), 32_768).unwrap();
            assert!(straight.holds(1_001) && straight.holds(1_050));
            assert!(!straight.holds(1_000) && !straight.holds(1_051) && !straight.holds(400));
            let round = NewPids::since(32_000, then, given(420, 110, 6_000), 32_768).unwrap();
            assert!(round.holds(32_767) && round.holds(300) && round.holds(420));
            assert!(!round.holds(421) && !round.holds(32_000) && !round.holds(16_000));
        }

        #[test]
        fn every_pid_is_read_once_the_kernel_may_have_gone_round() {
            let then = given(1_001, 100, 5_000);
            // 17,000 created and 100 alive: twice that is past the 32,468 steps of a round.
            assert_eq!(
                NewPids::since(1_000, then, given(1_050, 110, 22_000), 32_768),
                None
            );
            assert!(NewPids::since(1_000, then, given(1_050, 110, 10_000), 32_768).is_some());
            // A count that went down (another boot's, a namespace's) is not trusted either.
            assert_eq!(
                NewPids::since(1_000, then, given(1_050, 110, 4_000), 32_768),
                None
            );
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

    /// Nothing to tell.
    #[derive(Debug, Clone, Copy)]
    pub(super) struct PidsGiven;

    /// Nothing to read.
    pub(super) fn pids_given() -> Option<PidsGiven> {
        None
    }

    /// Nothing to find.
    pub(super) fn descendants_of(_root: u32, _then: Option<PidsGiven>) -> Vec<Process> {
        Vec::new()
    }
}
