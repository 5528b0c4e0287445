//! The back office's steps of the life cycle: a pre-authorisation captured and refunded in
//! two parts, another cancelled, each move followed by the inquiry's long status.

use paytoken::ops::cancel::Cancel;
use paytoken::ops::capture::Capture;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::payment::Payment;
use paytoken::ops::refund::Refund;
use paytoken::types::{Currency, TransactionState};
use paytoken::{Amount, Client, FieldValue, OperationKind, PaymentId, Transaction};
use paytoken_sandbox::{cards, samples};

use super::{LifeCycle, Shown, order_id};

/// A step's name and operation.
type StepName = (&'static str, &'static str);

impl LifeCycle {
    /// Captures a pre-authorisation, refunds it in two parts, and cancels another.
    pub(super) async fn back_office(&mut self, client: &Client) {
        if let Some(id) = self
            .preauthorization(client, ("pre-authorisation", OperationKind::Payment.name()))
            .await
        {
            let steps = [
                (
                    ("capture of 50.00", OperationKind::Capture.name()),
                    "50.00",
                    TransactionState::CaptureSuccess,
                ),
                (
                    ("refund, first part: 20.00", OperationKind::Refund.name()),
                    "20.00",
                    TransactionState::MarkedForReversal,
                ),
                (
                    ("refund, second part: 30.00", OperationKind::Refund.name()),
                    "30.00",
                    TransactionState::Reversed,
                ),
            ];
            for (step, amount, led_to) in steps {
                if !self.amount_move(client, step, id, amount).await {
                    break;
                }
                self.status_after(client, id, &led_to).await;
            }
        }
        if let Some(id) = self
            .preauthorization(
                client,
                ("another pre-authorisation", OperationKind::Payment.name()),
            )
            .await
        {
            let cancelled = self
                .step(
                    ("cancel of the second", OperationKind::Cancel.name()),
                    client.cancel(&Cancel::new(id)),
                    move_shown,
                )
                .await;
            if let Some(cancelled) = cancelled {
                self.moves.push(cancelled);
                self.status_after(client, id, &TransactionState::Cancelled)
                    .await;
            }
        }
    }

    /// A pre-authorisation of 50.00 EUR with an approved test card: its payment id.
    async fn preauthorization(&mut self, client: &Client, step: StepName) -> Option<PaymentId> {
        let amount = self.own(step, "50.00".parse::<Amount>())?;
        let order = self.own(step, order_id())?;
        let card = self.own(step, samples::card(cards::APPROVED))?;
        let payment = Payment::new(order, amount, Currency::EUR, card).preauthorization();
        self.step(step, client.pay(&payment), Shown::transaction)
            .await
            .map(|transaction| transaction.payment_id)
    }

    /// A capture (the step's operation says which) or refund of `amount` EUR on `id`;
    /// whether it went through.
    async fn amount_move(
        &mut self,
        client: &Client,
        step: StepName,
        id: PaymentId,
        amount: &str,
    ) -> bool {
        let Some(amount) = self.own(step, amount.parse::<Amount>()) else {
            return false;
        };
        let moved = if step.1 == "capture" {
            let capture = Capture::new(id, amount, Currency::EUR);
            self.step(step, client.capture(&capture), move_shown).await
        } else {
            let refund = Refund::new(id, amount, Currency::EUR);
            self.step(step, client.refund(&refund), move_shown).await
        };
        moved
            .map(|transaction| self.moves.push(transaction))
            .is_some()
    }

    /// The inquiry's long status of `id`, as expected when it is `led_to`.
    async fn status_after(&mut self, client: &Client, id: PaymentId, led_to: &TransactionState) {
        let step = (
            "inquiry: the payment's status",
            OperationKind::Inquiry.name(),
        );
        let found = self
            .step(step, client.inquiry(&Inquiry::ByPaymentId(id)), |found| {
                let state = found.state.value();
                Shown {
                    ok: state == Some(led_to),
                    fields: vec![
                        ("paymentId", found.payment_id.to_string()),
                        (
                            "status",
                            found
                                .state
                                .as_ref()
                                .map(ToString::to_string)
                                .unwrap_or_default(),
                        ),
                    ],
                    ..Shown::answer(&found.result, Vec::new())
                }
            })
            .await;
        if let Some(state) = found.and_then(|found| found.state.value().cloned()) {
            self.statuses.push(state);
        }
    }
}

/// A move the gateway made: its code and words, the payment, the amount moved.
fn move_shown(transaction: &Transaction) -> Shown {
    let mut fields = vec![("paymentId", transaction.payment_id.to_string())];
    if let (Some(amount), Some(currency)) = (&transaction.amount, &transaction.currency) {
        fields.push(("amount", format!("{amount} {currency}")));
    }
    Shown::answer(&transaction.result, fields)
}
