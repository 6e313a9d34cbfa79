//! [`lock`]: a mutex's guard even after a holder panicked, for the session's small maps and
//! slots, whose data stay valid whatever a panicking holder was doing.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, taking the guard of a poisoned one too.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
