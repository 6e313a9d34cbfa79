//! Golden tests of the provider adapters on real schemas: every `tests/schemas/*.json` through
//! every adapter, compared with `tests/schemas/golden/<schema>.<adapter>.json`.
//!
//! The inputs are what real servers list: the Python SDK with nested Pydantic models
//! (`tests/peers/python_orders_server.py schemas`), server-everything, and a few written to
//! cover one keyword family each. After a deliberate change to an adapter, rewrite the goldens
//! with `TOOLPORT_BLESS=1 cargo nextest run -p toolport-providers --test schema_golden` and read
//! the diff.

mod schema_rules;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use toolport_providers::schema::{
    AdaptedSchema, AnthropicAdapter, GeminiAdapter, OpenAiAdapter, SchemaAdapter,
};

fn adapters() -> Vec<(&'static str, Arc<dyn SchemaAdapter>)> {
    vec![
        ("gemini", Arc::new(GeminiAdapter::new())),
        ("openai", Arc::new(OpenAiAdapter::strict())),
        ("openai-non-strict", Arc::new(OpenAiAdapter::non_strict())),
        ("anthropic", Arc::new(AnthropicAdapter::new())),
    ]
}

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas")
}

/// Every input schema, by file stem.
fn inputs() -> Vec<(String, Value)> {
    let mut inputs: Vec<(String, Value)> = std::fs::read_dir(schemas_dir())
        .expect("tests/schemas exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("a readable schema");
            let schema = serde_json::from_str(&text)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            (stem, schema)
        })
        .collect();
    inputs.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(inputs.len() >= 6, "the schema inputs are missing");
    inputs
}

#[test]
fn every_adapter_matches_its_golden_output() {
    let bless = std::env::var_os("TOOLPORT_BLESS").is_some();
    let mut mismatches = Vec::new();
    for (stem, schema) in inputs() {
        for (adapter_name, adapter) in adapters() {
            let adapted = adapter.adapt(&schema).unwrap();
            let actual = serde_json::to_string_pretty(&adapted).unwrap() + "\n";
            let golden = schemas_dir()
                .join("golden")
                .join(format!("{stem}.{adapter_name}.json"));
            if bless {
                std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
                std::fs::write(&golden, &actual).unwrap();
                continue;
            }
            match std::fs::read_to_string(&golden) {
                Ok(expected) if expected == actual => {}
                Ok(_) => mismatches.push(format!("{} differs", golden.display())),
                Err(_) => mismatches.push(format!("{} is missing", golden.display())),
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(after a deliberate change, rerun with TOOLPORT_BLESS=1 and read the diff)",
        mismatches.join("\n")
    );
}

#[test]
fn every_gemini_schema_keeps_to_geminis_subset() {
    for (stem, schema) in inputs() {
        let adapted = GeminiAdapter::new().adapt(&schema).unwrap();
        let violations = schema_rules::gemini_violations(&adapted.schema);
        assert!(violations.is_empty(), "{stem}: {violations:#?}");
    }
}

#[test]
fn every_strict_openai_schema_is_closed_and_fully_required() {
    let mut strict_count = 0;
    for (stem, schema) in inputs() {
        let adapted = OpenAiAdapter::strict().adapt(&schema).unwrap();
        if adapted.strict {
            strict_count += 1;
            let violations = schema_rules::openai_strict_violations(&adapted.schema);
            assert!(violations.is_empty(), "{stem}: {violations:#?}");
        } else {
            assert!(
                adapted
                    .changes
                    .iter()
                    .any(|change| change.to_string().contains("not strict")),
                "{stem} fell back to non-strict without saying why"
            );
        }
    }
    assert!(strict_count >= 2, "too few inputs could be made strict");
}

#[test]
fn adapting_an_adapted_schema_changes_nothing_more() {
    for (stem, schema) in inputs() {
        for (adapter_name, adapter) in adapters() {
            let once: AdaptedSchema = adapter.adapt(&schema).unwrap();
            let twice = adapter.adapt(&once.schema).unwrap();
            assert_eq!(twice.schema, once.schema, "{stem} through {adapter_name}");
        }
    }
}

#[test]
fn every_adapter_gives_an_object_root() {
    for (stem, schema) in inputs() {
        for (adapter_name, adapter) in adapters() {
            let adapted = adapter.adapt(&schema).unwrap();
            assert_eq!(
                adapted.schema["type"], "object",
                "{stem} through {adapter_name}"
            );
        }
    }
}
