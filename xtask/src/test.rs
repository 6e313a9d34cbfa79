//! `cargo xtask test`: everything CI checks, in order, stopping at the first failure.
//!
//! The steps: first the checks that need nothing installed, fastest first, so that a style
//! error fails in seconds: `cargo fmt --check`, `cargo xtask tidy`, clippy with warnings
//! denied, clippy again on the facade with `stdio` alone over `toolport-tools` without its
//! default features (so that what a feature gates compiles out), the HTTP client's unit tests
//! without TLS (the facade's default), `cargo doc --no-deps` with rustdoc's warnings denied, and `cargo package` of the
//! crates that may be published ([`workspace::package`]). Then the peers, one `cargo build` of the whole workspace, `cargo xtask conformance`,
//! `cargo xtask interop` and `cargo xtask faults --lower-bounds-only` (this same binary, run
//! again; how soon an error came is judged only when the matrix runs by itself), the examples
//! (run, offline), the doc tests (which nextest does not run), then the tests (nextest when
//! installed, else `cargo test`). The tests run last so that the output ends on their summary rather than on
//! the doc tests' often-empty crates, which CI would read as "ran no test". The test steps
//! see the `TOOLPORT_*` peer paths and `RUST_BACKTRACE=1`. Every build but xtask's own turns on
//! [`workspace::FEATURES`] (`toolport/redis` and `toolport/otel`), clippy's included.
//!
//! Each crate is compiled once for all of them (clippy's check build aside). The build and the
//! binaries of conformance, interop and the examples ([`workspace::build_bin`]) use
//! [`workspace::SHARED_BUILD`], and the tests the same selection plus xtask, so cargo resolves
//! one feature set. The doc tests build only the libraries, without the `toolport` command and
//! so without clap; that used to give the proc-macro side's `strsim` (under rmcp-macros) no
//! debuginfo and, through it, a second rmcp and a second copy of every crate.
//! `.cargo/config.toml` now sets the build-override debuginfo explicitly, which keeps those
//! units the same whatever the selection.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::{faults, peers, step, workspace};

/// Runs every step and prints how long each one took.
pub(crate) fn run() -> Result<()> {
    let start = Instant::now();
    let mut times: Vec<(&str, Duration)> = Vec::new();
    let cargo = || {
        let mut cmd = Command::new(workspace::cargo());
        cmd.current_dir(workspace::root());
        cmd
    };
    let xtask = |task: &str| -> Result<Command> {
        let mut cmd = Command::new(std::env::current_exe()?);
        cmd.arg(task);
        Ok(cmd)
    };

    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--check"]);
    let mut clippy = cargo();
    clippy.args(["clippy", "--workspace", "--all-targets", "--locked"]);
    clippy
        .args(workspace::FEATURES)
        .args(["--", "-D", "warnings"]);
    // The optional parts compile out: the facade with one transport, over toolport-tools
    // without its own default features.
    let mut lean = cargo();
    lean.args([
        "clippy",
        "--all-targets",
        "--locked",
        "--no-default-features",
    ])
    .args([
        "-p",
        "toolport",
        "-p",
        "toolport-tools",
        "--features",
        "toolport/stdio",
    ])
    .args(["--", "-D", "warnings"]);
    // The facade's defaults leave TLS off: what an `https` server meets then is tested too.
    let mut without_tls = cargo();
    without_tls.args([
        "test",
        "--locked",
        "--no-default-features",
        "-p",
        "toolport-http-client",
        "--lib",
    ]);
    // Every public item is documented and every intra-doc link resolves.
    let mut doc = cargo();
    doc.args(["doc", "--no-deps", "--workspace", "--locked"])
        .args(workspace::FEATURES)
        .env("RUSTDOCFLAGS", "-D warnings");
    let checks = [
        ("cargo fmt --check", fmt),
        ("cargo xtask tidy", xtask("tidy")?),
        ("cargo clippy", clippy),
        ("cargo clippy (lean features)", lean),
        ("cargo test (HTTP client without TLS)", without_tls),
        ("cargo doc", doc),
        ("cargo package", workspace::package()?),
    ];
    for (name, mut cmd) in checks {
        times.push((name, step::run(name, &mut cmd)?));
    }

    let peers_start = Instant::now();
    let peers = peers::run()?;
    times.push(("peers", peers_start.elapsed()));
    let test_cmd = |args: &[&str]| {
        let mut cmd = cargo();
        cmd.args(args).envs(peers.env()).env("RUST_BACKTRACE", "1");
        cmd
    };

    let mut build = cargo();
    build.arg("build").args(workspace::SHARED_BUILD);
    times.push(("cargo build", step::run("cargo build", &mut build)?));

    // The whole workspace, xtask's own tests included: they add xtask and the toml parser
    // to the shared build, and no feature to anything in it.
    let selection = [
        "--workspace",
        "--all-targets",
        "--locked",
        workspace::FEATURES[0],
        workspace::FEATURES[1],
    ];
    let tests = if has_nextest() {
        let mut nextest = test_cmd(&["nextest", "run", "--no-fail-fast"]);
        nextest.args(selection);
        ("cargo nextest run", nextest)
    } else {
        println!("cargo-nextest not found; using cargo test");
        let mut test = test_cmd(&["test"]);
        test.args(selection);
        ("cargo test", test)
    };
    // Built by the step above: these only ask cargo where they are.
    let mut tasks_agent = Command::new(workspace::build_bin("tasks_agent")?);
    tasks_agent.current_dir(workspace::root());
    let mut tasks_agent_search = Command::new(workspace::build_bin("tasks_agent")?);
    tasks_agent_search
        .current_dir(workspace::root())
        .arg("--search");
    let mut ticket_assistant = Command::new(workspace::build_bin("ticket_assistant")?);
    ticket_assistant.current_dir(workspace::root());
    let mut ticket_assistant_search = Command::new(workspace::build_bin("ticket_assistant")?);
    ticket_assistant_search
        .current_dir(workspace::root())
        .arg("--search");
    let mut mcp_manager = Command::new(workspace::build_bin("mcp_manager")?);
    mcp_manager.current_dir(workspace::root());
    let mut custom_transport = Command::new(workspace::build_bin("custom_transport")?);
    custom_transport.current_dir(workspace::root());
    // Offline: without `OLLAMA_API_BASE` the framework examples replay recorded model turns.
    let mut rig_agent = Command::new(workspace::build_bin("rig_agent")?);
    rig_agent
        .current_dir(workspace::root())
        .env_remove("OLLAMA_API_BASE");
    let mut adk_agent = Command::new(workspace::build_bin("adk_agent")?);
    adk_agent
        .current_dir(workspace::root())
        .env_remove("OLLAMA_API_BASE");
    // How soon an error comes is the machine's as much as Toolport's: judged only when the
    // matrix is run by itself.
    let mut faults = xtask("faults")?;
    faults.arg(faults::LOWER_BOUNDS_ONLY);
    let mut doc = test_cmd(&["test", "--workspace", "--doc", "--locked"]);
    doc.args(workspace::FEATURES);

    let steps = [
        ("cargo xtask conformance", xtask("conformance")?),
        ("cargo xtask interop", xtask("interop")?),
        ("cargo xtask faults", faults),
        ("example tasks_agent", tasks_agent),
        ("example tasks_agent --search", tasks_agent_search),
        ("example ticket_assistant", ticket_assistant),
        ("example ticket_assistant --search", ticket_assistant_search),
        ("example mcp_manager", mcp_manager),
        ("example custom_transport", custom_transport),
        ("example rig_agent", rig_agent),
        ("example adk_agent", adk_agent),
        ("cargo test --doc", doc),
        tests,
    ];
    for (name, mut cmd) in steps {
        times.push((name, step::run(name, &mut cmd)?));
    }

    println!(
        "xtask test: all steps passed in {:.1}s",
        start.elapsed().as_secs_f64()
    );
    for (name, time) in times {
        println!("  {:>7.1}s  {name}", time.as_secs_f64());
    }
    Ok(())
}

/// Whether `cargo nextest` is installed.
fn has_nextest() -> bool {
    Command::new(workspace::cargo())
        .args(["nextest", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
