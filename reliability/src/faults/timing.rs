//! [`Timing`]: whether a run judges how soon a cell's error came, or only that a timeout waited
//! its whole bound.
//!
//! A timeout that comes before its bound is a bug on any machine, and so is a cell that does
//! not end within its own bound (a timeout that never fires). How far past its bound a timeout
//! comes, and how soon any other error comes, depend on the machine as much as on Toolport: a
//! loaded one stretches both. So they are judged only in a run that asks for it.

use std::future::Future;

tokio::task_local! {
    /// The timing of the cell running on this task.
    static TIMING: Timing;
}

/// How a run judges the time a cell's errors took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Every bound both ways: a timeout at its bound (not before, and at most a little after),
    /// any other error well before the request bound. What `cargo xtask faults` runs.
    Strict,
    /// A timeout must still wait its whole bound, and each cell end within its own; how far
    /// past its bound a timeout comes, and how soon any other error comes, are shown but not
    /// judged. What `cargo xtask test` runs (`--lower-bounds-only`), on machines that may be
    /// loaded.
    LowerBoundsOnly,
}

impl Timing {
    /// Runs `cell` with this timing.
    pub(super) async fn scope<F: Future>(self, cell: F) -> F::Output {
        TIMING.scope(self, cell).await
    }
}

/// Whether the running cell judges upper bounds: under [`Timing::Strict`], and outside a run
/// (a check called where no timing was set judges everything).
pub(super) fn upper_bounds_judged() -> bool {
    TIMING
        .try_with(|timing| *timing == Timing::Strict)
        .unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::{Timing, upper_bounds_judged};

    #[tokio::test]
    async fn only_a_lower_bounds_run_leaves_upper_bounds_unjudged() {
        assert!(upper_bounds_judged(), "outside a run");
        assert!(Timing::Strict.scope(async { upper_bounds_judged() }).await);
        assert!(
            !Timing::LowerBoundsOnly
                .scope(async { upper_bounds_judged() })
                .await
        );
    }
}
