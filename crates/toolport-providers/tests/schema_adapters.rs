//! The provider adapters' behaviour, one rule at a time: recursion bounds, references never
//! fetched, strict mode and its fallback, declaration shapes, and the content-hash cache.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use toolport_providers::ToolDeclaration;
use toolport_providers::schema::{
    AdaptedSchema, AnthropicAdapter, GeminiAdapter, OpenAiAdapter, Provider, SchemaAdapter,
    SchemaCache, SchemaChangeKind, SchemaTooDeep,
};

fn input(name: &str) -> Value {
    let path = format!("{}/tests/schemas/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// How many `children` levels deep the category tree goes before the cut.
fn category_depth(schema: &Value) -> usize {
    let mut depth = 0;
    let mut node = &schema["properties"]["category"];
    while let Some(items) = node["properties"]["children"].get("items") {
        depth += 1;
        node = items;
    }
    depth
}

#[test]
fn gemini_cuts_a_recursive_model_at_the_depth_asked_for() {
    let schema = input("python_orders.file_category");
    for depth in [0, 1, 3] {
        let adapted = GeminiAdapter::new()
            .recursion_depth(depth)
            .adapt(&schema)
            .unwrap();
        assert_eq!(category_depth(&adapted.schema), depth, "depth {depth}");
        let cut = adapted
            .changes
            .iter()
            .find_map(|change| match &change.kind {
                SchemaChangeKind::RecursionCut { reference, depth } => Some((reference, *depth)),
                _ => None,
            });
        assert_eq!(cut, Some((&"#/$defs/Category".to_owned(), depth)));
    }
}

#[test]
fn gemini_drops_an_integer_enum_and_says_so() {
    let adapted = GeminiAdapter::new()
        .adapt(&input("python_orders.file_category"))
        .unwrap();
    assert_eq!(adapted.schema["properties"]["priority"].get("enum"), None);
    assert!(adapted.changes.iter().any(|change| {
        change.path == "/properties/priority"
            && change.kind
                == SchemaChangeKind::Dropped {
                    keyword: "enum".into(),
                    value: json!([1, 2, 3]),
                }
    }));
}

#[test]
fn an_external_ref_is_reported_and_never_fetched() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/address.json", listener.local_addr().unwrap());
    let schema = json!({
        "type": "object",
        "properties": {"address": {"$ref": url, "description": "Where to ship."}},
    });
    let adapters: [Arc<dyn SchemaAdapter>; 3] = [
        Arc::new(GeminiAdapter::new()),
        Arc::new(OpenAiAdapter::strict()),
        Arc::new(AnthropicAdapter::new()),
    ];
    for adapter in adapters {
        let adapted = adapter.adapt(&schema).unwrap();
        assert_eq!(
            adapted.schema["properties"]["address"]["description"],
            "Where to ship."
        );
        assert_eq!(adapted.schema["properties"]["address"].get("$ref"), None);
        assert!(adapted.changes.iter().any(|change| {
            change.kind
                == SchemaChangeKind::ExternalRef {
                    reference: url.clone(),
                }
                && change.is_loss()
        }));
    }
    let accepted = listener.accept();
    assert_eq!(
        accepted.err().map(|error| error.kind()),
        Some(std::io::ErrorKind::WouldBlock),
        "an adapter connected to the $ref's server"
    );
}

#[test]
fn openai_keeps_a_recursive_model_strict_through_its_definitions() {
    let adapted = OpenAiAdapter::strict()
        .adapt(&input("python_orders.file_category"))
        .unwrap();
    assert!(adapted.strict, "{:#?}", adapted.changes);
    let category = &adapted.schema["$defs"]["Category"];
    assert_eq!(category["additionalProperties"], false);
    assert_eq!(category["required"], json!(["name", "children"]));
    assert_eq!(
        category["properties"]["children"]["type"],
        json!(["array", "null"])
    );
    assert_eq!(category["properties"]["children"].get("default"), None);
}

#[test]
fn openai_falls_back_to_non_strict_for_a_map_and_names_it() {
    let schema = input("python_orders.place_order");
    let adapted = OpenAiAdapter::strict().adapt(&schema).unwrap();
    assert!(!adapted.strict);
    assert_eq!(
        adapted.schema,
        OpenAiAdapter::non_strict().adapt(&schema).unwrap().schema
    );
    let reason = adapted
        .changes
        .iter()
        .find_map(|change| match &change.kind {
            SchemaChangeKind::NotStrict { reason } => Some(reason.clone()),
            _ => None,
        });
    let reason = reason.expect("a reason for the fallback");
    assert!(reason.contains("/properties/tags is a map"), "{reason}");
}

#[test]
fn openai_stops_inlining_a_chain_that_doubles_at_every_step() {
    // Each definition uses the next twice, with a keyword beside each `$ref`, which strict mode
    // inlines: 2^40 copies without a bound. Under the `schema_openai` fuzz target this 6 KB
    // schema ran out of 2 GB of memory.
    let mut definitions = serde_json::Map::new();
    for level in 0..40 {
        let next = format!("#/$defs/L{}", level + 1);
        let properties = json!({
            "a": {"$ref": next, "description": "a"},
            "b": {"$ref": next, "description": "b"},
        });
        let definition = json!({"type": "object", "properties": properties});
        definitions.insert(format!("L{level}"), definition);
    }
    definitions.insert("L40".into(), json!({"type": "string"}));
    let schema = json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/L0", "description": "x"}},
        "$defs": definitions,
    });
    let adapted = OpenAiAdapter::strict().adapt(&schema).unwrap();
    assert!(!adapted.strict);
    assert_eq!(
        adapted.schema,
        OpenAiAdapter::non_strict().adapt(&schema).unwrap().schema
    );
    let said = adapted.changes.iter().any(|change| {
        matches!(&change.kind, SchemaChangeKind::NotStrict { reason }
            if reason.contains("needs its `$ref`s inlined, past the bound of 512 `$ref`s inlined"))
    });
    assert!(said, "{:#?}", adapted.changes);
}

#[test]
fn a_schema_without_anything_to_adapt_passes_through_whole() {
    let schema = input("json_schema_2020_12");
    for adapter in [
        Arc::new(AnthropicAdapter::new()) as Arc<dyn SchemaAdapter>,
        Arc::new(OpenAiAdapter::non_strict()),
    ] {
        let adapted = adapter.adapt(&schema).unwrap();
        assert_eq!(adapted.schema, schema, "{}", adapter.provider());
        assert_eq!(adapted.changes, [], "{}", adapter.provider());
    }
    let declaration = ToolDeclaration::new("search", "Searches.", schema.clone());
    assert_eq!(declaration.parameters, schema);
}

#[test]
fn each_provider_has_its_declaration_shape() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let declaration = ToolDeclaration::new("search", "Searches.", schema.clone());
    let shape = |provider: Provider| {
        SchemaCache::new(provider.adapter())
            .declaration(&declaration)
            .unwrap()
            .json
    };
    assert_eq!(
        shape(Provider::Gemini),
        json!({"name": "search", "description": "Searches.", "parameters": schema})
    );
    assert_eq!(
        shape(Provider::Anthropic),
        json!({"name": "search", "description": "Searches.", "input_schema": schema})
    );
    let openai = shape(Provider::OpenAi);
    assert_eq!(openai["type"], "function");
    assert_eq!(openai["function"]["name"], "search");
    assert_eq!(openai["function"]["strict"], true);
    assert_eq!(openai["function"]["parameters"]["required"], json!(["q"]));
}

#[test]
fn gemini_declares_a_tool_without_parameters_without_them() {
    let declaration = ToolDeclaration::new("ping", "Pings.", json!({"type": "object"}));
    let json = SchemaCache::new(Provider::Gemini.adapter())
        .declaration(&declaration)
        .unwrap()
        .json;
    assert_eq!(json, json!({"name": "ping", "description": "Pings."}));
}

#[test]
fn provider_names_parse_and_an_unknown_one_is_named() {
    assert_eq!("Gemini".parse::<Provider>().unwrap(), Provider::Gemini);
    assert_eq!("openai".parse::<Provider>().unwrap(), Provider::OpenAi);
    let error = "mistral".parse::<Provider>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown provider `mistral`: expected gemini, openai or anthropic"
    );
}

/// An adapter that counts its runs.
#[derive(Debug, Default)]
struct Counting(AtomicUsize);

impl SchemaAdapter for Counting {
    fn provider(&self) -> &'static str {
        "counting"
    }

    fn adapt(&self, schema: &Value) -> Result<AdaptedSchema, SchemaTooDeep> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(AdaptedSchema::unchanged(schema.clone()))
    }

    fn function_declaration(&self, name: &str, _: &str, adapted: &AdaptedSchema) -> Value {
        json!({"name": name, "schema": adapted.schema})
    }
}

#[test]
fn the_cache_adapts_each_distinct_schema_once() {
    let counting = Arc::new(Counting::default());
    let cache = SchemaCache::new(counting.clone());
    let a = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let b = json!({"type": "object", "properties": {"b": {"type": "string"}}});
    let first = cache.adapt(&a).unwrap();
    for _ in 0..10 {
        assert!(Arc::ptr_eq(&first, &cache.adapt(&a.clone()).unwrap()));
    }
    cache.adapt(&b).unwrap();
    cache.adapt(&b).unwrap();
    assert_eq!(counting.0.load(Ordering::Relaxed), 2);
    assert_eq!(cache.len(), 2);
}

#[test]
fn strict_nulls_for_optional_properties_are_stripped_through_definitions() {
    let adapted = OpenAiAdapter::strict()
        .adapt(&input("python_orders.file_category"))
        .unwrap();
    let mut arguments = json!({
        "category": {"name": "tools", "children": [{"name": "saws", "children": null}]},
        "priority": null,
    });
    adapted.strip_added_nulls(&mut arguments);
    assert_eq!(
        arguments,
        json!({"category": {"name": "tools", "children": [{"name": "saws"}]}})
    );
}

#[test]
fn a_null_the_server_allowed_stays() {
    let adapted = OpenAiAdapter::strict()
        .adapt(&input("unions_and_type_arrays"))
        .unwrap();
    assert!(adapted.strict);
    let mut arguments =
        json!({"note": null, "owner": null, "attachments": [{"name": "a", "size": 1}]});
    adapted.strip_added_nulls(&mut arguments);
    assert_eq!(
        arguments,
        json!({"note": null, "owner": null, "attachments": [{"name": "a", "size": 1}]})
    );
}

#[test]
fn gemini_keeps_a_union_inside_the_one_branch_left_beside_null() {
    let schema = json!({
        "type": "object",
        "properties": {"id": {"anyOf": [
            {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            {"type": "null"},
        ]}},
    });
    let adapted = GeminiAdapter::new().adapt(&schema).unwrap();
    assert_eq!(
        adapted.schema["properties"]["id"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true})
    );
}

#[test]
fn gemini_holds_an_existing_union_to_a_type_array() {
    let schema = json!({
        "type": "object",
        "properties": {"limit": {
            "type": ["integer", "string", "null"],
            "anyOf": [{"minimum": 1}, {"type": "string", "minLength": 1}, {"type": "boolean"}],
        }},
    });
    let adapted = GeminiAdapter::new().adapt(&schema).unwrap();
    assert_eq!(
        adapted.schema["properties"]["limit"],
        json!({
            "nullable": true,
            "anyOf": [
                {"minimum": 1, "type": "integer"},
                {"minimum": 1, "type": "string"},
                {"type": "string", "minLength": 1},
            ],
        })
    );
}
