//! What must hold after every run, checked against the sandbox's books: no order charged
//! twice; what the client believes of each payment (made or refused, approved or not,
//! captured, refunded, cancelled) is the books' truth, lost answers settled included; no
//! payment refunded beyond what it took.

use paytoken_sandbox::PaymentBooks;
use paytoken_types::Amount;

use crate::checkout::{Belief, Order};

/// Every broken invariant, each naming the order or payment.
pub(crate) fn broken(orders: &[Order], books: &[PaymentBooks]) -> Vec<String> {
    let mut broken = Vec::new();
    for order in orders {
        let charged: Vec<&PaymentBooks> = books
            .iter()
            .filter(|kept| kept.approved)
            .filter(|kept| {
                kept.merchant_transaction_id
                    .as_ref()
                    .is_some_and(|id| order.sent_as.contains(id))
            })
            .collect();
        if charged.len() > 1 {
            let ids: Vec<&str> = charged
                .iter()
                .map(|kept| kept.payment_id.as_str())
                .collect();
            broken.push(format!(
                "order {} ({}) charged {} times: payments {}",
                order.name,
                order.sent_as.join(", "),
                charged.len(),
                ids.join(", ")
            ));
        }
        match &order.payment {
            Belief::Unknown => {}
            Belief::Refused => {
                if let Some(kept) = charged.first() {
                    broken.push(format!(
                        "order {}: the client believes it refused, the books hold payment {} approved",
                        order.name, kept.payment_id
                    ));
                }
            }
            Belief::Made {
                payment_id,
                approved,
            } => match books.iter().find(|kept| kept.payment_id == *payment_id) {
                None => broken.push(format!(
                    "order {}: the client holds payment {payment_id}, the books none",
                    order.name
                )),
                Some(kept) => {
                    if kept.approved != *approved {
                        broken.push(format!(
                            "order {}: payment {payment_id} approved {approved} to the client, {} in the books",
                            order.name, kept.approved
                        ));
                    }
                    if order.moves.certain {
                        moves_agree(order, kept, &mut broken);
                    }
                }
            },
        }
    }
    for kept in books {
        if kept.refunded > taken(kept) {
            broken.push(format!(
                "payment {} refunded {} of {} taken",
                kept.payment_id,
                kept.refunded,
                taken(kept)
            ));
        }
    }
    broken
}

/// What a payment took: a debit's amount, a pre-authorisation's capture.
fn taken(kept: &PaymentBooks) -> Amount {
    if kept.payment_type == "PA" {
        kept.captured.unwrap_or(Amount::ZERO)
    } else {
        kept.amount
    }
}

fn moves_agree(order: &Order, kept: &PaymentBooks, broken: &mut Vec<String>) {
    let moves = &order.moves;
    let said = |what: &str, client: String, books: String| {
        format!(
            "order {}: payment {} {what} {client} to the client, {books} in the books",
            order.name, kept.payment_id
        )
    };
    if moves.captured != kept.captured {
        broken.push(said(
            "captured",
            format!("{:?}", moves.captured.map(|amount| amount.to_string())),
            format!("{:?}", kept.captured.map(|amount| amount.to_string())),
        ));
    }
    if moves.refunded != kept.refunded {
        broken.push(said(
            "refunded",
            moves.refunded.to_string(),
            kept.refunded.to_string(),
        ));
    }
    if moves.cancelled != kept.cancelled {
        broken.push(said(
            "cancelled",
            moves.cancelled.to_string(),
            kept.cancelled.to_string(),
        ));
    }
}
