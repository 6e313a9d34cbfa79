//! Input schemas a malicious server can list, to test that adapting, checking and declaring them
//! stays within bounds: a chain of definitions that nests thousands of levels once inlined, and
//! one large definition referenced hundreds of times.

use serde_json::{Map, Value, json};

/// A tool input schema of `links` definitions, each reaching the next through `levels` nested
/// `items`: about 2.5 KB a link at 100 levels, small on the wire, and `links × levels` levels
/// deep once its `$ref`s are inlined. `depth_bomb(80, 100)` is about 200 KB and would nest
/// 8,000 levels.
pub fn depth_bomb(links: usize, levels: usize) -> Value {
    let mut definitions = Map::new();
    for link in 0..links {
        let mut node = json!({"$ref": format!("#/$defs/D{}", link + 1)});
        for _ in 0..levels {
            node = json!({"type": "array", "items": node});
        }
        definitions.insert(format!("D{link}"), node);
    }
    definitions.insert(format!("D{links}"), json!({"type": "string"}));
    json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/D0"}},
        "$defs": definitions,
    })
}

/// A tool input schema whose one definition, about `definition_bytes` long, is referenced by
/// `references` properties: small on the wire, `references × definition_bytes` once inlined.
/// `amplification(295 * 1024, 512)` would inline to about 150 MB.
pub fn amplification(definition_bytes: usize, references: usize) -> Value {
    // Each property of the definition is about 100 bytes of JSON.
    let mut big = Map::new();
    for index in 0..definition_bytes.div_ceil(100) {
        big.insert(
            format!("field_{index:06}"),
            json!({"type": "string", "description": "x".repeat(60)}),
        );
    }
    let mut properties = Map::new();
    for index in 0..references {
        properties.insert(format!("p{index}"), json!({"$ref": "#/$defs/Big"}));
    }
    json!({
        "type": "object",
        "properties": properties,
        "$defs": {"Big": {"type": "object", "properties": big}},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schemas_are_as_large_as_they_say() {
        let bomb = depth_bomb(80, 100).to_string().len();
        assert!((150_000..260_000).contains(&bomb), "{bomb}");
        let amplified = amplification(295 * 1024, 512).to_string().len();
        assert!((300_000..400_000).contains(&amplified), "{amplified}");
    }
}
