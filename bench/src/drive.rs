//! The workloads, written once against the [`Client`] trait that each Rust client implements.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use tokio::task::JoinSet;

use crate::args::{Args, Workload};
use crate::measurement::Measurement;
use crate::usage::{self, Mark};

/// One MCP session to the echo server, as a client library opens it.
pub trait Client: Sized + Send + Sync + 'static {
    /// The client's name in the result line.
    const NAME: &'static str;

    /// Spawns the server of `args` and completes the `initialize` handshake.
    fn connect(args: Arc<Args>) -> impl Future<Output = Result<Self>> + Send;

    /// Discovers the tools, the way this client would at the start of an agent turn. Returns
    /// how many there are.
    fn tools(&self) -> impl Future<Output = Result<usize>> + Send;

    /// Calls `echo` with [`ECHO_TEXT`](crate::ECHO_TEXT) once.
    fn echo(&self) -> impl Future<Output = Result<()>> + Send;

    /// Ends the session and waits until the server process is gone.
    fn close(self) -> impl Future<Output = Result<()>> + Send;

    /// Measures the `tenants` workload, for a client that has per-tenant sessions.
    fn tenants(args: Arc<Args>) -> impl Future<Output = Result<Measurement>> + Send {
        async move { anyhow::bail!("{} has no `{}` workload", Self::NAME, args.workload.name()) }
    }
}

/// Runs the workload `args` names with client `C`.
pub async fn run<C: Client>(args: Args) -> Result<Measurement> {
    let args = Arc::new(args);
    match args.workload {
        Workload::Seq => warm::<C, _, _>(&args, 1, |client, n| sequential(client, n)).await,
        Workload::Concurrent => {
            let concurrency = args.concurrency;
            warm::<C, _, _>(&args, concurrency, move |client, n| {
                concurrent(client, n, concurrency)
            })
            .await
        }
        Workload::Discovery => warm::<C, _, _>(&args, 1, |client, n| turns(client, n)).await,
        Workload::Turn => warm::<C, _, _>(&args, 1, |client, n| agent_turns(client, n)).await,
        Workload::Cold => cold::<C>(&args).await,
        Workload::Fleet => sessions_fleet::<C>(&args).await,
        Workload::Tenants => C::tenants(args).await,
    }
}

/// Opens one session, warms it with one `tools` and `in_flight` concurrent `echo` calls (so an
/// HTTP client has as many pooled connections as the body will use), measures `body` over it,
/// then closes it.
async fn warm<C, F, Fut>(args: &Arc<Args>, in_flight: usize, body: F) -> Result<Measurement>
where
    C: Client,
    F: FnOnce(Arc<C>, usize) -> Fut,
    Fut: Future<Output = Result<()>>,
{
    let client = Arc::new(C::connect(args.clone()).await?);
    client.tools().await?;
    concurrent(client.clone(), in_flight, in_flight).await?;
    let mark = Mark::now();
    body(client.clone(), args.n).await?;
    let measured = Measurement::new(C::NAME, args.n, mark.elapsed());
    let client = Arc::into_inner(client).context("a worker still holds the client")?;
    client.close().await?;
    Ok(measured)
}

async fn sequential<C: Client>(client: Arc<C>, n: usize) -> Result<()> {
    for _ in 0..n {
        client.echo().await?;
    }
    Ok(())
}

/// `n` calls spread over `concurrency` tasks, each calling in a loop, so that `concurrency`
/// calls are in flight until the last ones finish.
async fn concurrent<C: Client>(client: Arc<C>, n: usize, concurrency: usize) -> Result<()> {
    let mut workers = JoinSet::new();
    for worker in 0..concurrency {
        let share = n / concurrency + usize::from(worker < n % concurrency);
        let client = client.clone();
        workers.spawn(async move {
            for _ in 0..share {
                client.echo().await?;
            }
            anyhow::Ok(())
        });
    }
    while let Some(done) = workers.join_next().await {
        done??;
    }
    Ok(())
}

async fn turns<C: Client>(client: Arc<C>, n: usize) -> Result<()> {
    for _ in 0..n {
        client.tools().await?;
    }
    Ok(())
}

/// `n` agent turns, each offering the tools and making one call, as an agent loop does when the
/// model calls one tool per turn.
async fn agent_turns<C: Client>(client: Arc<C>, n: usize) -> Result<()> {
    for _ in 0..n {
        client.tools().await?;
        client.echo().await?;
    }
    Ok(())
}

/// `n` whole lifecycles one after another, each sampled.
async fn cold<C: Client>(args: &Arc<Args>) -> Result<Measurement> {
    let mark = Mark::now();
    let mut samples = Vec::with_capacity(args.n);
    for _ in 0..args.n {
        let started = Instant::now();
        let client = C::connect(args.clone()).await?;
        client.tools().await?;
        client.close().await?;
        samples.push(started.elapsed());
    }
    let mut measured = Measurement::new(C::NAME, args.n, mark.elapsed());
    measured.samples = samples;
    Ok(measured)
}

/// `n` sessions connected and listed concurrently; the resident set's growth is divided
/// among them.
pub async fn sessions_fleet<C: Client>(args: &Arc<Args>) -> Result<Measurement> {
    let rss_before = usage::rss_kib();
    let mark = Mark::now();
    let mut starting = JoinSet::new();
    for _ in 0..args.n {
        let args = args.clone();
        starting.spawn(async move {
            let client = C::connect(args).await?;
            client.tools().await?;
            anyhow::Ok(client)
        });
    }
    let mut clients = Vec::with_capacity(args.n);
    while let Some(ready) = starting.join_next().await {
        clients.push(ready??);
    }
    let mut measured = Measurement::new(C::NAME, args.n, mark.elapsed());
    let grown = usage::rss_kib().saturating_sub(rss_before);
    measured.rss_per_session_kib = Some(grown as f64 / args.n as f64);
    let mut closing: JoinSet<Result<()>> = clients.into_iter().map(C::close).collect();
    while let Some(closed) = closing.join_next().await {
        closed??;
    }
    Ok(measured)
}
