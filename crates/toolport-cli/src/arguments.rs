//! [`Arguments`]: a tool's arguments as the command line gives them, either one JSON object or
//! HTTPie-style `key=value` and `key:=<json>` pairs typed by the tool's input schema.

use std::collections::HashSet;

use anyhow::Context as _;
use serde_json::{Map, Number, Value};

/// A tool's arguments, checked for their syntax but not yet against the tool.
#[derive(Debug)]
pub(crate) enum Arguments {
    /// One JSON object, passed as it is.
    Object(Map<String, Value>),
    /// `key=value` and `key:=<json>` pairs, in order.
    Pairs(Vec<Pair>),
}

/// One `key=value` or `key:=<json>` argument.
#[derive(Debug)]
pub(crate) struct Pair {
    key: String,
    value: PairValue,
}

#[derive(Debug)]
enum PairValue {
    /// `key=value`: typed by the property's schema.
    Text(String),
    /// `key:=<json>`: raw JSON, for any type.
    Json(Value),
}

impl Arguments {
    /// Reads the words after the tool's name: nothing (`{}`), one JSON object, or pairs.
    pub(crate) fn parse(words: &[String]) -> anyhow::Result<Self> {
        match words {
            [] => Ok(Self::Object(Map::new())),
            [only] if only.trim_start().starts_with('{') => parse_object(only).map(Self::Object),
            _ => {
                if let Some(object) = words.iter().find(|word| word.trim_start().starts_with('{')) {
                    anyhow::bail!(
                        "`{}`: a JSON object must be the only argument; give either one JSON object or key=value pairs",
                        shorten(object)
                    );
                }
                let mut seen = HashSet::new();
                let pairs = words
                    .iter()
                    .map(|word| {
                        let pair = Pair::parse(word)?;
                        if !seen.insert(pair.key.clone()) {
                            anyhow::bail!("`{}` is given twice", pair.key);
                        }
                        Ok(pair)
                    })
                    .collect::<anyhow::Result<_>>()?;
                Ok(Self::Pairs(pairs))
            }
        }
    }

    /// The arguments object, each `key=value` typed by the property of that name in
    /// `input_schema`: `integer`, `number` and `boolean` properties are parsed as such, and
    /// anything else stays a string.
    pub(crate) fn into_object(
        self,
        input_schema: &Map<String, Value>,
    ) -> anyhow::Result<Map<String, Value>> {
        let pairs = match self {
            Self::Object(object) => return Ok(object),
            Self::Pairs(pairs) => pairs,
        };
        let properties = input_schema.get("properties").and_then(Value::as_object);
        let mut object = Map::new();
        for Pair { key, value } in pairs {
            let value = match value {
                PairValue::Json(value) => value,
                PairValue::Text(text) => {
                    let property = properties.and_then(|properties| properties.get(&key));
                    typed(&key, text, property)?
                }
            };
            object.insert(key, value);
        }
        Ok(object)
    }
}

impl Pair {
    fn parse(word: &str) -> anyhow::Result<Self> {
        let (key, value) = word.split_once('=').with_context(|| {
            format!(
                "`{}`: expected key=value, key:=<json> or one JSON object",
                shorten(word)
            )
        })?;
        let (key, value) = match key.strip_suffix(':') {
            Some(key) => {
                let json = serde_json::from_str(value).map_err(|error| {
                    anyhow::anyhow!("`{key}:=`: not valid JSON ({error}): `{}`", shorten(value))
                })?;
                (key, PairValue::Json(json))
            }
            None => (key, PairValue::Text(value.to_owned())),
        };
        if key.is_empty() {
            anyhow::bail!("`{}`: the key is empty", shorten(word));
        }
        Ok(Self {
            key: key.to_owned(),
            value,
        })
    }
}

/// Parses a whole argument list given as JSON text, as `batch` lines and `call` take it.
fn parse_object(text: &str) -> anyhow::Result<Map<String, Value>> {
    let value: Value = serde_json::from_str(text).map_err(|error| {
        anyhow::anyhow!(
            "the arguments are not valid JSON ({error}): `{}`",
            shorten(text)
        )
    })?;
    match value {
        Value::Object(object) => Ok(object),
        _ => anyhow::bail!(
            "the arguments must be a JSON object, got `{}`",
            shorten(text)
        ),
    }
}

/// `text` as the JSON type that `property` declares, or an error naming the key.
fn typed(key: &str, text: String, property: Option<&Value>) -> anyhow::Result<Value> {
    let types: Vec<&str> = match property.and_then(|property| property.get("type")) {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() || types.contains(&"string") {
        return Ok(Value::String(text));
    }
    for name in &types {
        let parsed = match *name {
            "integer" => text
                .parse::<i64>()
                .map(Value::from)
                .or_else(|_| text.parse::<u64>().map(Value::from))
                .ok(),
            "number" => serde_json::from_str::<Number>(&text)
                .ok()
                .map(Value::Number),
            "boolean" => match text.as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            "null" => (text == "null").then_some(Value::Null),
            _ => None,
        };
        if let Some(value) = parsed {
            return Ok(value);
        }
    }
    let expected: Vec<&str> = types.iter().map(|name| describe(name)).collect();
    let expected = expected.join(" or ");
    if types.iter().any(|name| matches!(*name, "object" | "array")) {
        anyhow::bail!("`{key}`: expected {expected}; pass it as JSON with {key}:=<json>");
    }
    anyhow::bail!(
        "`{key}`: expected {expected}, got `{}` (use {key}:=<json> for raw JSON)",
        shorten(&text)
    )
}

/// A JSON Schema type in words.
fn describe(name: &str) -> &str {
    match name {
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "true or false",
        "object" => "a JSON object",
        "array" => "a JSON array",
        other => other,
    }
}

/// `text`, cut to 80 characters for an error message.
pub(crate) fn shorten(text: &str) -> String {
    const LIMIT: usize = 80;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(words: &[&str], schema: Value) -> anyhow::Result<Value> {
        let words: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
        Arguments::parse(&words)?
            .into_object(schema.as_object().unwrap())
            .map(Value::Object)
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "title": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "done": {"type": "boolean"},
            "limit": {"type": ["integer", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        }})
    }

    #[test]
    fn pairs_are_typed_by_the_schema() {
        let value = object(
            &[
                "title=42",
                "count=3",
                "ratio=0.5",
                "done=true",
                "limit=null",
                "other=1",
            ],
            schema(),
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"title": "42", "count": 3, "ratio": 0.5, "done": true, "limit": null, "other": "1"})
        );
    }

    #[test]
    fn raw_json_takes_any_type() {
        let value = object(
            &[r#"tags:=["a", "b"]"#, "count:=7", "title:=\"x\""],
            schema(),
        )
        .unwrap();
        assert_eq!(value, json!({"tags": ["a", "b"], "count": 7, "title": "x"}));
    }

    #[test]
    fn a_value_of_the_wrong_type_names_the_key() {
        let error = object(&["count=three"], schema()).unwrap_err().to_string();
        assert!(
            error.starts_with("`count`: expected an integer, got `three`"),
            "{error}"
        );
        let error = object(&["done=yes"], schema()).unwrap_err().to_string();
        assert!(error.contains("`done`: expected true or false"), "{error}");
        let error = object(&["tags=a,b"], schema()).unwrap_err().to_string();
        assert!(error.contains("tags:=<json>"), "{error}");
    }

    #[test]
    fn one_json_object_or_pairs_but_not_both() {
        assert_eq!(
            object(&[r#"{"count": 1}"#], schema()).unwrap(),
            json!({"count": 1})
        );
        assert_eq!(object(&[], schema()).unwrap(), json!({}));
        let error = object(&["count=1", "{}"], schema())
            .unwrap_err()
            .to_string();
        assert!(error.contains("must be the only argument"), "{error}");
    }

    #[test]
    fn malformed_pairs_are_refused() {
        for (word, expected) in [
            ("title", "expected key=value"),
            ("=x", "the key is empty"),
            ("count:=[1", "`count:=`: not valid JSON"),
        ] {
            let error = object(&[word], schema()).unwrap_err().to_string();
            assert!(error.contains(expected), "{word}: {error}");
        }
        let error = object(&["count=1", "count=2"], schema())
            .unwrap_err()
            .to_string();
        assert!(error.contains("`count` is given twice"), "{error}");
    }
}
