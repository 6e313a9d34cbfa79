//! `AdkJavaMapper` on any `CallToolResult`: an error exactly for a success whose content has
//! no text block, else a value with no parts: `{"error": ...}` for an error, `{}` for no
//! content, and one `text_output` entry per text block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_fuzz::tool_result::{assert_sane_output, parse, text_blocks};
use toolport_tools::{AdkJavaMapper, ResultMapper};

fuzz_target!(|data: &[u8]| {
    let Some(result) = parse(data) else {
        return;
    };
    let is_error = result.is_error == Some(true);
    let texts = text_blocks(&result);
    let Ok(output) = AdkJavaMapper.map(&result) else {
        assert!(!is_error && !result.content.is_empty() && texts == 0);
        return;
    };
    assert_sane_output(&result, &output);
    assert!(output.parts.is_empty());
    if is_error {
        assert!(output.value["error"].is_string(), "{}", output.value);
    } else if result.content.is_empty() {
        assert_eq!(output.value, serde_json::json!({}));
    } else {
        let entries = output.value["text_output"].as_array().map(Vec::len);
        assert_eq!(entries, Some(texts), "{}", output.value);
    }
});
