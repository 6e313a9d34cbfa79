//! The names of the aggregate's tools: each server's own, except where two servers publish
//! the same name, which then both become `{server_id}__{tool}`.

use std::collections::HashMap;

use toolport_tools::names::{NameRule, ToolNamer};

/// The model-facing name of each tool of each server, in the order given: `servers` holds each
/// server's id and its tools' names (as its toolset names them). A name that no other server
/// publishes is kept, unless `always_prefix`; every other becomes `{server_id}__{name}` under
/// `rule` (a name too long is cut and gets a hash suffix). `None` for a tool whose name still
/// cannot be kept apart from another's, which is left out and logged.
pub(crate) fn aggregate_names(
    rule: &NameRule,
    always_prefix: bool,
    servers: &[(&str, Vec<&str>)],
) -> Vec<Vec<Option<String>>> {
    let mut publishers: HashMap<&str, usize> = HashMap::new();
    for (_, tools) in servers {
        for tool in tools {
            *publishers.entry(tool).or_default() += 1;
        }
    }
    let mut taken: HashMap<String, &str> = HashMap::new();
    let mut names = Vec::with_capacity(servers.len());
    for (server, tools) in servers {
        let prefixed: Vec<&str> = tools
            .iter()
            .copied()
            .filter(|tool| always_prefix || publishers[tool] > 1)
            .collect();
        let namer = ToolNamer::new(*rule).unwrap_or_default().prefix(*server);
        let prefixed_names = namer.name_all(&prefixed);
        let server_names = tools
            .iter()
            .map(|tool| {
                let name = if always_prefix || publishers[tool] > 1 {
                    prefixed_names.model_name(tool)?.to_owned()
                } else {
                    (*tool).to_owned()
                };
                if let Some(other) = taken.get(&name) {
                    tracing::warn!(
                        server,
                        tool,
                        other,
                        name,
                        "two servers' tools get the same name; this one is left out"
                    );
                    return None;
                }
                taken.insert(name.clone(), server);
                Some(name)
            })
            .collect();
        names.push(server_names);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(always_prefix: bool, servers: &[(&str, Vec<&str>)]) -> Vec<Vec<Option<String>>> {
        aggregate_names(&NameRule::default(), always_prefix, servers)
    }

    fn some(names: &[&str]) -> Vec<Option<String>> {
        names.iter().map(|name| Some((*name).to_owned())).collect()
    }

    #[test]
    fn only_names_two_servers_publish_get_prefixed() {
        let servers = [
            ("files", vec!["read", "search"]),
            ("web", vec!["search", "fetch"]),
        ];
        assert_eq!(
            names(false, &servers),
            [
                some(&["read", "files__search"]),
                some(&["web__search", "fetch"])
            ]
        );
    }

    #[test]
    fn always_prefix_prefixes_every_name() {
        let servers = [("files", vec!["read"]), ("web", vec!["fetch"])];
        assert_eq!(
            names(true, &servers),
            [some(&["files__read"]), some(&["web__fetch"])]
        );
    }

    #[test]
    fn prefixed_names_stay_within_the_limit_and_apart() {
        let long = "a_tool_whose_name_is_long_enough_to_pass_the_limit_with_a_prefix";
        let servers = [
            ("a-server-with-a-long-id", vec![long]),
            ("another-server", vec![long]),
        ];
        let named = names(false, &servers);
        let first = named[0][0].as_deref().unwrap();
        let second = named[1][0].as_deref().unwrap();
        assert!(first.len() <= 64 && second.len() <= 64, "{first} {second}");
        assert!(first.starts_with("a-server-with-a-long-id__"), "{first}");
        assert_ne!(first, second);
    }

    #[test]
    fn a_prefixed_name_another_server_publishes_as_is_is_left_out() {
        let servers = [("a", vec!["x"]), ("b", vec!["x"]), ("c", vec!["a__x"])];
        let named = names(false, &servers);
        assert_eq!(named[0], some(&["a__x"]));
        assert_eq!(named[1], some(&["b__x"]));
        assert_eq!(named[2], [None]);
    }
}
