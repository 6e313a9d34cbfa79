//! The quick soak (`toolport-soak --quick`), run as its own process so that its census counts
//! nothing of the test harness: every phase must pass every verdict.

use std::process::Command;

use toolport_fixtures::{FIXTURE_BINARY_VAR, fixture_binary};
use toolport_reliability::soak::Phase;

#[test]
fn the_quick_soak_leaves_nothing_behind() {
    let output = Command::new(env!("CARGO_BIN_EXE_toolport-soak"))
        .arg("--quick")
        .env(FIXTURE_BINARY_VAR, fixture_binary())
        .output()
        .expect("toolport-soak starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{}\n{stdout}\n{stderr}",
        output.status
    );
    for phase in Phase::ALL {
        let row = stdout
            .lines()
            .find(|line| line.starts_with(&format!("{} ", phase.name())))
            .unwrap_or_else(|| panic!("no row for {}:\n{stdout}", phase.name()));
        assert!(row.trim_end().ends_with("pass"), "{row}\n{stdout}");
    }
    assert!(stdout.contains("soak: every verdict holds"), "{stdout}");
}
