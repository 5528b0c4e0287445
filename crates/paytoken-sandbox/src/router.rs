//! From a request to its operation: the path's route, the method, the form, and the
//! answer reshaped when the sandbox varies its answers or answers like a deployment. Above
//! the operations (`ops`), which sit above the gateway's state and checks (`gateway`), so
//! no module imports one that imports it back.

use crate::codes;
use crate::exchange::{Answer, Call, JSON};
use crate::explain;
use crate::faults::NotificationFault;
use crate::form::Form;
use crate::gateway::{Gateway, Reshape};
use crate::ops;
use crate::problem::Problems;
use crate::request_log::{self, LoggedRequest};

/// What the request log keeps of a request, as far as it was read.
#[derive(Default)]
struct Seen {
    operation: Option<&'static str>,
    caller: Option<String>,
    /// Masked and form-encoded ([`request_log::masked_fields`]).
    fields: Box<str>,
}

impl Gateway {
    /// Answers one request, reshaped when the sandbox reshapes its answers. A payment it makes
    /// keeps `notification_fault` for its notification.
    pub(crate) fn handle(
        &self,
        method: &str,
        path: &str,
        query: Option<&str>,
        auth_token: Option<&str>,
        body: &[u8],
        notification_fault: Option<NotificationFault>,
    ) -> Answer {
        let mut seen = Seen::default();
        let answer = self.answer(
            method,
            path,
            query,
            auth_token,
            body,
            notification_fault,
            &mut seen,
        );
        // Checked after the call, whose changes were kept (or not) as its lock was let go:
        // an answer is never sent for a change the store could not keep.
        let answer = match self.broken() {
            Some(reason) => Answer::text(
                503,
                &format!("service unavailable: the sandbox cannot keep its state: {reason}\n"),
            ),
            None => answer,
        };
        // One bound for the line, wherever it goes: the log, the header, the sink.
        let mut answer = Answer {
            explanation: answer
                .explanation
                .map(|line| explain::clip(&line, request_log::MAX_EXPLANATION).into_owned()),
            ..answer
        };
        self.requests.record(
            LoggedRequest {
                number: 0,
                at: self.clock.now(),
                method: method.to_owned(),
                path: path.to_owned(),
                operation: seen.operation,
                caller: seen.caller,
                status: answer.status,
                result_code: (answer.content_type == JSON)
                    .then(|| request_log::result_code(&answer.body))
                    .flatten(),
                explanation: answer.explanation.clone(),
                fields: Vec::new(),
            },
            seen.fields,
        );
        if self.explain.is_none() {
            answer.explanation = None;
        }
        if answer.status == 503 {
            return answer;
        }
        if answer.content_type == JSON {
            match &self.reshape {
                Some(Reshape::Varied(variation)) => answer.body = variation.apply(&answer.body),
                Some(Reshape::Like(likeness)) => {
                    if let Some(operation) = seen.operation {
                        answer.body = likeness.apply(operation, &answer.body, &self.now_text());
                    }
                }
                None => {}
            }
        }
        // Told here, with the state's lock let go: a slow sink (a terminal) holds up no
        // other request.
        if let Some(line) = &answer.explanation {
            self.tell(line);
        }
        answer
    }

    /// The operation a request is, by the names of
    /// [`OPERATIONS`](crate::operation_names::OPERATIONS), as far as its path and form tell:
    /// what a fault waiting for an operation is matched with.
    pub(crate) fn operation_of(path: &str, body: &[u8]) -> Option<&'static str> {
        if ops::id_after(path, ops::THREE_D_SECURE_PREFIX).is_some() {
            return Some(crate::operation_names::THREE_D_SECURE_PAGE);
        }
        let (route, _) = ops::route(path)?;
        Form::parse(body).ok().map(|form| route.operation(&form))
    }

    /// Answers one request, telling `seen` what the log keeps of it. `path` is the
    /// request's path without the query; `query` is there when the URL carried `?`.
    #[expect(
        clippy::too_many_arguments,
        reason = "the request's parts, as the server hands them over, and the log's entry"
    )]
    fn answer(
        &self,
        method: &str,
        path: &str,
        query: Option<&str>,
        auth_token: Option<&str>,
        body: &[u8],
        notification_fault: Option<NotificationFault>,
        seen: &mut Seen,
    ) -> Answer {
        const NOT_POST: &str = "method not allowed: every operation is a POST\n";
        if let Some(payment_id) = ops::id_after(path, ops::THREE_D_SECURE_PREFIX) {
            // A browser follows the redirect: GET or POST, no form of the interface.
            if !matches!(method, "GET" | "POST") {
                return Answer::text(405, NOT_POST);
            }
            let decision = if method == "POST" { body } else { &[] };
            if self.broken().is_some() {
                return Answer::text(503, "service unavailable\n");
            }
            seen.operation = Some(crate::operation_names::THREE_D_SECURE_PAGE);
            return ops::three_d_secure::page(self, &mut self.lock(), payment_id, decision);
        }
        let Some((route, raw_id)) = ops::route(path) else {
            return Answer::text(404, "not found: this path is not part of the interface\n");
        };
        // The `{id}` arrives percent-encoded (a merchant transaction id is free text); a
        // segment that does not decode to UTF-8 names nothing.
        let path_id = match raw_id.map(paytoken_types::internal::decode_path_segment) {
            None => None,
            Some(Some(id)) => Some(id),
            Some(None) => {
                return Answer::text(
                    404,
                    "not found: the path's id is not percent-encoded utf-8\n",
                );
            }
        };
        if method != "POST" {
            return Answer::text(405, NOT_POST);
        }
        let shape = route.refusal_shape();
        let refuse = |problems: Problems| self.refusal(shape, &not_a_form(problems, body));
        if query.is_some() {
            seen.fields = request_log::order_id_of_unread(body);
            return refuse(Problems::from(codes::QUERY_STRING).explained(format!(
                "{}: the fields go in the body, form-encoded, never in the URL",
                explain::refusal(codes::QUERY_STRING.code, codes::QUERY_STRING.description)
            )));
        }
        let form = match Form::parse(body) {
            Ok(form) => form,
            Err(problems) => {
                seen.fields = request_log::order_id_of_unread(body);
                return refuse(problems);
            }
        };
        seen.operation = Some(route.operation(&form));
        seen.caller = request_log::caller(&form);
        seen.fields = if paytoken_types::internal::is_form(body) {
            request_log::masked_fields(&form)
        } else {
            request_log::not_a_form(body)
        };
        let call = Call {
            form: &form,
            auth_token,
            path_id: path_id.as_deref(),
            notification_fault,
        };
        if self.broken().is_some() {
            // Told by `handle`; nothing is read or changed.
            return Answer::text(503, "service unavailable\n");
        }
        let mut state = self.lock();
        match ops::dispatch(self, &mut state, route, &call) {
            Ok(answer) => answer,
            Err(problems) => refuse(problems),
        }
    }
}

/// `problems`, their diagnostic saying so when the body was JSON rather than a form: the
/// refusal then names a missing field, which is not the mistake.
fn not_a_form(problems: Problems, body: &[u8]) -> Problems {
    if !request_log::looks_like_json(body) {
        return problems;
    }
    let said = problems.explanation().map_or_else(
        || explain::refusal(&problems.code(), &problems.description()),
        str::to_owned,
    );
    problems.explained(format!(
        "{said}; the body is JSON, not a form: send the fields form-encoded (application/x-www-form-urlencoded)"
    ))
}
