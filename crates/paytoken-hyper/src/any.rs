//! Any operation, whichever it is: what the bindings hand the client, one value of
//! [`AnyOperation`] for every method.

use paytoken_protocol::recorded::{AnyOperation, Reading};

use crate::{Client, Error, Transport};

impl<T: Transport> Client<T> {
    /// Sends `operation` through the method of its kind ([`pay`](Self::pay) for a payment,
    /// [`inquiry`](Self::inquiry) for an inquiry...), with everything that method does:
    /// retries, auth tokens, settling a lost answer. What a binding calls, holding the
    /// operation its caller built.
    ///
    /// ```no_run
    /// use paytoken_protocol::ops::inquiry::Inquiry;
    /// use paytoken_protocol::recorded::{AnyOperation, Reading};
    /// # async fn run(client: paytoken_hyper::Client) -> Result<(), Box<dyn std::error::Error>> {
    /// let inquiry = AnyOperation::Inquiry(Inquiry::ByMerchantTransactionId("order-7".parse()?));
    /// if let Reading::Transaction(found) = client.send(&inquiry).await? {
    ///     println!("{:?}", found.status);
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The method's [`Error`].
    pub async fn send(&self, operation: &AnyOperation) -> Result<Reading, Error> {
        let paid = |paid| Reading::Transaction(Box::new(paid));
        Ok(match operation {
            AnyOperation::FetchAuthToken(op) => {
                Reading::AuthToken(self.fetch_auth_token(op).await?)
            }
            AnyOperation::RegenerateAuthToken(op) => {
                Reading::AuthToken(self.regenerate_auth_token(op).await?)
            }
            AnyOperation::Payment(op) => paid(self.pay(op).await?),
            AnyOperation::TokenPayment(op) => paid(self.pay_with_token(op).await?),
            AnyOperation::RepeatPayment(op) => paid(self.repeat_payment(op).await?),
            AnyOperation::Capture(op) => paid(self.capture(op).await?),
            AnyOperation::Refund(op) => paid(self.refund(op).await?),
            AnyOperation::Cancel(op) => paid(self.cancel(op).await?),
            AnyOperation::Inquiry(op) => paid(self.inquiry(op).await?),
            AnyOperation::Registration(op) => Reading::Registered(self.register(op).await?),
            AnyOperation::CustomerSignup(op) => Reading::SignedUp(self.customer_signup(op).await?),
            AnyOperation::DeleteToken(op) => Reading::Deleted(self.delete_token(op).await?),
            AnyOperation::Installments(op) => Reading::Installments(self.installments(op).await?),
            AnyOperation::CardsAndAccounts(op) => {
                Reading::CardsAndAccounts(self.cards_and_accounts(op).await?)
            }
            AnyOperation::InvoiceList(op) => Reading::Invoices(self.invoice_page(op).await?),
            // The enum is open: an operation added to it is sent only once a method here
            // knows it.
            _ => {
                return Err(Error::Config {
                    setting: "operation",
                    reason: "is one this client does not send yet",
                });
            }
        })
    }
}
