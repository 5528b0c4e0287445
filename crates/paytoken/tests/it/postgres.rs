//! `PostgresDuplicates` against a real PostgreSQL server, which the test starts in a
//! folder of its own: Debian's `initdb` and `pg_ctl`, run as the `postgres` user (the
//! server refuses root) with their own port and socket folder, the server stopped when the
//! test ends. Ignored by default (it needs Debian's `postgresql`); `cargo xtask ci`
//! installs it and runs it:
//!
//! ```text
//! cargo test -p paytoken --test it -- --ignored postgres::
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use paytoken::DuplicateStore as _;
use paytoken::notification::{Claim, DuplicateKey};
use paytoken::postgres::PostgresDuplicates;
use tokio::task::JoinSet;

/// A PostgreSQL server of the test's own, stopped (immediately) and removed when dropped.
struct Server {
    folder: PathBuf,
    bin: PathBuf,
    port: u16,
}

/// Where Debian keeps the server's programs: the newest `/usr/lib/postgresql/*/bin`.
fn server_programs() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("/usr/lib/postgresql: install Debian's postgresql (cargo xtask ci does)")
        .filter_map(Result::ok)
        .map(|entry| entry.path().join("bin"))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().expect("no initdb under /usr/lib/postgresql")
}

/// `program args` as the `postgres` user; panics with its output when it fails.
fn as_postgres(program: &Path, args: &[&str]) {
    let output = Command::new("runuser")
        .args(["-u", "postgres", "--"])
        .arg(program)
        .args(args)
        .output()
        .expect("runuser");
    assert!(
        output.status.success(),
        "{} {args:?}: {}{}",
        program.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

impl Server {
    /// A new cluster in a new folder, started on a free port.
    fn start() -> Self {
        let folder = std::env::temp_dir().join(format!("paytoken-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        let status = Command::new("chown")
            .args(["postgres:postgres"])
            .arg(&folder)
            .status()
            .unwrap();
        assert!(status.success(), "chown the server's folder");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let server = Self {
            folder,
            bin: server_programs(),
            port,
        };
        let data = server.data();
        as_postgres(
            &server.bin.join("initdb"),
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
            ],
        );
        server.pg_ctl_start();
        server
    }

    fn data(&self) -> String {
        self.folder.join("data").display().to_string()
    }

    fn pg_ctl_start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses='' -c fsync=off",
            self.port,
            self.folder.display()
        );
        let log = self.folder.join("server.log").display().to_string();
        as_postgres(
            &self.bin.join("pg_ctl"),
            &[
                "-D",
                &self.data(),
                "-o",
                &options,
                "-l",
                &log,
                "-w",
                "start",
            ],
        );
    }

    /// A connection of its own, driven on a task.
    async fn connect(&self) -> tokio_postgres::Client {
        let (client, connection) = tokio_postgres::Config::new()
            .host_path(&self.folder)
            .port(self.port)
            .user("postgres")
            .dbname("postgres")
            .connect(tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        client
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join("pg_ctl"))
            .args(["-D", &self.data(), "-m", "immediate", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

fn key(number: usize) -> DuplicateKey {
    DuplicateKey {
        payment_id: format!("{}", 60_000 + number).parse().unwrap(),
        transaction_status: "Y".to_owned(),
    }
}

/// Four instances, each on its own connection, receive the same 200 notifications ten
/// times each, at once; each acts in a transaction that writes its row of `acted` and the
/// done mark together, and only while its fence holds. Every notification has one row.
/// A lease that the database's clock sees lapse is taken over, and its late holder's
/// transaction is rolled back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's postgresql; cargo xtask ci installs it and runs it"]
async fn a_fleet_acts_on_each_notification_once() {
    const NOTIFICATIONS: usize = 200;
    const DELIVERIES: usize = 10;
    let server = Server::start();
    let setup = PostgresDuplicates::new(server.connect().await);
    setup.create_table().await.unwrap();
    setup
        .client()
        .batch_execute("CREATE TABLE acted (key text NOT NULL)")
        .await
        .unwrap();
    let lease = Duration::from_secs(30);
    let mut instances = Vec::new();
    for _ in 0..4 {
        let store = PostgresDuplicates::new(server.connect().await);
        instances.push(Arc::new(tokio::sync::Mutex::new(store)));
    }
    let mut deliveries = JoinSet::new();
    for round in 0..DELIVERIES {
        for number in 0..NOTIFICATIONS {
            // Out of order, and to whichever instance the balancer picks.
            let number = (number * 7 + round * 13) % NOTIFICATIONS;
            let instance = Arc::clone(&instances[(number + round) % instances.len()]);
            deliveries.spawn(async move {
                let key = key(number);
                loop {
                    let mut store = instance.lock().await;
                    match store.claim(&key, lease).await.unwrap() {
                        Claim::Claimed(fence) => {
                            let transaction = store.client_mut().transaction().await.unwrap();
                            transaction
                                .execute("INSERT INTO acted VALUES ($1)", &[&key.to_string()])
                                .await
                                .unwrap();
                            if PostgresDuplicates::done_in(&transaction, &key, fence)
                                .await
                                .unwrap()
                            {
                                transaction.commit().await.unwrap();
                            }
                            return;
                        }
                        Claim::Done => return,
                        // The gateway comes back: another instance is acting on it.
                        _ => {
                            drop(store);
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                    }
                }
            });
        }
    }
    while let Some(delivered) = deliveries.join_next().await {
        delivered.unwrap();
    }
    let counts = setup
        .client()
        .query("SELECT key, count(*) FROM acted GROUP BY key", &[])
        .await
        .unwrap();
    assert_eq!(counts.len(), NOTIFICATIONS, "every notification acted on");
    for row in counts {
        let (key, times): (String, i64) = (row.get(0), row.get(1));
        assert_eq!(times, 1, "{key} acted on {times} times");
    }

    // A lease the database sees lapse (none at all here) is taken over with a new fence;
    // the late holder's transaction marks nothing and is rolled back.
    let late_key = key(NOTIFICATIONS + 1);
    let mut late = instances[0].lock().await;
    let Claim::Claimed(late_fence) = late.claim(&late_key, Duration::ZERO).await.unwrap() else {
        panic!("a new key")
    };
    let other = instances[1].lock().await;
    let Claim::Claimed(fence) = other.claim(&late_key, lease).await.unwrap() else {
        panic!("the lapsed claim is taken over")
    };
    assert_ne!(fence, late_fence);
    let transaction = late.client_mut().transaction().await.unwrap();
    assert!(
        !PostgresDuplicates::done_in(&transaction, &late_key, late_fence)
            .await
            .unwrap()
    );
    drop(transaction);
    assert!(other.done(&late_key, fence).await.unwrap());
    assert_eq!(other.claim(&late_key, lease).await.unwrap(), Claim::Done);
}
