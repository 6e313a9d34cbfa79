//! `RichMapper` (the default) on any `CallToolResult`: always a value, one media part per
//! image, audio, resource or link block, an `error` string for an error, and the structured
//! content unchanged when a success has it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_fuzz::tool_result::{assert_sane_output, media_blocks, parse};
use toolport_tools::{ResultMapper, RichMapper};

fuzz_target!(|data: &[u8]| {
    let Some(result) = parse(data) else {
        return;
    };
    let output = RichMapper
        .map(&result)
        .expect("the rich mapping takes any result");
    assert_sane_output(&result, &output);
    assert_eq!(output.parts.len(), media_blocks(&result));
    let structured = result
        .structured_content
        .as_ref()
        .filter(|value| !value.is_null());
    if output.is_error {
        assert!(output.value["error"].is_string(), "{}", output.value);
    } else if let Some(structured) = structured {
        assert_eq!(&output.value, structured);
    }
});
