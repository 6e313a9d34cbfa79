//! Links the `toolport` binary with packed relative relocations (DT_RELR) when the toolchain
//! and the C library support them, so that the dynamic loader's start-up work shrinks.

use std::path::Path;
use std::process::{Command, Stdio};

/// The linker option, as the compiler driver passes it on.
const PACK: &str = "-Wl,-z,pack-relative-relocs";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native = var("HOST") == var("TARGET");
    if native
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && let Some(out_dir) = std::env::var_os("OUT_DIR")
        && packed_binary_runs(Path::new(&out_dir))
    {
        println!("cargo:rustc-link-arg-bins={PACK}");
    }
}

/// Whether a program linked with [`PACK`] by the system's C compiler, warnings fatal, runs
/// here. An older linker only warns that it ignores the option; GNU ld 2.38+ makes the binary
/// need glibc's `GLIBC_ABI_DT_RELR` (2.36+), so on an older glibc (Ubuntu 22.04, say) it
/// would build a `toolport` that cannot start.
fn packed_binary_runs(out_dir: &Path) -> bool {
    let source = out_dir.join("relr_probe.c");
    let binary = out_dir.join("relr_probe");
    if std::fs::write(&source, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_owned());
    let quiet = |command: &mut Command| {
        command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    };
    quiet(
        Command::new(compiler)
            .args(["-fPIE", "-pie", "-Wl,--fatal-warnings", PACK, "-o"])
            .arg(&binary)
            .arg(&source),
    ) && quiet(&mut Command::new(&binary))
}
