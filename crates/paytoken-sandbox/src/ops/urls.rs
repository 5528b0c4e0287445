//! The two URLs a payment may carry, checked when it is made: `merchantRedirectUrl`, where
//! the 3-D Secure page sends the cardholder's browser, and `notificationUrl`, where the
//! sandbox posts the outcome. Each must be an absolute `http` or `https` URL with a host
//! (no user info, a port from 1 to 65535 where one is written):
//! a `javascript:` or `data:` URL handed to a browser runs as a page of the sandbox's, so
//! it is refused with `30008` naming the field, and nothing is created.

use crate::exchange::Call;
use crate::form::Form;
use crate::problem::{Problem, Problems};
use crate::state::NotifyTo;

/// Where a payment's outcome goes back, besides its answer.
#[derive(Debug, Default)]
pub(super) struct Returns {
    /// `merchantRedirectUrl`.
    pub(super) redirect_back: Option<String>,
    /// `notificationUrl`, with the call's notification fault.
    pub(super) notify: Option<NotifyTo>,
}

/// Reads both URLs of a payment's form; a problem for each that is not a web URL.
pub(super) fn returns(call: &Call<'_, '_>, problems: &mut Problems) -> Returns {
    let redirect_back = read(call.form, "merchantRedirectUrl", problems);
    let notify = read(call.form, "notificationUrl", problems);
    Returns {
        redirect_back: redirect_back.map(str::to_owned),
        notify: notify.map(|url| NotifyTo {
            url: url.to_owned(),
            fault: call.notification_fault,
        }),
    }
}

/// The field's value when it is a web URL; a problem naming it when it is something else.
fn read<'f>(form: &'f Form<'_>, field: &'static str, problems: &mut Problems) -> Option<&'f str> {
    let url = form.get(field)?;
    if is_web_url(url) {
        Some(url)
    } else {
        problems.push(Problem::invalid(field));
        None
    }
}

/// `http://` or `https://` (any case), then a host with no user info and a port (if any)
/// from 1 to 65535, and no white space or control character anywhere.
fn is_web_url(url: &str) -> bool {
    let after_scheme = ["http://", "https://"].iter().find_map(|scheme| {
        url.get(..scheme.len())
            .filter(|head| head.eq_ignore_ascii_case(scheme))
            .and_then(|_| url.get(scheme.len()..))
    });
    let Some(rest) = after_scheme else {
        return false;
    };
    paytoken_types::check_authority(rest).is_ok()
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_web_urls_only() {
        for good in [
            "https://shop.example/back?order=1",
            "HTTP://127.0.0.1:8080",
            "http://[::1]:9/hook",
        ] {
            assert!(is_web_url(good), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript://%0aalert(1)",
            "data:text/html,<script>alert(1)</script>",
            "//shop.example/back",
            "https:///path",
            "https://",
            "http://shop.example/a b",
            "http://shop.example/\u{7f}",
            "ftp://shop.example/",
            "",
            "http://127.0.0.1:99999/hook",
            "https://user:secret@shop.example/back",
        ] {
            assert!(!is_web_url(bad), "{bad}");
        }
    }
}
