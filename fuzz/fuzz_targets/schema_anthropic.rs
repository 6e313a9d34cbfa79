//! `AnthropicAdapter` on any JSON as a tool's input schema: the checks of
//! `toolport_fuzz::schema::check_adapter`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_fuzz::{json, schema::check_adapter};
use toolport_tools::schema::AnthropicAdapter;

fuzz_target!(|data: &[u8]| {
    if let Some(schema) = json::parse(data) {
        check_adapter(&AnthropicAdapter::new(), &schema);
    }
});
