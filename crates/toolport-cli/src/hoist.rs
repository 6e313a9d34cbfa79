//! Options written before the subcommand (`toolport --url URL tools`) moved after it, where
//! clap reads a subcommand's options, so that the server options and the others are taken on
//! either side of it, as the global `--verbose` and `--timeout-ms` are.

use std::ffi::OsString;

use clap::{Arg, Command};

/// `args` (the program's name first), with each option before the subcommand that is not the
/// top level's own moved, with its value, to just after the subcommand. Anything else is left
/// as it is for clap to read, or to refuse: an option no subcommand takes, or no subcommand.
pub(crate) fn options_after_the_subcommand(cli: &Command, args: Vec<OsString>) -> Vec<OsString> {
    let mut kept = Vec::new();
    let mut moved = Vec::new();
    let mut tokens = args.iter().cloned();
    kept.extend(tokens.next());
    while let Some(token) = tokens.next() {
        let Some(text) = token.to_str() else {
            return args;
        };
        if cli.find_subcommand(text).is_some() {
            kept.push(token);
            kept.append(&mut moved);
            kept.extend(tokens);
            return kept;
        }
        let Some(option) = WrittenOption::parse(text) else {
            return args;
        };
        let (arg, destination) = match find(cli.get_arguments(), &option) {
            Some(arg) => (arg, &mut kept),
            None => match cli
                .get_subcommands()
                .find_map(|subcommand| find(subcommand.get_arguments(), &option))
            {
                Some(arg) => (arg, &mut moved),
                None => return args,
            },
        };
        let value_follows = arg.get_action().takes_values() && !option.value_inline;
        destination.push(token);
        if value_follows {
            destination.extend(tokens.next());
        }
    }
    args
}

/// An option as written on the command line.
struct WrittenOption<'a> {
    /// `--name`'s name, or `-x`'s letter.
    name: Name<'a>,
    /// Whether its value is in the same word (`--name=value`, `-xvalue`).
    value_inline: bool,
}

/// How an option is named.
enum Name<'a> {
    Long(&'a str),
    Short(char),
}

impl<'a> WrittenOption<'a> {
    /// The option `text` is, if it is one (`--` alone, `-` alone and words are not).
    fn parse(text: &'a str) -> Option<Self> {
        if let Some(long) = text.strip_prefix("--") {
            let (name, value) = long
                .split_once('=')
                .map_or((long, None), |(n, v)| (n, Some(v)));
            return (!name.is_empty()).then_some(Self {
                name: Name::Long(name),
                value_inline: value.is_some(),
            });
        }
        let mut letters = text.strip_prefix('-')?.chars();
        let letter = letters.next()?;
        Some(Self {
            name: Name::Short(letter),
            value_inline: letters.next().is_some(),
        })
    }
}

/// The argument of `arguments` that `option` names.
fn find<'c>(
    mut arguments: impl Iterator<Item = &'c Arg>,
    option: &WrittenOption<'_>,
) -> Option<&'c Arg> {
    arguments.find(|arg| match option.name {
        Name::Long(name) => arg.get_long() == Some(name),
        Name::Short(letter) => arg.get_short() == Some(letter),
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    use super::*;
    use crate::args::Cli;

    fn moved(line: &str) -> String {
        let mut cli = Cli::command();
        cli.build();
        let args = line.split(' ').map(OsString::from).collect();
        let args = options_after_the_subcommand(&cli, args);
        let words: Vec<&str> = args.iter().map(|arg| arg.to_str().unwrap()).collect();
        words.join(" ")
    }

    #[test]
    fn a_subcommands_options_move_after_it_with_their_values() {
        assert_eq!(
            moved("toolport --url http://x/mcp --json -H A:b tools --allow a"),
            "toolport tools --url http://x/mcp --json -H A:b --allow a"
        );
        assert_eq!(
            moved("toolport --protocol=2025-11-25 call add a=1"),
            "toolport call --protocol=2025-11-25 add a=1"
        );
    }

    #[test]
    fn the_top_levels_own_options_stay_before_it() {
        assert_eq!(
            moved("toolport -v --timeout-ms 500 --config f.json tools"),
            "toolport -v --timeout-ms 500 tools --config f.json"
        );
    }

    #[test]
    fn what_clap_must_refuse_is_left_as_written() {
        for line in [
            "toolport --bogus tools",
            "toolport --url http://x/mcp",
            "toolport -- server tools",
            "toolport --url",
        ] {
            assert_eq!(moved(line), line);
        }
    }
}
