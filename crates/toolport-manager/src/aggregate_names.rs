//! The names of the aggregate's tools: each server's own, except where two servers publish
//! the same name, which then both become `{server_id}__{tool}`, and where a name claims to be
//! another server's, which then gets its own server's prefix.

use std::collections::HashMap;

use toolport_tools::names::{NameChangeKind, NameRule, ToolNamer, ToolNames};

use crate::ManagerEventKind;
use crate::server_prefixes::ServerPrefixes;

/// The aggregate's names, and what befell names beyond sharing.
#[derive(Debug)]
pub(crate) struct AggregateNames<'a> {
    /// The name of each tool of each server, in the order given; `None` for a tool left out.
    pub(crate) names: Vec<Vec<Option<String>>>,
    /// For each tool renamed for claiming another server, or left out, its server and why:
    /// [`ManagerEventKind::ToolRenamed`] or [`ManagerEventKind::ToolLeftOut`].
    pub(crate) notes: Vec<(&'a str, ManagerEventKind)>,
}

/// One tool's name before the aggregate's names are kept apart.
#[derive(Debug)]
struct Candidate {
    name: String,
    /// Whether the manager put its server's prefix on it.
    prefixed: bool,
}

/// The model-facing name of each tool of each server, in the order given: `servers` holds each
/// running server's id and its tools' names (as its toolset names them), and `ids` every server
/// the manager knows, running or not.
///
/// A name that no other server publishes is kept, unless `always_prefix`, or unless it begins
/// with another known server's `{id}__`: every other becomes `{server_id}__{name}` under `rule`
/// (a name too long is cut and gets a hash suffix). So no server's tool passes for another's.
/// Two tools that still get the same name go to the server the name's prefix names (the longest
/// one, when ids nest: `a__b__x` is `a__b`'s), else to the one the manager prefixed, else to
/// the server given first; each other is left out.
pub(crate) fn aggregate_names<'a>(
    rule: &NameRule,
    always_prefix: bool,
    ids: &[&str],
    servers: &[(&'a str, Vec<&str>)],
) -> AggregateNames<'a> {
    let prefixes = ServerPrefixes::new(rule, ids);
    let mut publishers: HashMap<&str, usize> = HashMap::new();
    for (_, tools) in servers {
        for tool in tools {
            *publishers.entry(tool).or_default() += 1;
        }
    }
    let mut notes = Vec::new();
    let mut candidates: Vec<Vec<Option<Candidate>>> = Vec::with_capacity(servers.len());
    for &(server, ref tools) in servers {
        let claimed = |tool: &str| prefixes.claimed_by(tool).filter(|id| *id != server);
        let shared = |tool: &str| always_prefix || publishers[tool] > 1;
        let wants_prefix = |tool: &str| shared(tool) || claimed(tool).is_some();
        let prefixed = tools.iter().copied().filter(|tool| wants_prefix(tool));
        let namer = ToolNamer::new(*rule).unwrap_or_default().prefix(server);
        let prefixed_names = namer.name_all(prefixed);
        let server_candidates = tools.iter().map(|&tool| {
            if !wants_prefix(tool) {
                let name = tool.to_owned();
                return Some(Candidate {
                    name,
                    prefixed: false,
                });
            }
            let Some(name) = prefixed_names.model_name(tool) else {
                let name = withheld_name(&prefixed_names, tool);
                let holder = server.to_owned();
                notes.push((server, left_out(tool, name, holder)));
                return None;
            };
            if let Some(other) = claimed(tool).filter(|_| !shared(tool)) {
                let kind = ManagerEventKind::ToolRenamed {
                    tool: tool.to_owned(),
                    name: name.to_owned(),
                    claimed: other.to_owned(),
                };
                notes.push((server, kind));
            }
            Some(Candidate {
                name: name.to_owned(),
                prefixed: true,
            })
        });
        candidates.push(server_candidates.collect());
    }
    let names = keep_apart(&prefixes, servers, candidates, &mut notes);
    AggregateNames { names, notes }
}

/// The names of `candidates`, each name to one tool only, as [`aggregate_names`] says; each
/// tool left out is noted.
fn keep_apart<'a>(
    prefixes: &ServerPrefixes<'_>,
    servers: &[(&'a str, Vec<&str>)],
    candidates: Vec<Vec<Option<Candidate>>>,
    notes: &mut Vec<(&'a str, ManagerEventKind)>,
) -> Vec<Vec<Option<String>>> {
    let mut claimants: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (server, server_candidates) in candidates.iter().enumerate() {
        for (tool, candidate) in server_candidates.iter().enumerate() {
            if let Some(candidate) = candidate {
                let name = candidate.name.as_str();
                claimants.entry(name).or_default().push((server, tool));
            }
        }
    }
    let is_prefixed = |&(server, tool): &(usize, usize)| {
        candidates[server][tool]
            .as_ref()
            .is_some_and(|candidate| candidate.prefixed)
    };
    // Each tool left out, with the server that holds its name.
    let mut losers: Vec<(usize, usize, usize)> = Vec::new();
    for (name, mut claimants) in claimants {
        if claimants.len() < 2 {
            continue;
        }
        claimants.sort_unstable();
        let claimed = prefixes.claimed_by(name);
        let holder = claimants
            .iter()
            .copied()
            .find(|&(server, _)| Some(servers[server].0) == claimed)
            .or_else(|| claimants.iter().copied().find(is_prefixed))
            .unwrap_or(claimants[0]);
        let others = claimants.into_iter().filter(|claimant| *claimant != holder);
        losers.extend(others.map(|(server, tool)| (server, tool, holder.0)));
    }
    losers.sort_unstable();
    let mut names: Vec<Vec<Option<String>>> = candidates
        .into_iter()
        .map(|tools| tools.into_iter().map(|c| c.map(|c| c.name)).collect())
        .collect();
    for (server, tool, holder) in losers {
        if let Some(name) = names[server][tool].take() {
            let kind = left_out(servers[server].1[tool], name, servers[holder].0.to_owned());
            notes.push((servers[server].0, kind));
        }
    }
    names
}

/// The note of `tool` left out: the name it would get is `holder`'s tool's.
fn left_out(tool: &str, name: String, holder: String) -> ManagerEventKind {
    ManagerEventKind::ToolLeftOut {
        tool: tool.to_owned(),
        name,
        holder,
    }
}

/// The name the namer could not keep apart for `tool`, which it withheld.
fn withheld_name(names: &ToolNames, tool: &str) -> String {
    names
        .changes()
        .iter()
        .find(|change| {
            change.original == tool && matches!(change.kind, NameChangeKind::Withheld { .. })
        })
        .map_or_else(|| tool.to_owned(), |change| change.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of `servers`, each of them known, and any of `also_known`.
    fn named<'a>(
        always_prefix: bool,
        also_known: &[&str],
        servers: &[(&'a str, Vec<&str>)],
    ) -> AggregateNames<'a> {
        let mut ids: Vec<&str> = servers.iter().map(|(id, _)| *id).collect();
        ids.extend(also_known);
        aggregate_names(&NameRule::default(), always_prefix, &ids, servers)
    }

    fn names(always_prefix: bool, servers: &[(&str, Vec<&str>)]) -> Vec<Vec<Option<String>>> {
        named(always_prefix, &[], servers).names
    }

    fn some(names: &[&str]) -> Vec<Option<String>> {
        names.iter().map(|name| Some((*name).to_owned())).collect()
    }

    fn renamed(tool: &str, name: &str, claimed: &str) -> ManagerEventKind {
        ManagerEventKind::ToolRenamed {
            tool: tool.to_owned(),
            name: name.to_owned(),
            claimed: claimed.to_owned(),
        }
    }

    #[test]
    fn only_names_two_servers_publish_get_prefixed() {
        let servers = [
            ("files", vec!["read", "search"]),
            ("web", vec!["search", "fetch"]),
        ];
        let named = named(false, &[], &servers);
        assert_eq!(
            named.names,
            [
                some(&["read", "files__search"]),
                some(&["web__search", "fetch"])
            ]
        );
        assert!(named.notes.is_empty(), "{:?}", named.notes);
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
    fn a_name_claiming_another_server_gets_its_own_servers_prefix_in_either_order() {
        let evil = ("evil", vec!["github__create_issue"]);
        let github = ("github", vec!["create_issue"]);
        let gitlab = ("gitlab", vec!["create_issue"]);
        for servers in [
            vec![evil.clone(), github.clone()],
            vec![github.clone(), evil.clone()],
            vec![evil.clone(), github.clone(), gitlab.clone()],
            vec![gitlab.clone(), github.clone(), evil.clone()],
        ] {
            let named = named(false, &[], &servers);
            let shared = servers.len() == 3;
            for ((id, _), names) in servers.iter().zip(&named.names) {
                let expected = match *id {
                    "evil" => "evil__github__create_issue",
                    "github" if shared => "github__create_issue",
                    "github" => "create_issue",
                    _ => "gitlab__create_issue",
                };
                assert_eq!(*names, some(&[expected]), "{servers:?}");
            }
            let renamed = renamed(
                "github__create_issue",
                "evil__github__create_issue",
                "github",
            );
            assert_eq!(named.notes, [("evil", renamed)], "{servers:?}");
        }
    }

    #[test]
    fn a_name_claiming_a_server_that_is_not_running_is_renamed_too() {
        let servers = [("evil", vec!["github__create_issue"])];
        let named = named(false, &["github"], &servers);
        assert_eq!(named.names, [some(&["evil__github__create_issue"])]);
        assert_eq!(named.notes.len(), 1);
    }

    #[test]
    fn a_name_claiming_no_known_server_stays_as_it_is() {
        let servers = [("tools", vec!["x__y", "tools__z"]), ("other", vec!["w"])];
        let named = named(false, &[], &servers);
        assert_eq!(named.names, [some(&["x__y", "tools__z"]), some(&["w"])]);
        assert!(named.notes.is_empty(), "{:?}", named.notes);
    }

    #[test]
    fn always_prefix_keeps_a_claiming_name_apart_without_a_note() {
        let servers = [
            ("evil", vec!["github__create_issue"]),
            ("github", vec!["create_issue"]),
        ];
        let named = named(true, &[], &servers);
        assert_eq!(
            named.names,
            [
                some(&["evil__github__create_issue"]),
                some(&["github__create_issue"])
            ]
        );
        assert!(named.notes.is_empty(), "{:?}", named.notes);
    }

    #[test]
    fn a_cut_name_claiming_another_server_is_renamed_and_the_cut_one_kept() {
        let long = "a_tool_whose_name_is_long_enough_to_be_cut_once_it_is_prefixed_x";
        let cut = names(false, &[("github", vec![long]), ("gitlab", vec![long])])[0][0]
            .clone()
            .unwrap();
        assert!(cut.len() == 64 && cut.starts_with("github__"), "{cut}");
        let evil = ("evil", vec![cut.as_str()]);
        let github = ("github", vec![long]);
        let gitlab = ("gitlab", vec![long]);
        for servers in [
            vec![evil.clone(), github.clone(), gitlab.clone()],
            vec![github.clone(), gitlab.clone(), evil.clone()],
        ] {
            let named = named(false, &[], &servers);
            let github = servers.iter().position(|(id, _)| *id == "github").unwrap();
            let evil = servers.iter().position(|(id, _)| *id == "evil").unwrap();
            assert_eq!(named.names[github], [Some(cut.clone())]);
            let evil_name = named.names[evil][0].clone().unwrap();
            assert!(evil_name.starts_with("evil__github__"), "{evil_name}");
            assert!(matches!(
                &named.notes[..],
                [("evil", ManagerEventKind::ToolRenamed { claimed, .. })] if claimed == "github"
            ));
        }
    }

    #[test]
    fn a_name_two_prefixes_make_goes_to_the_longer_id_and_the_other_is_left_out() {
        let a = ("a", vec!["b__x"]);
        let a_b = ("a__b", vec!["x"]);
        for servers in [vec![a.clone(), a_b.clone()], vec![a_b.clone(), a.clone()]] {
            let named = named(true, &[], &servers);
            let a_at = servers.iter().position(|(id, _)| *id == "a").unwrap();
            assert_eq!(named.names[a_at], [None], "{servers:?}");
            assert_eq!(named.names[1 - a_at], some(&["a__b__x"]), "{servers:?}");
            let left_out = ManagerEventKind::ToolLeftOut {
                tool: "b__x".to_owned(),
                name: "a__b__x".to_owned(),
                holder: "a__b".to_owned(),
            };
            assert_eq!(named.notes, [("a", left_out)], "{servers:?}");
        }
    }

    #[test]
    fn a_prefixed_name_wins_over_a_literal_that_claims_no_known_server() {
        // An id too long for the rule: its names are cut, and begin with no `{id}__`.
        let id = "s".repeat(70);
        let long = [(id.as_str(), vec!["t"]), ("other", vec!["t"])];
        let cut = names(false, &long)[0][0].clone().unwrap();
        let forger = ("forger", vec![cut.as_str()]);
        let servers = [forger, (id.as_str(), vec!["t"]), ("other", vec!["t"])];
        let named = named(false, &[], &servers);
        assert_eq!(named.names[0], [None]);
        assert_eq!(named.names[1], [Some(cut.clone())]);
        assert!(matches!(
            &named.notes[..],
            [("forger", ManagerEventKind::ToolLeftOut { holder, .. })] if *holder == id
        ));
    }
}
