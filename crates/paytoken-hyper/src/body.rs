//! The request body handed to hyper: it holds card numbers and CVVs, so its bytes are
//! wiped when hyper is done with them.

use core::convert::Infallible;
use core::pin::Pin;
use core::task::{Context, Poll};

use bytes::Buf;
use http_body::{Body, Frame, SizeHint};
use zeroize::Zeroize;

/// A body of one chunk. (hyper may still copy small bodies into its own write buffer; what
/// this type owns, it wipes.)
#[derive(Debug)]
pub(crate) struct SecretBody {
    chunk: Option<SecretChunk>,
    len: u64,
}

impl SecretBody {
    pub(crate) fn new(bytes: Vec<u8>) -> Self {
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        Self {
            chunk: Some(SecretChunk { bytes, read: 0 }),
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
    bytes: Vec<u8>,
    read: usize,
}

impl Buf for SecretChunk {
    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.read)
    }

    fn chunk(&self) -> &[u8] {
        self.bytes.get(self.read..).unwrap_or_default()
    }

    fn advance(&mut self, count: usize) {
        self.read = self.read.saturating_add(count).min(self.bytes.len());
    }
}

impl Drop for SecretChunk {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt as _;

    #[tokio::test]
    async fn yields_its_bytes_once_with_an_exact_size() {
        let body = SecretBody::new(b"card.number=4000000000000051".to_vec());
        assert_eq!(body.size_hint().exact(), Some(28));
        let collected = body.collect().await.unwrap().to_bytes();
        assert_eq!(&collected[..], b"card.number=4000000000000051");
    }

    #[test]
    fn advances_within_bounds() {
        let mut chunk = SecretChunk {
            bytes: b"abc".to_vec(),
            read: 0,
        };
        chunk.advance(2);
        assert_eq!(chunk.chunk(), b"c");
        chunk.advance(10);
        assert_eq!(chunk.remaining(), 0);
        assert_eq!(chunk.chunk(), b"");
    }
}
