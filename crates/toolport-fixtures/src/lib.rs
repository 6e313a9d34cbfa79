//! Toolport's own scenario servers, fault hosts and fixture binaries, for the tests, examples,
//! benchmarks and fault matrix of this repository; not published. What a user's tests need (the
//! task tracker, the in-process and scripted connectors, the helpers) is in `toolport-testkit`.
//!
//! - [`BillingServer`]: invoices to read and a refund tool that honours an idempotency key,
//!   for the ticket-assistant example.
//! - [`FilesystemServer`]: reads, searches and writes the files of one directory.
//! - [`PaymentsServer`]: one tool with a side effect, `charge`, that honours an idempotency
//!   key and can answer its first call late, for tests of retries.
//! - [`PerUserServer`]: a tool list of its own for each user (the `X-User-Id` header), over
//!   Streamable HTTP.
//! - [`BulletinBoard`]: notes and tools that change while clients watch, told to the clients
//!   that subscribed (`resources/subscribe` or `subscriptions/listen`).
//! - [`LibraryServer`]: resources over two pages, a resource template, a prompt and its
//!   completions, and the server errors a client must pass on.
//! - [`ResearchDesk`]: a long tool run as a task (2026-07-28's tasks extension), which may ask
//!   a question midway, fail, or be cancelled.
//! - [`LabServer`]: tools that echo, sleep, crash, add, announce tool-list changes and return an
//!   image, for edge-case tests and benchmarks.
//! - [`HttpFixtureServer`] and [`LegacySseFixtureServer`]: serve any fixture over Streamable
//!   HTTP or the legacy HTTP+SSE transport on `127.0.0.1`, log every request, can require a
//!   bearer token, and stop or restart on the same port. [`wait_for_port`] waits for a server
//!   started as a child process.
//! - [`FaultHost`]: a hand-written MCP server over Streamable HTTP or legacy SSE that misbehaves
//!   once as its [`FaultBehaviour`] says (hangs, crashes, trickles, resets, forgets its session,
//!   answers with the wrong id), for the fault matrix and tests of the HTTP transports.
//!
//! [`hostile_schemas`] holds the input schemas of a malicious server: a `$ref` chain that nests
//! thousands of levels once inlined, and one large definition referenced hundreds of times;
//! [`HostileSchemaServer`] lists them, and answers with results nested as deep as JSON allows.
//!
//! With the `tls` feature, `TestPki` makes a certificate authority and the certificates it
//! issues, `TlsGateway` puts TLS (and, if asked, mutual TLS) in front of any server, and
//! `ConnectProxy` is an HTTP proxy that records what it was asked, for tests of a client
//! behind a company's proxy and CA.
//!
//! [`WideServer`] lists up to 30 tools about one business system, for fleets of thousands of
//! tools.
//!
//! [`CapturedLog`] keeps what a `tracing` subscriber prints, and [`RequestSpans`] the fields
//! and events of each request's span; [`CancellationCounter`] and [`InFlightCounter`] count
//! what a [`LabServer`] saw.
//!
//! [`run_server_process`] is the `main` of a fixture served as its own process. The
//! `toolport-fixture` binary serves either fixture over stdio, and has misbehaving modes
//! (`exit-during-init`, `garbage`, `hang`) for error tests against a real child process;
//! [`fixture_binary`] finds it for the tests of other crates, and [`processes_with`] and
//! [`wait_until_gone`] check that no child outlives its owner. Its `faulty` mode commits the
//! faults of the fault matrix on demand, and writes what it did in a [`FaultLedger`]. The
//! `toolport-echo-server` binary serves the [`LabServer`] over stdio, for the benchmarks.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod billing;
mod bulletin;
mod cancellations;
mod captured_log;
mod fault_host;
mod fault_ledger;
mod files;
mod fixture_binary;
pub mod hostile_schemas;
mod hostile_server;
mod http_fixture;
mod in_flight;
mod lab;
mod library;
mod payments;
mod per_user;
mod processes;
mod request_spans;
mod research;
mod server_process;
#[cfg(feature = "tls")]
mod tls;
mod wait_for_port;
mod wide;

pub use billing::BillingServer;
pub use bulletin::{BulletinBoard, BulletinServer};
pub use cancellations::CancellationCounter;
pub use captured_log::CapturedLog;
pub use fault_host::{FaultBehaviour, FaultHost, HostTransport};
pub use fault_ledger::FaultLedger;
pub use files::FilesystemServer;
pub use fixture_binary::{FIXTURE_BINARY_VAR, fixture_binary};
pub use hostile_server::HostileSchemaServer;
pub use http_fixture::{
    BEARER_CHALLENGE, HttpFixtureServer, LegacySseFixtureServer, RecordedRequest,
};
pub use in_flight::InFlightCounter;
pub use lab::{CrashBehavior, LabServer};
pub use library::LibraryServer;
pub use payments::PaymentsServer;
pub use per_user::PerUserServer;
pub use processes::{processes_with, wait_until_gone};
pub use request_spans::{RequestSpans, SpanFields, span_events};
pub use research::ResearchDesk;
pub use server_process::run_server_process;
#[cfg(feature = "tls")]
pub use tls::{ConnectProxy, ProxiedRequest, TestIdentity, TestPki, TlsGateway};
pub use wait_for_port::wait_for_port;
pub use wide::{WIDE_SERVER_TOOLS, WideServer};
