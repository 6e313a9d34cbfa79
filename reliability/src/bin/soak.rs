//! `toolport-soak`: the soak of `cargo xtask soak`. Runs every phase (or one), prints a table,
//! and exits with status 1 when a verdict fails.
//!
//! ```text
//! toolport-soak [--quick] [--phase NAME]
//! toolport-soak serve http|sse
//! ```
//!
//! The stdio server is `$TOOLPORT_FIXTURE`, else the `toolport-fixture` beside this binary.
//! `serve` is the soak's own HTTP server child: the fixtures' lab server over Streamable HTTP
//! or legacy SSE, its URL on the first line of stdout, until stdin closes.

use std::path::PathBuf;
use std::process::ExitCode;

use toolport_fixtures::{FIXTURE_BINARY_VAR, run_server_process};
use toolport_reliability::soak::{self, Options, Phase, Plan, ServedTransport};

const USAGE: &str = "\
usage: toolport-soak [--quick] [--phase NAME]
       toolport-soak serve http|sse

Runs the soak, prints a table of what each phase left behind, and exits with status 1 when a
verdict fails. The phases: cycles-stdio, cycles-http, cycles-sse, calls-stdio, calls-http,
crash-loop.

options:
  --quick       50 cycles, 5,000 calls and 6 s of crash loop, not 1,000, 100,000 and 10 min
  --phase NAME  run that phase alone
  -h, --help    print this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [serve, transport] = args.as_slice()
        && serve == "serve"
    {
        let Some(transport) = ServedTransport::parse(transport) else {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        };
        return run_server_process("toolport-soak serve", soak::serve(transport));
    }
    let options = match parse(&args) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("toolport-soak: {error}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("toolport-soak: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let reports = runtime.block_on(soak::run(&options));
    println!("\n{}", soak::table(&reports));
    if reports.iter().all(soak::PhaseReport::passed) {
        println!("soak: every verdict holds");
        ExitCode::SUCCESS
    } else {
        println!("soak: a verdict failed");
        ExitCode::FAILURE
    }
}

/// The options of a command line; `None` for `--help`.
fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut plan = Plan::full();
    let mut phases = Phase::ALL.to_vec();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--quick" => plan = Plan::quick(),
            "--phase" => {
                let name = args.next().ok_or("`--phase` needs a name")?;
                let phase = Phase::parse(name).ok_or_else(|| format!("no phase `{name}`"))?;
                phases = vec![phase];
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let soak_binary =
        std::env::current_exe().map_err(|error| format!("cannot find this binary: {error}"))?;
    let fixture = match std::env::var_os(FIXTURE_BINARY_VAR) {
        Some(path) => PathBuf::from(path),
        None => soak_binary.with_file_name("toolport-fixture"),
    };
    if !fixture.is_file() {
        return Err(format!(
            "no stdio server at {}: build it with `cargo build -p toolport-fixtures --bin \
             toolport-fixture`, or name it in {FIXTURE_BINARY_VAR}",
            fixture.display()
        ));
    }
    Ok(Some(Options {
        plan,
        phases,
        fixture,
        soak_binary,
    }))
}
