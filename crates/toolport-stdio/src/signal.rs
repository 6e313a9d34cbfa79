//! Signals sent to a child's whole process group, so that grandchildren die with it.

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
    let signal = match signal {
        Signal::Terminate => libc::SIGTERM,
        Signal::Kill => libc::SIGKILL,
    };
    // SAFETY: killpg has no memory-safety preconditions; a stale group id yields ESRCH.
    unsafe { libc::killpg(pgid, signal) == 0 }
}

/// Process groups are a unix notion; elsewhere only the direct child is killed.
#[cfg(not(unix))]
pub(crate) fn signal_group(_pgid: u32, _signal: Signal) -> bool {
    false
}
