//! The body of the sandbox's answers: whole, or after a stall once the headers are out.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, SizeHint};
use tokio::time::Sleep;

/// One chunk of bytes, sent at once or after a wait.
#[derive(Debug)]
pub(crate) struct AnswerBody {
    data: Option<Bytes>,
    stall: Option<Pin<Box<Sleep>>>,
    len: u64,
}

impl AnswerBody {
    pub(crate) fn new(data: impl Into<Bytes>, stall: Option<Duration>) -> Self {
        let data: Bytes = data.into();
        Self {
            len: u64::try_from(data.len()).unwrap_or(u64::MAX),
            data: Some(data),
            stall: stall.map(|wait| Box::pin(tokio::time::sleep(wait))),
        }
    }
}

impl Body for AnswerBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(stall) = self.stall.as_mut() {
            if stall.as_mut().poll(context).is_pending() {
                return Poll::Pending;
            }
            self.stall = None;
        }
        Poll::Ready(self.data.take().map(|data| Ok(Frame::data(data))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none()
    }

    /// Exact, so that hyper sends `Content-Length` with the headers, before any stall.
    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.len)
    }
}
