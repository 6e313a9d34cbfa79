//! `RawMapper` on any `CallToolResult`: the result as JSON, exactly as serialized, with no
//! parts, flagged as an error exactly when the result says `"isError": true`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_fuzz::tool_result::{assert_sane_output, parse};
use toolport_tools::{RawMapper, ResultMapper};

fuzz_target!(|data: &[u8]| {
    let Some(result) = parse(data) else {
        return;
    };
    let output = RawMapper.map(&result).expect("a result always serializes");
    assert_sane_output(&result, &output);
    assert_eq!(output.value, serde_json::to_value(&result).unwrap());
    assert!(output.parts.is_empty());
});
