//! `paytoken invoices --all`: the list printed as it arrives, one page in memory at a time,
//! ended by the gateway's last page or by `--max-pages`.
//!
//! With `--json` the output is JSON Lines: one invoice object a line, then one last object,
//! the summary or the error: the one exception to "exactly one JSON object". When stderr is
//! a terminal, a progress line there says how far it got; stdout never sees it.

use std::io::IsTerminal as _;

use paytoken::{Client, InvoicePager, OperationKind};
use serde_json::json;

use crate::cli::InvoicesArgs;
use crate::render;
use crate::report::{Exit, Failure, Outcome, Report};

/// The operation every line names.
const OPERATION: &str = OperationKind::InvoiceList.name();
use crate::terminal::{self, Unwritten};

/// Pages through the whole list, printing each page as it arrives.
pub(crate) async fn all_invoices(client: &Client, args: &InvoicesArgs, json: bool) -> Report {
    let mut pager = match InvoicePager::new(args.records) {
        Ok(pager) => pager,
        Err(error) => return Report::from(Failure::usage(error.to_string())),
    };
    let progress = std::io::stderr().is_terminal();
    let (mut pages, mut invoices) = (0u32, 0usize);
    while !pager.is_done() {
        if pages >= args.max_pages {
            clear_progress(progress);
            return Report::from(Failure::failed(format!(
                "the invoice list did not end after {pages} pages ({invoices} invoices): stopped at --max-pages"
            )));
        }
        let page = match client.next_invoice_page(&mut pager).await {
            Ok(page) => page,
            Err(error) => {
                clear_progress(progress);
                return Report::from(Failure::from_error(OperationKind::InvoiceList, &error));
            }
        };
        pages += 1;
        invoices += page.invoices.len();
        // The reader went away (`| head`): ask for no more pages, say nothing more. Or the
        // output is cut (a full disk): no summary that would say it is whole.
        if let Err(unwritten) = print_page(&page.invoices, json) {
            clear_progress(progress);
            return unwritten.into();
        }
        if progress {
            terminal::progress(&format!("{pages} pages, {invoices} invoices"));
        }
    }
    clear_progress(progress);
    let summary = json!({
        "operation": OPERATION,
        "outcome": Outcome::Ok.name(),
        "line": "summary",
        "count": invoices,
        "pages": pages,
    });
    Report {
        exit: Exit::Success,
        json: summary,
        human: format!("{OPERATION}: {invoices} invoices in {pages} pages\n"),
        error_line: None,
    }
}

/// One page: an invoice object a line with `--json`, fields otherwise.
fn print_page(invoices: &[paytoken::Invoice], json: bool) -> Result<(), Unwritten> {
    let mut text = String::new();
    for invoice in invoices {
        let mut value = render::invoice(invoice);
        if json {
            if let Some(object) = value.as_object_mut() {
                object.insert("operation".into(), OPERATION.into());
                object.insert("outcome".into(), Outcome::Ok.name().into());
                object.insert("line".into(), "invoice".into());
            }
            text.push_str(&terminal::json(&value));
            text.push('\n');
        } else {
            text.push_str("invoice\n");
            crate::report::write_fields(&mut text, &value, "  ");
        }
    }
    terminal::out(&text)
}

fn clear_progress(shown: bool) {
    if shown {
        terminal::progress("");
    }
}
