//! The rig section of `docs/agents.md` shows the crate's own doc test, word for word.

#[test]
fn the_guides_rig_snippet_is_the_crates_doc_test() {
    let root = env!("CARGO_MANIFEST_DIR");
    let guide = std::fs::read_to_string(format!("{root}/../../docs/agents.md")).unwrap();
    let lib = std::fs::read_to_string(format!("{root}/src/lib.rs")).unwrap();
    let section = guide.split("\n## rig\n").nth(1).unwrap();
    let in_guide = first_code_block(section.lines());
    let in_lib = first_code_block(
        lib.lines()
            .filter_map(|line| line.strip_prefix("//!"))
            .map(|line| line.strip_prefix(' ').unwrap_or(line)),
    );
    assert!(!in_lib.is_empty());
    assert_eq!(in_guide, in_lib);
}

/// The lines between the first pair of code fences.
fn first_code_block<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    lines
        .skip_while(|line| !line.starts_with("```"))
        .skip(1)
        .take_while(|line| !line.starts_with("```"))
        .collect()
}
