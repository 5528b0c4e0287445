//! What must hold after every run, checked against the sandbox's books: no order charged
//! twice; what the client believes of each payment (made or refused, approved or not,
//! captured, refunded, cancelled) is the books' truth, lost answers settled included, and
//! a payment it holds is the books' payment of that order; no payment refunded beyond
//! what it took. And of notifications: every payment whose outcome came later and is
//! settled was notified; the shop verifies every genuine one, acts on each at most once,
//! and on every one it answered `2xx` exactly once, as the books say.

use paytoken::SecureKey;
use paytoken_protocol::PaymentStatus;
use paytoken_protocol::notification::Notification;
use paytoken_sandbox::PaymentBooks;
use paytoken_types::Amount;

use crate::checkout::{Belief, Order};
use crate::notifications::{Delivery, Endpoints, Ledger, RELAY_URL, SHOP_URL};

/// A broken invariant: what it says, and the ids it is about (the order's merchant
/// transaction ids, the payments'), which pick its lines of the history.
#[derive(Debug)]
pub(crate) struct Broken {
    pub(crate) said: String,
    pub(crate) names: Vec<String>,
}

impl Broken {
    /// One about `order` and the payments `payment_ids`.
    fn of(order: &Order, payment_ids: &[&str], said: String) -> Self {
        let mut names = order.sent_as.clone();
        names.extend(payment_ids.iter().map(|id| (*id).to_owned()));
        Self { said, names }
    }
}

/// Every broken invariant, each naming the order or payment.
pub(crate) fn broken(orders: &[Order], books: &[PaymentBooks]) -> Vec<Broken> {
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
            let said = format!(
                "order {} ({}) charged {} times: payments {}",
                order.name,
                order.sent_as.join(", "),
                charged.len(),
                ids.join(", ")
            );
            broken.push(Broken::of(order, &ids, said));
        }
        match &order.payment {
            Belief::Unknown => {}
            Belief::Refused => {
                if let Some(kept) = charged.first() {
                    let said = format!(
                        "order {}: the client believes it refused, the books hold payment {} approved",
                        order.name, kept.payment_id
                    );
                    broken.push(Broken::of(order, &[&kept.payment_id], said));
                }
            }
            Belief::Made {
                payment_id,
                approved,
            } => match books.iter().find(|kept| kept.payment_id == *payment_id) {
                None => {
                    let said = format!(
                        "order {}: the client holds payment {payment_id}, the books none",
                        order.name
                    );
                    broken.push(Broken::of(order, &[payment_id], said));
                }
                // The same id handed to another order (a gateway that lost a write): what
                // the client believes is about someone else's payment.
                Some(kept)
                    if kept
                        .merchant_transaction_id
                        .as_ref()
                        .is_some_and(|id| !order.sent_as.contains(id)) =>
                {
                    let other = kept.merchant_transaction_id.as_deref().unwrap_or_default();
                    let said = format!(
                        "order {}: the client holds payment {payment_id}, which the books hold for order {other}",
                        order.name
                    );
                    broken.push(Broken::of(order, &[payment_id, other], said));
                }
                Some(kept) => {
                    if kept.approved != *approved {
                        let said = format!(
                            "order {}: payment {payment_id} approved {approved} to the client, {} in the books",
                            order.name, kept.approved
                        );
                        broken.push(Broken::of(order, &[payment_id], said));
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
            let said = format!(
                "payment {} refunded {} of {} taken",
                kept.payment_id,
                kept.refunded,
                taken(kept)
            );
            let names = [
                Some(&kept.payment_id),
                kept.merchant_transaction_id.as_ref(),
            ];
            let names = names.into_iter().flatten().cloned().collect();
            broken.push(Broken { said, names });
        }
    }
    broken
}

/// Every payment the gateway owes a notification and never posted one for: made with a
/// `notificationUrl`, its outcome come later than its answer (in a run, only the 3-D
/// Secure and pending test cards are paid with one) and settled now. `posted` holds the
/// payments whose notification was posted, delivered or not; a payment still waiting at
/// the run's end owes none yet.
pub(crate) fn owed_notifications(books: &[PaymentBooks], posted: &[&str]) -> Vec<Broken> {
    books
        .iter()
        .filter(|kept| kept.notification_url.is_some() && !kept.waiting)
        .filter(|kept| !posted.contains(&kept.payment_id.as_str()))
        .map(|kept| {
            let said = format!(
                "payment {} settled (approved {}) and its notification was never posted",
                kept.payment_id, kept.approved
            );
            let names = [
                Some(&kept.payment_id),
                kept.merchant_transaction_id.as_ref(),
            ];
            Broken {
                said,
                names: names.into_iter().flatten().cloned().collect(),
            }
        })
        .collect()
}

/// What a payment took: a debit's amount, a pre-authorisation's capture.
fn taken(kept: &PaymentBooks) -> Amount {
    if kept.payment_type == "PA" {
        kept.captured.unwrap_or(Amount::ZERO)
    } else {
        kept.amount
    }
}

fn moves_agree(order: &Order, kept: &PaymentBooks, broken: &mut Vec<Broken>) {
    let moves = &order.moves;
    let said = |what: &str, client: String, books: String| {
        let said = format!(
            "order {}: payment {} {what} {client} to the client, {books} in the books",
            order.name, kept.payment_id
        );
        Broken::of(order, &[&kept.payment_id], said)
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

/// Every broken promise of the notifications, at the shop and behind the relay: a genuine
/// one that could not be verified, one acted on twice, one answered `2xx` and never acted
/// on, one acted on as the books do not say.
pub(crate) fn notifications(
    endpoints: &Endpoints,
    deliveries: &[Delivery],
    key: &SecureKey,
    books: &[PaymentBooks],
) -> Vec<Broken> {
    let mut broken = Vec::new();
    for url in [SHOP_URL, RELAY_URL] {
        let ledger = endpoints.ledger(url);
        let sent: Vec<&Delivery> = deliveries.iter().filter(|sent| sent.url == url).collect();
        broken.extend(kept_once(url, ledger, &sent, key, books));
    }
    broken
}

/// The promises of one endpoint at `url`, which acted as `ledger` says.
fn kept_once(
    url: &str,
    ledger: &Ledger,
    deliveries: &[&Delivery],
    key: &SecureKey,
    books: &[PaymentBooks],
) -> Vec<Broken> {
    let mut broken: Vec<Broken> = ledger
        .rejected()
        .into_iter()
        .map(|why| Broken {
            said: format!("{url} could not verify a genuine notification: {why}"),
            names: Vec::new(),
        })
        .collect();
    let acted = ledger.acted();
    let about = |payment_id: &str, said: String| Broken {
        said,
        names: vec![payment_id.to_owned()],
    };
    for delivery in deliveries.iter().filter(|delivery| delivery.taken) {
        let key = Notification::from_json(delivery.body.as_bytes())
            .and_then(|notification| notification.verify(key))
            .map(|verified| verified.duplicate_key().to_string());
        let Ok(key) = key else { continue };
        if !acted.iter().any(|acted| acted.key == key) {
            let said = format!("notification {key}: {url} answered 2xx and never acted on it");
            broken.push(about(&delivery.payment_id, said));
        }
    }
    for (at, first) in acted.iter().enumerate() {
        let earlier = acted.iter().take(at).any(|other| other.key == first.key);
        let times = acted.iter().filter(|other| other.key == first.key).count();
        if times > 1 && !earlier {
            let said = format!(
                "notification {}: acted on {times} times at {url}",
                first.key
            );
            broken.push(about(&first.payment_id, said));
        }
        let approved = first.status == PaymentStatus::Approved;
        let booked = books
            .iter()
            .find(|kept| kept.payment_id == first.payment_id)
            .map(|kept| kept.approved);
        if booked != Some(approved) {
            let said = format!(
                "notification {}: acted on at {url} as approved {approved}, the books say {booked:?}",
                first.key
            );
            broken.push(about(&first.payment_id, said));
        }
    }
    broken
}
