//! Renewing the auth token: one renewal at a time, the life cycle deciding which request
//! (regenerate or fetch) and when the next renewal is due.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use paytoken_protocol::{Context, OperationKind};
use tracing::Instrument as _;

use crate::held;
use crate::span::{CallIds, CallLog};
use crate::{Client, Error, Transport};

impl<T: Transport> Client<T> {
    /// Renews the token of `stale`, unless another call did while this one waited. With
    /// `refused`, the gateway refused the token: fetch a new one rather than regenerate it.
    ///
    /// Boxed: a renewal is rare and its future large (an exchange of its own); held in
    /// place, it would size the state of every call, which each level of the call path
    /// copies.
    pub(crate) fn renew<'a>(
        &'a self,
        stale: &'a Arc<Context>,
        refused: bool,
    ) -> Pin<Box<impl Future<Output = Result<Arc<Context>, Error>> + 'a>> {
        Box::pin(self.renew_unboxed(stale, refused))
    }

    async fn renew_unboxed(
        &self,
        stale: &Arc<Context>,
        refused: bool,
    ) -> Result<Arc<Context>, Error> {
        let auth = &self.inner.auth;
        let Some(renewal) = auth.renewal.as_ref() else {
            return Ok(Arc::clone(stale));
        };
        let mut lifecycle = renewal.lock().await;
        let current = auth.current();
        if !Arc::ptr_eq(&current.context, stale) && current.is_fresh(|| auth.now()) {
            return Ok(current.context);
        }
        if refused {
            lifecycle.invalidate();
        }
        // A regenerate request can be refused (the token died early); the life cycle then
        // forgets the token, and a second round fetches a new one. A refused fetch is not
        // asked again: the same login would be refused the same way (and a gateway may
        // count failed logins against the account).
        loop {
            let sent_at = auth.now();
            let request = lifecycle.renewal(&current.context, sent_at)?;
            let regenerating = request.operation() == OperationKind::RegenerateAuthToken;
            let log = CallLog::start(request.operation(), CallIds::default());
            let answer = self
                .exchange(&request, &log)
                .instrument(log.span().clone())
                .await;
            let parsed = answer.and_then(|answer| {
                lifecycle
                    .parse(answer.status, &answer.body, sent_at)
                    .cloned()
                    .map_err(|mut error| {
                        held::mask_refusal(&current.context, &mut error);
                        Error::from(error)
                    })
            });
            let code = parsed
                .as_ref()
                .err()
                .and_then(Error::refusal)
                .map(|refusal| refusal.result.code.as_str());
            log.finish(&parsed, None, code);
            match (parsed, lifecycle.renew_at()) {
                // The life cycle has just kept the token, so it has a deadline (`None` would
                // read "renew now", which is what `sent_at` says).
                (Ok(token), renew_at) => {
                    let renew_at = renew_at.unwrap_or(sent_at);
                    return Ok(auth.install(&current.context, token, renew_at));
                }
                (Err(error), _) if error.refusal().is_some() && regenerating => {}
                (Err(error), _) => return Err(error),
            }
        }
    }
}
