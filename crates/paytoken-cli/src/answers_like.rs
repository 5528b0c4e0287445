//! `--answers-like CASSETTE` (`paytoken sandbox`, `paytoken demo`): the shapes of one
//! deployment's answers, learned from a cassette of `paytoken record`, for a sandbox that
//! answers in them ([`paytoken_sandbox::AnswerShapes`]). Only the answers' shapes are
//! learned, never their values.

use std::path::Path;

use paytoken_sandbox::AnswerShapes;
use serde_json::{Value, json};

use crate::record::CASSETTE_VERSION;
use crate::replay;
use crate::report::Failure;

/// What a cassette taught.
pub(crate) struct Learned {
    pub(crate) shapes: AnswerShapes,
    /// Lines with no answer to learn from: not a cassette's, no answer, an answer recorded
    /// by its length only, a status other than 200 (a gateway answers 200).
    pub(crate) skipped: u64,
}

impl Learned {
    /// What the sandbox's first line says of it.
    pub(crate) fn summary(&self, cassette: &Path) -> Value {
        let operations: serde_json::Map<String, Value> = self
            .shapes
            .operations()
            .into_iter()
            .map(|(name, answers)| (name, answers.into()))
            .collect();
        json!({
            "cassette": cassette.display().to_string(),
            "operations": operations,
            "skipped": self.skipped,
        })
    }
}

/// Learns the shapes of every answer in `cassette`; a cassette with none is refused.
pub(crate) fn learn(cassette: &Path) -> Result<Learned, Failure> {
    let mut learned = Learned {
        shapes: AnswerShapes::default(),
        skipped: 0,
    };
    replay::each_line(cassette, "--answers-like", |line| {
        let learnt = match line {
            replay::Line::Text(line) => learn_line(&mut learned.shapes, line),
            replay::Line::TooLong => false,
        };
        if !learnt {
            learned.skipped += 1;
        }
    })?;
    if learned.shapes.operations().is_empty() {
        return Err(Failure::usage(format!(
            "--answers-like {}: no answer to learn from: record some with `paytoken record`",
            cassette.display()
        )));
    }
    Ok(learned)
}

/// Learns from one line: whether it held an answer to learn from.
fn learn_line(shapes: &mut AnswerShapes, line: &[u8]) -> bool {
    let Ok(exchange) = serde_json::from_slice::<Value>(line) else {
        return false;
    };
    if exchange.get("cassette") != Some(&json!(CASSETTE_VERSION)) {
        return false;
    }
    let answer = exchange.get("answer").unwrap_or(&Value::Null);
    let (Some(operation), Some(200), Some(body)) = (
        exchange.get("operation").and_then(Value::as_str),
        answer.get("status").and_then(Value::as_u64),
        answer.get("body").filter(|body| body.is_object()),
    ) else {
        return false;
    };
    shapes.learn(operation, &replay::answer_text(answer, body))
}
