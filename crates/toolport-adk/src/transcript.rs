//! [`transcript`]: an ADK run's events as the reference prints them.

use adk_core::{Event, Part};

/// The run's events as the reference's agents print them, one line each: `call   NAME ARGS`
/// for a tool call, `result ok|error VALUE` for a function response (its structured content,
/// else its first text, else the whole response; `error` when it says `isError`), and
/// `answer TEXT` for the model's text. Partial (streamed) events are left out.
pub fn transcript(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|event| !event.llm_response.partial)
        .flat_map(|event| event.llm_response.content.iter().flat_map(|c| &c.parts))
        .filter_map(line)
        .collect()
}

fn line(part: &Part) -> Option<String> {
    Some(match part {
        Part::FunctionCall { name, args, .. } => format!("call   {name} {args}"),
        Part::FunctionResponse {
            function_response, ..
        } => {
            let response = &function_response.response;
            let status = if response["isError"] == true {
                "error"
            } else {
                "ok"
            };
            let shown = match response.get("structuredContent") {
                Some(structured) => structured.to_string(),
                None => response["content"][0]["text"]
                    .as_str()
                    .map_or_else(|| response.to_string(), str::to_owned),
            };
            format!("result {status} {shown}")
        }
        Part::Text { text } => format!("answer {}", text.trim()),
        _ => return None,
    })
}
