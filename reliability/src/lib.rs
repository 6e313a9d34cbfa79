//! What the fault matrix and the soak share: a [`census`] of what this process holds (child
//! processes, file descriptors, resident memory), taken before and after, to show that nothing
//! leaked.

pub mod census;
pub mod faults;
pub mod soak;
