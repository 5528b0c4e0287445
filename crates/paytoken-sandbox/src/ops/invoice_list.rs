//! `getInvoice`: one page of the invoices the caller may see, oldest first.
//!
//! The interface's own invoice request carries no checksum, and the platform's validator
//! for it checks none (it checks the auth token, the member and non-zero page values): so
//! the sandbox takes the request with no checksum, or a wrong one, and with `--explain`
//! says so beside the answer. A client may send `memberId|secureKey` (paytoken does).

use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::Gateway;
use crate::invoices;
use crate::json;
use crate::problem::{Problem, Problems};
use crate::state::State;

/// The most records a page may hold, as the protocol crate allows.
const MAX_RECORDS: u32 = 1000;

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    let form = call.form;
    let unchecked = gateway.unchecked_checksum(&caller, form, "invoice_list", &[]);
    let mut problems = Problems::default();
    let page: Option<u32> = form.parsed_required("pagination.pageno", &mut problems);
    let records: Option<u32> = form.parsed_required("pagination.records", &mut problems);
    if page == Some(0) {
        problems.push(Problem::invalid("pagination.pageno"));
    }
    if records.is_some_and(|records| records == 0 || records > MAX_RECORDS) {
        problems.push(Problem::invalid("pagination.records"));
    }
    let (page, records) = problems.or_values(page.zip(records))?;
    let skip = usize::try_from(u64::from(page - 1) * u64::from(records)).unwrap_or(usize::MAX);
    let take = usize::try_from(records).unwrap_or(usize::MAX);
    let invoices: Vec<_> = state
        .invoices()
        .iter()
        .filter(|invoice| caller.principal.can_see(invoice.owner))
        .skip(skip)
        .take(take)
        .collect();
    let page = Answer::json(json::object(|answer| {
        answer.field(caller.id_key, caller.id);
        if invoices.is_empty() {
            answer.result(
                "statusInvoiceResult",
                codes::NO_INVOICES.code,
                codes::NO_INVOICES.description,
            );
        } else {
            invoices::write_page(answer, gateway.invoice_shape, &invoices);
        }
    }));
    Ok(Answer {
        explanation: unchecked,
        ..page
    })
}
