//! `toolport-bench-floor`: the physical floor. One JSON line the size of a `tools/call echo`
//! request goes over a pipe to a child process and back, with blocking reads and writes and
//! nothing else: no runtime, no parsing.
//!
//! ```text
//! toolport-bench-floor seq|concurrent [--n N] [--concurrency C] -- SERVER...
//! toolport-bench-floor serve      # the child: echoes each stdin line to stdout
//! ```

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};

use anyhow::{Context, Result, bail};
use toolport_bench::ECHO_TEXT;
use toolport_bench::args::{Args, Workload};
use toolport_bench::measurement::Measurement;
use toolport_bench::usage::Mark;

fn main() -> ExitCode {
    let serving = std::env::args().nth(1).as_deref() == Some("serve");
    let outcome = if serving { serve() } else { measure() };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("toolport-bench-floor: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The child: echoes every line until stdin closes.
fn serve() -> Result<()> {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        output.write_all(&line)?;
        output.flush()?;
    }
}

/// The parent: round-trips `n` lines with `1` or `concurrency` in flight.
fn measure() -> Result<()> {
    let args = Args::from_env()?;
    let in_flight = match args.workload {
        Workload::Seq => 1,
        Workload::Concurrent => args.concurrency,
        other => bail!(
            "the floor measures seq and concurrent only, not {}",
            other.name()
        ),
    };
    let mut child = Command::new(args.program())
        .args(args.server_args())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start `{}`", args.program()))?;
    let mut pipes = Pipes::of(&mut child)?;
    pipes.round_trips(1, 1)?;
    let mark = Mark::now();
    pipes.round_trips(args.n, in_flight)?;
    let measured = Measurement::new("floor", args.n, mark.elapsed());
    drop(pipes);
    child.wait()?;
    measured.print(&args);
    Ok(())
}

/// The child's stdin and stdout, and a request-sized line.
struct Pipes {
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    request: Vec<u8>,
    reply: Vec<u8>,
}

impl Pipes {
    fn of(child: &mut Child) -> Result<Self> {
        let stdin = child.stdin.take().context("no stdin pipe")?;
        let stdout = child.stdout.take().context("no stdout pipe")?;
        let request = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1000,\"method\":\"tools/call\",\"params\":\
             {{\"name\":\"echo\",\"arguments\":{{\"text\":\"{ECHO_TEXT}\"}}}}}}\n"
        );
        Ok(Self {
            stdin: BufWriter::new(stdin),
            stdout: BufReader::new(stdout),
            request: request.into_bytes(),
            reply: Vec::new(),
        })
    }

    /// Sends `n` lines, keeping up to `in_flight` unanswered, and reads every echo.
    fn round_trips(&mut self, n: usize, in_flight: usize) -> Result<()> {
        let mut sent = 0;
        for _ in 0..n.min(in_flight) {
            self.stdin.write_all(&self.request)?;
            sent += 1;
        }
        self.stdin.flush()?;
        for _ in 0..n {
            self.reply.clear();
            if self.stdout.read_until(b'\n', &mut self.reply)? == 0 {
                bail!("the floor server closed its stdout");
            }
            if sent < n {
                self.stdin.write_all(&self.request)?;
                self.stdin.flush()?;
                sent += 1;
            }
        }
        Ok(())
    }
}
