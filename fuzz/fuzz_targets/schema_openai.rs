//! `OpenAiAdapter` on any JSON as a tool's input schema: the checks of
//! `toolport_fuzz::schema::check_adapter`, strict and non-strict.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolport_fuzz::{json, schema::check_adapter};
use toolport_tools::schema::OpenAiAdapter;

fuzz_target!(|data: &[u8]| {
    let Some(schema) = json::parse(data) else {
        return;
    };
    check_adapter(&OpenAiAdapter::strict(), &schema);
    check_adapter(&OpenAiAdapter::non_strict(), &schema);
});
