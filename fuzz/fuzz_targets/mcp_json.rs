//! `mcp.json` and `${VAR}` expansion (`toolport_manager`): any text parses to a config or an
//! error, never a panic; a parsed file saved unchanged reads back with the same servers and
//! errors; and every string, the whole text and each server's values, expands or fails
//! cleanly against a fixed environment, an unclosed `${` pointing at a real `${`.
#![no_main]

use std::convert::Infallible;

use libfuzzer_sys::fuzz_target;
use toolport_manager::{ExpandError, McpConfig, expand};

/// The environment every expansion sees; never the process's.
fn lookup(name: &str) -> Option<String> {
    match name {
        "HOME" => Some("/home/fuzz".to_owned()),
        "EMPTY" => Some(String::new()),
        "TOKEN" => Some("sk-${NOT_AGAIN}".to_owned()),
        _ => None,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    assert_expands_or_fails(text);
    let Ok(config) = McpConfig::parse(text, "mcp.json") else {
        return;
    };
    let _ = format!("{config:?}");
    let saved = config.to_json_string();
    let reread = McpConfig::parse(&saved, "mcp.json")
        .unwrap_or_else(|error| panic!("a saved file does not read back ({error}): {saved}"));
    assert_eq!(reread.form(), config.form());
    assert!(
        reread.servers().eq(config.servers()),
        "a save changed the servers: {saved}"
    );
    let errors = |config: &McpConfig| config.errors().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(
        errors(&reread),
        errors(&config),
        "a save changed the errors"
    );
    for (_, server) in config.servers() {
        let checked = server.transport.try_map_values(|_, value| {
            assert_expands_or_fails(value);
            Ok::<_, Infallible>(value.to_owned())
        });
        assert_eq!(
            checked.as_ref(),
            Ok(&server.transport),
            "mapping values as they are changed them"
        );
    }
});

/// Expands `template` and checks what the result says of it.
fn assert_expands_or_fails(template: &str) {
    match expand(template, &lookup) {
        Ok(expanded) if !template.contains("${") => assert_eq!(expanded, template),
        Ok(_) | Err(ExpandError::Unsupported(_)) => {}
        Err(ExpandError::Unclosed(at)) => assert!(
            template
                .get(at..)
                .is_some_and(|rest| rest.starts_with("${")),
            "`Unclosed({at})` does not point at a `${{` in {template:?}"
        ),
        Err(ExpandError::Unset(name)) => assert!(lookup(&name).is_none(), "{name} is set"),
        Err(error) => panic!("an error this target does not know: {error}"),
    }
}
