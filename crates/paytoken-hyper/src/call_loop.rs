//! The one call path every operation takes: build and sign the request once, put a fresh
//! auth token into it when one is due, send it (the retries are [`crate::exchange`]'s),
//! parse the answer, and after a refused token renew it and send the same request again,
//! once. The gateway's free text enters here: a result's description that echoes the
//! caller's own secure key or auth token has them masked before anyone sees it.

use paytoken_protocol::{Context, Request};
use paytoken_types::CodeFamily;
use tracing::Instrument as _;

use crate::call::{Call, Observed};
use crate::held;
use crate::span::CallLog;
use crate::{Client, Error, Transport};

impl<T: Transport> Client<T> {
    /// The call loop, inside its span.
    pub(crate) async fn call<C: Call>(&self, mut call: C) -> Result<C::Response, Error> {
        let log = CallLog::start(call.kind(), call.ids());
        let result = self
            .signed_call(&mut call, &log)
            .instrument(log.span().clone())
            .await;
        let answered = result.as_ref().ok();
        log.finish(
            &result,
            answered.and_then(Observed::payment_id),
            match &result {
                Ok(response) => response.result_code(),
                Err(error) => error.refusal().map(|refusal| refusal.result.code.as_str()),
            },
        );
        result
    }

    async fn signed_call<C: Call>(
        &self,
        call: &mut C,
        log: &CallLog,
    ) -> Result<C::Response, Error> {
        let auth = &self.inner.auth;
        let current = auth.current();
        // Built and signed once, before anything is sent: invalid input sends nothing, not
        // even an auth-token request. Only the token header changes after this.
        let mut request = call.request(&current.context)?;
        let takes_token = call.kind().sends_auth_token();
        let due = takes_token && !current.is_fresh(|| auth.now());
        let mut context = current.context;
        if due {
            context = self.renew(&context, false).await?;
            put_token(&mut request, &context);
        }
        let mut renewed = false;
        loop {
            let answer = self
                .exchange(&request, log)
                .await
                .map_err(|error| judge(&request, error))?;
            let mut error = match call.parse(answer.status, &answer.body) {
                Ok(mut response) => {
                    held::mask(&context, response.result_mut());
                    return Ok(response);
                }
                Err(error) => error,
            };
            held::mask_refusal(&context, &mut error);
            if let Some(refusal) = error.refusal() {
                // A refusal means nothing was processed, so even a payment may go again,
                // once, with a fresh token.
                let token_refused = refusal.family() == CodeFamily::SystemCheck;
                if token_refused && !renewed && takes_token && auth.renewal.is_some() {
                    tracing::debug!(target: "paytoken", "auth token refused; renewing it and sending again");
                    renewed = true;
                    context = self.renew(&context, true).await?;
                    put_token(&mut request, &context);
                    continue;
                }
            }
            return Err(judge(&request, error.into()));
        }
    }
}

/// Puts the token of `context` (the renewal's) into the built request.
fn put_token(request: &mut Request, context: &Context) {
    if let Some(token) = &context.auth_token {
        request.set_auth_token(token);
    }
}

/// An error of a request that changes something and may have been processed becomes an
/// unknown outcome; everything else stays as it is.
fn judge(request: &Request, error: Error) -> Error {
    if !request.is_retry_safe() && error.may_have_been_processed() {
        Error::OutcomeUnknown {
            operation: request.operation(),
            merchant_transaction_id: None,
            payment_id: None,
            cause: Box::new(error),
        }
    } else {
        error
    }
}
