//! [`stand_in`]: the word that stands for a token of a need or a tool's text that is a thing of
//! a kind (a web address, a path, a git revision, a number, ...), since what it is says which
//! tool is meant and its parts only mislead.

/// The extensions that say which tools a file needs: pictures, sound, video, PDF and databases
/// (`receipt.jpg` wants a media reader). A text format's (`json`, `yaml`, `rs`) says nothing of
/// the kind, and only misleads (`json` toward tools of structured output).
const TELLING_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "svg", "mp3", "wav", "ogg", "mp4", "mov", "pdf", "db",
    "sqlite",
];

/// The word that stands for a token of a kind, and what of the token stays beside it.
pub(crate) struct StandIn {
    /// The word.
    pub(crate) word: &'static str,
    /// What of the token stays beside it.
    pub(crate) kept: Kept,
}

/// What of a token stays beside the word that stands for it.
pub(crate) enum Kept {
    /// Nothing: its parts only mislead (`example`, `com`; `acme`, `web`).
    Nothing,
    /// Its words, which may name something (`system 42`, the `#random` channel).
    Words,
    /// Its last word, a file's extension that says what the file holds (`jpg`, `db`).
    LastWord,
}

/// `word` standing for a token, with `kept` of it beside.
const fn stands(word: &'static str, kept: Kept) -> Option<StandIn> {
    Some(StandIn { word, kept })
}

/// What stands for `token` when it is a web address (`url`: `https://…`, `example.com`), a
/// glob (`pattern`: `*.toml`), a folder (`directory`: `docs/`), a git revision (`revision`:
/// `HEAD~3`, `v1.2.0`, `9f8e7d`, `HEAD~3:src/app.py`), an environment variable (`variable`:
/// `$PATH`, `PORT=8080`), a chat channel (`channel`: `#random`), a size (`dimensions`:
/// `375x812`), an operator or a sum (`arithmetic`: `+`, `17+25`), a number (`number`: `17`,
/// `#45`, `48.8584,`), a file's name with an extension (`file`: `src/lib.rs`, `receipt.jpg`), a
/// branch by its kind (`branch`: `feature/export`, `release/3.1`) or another path (`path`:
/// `tmp/cache`, `acme/web`, `origin/main`): what it is says which tool is meant.
pub(crate) fn stand_in(token: &str) -> Option<StandIn> {
    let unquoted = token.trim_matches(|c: char| {
        matches!(
            c,
            ',' | '.' | ';' | ':' | '!' | '?' | '(' | ')' | '"' | '\'' | '`'
        )
    });
    let token =
        token.trim_matches(|c: char| !(c.is_alphanumeric() || matches!(c, '#' | '~' | '*')));
    if token.contains("://") || token.starts_with("www.") || names_a_web_host(token) {
        return stands("url", Kept::Nothing);
    }
    if token.contains(['*', '?']) && token.chars().any(char::is_alphanumeric) {
        return stands("pattern", Kept::Nothing);
    }
    if unquoted.ends_with('/') && token.chars().any(char::is_alphanumeric) {
        return stands("directory", Kept::Nothing);
    }
    let before_colon = unquoted
        .split_once(':')
        .map_or(unquoted, |(revision, _)| revision);
    if names_a_revision(before_colon) {
        return stands("revision", Kept::Nothing);
    }
    if names_a_variable(unquoted) {
        return stands("variable", Kept::Nothing);
    }
    if matches!(unquoted, "+" | "-" | "*" | "/" | "=" | "×" | "÷") {
        return stands("arithmetic", Kept::Nothing);
    }
    let operators = ['+', '*', '=', '×', '÷', '^'];
    if unquoted.contains(operators)
        && unquoted.starts_with(|c: char| c.is_ascii_digit() || c == '(')
        && unquoted
            .chars()
            .all(|c| c.is_ascii_digit() || operators.contains(&c) || "().-".contains(c))
    {
        return stands("arithmetic", Kept::Words);
    }
    if let Some(name) = token.strip_prefix('#')
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
    {
        return stands("channel", Kept::Words);
    }
    if let Some((width, height)) = token.split_once(['x', '×'])
        && [width, height]
            .iter()
            .all(|side| !side.is_empty() && side.chars().all(|c| c.is_ascii_digit()))
    {
        return stands("dimensions", Kept::Nothing);
    }
    if token.chars().any(|c| c.is_ascii_digit())
        && token
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '#' | '.' | ',' | '-' | '+'))
    {
        return stands("number", Kept::Words);
    }
    let file_name = token.rsplit(['/', '\\']).next().unwrap_or(token);
    let is_file = file_name.rsplit_once('.').is_some_and(|(stem, extension)| {
        !stem.is_empty()
            && (2..=4).contains(&extension.len())
            && extension.starts_with(|c: char| c.is_ascii_alphabetic())
            && extension.chars().all(|c| c.is_ascii_alphanumeric())
    });
    if is_file {
        let extension = file_name.rsplit('.').next().unwrap_or_default();
        let telling = TELLING_EXTENSIONS
            .iter()
            .any(|telling| telling.eq_ignore_ascii_case(extension));
        return stands(
            "file",
            if telling {
                Kept::LastWord
            } else {
                Kept::Nothing
            },
        );
    }
    let is_path = file_name.len() < token.len() && token.chars().any(char::is_alphanumeric);
    let branch_kinds = ["feature", "release", "hotfix", "bugfix"];
    let kind = token.split_once('/').map(|(kind, _)| kind);
    if is_path && kind.is_some_and(|kind| branch_kinds.contains(&kind)) {
        return stands("branch", Kept::Nothing);
    }
    if is_path {
        return stands("path", Kept::Nothing);
    }
    None
}

/// Whether `token` names an environment variable: `$PATH`, `${HOME}`, or an assignment of one
/// (`PORT=8080`).
fn names_a_variable(token: &str) -> bool {
    let is_name = |name: &str| {
        name.starts_with(|c: char| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    match token.strip_prefix('$') {
        Some(name) => is_name(name.trim_matches(['{', '}'])),
        None => token.split_once('=').is_some_and(|(name, _)| is_name(name)),
    }
}

/// Whether `token` names a git revision: `HEAD`, `HEAD~3`, `HEAD^`, a version tag (`v1.2.0`),
/// or an abbreviated or whole commit hash (`9f8e7d`, of hex digits and letters both).
fn names_a_revision(token: &str) -> bool {
    if let Some(rest) = token.strip_prefix("HEAD") {
        return rest
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '~' | '^'));
    }
    if let Some(version) = token.strip_prefix('v')
        && version.starts_with(|c: char| c.is_ascii_digit())
    {
        return version.chars().all(|c| c.is_ascii_digit() || c == '.');
    }
    (6..=40).contains(&token.len())
        && token.chars().all(|c| c.is_ascii_hexdigit())
        && token.chars().any(|c| c.is_ascii_digit())
        && token.chars().any(|c| c.is_ascii_alphabetic())
}

/// Whether `token` starts with a host name of one of the common top-level domains
/// (`example.com`, `blog.example.org/post/42`): an address without its scheme, not a file.
fn names_a_web_host(token: &str) -> bool {
    const WEB_DOMAINS: &[&str] = &["com", "org", "net", "io", "dev", "app", "edu", "gov"];
    let host = token.split('/').next().unwrap_or(token);
    host.rsplit_once('.').is_some_and(|(name, domain)| {
        !name.is_empty()
            && WEB_DOMAINS
                .iter()
                .any(|web| web.eq_ignore_ascii_case(domain))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Thesaurus;
    use crate::analyzer::Analyzer;

    #[test]
    fn the_words_that_stand_in_name_concepts_of_the_tools_thesaurus() {
        // Not `number`, which matches as a word (`issue_number`, `pull_number`).
        let analyzer = Analyzer::new(&Thesaurus::tools());
        for token in [
            "https://a.example",
            "*.toml",
            "docs/",
            "HEAD~3",
            "#random",
            "375x812",
            "+",
            "lib.rs",
            "acme/web",
            "feature/export",
            "$HOME",
            "2*3",
            "HEAD~3:src/app.py",
        ] {
            let stand_in = stand_in(token).unwrap().word;
            assert!(
                !analyzer.analyze(stand_in).concepts.is_empty(),
                "{stand_in} (for {token}) is in no group"
            );
        }
    }
}
