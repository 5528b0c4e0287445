//! The invoice list's reader (three shapes, position maps with stray keys) and the pager on
//! top of it: no panic, and a page never holds more invoices than keys in its body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_protocol::InvoicePager;
use paytoken_protocol::Operation;
use paytoken_protocol::ops::invoice_list::InvoiceList;

fuzz_target!(|body: &[u8]| {
    if let Ok(page) = InvoiceList::new(1, 10).parse(200, body) {
        assert!(page.invoices.len() <= body.len());
    }
    if let Ok(mut pager) = InvoicePager::new(10) {
        let _ = pager.parse(200, body);
        let _ = pager.parse(200, body);
    }
});
