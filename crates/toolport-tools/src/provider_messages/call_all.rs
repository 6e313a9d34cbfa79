//! [`OfferedTools::call_all`]: one turn's calls run, side by side where the tools allow it,
//! each answered in the calls' order.

use serde_json::{Value, json};

use super::join::{Boxed, join_all};
use super::{FunctionCall, MessageError, OfferedTools, ToolAnswer};
use crate::{ReadonlyContext, ToolError, ToolOutput};

impl OfferedTools {
    /// Runs `calls`, the calls of one model turn, for the caller described by `context`, and
    /// answers each, in the order of `calls`.
    ///
    /// Calls run in the model's order, except that a run of consecutive calls that may overlap
    /// runs side by side: calls of tools annotated `readOnlyHint` or `idempotentHint` (see
    /// [`Tool::definition`](crate::Tool::definition)), and calls answered without a tool. Any
    /// other call waits for the calls before it, and the calls after it wait for it.
    ///
    /// A call of a name no tool has, with arguments that are not a JSON object, or that the
    /// tool fails with a tool-level [`ToolError`] (arguments that break the schema, a result
    /// that breaks its own, one that cannot be mapped) is answered with an error output that
    /// says why, for the model to read. The `null`s OpenAI's strict mode made the model send
    /// for optional properties are taken out of the arguments first.
    ///
    /// # Errors
    ///
    /// [`MessageError::CallFailed`] for the first call, in the calls' order, whose session or
    /// call-path layer failed ([`ToolError::Session`], [`ToolError::Layer`]): its outcome is
    /// unknown. The calls after it are not run, but for those already running beside it.
    pub async fn call_all(
        &self,
        calls: &[FunctionCall],
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<ToolAnswer>, MessageError> {
        let mut answers = Vec::with_capacity(calls.len());
        let mut rest = calls;
        while let Some(first) = rest.first() {
            let side_by_side = rest
                .iter()
                .take_while(|call| self.may_overlap(call))
                .count();
            if side_by_side == 0 {
                answers.push(self.answer(first, context).await?);
                rest = &rest[1..];
                continue;
            }
            let (group, after) = rest.split_at(side_by_side);
            let running: Vec<Boxed<'_, _>> = group
                .iter()
                .map(|call| Box::pin(self.answer(call, context)) as Boxed<'_, _>)
                .collect();
            for answer in join_all(running).await {
                answers.push(answer?);
            }
            rest = after;
        }
        Ok(answers)
    }

    /// Whether `call` may run beside other calls: its tool is read-only or idempotent by its
    /// annotations, or there is no tool to run.
    fn may_overlap(&self, call: &FunctionCall) -> bool {
        let Some(offered) = self.by_name.get(&call.name) else {
            return true;
        };
        offered.tool.definition().is_some_and(|definition| {
            definition.annotations.as_ref().is_some_and(|annotations| {
                annotations.read_only_hint == Some(true)
                    || annotations.idempotent_hint == Some(true)
            })
        })
    }

    /// The answer to one call, or the failure that leaves its outcome unknown.
    async fn answer(
        &self,
        call: &FunctionCall,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolAnswer, MessageError> {
        let answered = |output| ToolAnswer {
            call: call.clone(),
            output,
        };
        let Some(offered) = self.by_name.get(&call.name) else {
            let error = format!("There is no tool named {}.", call.name);
            return Ok(answered(error_output(error)));
        };
        let mut arguments = call.arguments.clone();
        if !matches!(arguments, Value::Object(_) | Value::Null) {
            let error = format!(
                "The arguments of {} must be a JSON object; they were {arguments}.",
                call.name
            );
            return Ok(answered(error_output(error)));
        }
        offered.schema.strip_added_nulls(&mut arguments);
        match offered.tool.call(arguments, context).await {
            Ok(output) => Ok(answered(output)),
            Err(source @ (ToolError::Session(_) | ToolError::Layer(_))) => {
                Err(MessageError::CallFailed {
                    call: Box::new(call.clone()),
                    source: Box::new(source),
                })
            }
            Err(error) => Ok(answered(error_output(error.to_string()))),
        }
    }
}

/// An error output the model reads: `{"error": message}`.
fn error_output(message: String) -> ToolOutput {
    ToolOutput::error(json!({ "error": message }))
}
