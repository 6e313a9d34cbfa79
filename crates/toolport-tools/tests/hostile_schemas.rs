//! What a malicious server's schemas and results can do to the tools layer: nothing beyond its
//! bounds. Each test runs on a thread with a 2 MiB stack, what a tokio worker has, where a walk
//! that recursed once per level of an inlined `$ref` chain used to overflow and abort.

use std::sync::Arc;

use serde_json::{Value, json};
use toolport_fixtures::HostileSchemaServer;
use toolport_fixtures::hostile_schemas::{amplification, depth_bomb};
use toolport_testkit::DuplexConnector;
use toolport_tools::schema::{
    AdaptedSchema, GeminiAdapter, InlineBound, MAX_ADDED_BYTES, MAX_CHANGES, MAX_DEPTH,
    OpenAiAdapter, Provider, SchemaAdapter, SchemaCache, SchemaChangeKind,
};
use toolport_tools::{Mapping, McpToolset, OutputBudget, Tool, ToolDeclaration};

/// What a tokio worker thread has.
const WORKER_STACK: usize = 2 * 1024 * 1024;

/// Runs `work` on a thread with a tokio worker's stack, and gives back what it returned.
fn on_worker_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(work)
        .unwrap()
        .join()
        .expect("the work finished without overflowing the stack")
}

/// Every adapter Toolport has, named, as a toolset's provider picks it, and OpenAI's non-strict
/// mode and Gemini without a recursion bound.
fn adapters() -> Vec<(&'static str, Arc<dyn SchemaAdapter>)> {
    let mut adapters: Vec<(&'static str, Arc<dyn SchemaAdapter>)> = Provider::ALL
        .iter()
        .map(|provider| (provider.name(), provider.adapter()))
        .collect();
    adapters.push(("openai non-strict", Arc::new(OpenAiAdapter::non_strict())));
    let unbounded = GeminiAdapter::new().recursion_depth(usize::MAX);
    adapters.push(("gemini without a recursion bound", Arc::new(unbounded)));
    adapters
}

/// Nesting depth, measured without recursion.
fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, above)) = pending.pop() {
        let children: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            Value::Object(members) => members.values().collect(),
            _ => continue,
        };
        deepest = deepest.max(above + 1);
        pending.extend(children.into_iter().map(|child| (child, above + 1)));
    }
    deepest
}

/// Adapts `schema` with every adapter, declares it and serializes the declaration, all on a
/// worker's stack; returns each adapter's result.
fn adapt_everywhere(schema: Value) -> Vec<(&'static str, Arc<AdaptedSchema>, usize)> {
    on_worker_stack(move || {
        adapters()
            .into_iter()
            .map(|(provider, adapter)| {
                let cache = SchemaCache::new(adapter);
                let declaration =
                    ToolDeclaration::new("hostile", "A hostile tool.", schema.clone());
                let function = cache
                    .declaration(&declaration)
                    .unwrap_or_else(|error| panic!("{provider}: {error}"));
                let declared = function.json.to_string().len();
                (provider, function.adapted, declared)
            })
            .collect()
    })
}

#[test]
fn a_ref_chain_that_would_nest_thousands_of_levels_stops_at_the_depth_bound() {
    let schema = depth_bomb(80, 100);
    for (provider, adapted, _) in adapt_everywhere(schema) {
        assert!(
            depth(&adapted.schema) <= MAX_DEPTH + 4,
            "{provider}: {} levels",
            depth(&adapted.schema)
        );
        if provider.starts_with("gemini") {
            let stopped = adapted.changes.iter().any(|change| {
                matches!(
                    change.kind,
                    SchemaChangeKind::InlineBudgetSpent {
                        bound: InlineBound::Depth,
                        ..
                    }
                )
            });
            assert!(stopped, "{provider}: {:#?}", &adapted.changes[..4]);
            assert!(adapted.changes.iter().any(|change| change.is_loss()));
        }
    }
}

#[test]
fn one_large_definition_referenced_512_times_adds_at_most_the_byte_bound() {
    let schema = amplification(295 * 1024, 512);
    let input = schema.to_string().len();
    for (provider, adapted, declared) in adapt_everywhere(schema) {
        // Besides what copies may add, an adapter writes a few bytes per node of its own.
        assert!(
            declared <= 2 * input + MAX_ADDED_BYTES,
            "{provider}: {declared} bytes declared from {input}"
        );
        assert!(adapted.changes.len() <= MAX_CHANGES + 1, "{provider}");
        if provider.starts_with("gemini") {
            let cut = adapted.changes.iter().find(|change| {
                matches!(
                    change.kind,
                    SchemaChangeKind::InlineBudgetSpent {
                        bound: InlineBound::Bytes,
                        ..
                    }
                )
            });
            let cut = cut.expect("gemini says where the bytes ran out");
            assert_eq!(
                cut.to_string(),
                format!(
                    "/properties/p0: cut `#/$defs/Big`: inlining it would pass the bound of \
                     {MAX_ADDED_BYTES} bytes added"
                )
            );
        }
        if provider == "openai" {
            // Strict mode keeps bare `$ref`s, so there is nothing to amplify.
            assert!(adapted.strict, "{:?}", adapted.changes.last());
        }
    }
}

#[test]
fn a_schema_deeper_than_the_bound_is_refused_naming_the_tool_the_provider_and_the_bound() {
    // serde_json reads no document this deep, so only a schema built in code is.
    let mut schema = json!({"type": "string"});
    for _ in 0..MAX_DEPTH {
        schema = json!({"type": "array", "items": schema});
    }
    let schema = json!({"type": "object", "properties": {"x": schema}});
    let errors = on_worker_stack(move || {
        adapters()
            .into_iter()
            .map(|(_, adapter)| {
                let declaration = ToolDeclaration::new("too_deep", "", schema.clone());
                SchemaCache::new(adapter)
                    .declaration(&declaration)
                    .unwrap_err()
                    .to_string()
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(
        errors[0],
        "tool `too_deep`: the gemini adapter refused the input schema: it nests arrays and \
         objects more than 128 levels deep"
    );
    assert!(errors.iter().all(|error| error.contains("too_deep")));
}

#[test]
fn the_changes_a_schema_causes_are_listed_up_to_the_bound_and_counted_after() {
    // Every property carries a keyword Gemini drops: one change each.
    let properties: serde_json::Map<String, Value> = (0..MAX_CHANGES + 10)
        .map(|index| {
            (
                format!("p{index}"),
                json!({"type": "string", "examples": ["x"]}),
            )
        })
        .collect();
    let schema = json!({"type": "object", "properties": properties});
    let adapted = GeminiAdapter::new().adapt(&schema).unwrap();
    assert_eq!(adapted.changes.len(), MAX_CHANGES + 1);
    assert_eq!(
        adapted.changes.last().unwrap().kind,
        SchemaChangeKind::Omitted { count: 10 }
    );
}

/// A toolset over [`HostileSchemaServer`] for `provider`, with `mapping`, listed and called on
/// a worker's stack; returns the names it declared and what `deep_result` gave the model.
fn list_and_call(provider: Provider, mapping: Mapping) -> (Vec<String>, Value) {
    on_worker_stack(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let toolset = McpToolset::builder(DuplexConnector::new(HostileSchemaServer::new))
                .fit_to(provider)
                .mapping(mapping)
                .output_budget(OutputBudget::bytes(4096))
                .build()
                .await
                .unwrap();
            let tools = toolset.tools(None).await.unwrap();
            let names = tools.iter().map(|tool| tool.name().to_owned()).collect();
            let deep = toolset.tool("deep", None).await.unwrap();
            // The arguments are checked against the server's own schema first.
            let output = deep.call(json!({"x": [[["a"]]]}), None).await.unwrap();
            assert!(!output.is_error, "{output:?}");
            let wide = toolset.tool("wide", None).await.unwrap();
            let output = wide.call(json!({"p0": {"field_000000": "a"}}), None).await;
            assert!(!output.unwrap().is_error);
            let deep_result = toolset.tool("deep_result", None).await.unwrap();
            let output = deep_result.call(json!({}), None).await.unwrap();
            toolset.close().await;
            (names, output.value)
        })
    })
}

#[test]
fn a_toolset_lists_checks_and_calls_the_hostile_tools_for_every_provider_and_mapping() {
    let every_provider = Provider::ALL.map(|provider| (provider, Mapping::Rich));
    let every_mapping = [Mapping::AdkJava, Mapping::Raw].map(|mapping| (Provider::Gemini, mapping));
    for (provider, mapping) in every_provider.into_iter().chain(every_mapping) {
        let (names, value) = list_and_call(provider, mapping);
        assert_eq!(names, ["deep", "wide", "deep_result"], "{provider}");
        assert!(
            value.to_string().len() <= 4096,
            "{provider} {mapping:?}: {value}"
        );
    }
}
