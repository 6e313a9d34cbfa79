//! Model-facing tool names: the provider's characters and length, prefixes, hash suffixes,
//! collisions found after sanitizing, the way back to the server's name, and names that stay
//! the same across runs, orders and list changes.

use toolport_providers::names::{
    InvalidNameRule, NameChangeKind, NameChars, NameRule, ToolNamer, ToolNames,
};

fn name_all<I>(names: I) -> ToolNames
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    ToolNamer::default().name_all(names)
}

/// The model-facing name of `original`, which must have one.
fn named<'a>(names: &'a ToolNames, original: &str) -> &'a str {
    names
        .model_name(original)
        .unwrap_or_else(|| panic!("`{original}` has no name"))
}

/// The kinds of change reported for `original`, in order.
fn kinds(names: &ToolNames, original: &str) -> Vec<NameChangeKind> {
    let changes = names.changes().iter();
    let mine = changes.filter(|change| change.original == original);
    mine.map(|change| change.kind.clone()).collect()
}

fn is_hex_suffix(tail: &str) -> bool {
    tail.len() == 9
        && tail.starts_with('_')
        && tail[1..]
            .chars()
            .all(|c| matches!(c, '0'..='9' | 'a'..='f'))
}

#[test]
fn a_name_the_rule_accepts_passes_through_unchanged() {
    let valid = ["get_user", "list-files", "A1", &"a".repeat(64)];
    let names = name_all(&valid);
    for original in valid {
        assert_eq!(named(&names, original), original);
    }
    assert!(names.changes().is_empty(), "{:?}", names.changes());
}

#[test]
fn characters_outside_the_rule_become_underscores_and_are_reported() {
    let names = name_all(&["files/read.all", "search"]);
    assert_eq!(named(&names, "files/read.all"), "files_read_all");
    assert_eq!(
        kinds(&names, "files/read.all"),
        [NameChangeKind::Sanitized {
            replaced: vec!['/', '.'],
            with: '_'
        }]
    );
    assert_eq!(
        names.changes()[0].to_string(),
        "`files/read.all` as `files_read_all`: replaced `/`, `.` with `_`"
    );
    assert!(kinds(&names, "search").is_empty());
}

#[test]
fn unicode_becomes_one_replacement_per_character() {
    let names = name_all(&["überprüfen", "🔍 search", "日本"]);
    assert_eq!(named(&names, "überprüfen"), "_berpr_fen");
    assert_eq!(named(&names, "🔍 search"), "__search");
    assert_eq!(named(&names, "日本"), "__");
    for (name, _) in names.iter() {
        assert!(NameRule::default().is_valid(name), "{name}");
    }
}

#[test]
fn an_empty_name_becomes_a_valid_one() {
    let names = name_all(&[""]);
    assert_eq!(named(&names, ""), "_");
    assert_eq!(kinds(&names, ""), [NameChangeKind::Empty { with: '_' }]);
    assert_eq!(names.lookup("_"), Some(""));

    let prefixed = ToolNamer::default().prefix("srv").name_all([""]);
    assert_eq!(named(&prefixed, ""), "srv__");
}

#[test]
fn a_long_name_is_cut_to_the_limit_with_a_hash_of_the_whole_name() {
    let long = "x".repeat(100);
    let names = name_all(&[&long, &"a".repeat(65)]);
    let name = named(&names, &long);
    // Pinned: eight hex digits of the FNV-1a hash of the 100 `x`s, xor-folded.
    assert_eq!(name, format!("{}_e96d8e49", "x".repeat(55)));
    assert_eq!(
        kinds(&names, &long),
        [NameChangeKind::Shortened {
            length: 100,
            limit: 64
        }]
    );
    let just_over = named(&names, &"a".repeat(65));
    assert_eq!(just_over.len(), 64);
    assert!(is_hex_suffix(&just_over[55..]), "{just_over}");
}

#[test]
fn long_names_that_begin_alike_stay_apart() {
    let common = "query_the_warehouse_for_every_order_placed_by_a_customer_in_the_year_";
    let originals = [format!("{common}2024"), format!("{common}2025")];
    let names = name_all(&originals);
    let first = named(&names, &originals[0]);
    let second = named(&names, &originals[1]);
    assert_ne!(first, second);
    assert_eq!(first[..55], common[..55]);
    assert_eq!(second[..55], common[..55]);
    for original in &originals {
        // Both were cut, and their hashes differ, so they never collided.
        assert_eq!(
            kinds(&names, original),
            [NameChangeKind::Shortened {
                length: 73,
                limit: 64
            }]
        );
    }
}

#[test]
fn a_prefix_goes_before_two_underscores_and_follows_the_rule_too() {
    let names = ToolNamer::default().prefix("files").name_all(["read"]);
    assert_eq!(named(&names, "read"), "files__read");
    assert!(
        names.changes().is_empty(),
        "a prefix asked for is no change"
    );
    assert_eq!(names.lookup("files__read"), Some("read"));

    let names = ToolNamer::default().prefix("my server").name_all(["read"]);
    assert_eq!(named(&names, "read"), "my_server__read");
    assert_eq!(
        kinds(&names, "read"),
        [NameChangeKind::Sanitized {
            replaced: vec![' '],
            with: '_'
        }]
    );

    let names = ToolNamer::default().prefix("").name_all(["read"]);
    assert_eq!(
        named(&names, "read"),
        "read",
        "an empty prefix is no prefix"
    );
}

#[test]
fn a_long_prefix_never_takes_a_name_past_the_limit() {
    let prefix = "a_server_whose_identifier_is_far_longer_than_any_provider_allows_in_a_name";
    for rule in [
        NameRule::default(),
        NameRule::gemini(),
        NameRule::default().max_len(20),
    ] {
        let namer = ToolNamer::new(rule).unwrap().prefix(prefix);
        let names = namer.name_all(["read", "write", "get.user", "get_user", ""]);
        assert_eq!(names.len(), 5);
        for (name, original) in names.iter() {
            assert!(rule.is_valid(name), "`{name}` for `{original}`");
            assert_eq!(names.lookup(name), Some(original));
        }
    }
}

#[test]
fn names_that_collide_after_sanitizing_are_both_kept_and_the_changed_one_reported() {
    let names = name_all(&["get.user", "get_user", "get user", "list"]);
    let dotted = named(&names, "get.user");
    let spaced = named(&names, "get user");
    // The valid name keeps it; each changed one gets the hash of its own name (pinned).
    assert_eq!(named(&names, "get_user"), "get_user");
    assert_eq!(dotted, "get_user_5c9245f0");
    assert_ne!(spaced, dotted);
    assert!(spaced.starts_with("get_user_"), "{spaced}");
    assert_eq!(named(&names, "list"), "list");
    assert_eq!(names.lookup(dotted), Some("get.user"));
    assert_eq!(names.lookup("get_user"), Some("get_user"));

    assert_eq!(kinds(&names, "get_user"), []);
    assert_eq!(
        kinds(&names, "get.user").last(),
        Some(&NameChangeKind::CollisionResolved {
            with: vec!["get user".to_owned(), "get_user".to_owned()]
        })
    );
    let reported: Vec<String> = names.changes().iter().map(ToString::to_string).collect();
    assert!(
        reported.contains(
            &"`get.user` as `get_user_5c9245f0`: collided with `get user`, `get_user` once the \
              rule was applied, so it got a hash suffix"
                .to_owned()
        ),
        "{reported:#?}"
    );
}

#[test]
fn a_suffix_that_is_another_tools_name_is_resolved_again() {
    // A tool named exactly what `get.user` becomes when it collides with `get_user`.
    let names = name_all(&["get.user", "get_user", "get_user_5c9245f0"]);
    let all: Vec<&str> = ["get.user", "get_user", "get_user_5c9245f0"]
        .iter()
        .map(|original| named(&names, original))
        .collect();
    assert_eq!(names.len(), 3);
    for (index, name) in all.iter().enumerate() {
        assert!(!all[..index].contains(name), "`{name}` twice in {all:?}");
        assert!(NameRule::default().is_valid(name));
    }
    // Both valid names keep theirs; `get.user` moves on to its next suffix.
    assert_eq!(named(&names, "get_user_5c9245f0"), "get_user_5c9245f0");
    assert_eq!(named(&names, "get_user"), "get_user");
    let moved_on = kinds(&names, "get.user").iter().any(|kind| {
        matches!(kind, NameChangeKind::CollisionResolved { with }
            if with.contains(&"get_user_5c9245f0".to_owned()))
    });
    assert!(moved_on, "{:?}", kinds(&names, "get.user"));
}

#[test]
fn the_order_of_the_list_changes_nothing() {
    let long = "x".repeat(70);
    let originals = ["get.user", "get_user", "get-user", &long, "a b", "a/b"];
    let forward = name_all(&originals);
    let mut reversed = originals;
    reversed.reverse();
    assert_eq!(forward, name_all(&reversed));
    let mut rotated = originals;
    rotated.rotate_left(2);
    assert_eq!(forward, name_all(&rotated));
    assert_eq!(forward.len(), originals.len());
}

#[test]
fn a_tool_keeps_its_name_across_runs_and_when_unrelated_tools_arrive() {
    let before = [
        "get.user",
        "get_user",
        "read",
        &"y".repeat(80),
        "überprüfen",
    ];
    let first = ToolNamer::default().prefix("srv").name_all(before);
    let again = ToolNamer::default().prefix("srv").name_all(before);
    assert_eq!(first, again);

    let mut after = before.to_vec();
    after.extend(["write", "delete.user", "zzz"]);
    let grown = ToolNamer::default().prefix("srv").name_all(&after);
    for original in before {
        assert_eq!(
            named(&grown, original),
            named(&first, original),
            "{original}"
        );
        assert_eq!(
            kinds(&grown, original),
            kinds(&first, original),
            "{original}"
        );
    }
    assert_eq!(named(&grown, "delete.user"), "srv__delete_user");
}

#[test]
fn a_new_tool_that_collides_renames_no_tool_whose_name_was_valid() {
    let first = name_all(&["get_user", "read"]);
    assert_eq!(named(&first, "get_user"), "get_user");
    let grown = name_all(&["get_user", "read", "get.user"]);
    assert_eq!(named(&grown, "get_user"), "get_user");
    assert_eq!(named(&grown, "get.user"), "get_user_5c9245f0");
    assert_eq!(named(&grown, "read"), "read");
}

#[test]
fn the_way_back_finds_every_server_name_and_nothing_else() {
    let originals = ["get.user", "get_user", "read", "überprüfen", ""];
    let names = ToolNamer::default().prefix("srv").name_all(originals);
    for original in originals {
        assert_eq!(names.lookup(named(&names, original)), Some(original));
    }
    assert_eq!(
        names.lookup("read"),
        None,
        "the server's name is not a model-facing one"
    );
    assert_eq!(names.model_name("srv__read"), None);
    assert_eq!(names.model_name("write"), None);
}

#[test]
fn gemini_names_start_with_a_letter_or_an_underscore() {
    let gemini = ToolNamer::new(NameRule::gemini()).unwrap();
    let names = gemini.name_all(["3d_render", "-x", "render"]);
    assert_eq!(named(&names, "3d_render"), "_3d_render");
    assert_eq!(named(&names, "-x"), "_-x");
    assert_eq!(named(&names, "render"), "render");
    assert_eq!(
        kinds(&names, "3d_render"),
        [NameChangeKind::LeadingCharacterAdded { character: '_' }]
    );
    assert_eq!(named(&name_all(&["3d_render"]), "3d_render"), "3d_render");

    let long = format!("9{}", "z".repeat(70));
    let prefixed = gemini.clone().prefix("1srv").name_all([long.as_str(), "x"]);
    assert_eq!(named(&prefixed, "x"), "_1srv__x");
    let name = named(&prefixed, &long);
    assert!(NameRule::gemini().is_valid(name), "{name}");
}

#[test]
fn a_name_listed_twice_is_one_tool() {
    let names = name_all(&["read", "read"]);
    assert_eq!(names.len(), 1);
    assert_eq!(named(&names, "read"), "read");
    assert!(names.changes().is_empty());
}

#[test]
fn a_rule_of_ones_own_is_followed_and_checked() {
    let rule = NameRule::new(NameChars::AsciiWord).max_len(16);
    let names = ToolNamer::new(rule)
        .unwrap()
        .name_all(["list-files", "a-rather-long-tool-name"]);
    assert_eq!(named(&names, "list-files"), "list_files");
    let long = named(&names, "a-rather-long-tool-name");
    assert_eq!(long.len(), 16);
    assert!(long.starts_with("a_rathe_"), "{long}");

    let lowercase = NameChars::Custom(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.');
    let dotted = NameRule::new(lowercase).replacement('.');
    let names = ToolNamer::new(dotted).unwrap().name_all(["Get User"]);
    assert_eq!(named(&names, "Get User"), ".et..ser");

    assert_eq!(
        ToolNamer::new(NameRule::default().max_len(5)).unwrap_err(),
        InvalidNameRule::TooShort {
            max_len: 5,
            min: 10
        }
    );
}
