//! Helpers shared by the fixtures' integration tests: the raw rmcp client of the testkit's
//! tests (one file, compiled into both crates' tests), and raw HTTP in [`raw_http`].

#![allow(dead_code, unreachable_pub, unused_imports)] // Each test binary uses a different subset.

#[path = "../../../toolport-testkit/tests/common/mod.rs"]
mod raw_client;
pub mod raw_http;

pub use raw_client::*;
