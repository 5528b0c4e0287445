//! One module per operation of the interface: each reads its form, applies the gateway's
//! rules to the state and writes the answer.

mod auth_token;
mod back_office;
mod card_input;
mod cards_and_accounts;
mod customer_signup;
mod inquiry;
mod installments;
mod invoice_list;
mod payment;
mod registration;
mod repeat_payment;
pub(crate) mod three_d_secure;
mod token_payment;
mod transaction;
mod urls;

use paytoken_protocol::OperationKind;
use paytoken_protocol::ops as paths;

use crate::exchange::{Answer, Call, RefusalShape};
use crate::form::Form;
use crate::gateway::Gateway;
use crate::problem::Problems;
use crate::state::State;

/// The path of the sandbox's own 3-D Secure challenge page; not part of the interface.
pub(crate) const THREE_D_SECURE_PREFIX: &str = "/sandbox/3ds/";

/// Every path the sandbox answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    MerchantAuthToken,
    PartnerAuthToken,
    RegenerateAuthToken,
    CustomerSignup,
    Payment,
    Inquiry,
    Registration,
    TokenPayment,
    Installments,
    CardsAndAccounts,
    InvoiceList,
}

impl Route {
    /// The operation a request to this route with `form` is, by its one name (`pay`,
    /// `capture`, `fetch_auth_token`): the request log's word for it.
    pub(crate) fn operation(self, form: &Form<'_>) -> &'static str {
        let payment_type = form.get("paymentType");
        let kind = match self {
            Self::MerchantAuthToken | Self::PartnerAuthToken => OperationKind::AuthToken,
            Self::RegenerateAuthToken => OperationKind::RegenerateAuthToken,
            Self::CustomerSignup => OperationKind::CustomerSignup,
            Self::Payment => OperationKind::Payment,
            Self::Inquiry if form.get("recurringType") == Some("REPEATED") => {
                OperationKind::RepeatPayment
            }
            Self::Inquiry => payment_type
                .and_then(back_office::Move::of)
                .map_or(OperationKind::Inquiry, back_office::Move::kind),
            Self::Registration => OperationKind::Registration,
            Self::TokenPayment if payment_type == Some("DL") => OperationKind::DeleteToken,
            Self::TokenPayment => OperationKind::TokenPayment,
            Self::Installments => OperationKind::Installments,
            Self::CardsAndAccounts => OperationKind::CardsAndAccounts,
            Self::InvoiceList => OperationKind::InvoiceList,
        };
        kind.name()
    }

    pub(crate) const fn refusal_shape(self) -> RefusalShape {
        match self {
            Self::Payment | Self::Inquiry | Self::TokenPayment => RefusalShape::Transaction,
            _ => RefusalShape::Plain,
        }
    }
}

/// The route of a path, and the `{id}` for paths that end with one.
pub(crate) fn route(path: &str) -> Option<(Route, Option<&str>)> {
    let exact = [
        (paths::auth_token::MERCHANT_PATH, Route::MerchantAuthToken),
        (paths::auth_token::PARTNER_PATH, Route::PartnerAuthToken),
        (
            paths::auth_token::REGENERATE_PATH,
            Route::RegenerateAuthToken,
        ),
        (paths::customer_signup::PATH, Route::CustomerSignup),
        (paths::payment::PATH, Route::Payment),
        (paths::registration::PATH, Route::Registration),
        (paths::cards_and_accounts::PATH, Route::CardsAndAccounts),
        (paths::invoice_list::PATH, Route::InvoiceList),
    ];
    if let Some((_, route)) = exact.iter().find(|(known, _)| *known == path) {
        return Some((*route, None));
    }
    let prefixed = [
        (paths::inquiry::PATH_PREFIX, Route::Inquiry),
        (paths::token_payment::PATH_PREFIX, Route::TokenPayment),
        (paths::installments::PATH_PREFIX, Route::Installments),
    ];
    prefixed
        .iter()
        .find_map(|(prefix, route)| Some((*route, Some(id_after(path, prefix)?))))
}

/// The `{id}` of a path `prefix{id}`: not empty, no further segment.
pub(crate) fn id_after<'p>(path: &'p str, prefix: &str) -> Option<&'p str> {
    path.strip_prefix(prefix)
        .filter(|id| !id.is_empty() && !id.contains('/'))
}

/// Runs the operation of `route`.
pub(crate) fn dispatch(
    gateway: &Gateway,
    state: &mut State,
    route: Route,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    match route {
        Route::MerchantAuthToken => auth_token::merchant(gateway, state, call),
        Route::PartnerAuthToken => auth_token::partner(gateway, state, call),
        Route::RegenerateAuthToken => auth_token::regenerate(gateway, state, call),
        Route::CustomerSignup => customer_signup::handle(gateway, state, call),
        Route::Payment => payment::handle(gateway, state, call),
        // The inquiry's path also takes the back office's moves, by `paymentType`, and the
        // repeat of a recurring series by its first payment's id.
        Route::Inquiry => {
            let form = call.form;
            if form.get("recurringType") == Some("REPEATED") {
                return repeat_payment::handle(gateway, state, call);
            }
            match form.get("paymentType").and_then(back_office::Move::of) {
                Some(movement) => back_office::handle(gateway, state, call, movement),
                None => inquiry::handle(gateway, state, call),
            }
        }
        Route::Registration => registration::handle(gateway, state, call),
        Route::TokenPayment => token_payment::handle(gateway, state, call),
        Route::Installments => installments::handle(gateway, state, call),
        Route::CardsAndAccounts => cards_and_accounts::handle(gateway, state, call),
        Route::InvoiceList => invoice_list::handle(gateway, state, call),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_every_path_of_the_interface() {
        assert_eq!(
            route("/transactionServices/REST/v1/payments"),
            Some((Route::Payment, None))
        );
        assert_eq!(
            route("/transactionServices/REST/v1/payments/60001"),
            Some((Route::Inquiry, Some("60001")))
        );
        assert_eq!(
            route("/transactionServices/REST/v1/paywithtoken/abc"),
            Some((Route::TokenPayment, Some("abc")))
        );
        assert_eq!(route("/transactionServices/REST/v1/paywithtoken/"), None);
        assert_eq!(route("/transactionServices/REST/v1/paywithtoken/a/b"), None);
        assert_eq!(route("/elsewhere"), None);
    }

    /// The request log names every operation the routes give by a name a state file can
    /// read back (`request_log::operation_named`): a new route or move must be listed there.
    #[test]
    fn every_operation_a_route_gives_is_one_the_log_reads_back() {
        let routes = [
            Route::MerchantAuthToken,
            Route::PartnerAuthToken,
            Route::RegenerateAuthToken,
            Route::CustomerSignup,
            Route::Payment,
            Route::Inquiry,
            Route::Registration,
            Route::TokenPayment,
            Route::Installments,
            Route::CardsAndAccounts,
            Route::InvoiceList,
        ];
        let bodies: [&[u8]; 7] = [
            b"",
            b"paymentType=CP",
            b"paymentType=RF",
            b"paymentType=RV",
            b"paymentType=DL",
            b"recurringType=REPEATED",
            b"paymentType=IN",
        ];
        for route in routes {
            for body in bodies {
                let form = Form::parse(body).unwrap();
                let name = route.operation(&form);
                assert_eq!(
                    crate::request_log::operation_named(name),
                    Some(name),
                    "{route:?}"
                );
            }
        }
    }
}
