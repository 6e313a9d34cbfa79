//! `GeminiAdapter` on any JSON as a tool's input schema: the checks of
//! `toolport_fuzz::schema::check_adapter`, at the default recursion depth and at none.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_fuzz::{json, schema::check_adapter};
use toolport_tools::schema::GeminiAdapter;

fuzz_target!(|data: &[u8]| {
    let Some(schema) = json::parse(data) else {
        return;
    };
    check_adapter(&GeminiAdapter::new(), &schema);
    check_adapter(&GeminiAdapter::new().recursion_depth(0), &schema);
});
