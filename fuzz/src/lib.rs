//! What the fuzz targets in `fuzz_targets/` share: reading the input as JSON and checking that
//! JSON output reads back ([`json`]), the checks every schema adapter must pass ([`schema`]),
//! and the checks every result mapper must pass ([`tool_result`]).

pub mod json;
pub mod schema;
pub mod tool_result;
