//! A transport of your own: [`UnixSocket`] speaks MCP over a Unix socket with
//! `toolport::stdio::StreamTransport`, and [`Server`] is a small server written by hand on
//! the other end, whose tools show what the transport brings (the message limit, skipped
//! lines the diagnostics quote, and 2025-11-25 tasks).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod server;
mod unix_socket;

pub use server::{NOISE, Server};
pub use unix_socket::UnixSocket;
