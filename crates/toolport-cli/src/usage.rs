//! Usage errors: clap's report cut to one line with a hint, exit status 1 (2 is kept for a
//! tool's `isError`). `--help` and `--version` print as clap prints them and exit 0.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::CommandFactory as _;
use clap::error::ErrorKind;

use crate::args::Cli;
use crate::terminal::errln;

/// Reports a command line that clap did not accept, or prints the help or version it asked
/// for.
pub(crate) fn report(error: &clap::Error, args: &[OsString]) -> ExitCode {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return match error.print() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
    errln!("toolport: {}; see '{}'", cause(error), help_command(args));
    ExitCode::FAILURE
}

/// A command line that ends in `--`, naming no server after it (as an unset variable in
/// `-- $SERVER` does), reported as a usage error: the built-in demo runs only when no server is
/// named at all, so a script never succeeds against it by mistake.
pub(crate) fn empty_command(args: &[OsString]) -> Option<ExitCode> {
    let first_separator = args.iter().skip(1).position(|arg| arg == "--")?;
    if first_separator + 2 < args.len() {
        return None;
    }
    errln!(
        "toolport: nothing follows `--`: give the stdio server's command after it (is a variable \
         in it unset?), or leave `--` out to use the built-in demo; see '{}'",
        help_command(args)
    );
    Some(ExitCode::FAILURE)
}

/// The cause in one line: the first paragraph of clap's report (a missing argument's name is
/// on the next line), without the `error:` label, the usage and the tips.
fn cause(error: &clap::Error) -> String {
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let commands: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|command| command.get_name().to_owned())
            .filter(|name| name != "help")
            .collect();
        return format!("no command given (one of {})", commands.join(", "));
    }
    let report = error.render().to_string();
    let paragraph: Vec<&str> = report
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = paragraph.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_owned()
}

/// `toolport <subcommand> --help` for the subcommand on the command line, else
/// `toolport --help`.
fn help_command(args: &[OsString]) -> String {
    let command = Cli::command();
    let subcommand = args
        .iter()
        .skip(1)
        .take_while(|arg| *arg != "--")
        .filter_map(|arg| arg.to_str())
        .find(|arg| command.find_subcommand(arg).is_some() && *arg != "help");
    match subcommand {
        Some(name) => format!("toolport {name} --help"),
        None => "toolport --help".to_owned(),
    }
}
