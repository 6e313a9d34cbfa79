//! The command line of `cargo xtask`: the [`Task`] it names, each task's usage text, and the
//! dispatch to the module that does the job.
//!
//! Every task answers `-h` and `--help` with its own usage, wherever the flag stands; any
//! other argument a task does not take is an error that prints that usage.

use anyhow::{Result, bail};

use crate::{bench, conformance, faults, fuzz, interop, peers, soak, test, tidy};

/// The overview printed by `cargo xtask help` and on a bad task name.
const USAGE: &str = "\
usage: cargo xtask <task> [--help]

tasks:
  peers        install the peer servers and tools the tests talk to, under target/peers/
  tidy         check the house rules: file docs and lengths, workspace dependencies, layering, READMEs
  test         fmt --check, tidy, clippy, doc and package, then the peers and all CI runs
  conformance  the official MCP conformance suite against our client (docs/conformance.md)
  interop      the toolport command against real servers over every transport, as a matrix
  faults       [--lower-bounds-only] [FILTER] the fault matrix: misbehaving servers over every transport, as a table
  bench        [--quick] Toolport against raw rmcp, the TypeScript and Python SDKs and a pipe, side by side
  fuzz         [TARGET] [--smoke | --seconds N] the cargo-fuzz targets of fuzz/, on nightly
  soak         [--quick] [--phase NAME] Toolport for a long time: the children, fds and memory it leaves
  help         print this text

`cargo xtask <task> --help` prints the usage of one task.";

/// `cargo xtask peers --help`.
const PEERS_USAGE: &str = "\
usage: cargo xtask peers

Installs the programs the tests talk to: server-everything, the conformance suite, the
TypeScript SDK and Node 22 under target/peers/node/, and a Python venv with the mcp SDK
under target/peers/venv/. A peer whose pinned version is there already is skipped.

options:
  -h, --help  print this text";

/// `cargo xtask tidy --help`.
const TIDY_USAGE: &str = "\
usage: cargo xtask tidy

Checks the house rules and lists every violation by file and line: each tracked .rs file
starts with a `//!` line and has at most 600 lines, each dependency of a workspace member
is `name.workspace = true`, and each crate depends only on the toolport crates that the
`## Layering` table of docs/architecture.md allows.

options:
  -h, --help  print this text";

/// `cargo xtask test --help`.
const TEST_USAGE: &str = "\
usage: cargo xtask test

Everything CI runs, in order, stopping at the first failure: cargo fmt --check, tidy, clippy,
cargo doc and cargo package of the publishable crates (before anything is installed), then the peers, conformance, interop, the fault
matrix (with --lower-bounds-only), the examples, the doc tests and the tests (nextest when
installed).

options:
  -h, --help  print this text";

/// `cargo xtask conformance --help`.
const CONFORMANCE_USAGE: &str = "\
usage: cargo xtask conformance

Runs the official MCP conformance suite against conformance-client and holds the results
to conformance/expected-failures.yml: an unlisted failure fails, and so does a listed
scenario that passes. Results go under target/conformance/. See docs/conformance.md.

options:
  -h, --help  print this text";

/// `cargo xtask interop --help`.
const INTEROP_USAGE: &str = "\
usage: cargo xtask interop

Runs the toolport command against server-everything and the Python task tracker over
stdio, Streamable HTTP and legacy SSE, and prints the matrix. Any red cell fails the run.
Server logs go under target/interop/.

options:
  -h, --help  print this text";

/// `cargo xtask faults --help`.
const FAULTS_USAGE: &str = "\
usage: cargo xtask faults [--lower-bounds-only] [FILTER]

Builds toolport-faults and toolport-fixture (the shared dev build) and runs the fault
matrix: each fault a server can commit (a crash mid-call, a hang, garbage, an oversized
answer, wrong ids, ...) over stdio, Streamable HTTP and legacy SSE, each cell a real
process or socket. It prints a table with a row per fault and a column per transport, then
a line per cell. A cell fails unless the error is typed and within its bound (a timeout at
its bound, not before and not long after), the next call works, nothing was replayed and
nothing leaked; any failed cell fails the run. Part of `cargo xtask test`, with
--lower-bounds-only. See docs/reliability.md.

arguments:
  FILTER      run only the cells whose fault or transport label contains it (`crash`, `stdio`)

options:
  --lower-bounds-only  judge only that each timeout waited its whole bound, not how soon an
                       error came (a loaded machine stretches that); each cell must still end
                       within its own bound
  -h, --help  print this text";

/// `cargo xtask bench --help`.
const BENCH_USAGE: &str = "\
usage: cargo xtask bench [--quick]

Runs Toolport side by side with raw rmcp, the TypeScript and Python SDKs and a bare pipe,
pinned and unpinned, and writes target/bench/report.json and target/bench/ratios.svg.
A slow result is printed, never a failure. See docs/performance.md.

options:
  --quick     fewer calls and rounds, to finish in under two minutes
  -h, --help  print this text";

/// `cargo xtask fuzz --help`.
const FUZZ_USAGE: &str = "\
usage: cargo xtask fuzz [TARGET] [--smoke | --seconds N]

Runs the cargo-fuzz targets of fuzz/ (or TARGET alone) one after another with
`cargo +nightly fuzz run`, installing cargo-fuzz under target/tools/ when it is missing.
Each starts from its corpus in fuzz/corpus/<target>/ and writes new inputs to
target/fuzz/corpus/<target>/. Any crash fails the run and names its input, saved under
fuzz/artifacts/<target>/. Not part of `cargo xtask test`. See docs/reliability.md.

options:
  --smoke      60 s per target
  --seconds N  N seconds per target (default: 600, a full run)
  -h, --help   print this text";

/// `cargo xtask soak --help`.
const SOAK_USAGE: &str = "\
usage: cargo xtask soak [--quick] [--phase NAME]

Builds toolport-soak (the shared dev build) and runs it: 1,000 connect/close cycles over
stdio, Streamable HTTP and legacy SSE; 100,000 calls at 32 in flight over stdio and HTTP;
the manager restarting a crash-looping server for 10 minutes. Each phase reports child
processes, open fds and RSS at its start and end, and fails on a leaked child or fd, or RSS
that moves over 5% after warm-up. Not part of `cargo xtask test`. See docs/reliability.md.

options:
  --quick       50 cycles, 5,000 calls and 6 s of crash loop: about half a minute
  --phase NAME  one phase: cycles-stdio, cycles-http, cycles-sse, calls-stdio, calls-http
                or crash-loop
  -h, --help    print this text";

/// One job that `cargo xtask` can do.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Task {
    /// Install the npm and Python peers under `target/peers/`.
    Peers,
    /// Check the house rules.
    Tidy,
    /// Run everything CI runs, in order, failing fast.
    Test,
    /// Run the official conformance suite and compare it with the expected failures.
    Conformance,
    /// Run the `toolport` command against real servers, as a matrix.
    Interop,
    /// Run the fault matrix, or the cells `filter` names.
    Faults {
        /// A piece of a fault's or a transport's label; every cell when `None`.
        filter: Option<String>,
        /// Judge only that each timeout waited its whole bound, not how soon an error came.
        lower_bounds_only: bool,
    },
    /// Run the benchmarks side by side with the peers; `quick` trims the sizes and rounds.
    Bench {
        /// Fewer calls and rounds, to finish in under two minutes.
        quick: bool,
    },
    /// Run the fuzz targets, or one of them, for a time each.
    Fuzz {
        /// The target to run; every target when `None`.
        target: Option<String>,
        /// How long each target runs.
        seconds: u64,
    },
    /// Run the soak; `quick` trims the sizes, `phase` runs one phase.
    Soak {
        /// 50 cycles, 5,000 calls and 6 s of crash loop.
        quick: bool,
        /// The one phase to run; every phase when `None`.
        phase: Option<String>,
    },
    /// Print this usage text.
    Help(&'static str),
}

impl Task {
    /// Parses the command line (without the program name).
    pub(crate) fn parse(args: &[String]) -> Result<Self> {
        let Some((name, flags)) = args.split_first() else {
            bail!("no task given\n\n{USAGE}");
        };
        let mut flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let help = take(&mut flags, "-h") | take(&mut flags, "--help");
        let task = match name.as_str() {
            "peers" => Self::Peers,
            "tidy" => Self::Tidy,
            "test" => Self::Test,
            "conformance" => Self::Conformance,
            "interop" => Self::Interop,
            "faults" => Self::Faults {
                lower_bounds_only: take(&mut flags, faults::LOWER_BOUNDS_ONLY),
                filter: faults::take_filter(&mut flags),
            },
            "bench" => Self::Bench {
                quick: take(&mut flags, "--quick"),
            },
            "fuzz" => match fuzz::take_args(&mut flags) {
                Ok((target, seconds)) => Self::Fuzz { target, seconds },
                Err(_) if help => Self::Help(FUZZ_USAGE),
                Err(error) => bail!("{error:#}\n\n{FUZZ_USAGE}"),
            },
            "soak" => match soak::take_args(&mut flags) {
                Ok((quick, phase)) => Self::Soak { quick, phase },
                Err(_) if help => Self::Help(SOAK_USAGE),
                Err(error) => bail!("{error:#}\n\n{SOAK_USAGE}"),
            },
            "help" | "-h" | "--help" => Self::Help(USAGE),
            other => bail!("unknown task `{other}`\n\n{USAGE}"),
        };
        if help {
            return Ok(Self::Help(task.usage()));
        }
        if let Some(flag) = flags.first() {
            bail!(
                "`cargo xtask {name}` does not take `{flag}`\n\n{}",
                task.usage()
            );
        }
        Ok(task)
    }

    /// The task's usage text.
    fn usage(&self) -> &'static str {
        match self {
            Self::Peers => PEERS_USAGE,
            Self::Tidy => TIDY_USAGE,
            Self::Test => TEST_USAGE,
            Self::Conformance => CONFORMANCE_USAGE,
            Self::Interop => INTEROP_USAGE,
            Self::Faults { .. } => FAULTS_USAGE,
            Self::Bench { .. } => BENCH_USAGE,
            Self::Fuzz { .. } => FUZZ_USAGE,
            Self::Soak { .. } => SOAK_USAGE,
            Self::Help(_) => USAGE,
        }
    }

    /// Does the job.
    pub(crate) fn run(self) -> Result<()> {
        match self {
            Self::Peers => peers::run().map(drop),
            Self::Tidy => tidy::run(),
            Self::Test => test::run(),
            Self::Conformance => conformance::run(),
            Self::Interop => interop::run(),
            Self::Faults {
                filter,
                lower_bounds_only,
            } => faults::run(filter.as_deref(), lower_bounds_only),
            Self::Bench { quick } => bench::run(quick),
            Self::Fuzz { target, seconds } => fuzz::run(target.as_deref(), seconds),
            Self::Soak { quick, phase } => soak::run(quick, phase.as_deref()),
            Self::Help(usage) => {
                println!("{usage}");
                Ok(())
            }
        }
    }
}

/// Removes every `flag` from `flags`; returns whether there was one.
fn take(flags: &mut Vec<&str>, flag: &str) -> bool {
    let before = flags.len();
    flags.retain(|&given| given != flag);
    flags.len() != before
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Task> {
        let args: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        Task::parse(&args)
    }

    /// The error's text, for a command line that must fail.
    fn error(line: &str) -> String {
        format!("{:#}", parse(line).unwrap_err())
    }

    const TASKS: [&str; 9] = [
        "peers",
        "tidy",
        "test",
        "conformance",
        "interop",
        "faults",
        "bench",
        "fuzz",
        "soak",
    ];

    #[test]
    fn parses_each_task_and_bench_quick() {
        assert_eq!(parse("peers").unwrap(), Task::Peers);
        assert_eq!(parse("tidy").unwrap(), Task::Tidy);
        assert_eq!(parse("test").unwrap(), Task::Test);
        assert_eq!(parse("conformance").unwrap(), Task::Conformance);
        assert_eq!(parse("interop").unwrap(), Task::Interop);
        let faults = |filter: Option<&str>, lower_bounds_only| Task::Faults {
            filter: filter.map(str::to_owned),
            lower_bounds_only,
        };
        assert_eq!(parse("faults").unwrap(), faults(None, false));
        assert_eq!(parse("faults crash").unwrap(), faults(Some("crash"), false));
        assert_eq!(
            parse("faults --lower-bounds-only crash").unwrap(),
            faults(Some("crash"), true)
        );
        assert_eq!(parse("bench").unwrap(), Task::Bench { quick: false });
        assert_eq!(parse("bench --quick").unwrap(), Task::Bench { quick: true });
        let fuzz = |target: Option<&str>, seconds| Task::Fuzz {
            target: target.map(str::to_owned),
            seconds,
        };
        assert_eq!(parse("fuzz").unwrap(), fuzz(None, 600));
        let soak = |quick, phase: Option<&str>| Task::Soak {
            quick,
            phase: phase.map(str::to_owned),
        };
        assert_eq!(parse("soak").unwrap(), soak(false, None));
        assert_eq!(
            parse("soak --phase crash-loop --quick").unwrap(),
            soak(true, Some("crash-loop"))
        );
        assert_eq!(parse("fuzz --smoke").unwrap(), fuzz(None, 60));
        assert_eq!(
            parse("fuzz sse_framer --seconds 5").unwrap(),
            fuzz(Some("sse_framer"), 5)
        );
    }

    #[test]
    fn every_task_answers_help_with_its_own_usage() {
        for name in TASKS {
            for flag in ["-h", "--help"] {
                let Task::Help(usage) = parse(&format!("{name} {flag}")).unwrap() else {
                    panic!("`{name} {flag}` is not help");
                };
                assert!(
                    usage.starts_with(&format!("usage: cargo xtask {name}")),
                    "{name}"
                );
                assert!(usage.contains("-h, --help"), "{name}");
            }
        }
        assert_eq!(
            parse("bench --quick --help").unwrap(),
            Task::Help(BENCH_USAGE)
        );
        assert_eq!(parse("test --bogus -h").unwrap(), Task::Help(TEST_USAGE));
    }

    #[test]
    fn help_alone_prints_the_overview_of_every_task() {
        for line in ["help", "-h", "--help", "help --help"] {
            assert_eq!(parse(line).unwrap(), Task::Help(USAGE), "{line}");
        }
        for name in TASKS {
            assert!(USAGE.contains(&format!("\n  {name} ")), "{name}");
        }
    }

    #[test]
    fn an_unknown_flag_is_an_error_that_prints_the_tasks_usage() {
        for name in TASKS {
            let message = error(&format!("{name} --bogus"));
            assert!(message.contains("does not take `--bogus`"), "{message}");
            assert!(
                message.contains(&format!("usage: cargo xtask {name}")),
                "{message}"
            );
        }
        assert!(error("test --quick").contains("usage: cargo xtask test"));
        assert!(error("bench --quick extra").contains("does not take `extra`"));
    }

    #[test]
    fn no_task_or_an_unknown_one_is_an_error_that_prints_the_overview() {
        assert!(error("").starts_with("no task given"));
        assert!(error("").contains(USAGE));
        assert!(error("deploy").starts_with("unknown task `deploy`"));
        assert!(error("deploy --help").contains(USAGE));
    }
}
