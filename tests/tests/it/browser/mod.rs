//! A real browser on the sandbox's pages: headless chromium, driven through chromium-driver
//! (WebDriver). On the 3-D Secure page, from the shop's checkout back to the shop; on the
//! dashboard, what a merchant testing a checkout looks at. Ignored by default (they need
//! Debian's `chromium` and `chromium-driver`); `cargo xtask ci` installs them and runs them:
//!
//! ```text
//! cargo test -p tests --test it -- --ignored browser::
//! ```

use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use tokio::net::TcpListener;

mod dashboard;
mod three_d_secure;

/// chromium-driver in a process group of its own, the whole group killed when dropped:
/// the chromium it started goes too, even when a failed test never closed its session.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromium-driver on a free port and waits until it answers.
async fn driver() -> (Driver, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver: install Debian's chromium-driver (cargo xtask ci does)");
    let driver = Driver(child);
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return (driver, format!("http://127.0.0.1:{port}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not start");
}

/// A headless chromium session with a window of a fixed size (the screenshots' size),
/// and the driver it runs under: keep both until the test ends.
async fn headless_chromium() -> (Driver, Client) {
    let (driver, driver_url) = driver().await;
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--window-size=1280,1200",
                // The machine's network is closed: no background fetches to refuse.
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        }),
    );
    let browser = ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver_url)
        .await
        .unwrap();
    (driver, browser)
}
