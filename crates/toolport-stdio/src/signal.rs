//! Signals sent to a child's whole process group, so that grandchildren die with it, and to
//! single processes that left the group.

/// Which signal to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signal {
    /// `SIGTERM`: please exit.
    Terminate,
    /// `SIGKILL`: exit now.
    Kill,
}

/// Sends `signal` to the process group `pgid`. Returns whether any process received it.
///
/// Does nothing for group ids 0 and 1, which would hit our own group or every process.
#[cfg(unix)]
pub(crate) fn signal_group(pgid: u32, signal: Signal) -> bool {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return false;
    };
    if pgid <= 1 {
        return false;
    }
    // SAFETY: killpg has no memory-safety preconditions; a stale group id yields ESRCH.
    unsafe { libc::killpg(pgid, signal.number()) == 0 }
}

/// Sends `signal` to the one process `pid`. Returns whether it received it.
///
/// Does nothing for pids 0 and 1, which would hit our own group or init.
#[cfg(unix)]
pub(crate) fn signal_process(pid: u32, signal: Signal) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 1 {
        return false;
    }
    // SAFETY: kill has no memory-safety preconditions; a stale pid yields ESRCH.
    unsafe { libc::kill(pid, signal.number()) == 0 }
}

#[cfg(unix)]
impl Signal {
    fn number(self) -> libc::c_int {
        match self {
            Self::Terminate => libc::SIGTERM,
            Self::Kill => libc::SIGKILL,
        }
    }
}

/// Process groups are a unix notion; elsewhere only the direct child is killed.
#[cfg(not(unix))]
pub(crate) fn signal_group(_pgid: u32, _signal: Signal) -> bool {
    false
}

/// Signals are a unix notion; elsewhere only the direct child is killed.
#[cfg(not(unix))]
pub(crate) fn signal_process(_pid: u32, _signal: Signal) -> bool {
    false
}
