//! The request body handed to hyper: a handle on the request's own
//! [`Body`](paytoken_protocol::Body), so no attempt copies it, and its bytes (card numbers
//! and CVVs) are wiped when the last handle, the request's or hyper's, is dropped.

use core::convert::Infallible;
use core::pin::Pin;
use core::task::{Context, Poll};

use bytes::Buf;
use http_body::{Body, Frame, SizeHint};
use paytoken_protocol::Body as RequestBody;

/// A body of one chunk. (hyper may still copy small bodies into its own write buffer; what
/// this type holds is wiped with the request's body.)
#[derive(Debug)]
pub(crate) struct SecretBody {
    chunk: Option<SecretChunk>,
    len: u64,
}

impl SecretBody {
    pub(crate) fn new(body: RequestBody) -> Self {
        let len = u64::try_from(body.len()).unwrap_or(u64::MAX);
        Self {
            chunk: Some(SecretChunk { body, read: 0 }),
            len,
        }
    }
}

impl Body for SecretBody {
    type Data = SecretChunk;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Poll::Ready(
            self.get_mut()
                .chunk
                .take()
                .map(|chunk| Ok(Frame::data(chunk))),
        )
    }

    fn is_end_stream(&self) -> bool {
        self.chunk.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.len)
    }
}

/// The bytes of a [`SecretBody`], read front to back.
#[derive(Debug)]
pub(crate) struct SecretChunk {
    body: RequestBody,
    read: usize,
}

impl Buf for SecretChunk {
    fn remaining(&self) -> usize {
        self.body.len().saturating_sub(self.read)
    }

    fn chunk(&self) -> &[u8] {
        self.body.get(self.read..).unwrap_or_default()
    }

    fn advance(&mut self, count: usize) {
        self.read = self.read.saturating_add(count).min(self.body.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt as _;
    use paytoken_checksum::{Credentials, SecureKey};
    use paytoken_protocol::Context;
    use paytoken_protocol::Operation as _;
    use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;

    fn request_body() -> RequestBody {
        let context = Context::new(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("key").unwrap(),
        ));
        CardsAndAccounts::all()
            .request(&context)
            .unwrap()
            .into_body()
    }

    #[tokio::test]
    async fn yields_the_request_body_once_with_an_exact_size() {
        let body = request_body();
        let expected = body.to_vec();
        let secret = SecretBody::new(body);
        assert_eq!(
            secret.size_hint().exact(),
            u64::try_from(expected.len()).ok()
        );
        let collected = secret.collect().await.unwrap().to_bytes();
        assert_eq!(&collected[..], &expected[..]);
    }

    #[test]
    fn shares_the_bytes_and_advances_within_bounds() {
        let body = request_body();
        let len = body.len();
        let mut chunk = SecretChunk {
            body: body.clone(),
            read: 0,
        };
        assert!(core::ptr::eq(chunk.chunk(), body.as_bytes()), "not copied");
        chunk.advance(len - 1);
        assert_eq!(chunk.chunk(), &body[len - 1..]);
        chunk.advance(10);
        assert_eq!(chunk.remaining(), 0);
        assert_eq!(chunk.chunk(), b"");
    }
}
