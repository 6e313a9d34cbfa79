//! Server-sent events, as both HTTP transports read them: [`SseParser`] splits bytes into
//! events, each bounded in size, and [`SseEvents`] reads them from a response body.

mod events;
mod parser;

pub use events::{SseEvents, StreamEnd};
pub use parser::{Parsed, SseEvent, SseParser};
