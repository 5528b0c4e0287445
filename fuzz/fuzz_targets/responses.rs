//! Every response parser of the protocol, on the same bytes, with the usual statuses: none
//! may panic, whatever it is given. Seeded with `fixtures/responses`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_protocol::Operation;
use paytoken_protocol::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::token_payment::TokenPayment;

fuzz_target!(|body: &[u8]| {
    for status in [200, 502] {
        let _ = CustomerSignup::parse(status, body);
        let _ = Payment::parse(status, body);
        let _ = Registration::parse(status, body);
        let _ = TokenPayment::parse(status, body);
        let _ = DeleteToken::parse(status, body);
        let _ = Installments::parse(status, body);
        let _ = CardsAndAccounts::parse(status, body);
        let _ = InvoiceList::parse(status, body);
        let _ = FetchAuthToken::parse(status, body);
        let _ = RegenerateAuthToken::parse(status, body);
        let _ = Inquiry::parse(status, body);
    }
});
