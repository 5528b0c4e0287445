//! A PostgreSQL server of the test's own: Debian's `initdb` and `pg_ctl`, run as the
//! `postgres` user (the server refuses root) in a folder it owns, with its own port and
//! socket folder; stopped, crashed and started at the test's word, or made a streaming
//! standby of another and promoted; stopped at once and removed when dropped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use paytoken::postgres::deadpool_postgres::{Manager, Pool, Runtime, tokio_postgres};

/// A server in a folder of its own.
pub(super) struct Server {
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
    pub(super) fn start() -> Self {
        let server = Self::new_folder();
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
        server.resume();
        server
    }

    /// A streaming standby of `primary`, from its base backup, started.
    pub(super) fn standby_of(primary: &Self) -> Self {
        let standby = Self::new_folder();
        let (folder, port) = (
            primary.folder.display().to_string(),
            primary.port.to_string(),
        );
        as_postgres(
            &standby.bin.join("pg_basebackup"),
            &[
                "-D",
                &standby.data(),
                "-h",
                &folder,
                "-p",
                &port,
                "-U",
                "postgres",
                "-X",
                "stream",
                "-R",
                "--no-sync",
            ],
        );
        standby.resume();
        standby
    }

    /// A folder of the server's own, owned by `postgres`, and a free port.
    fn new_folder() -> Self {
        static SERVERS: AtomicUsize = AtomicUsize::new(0);
        let number = SERVERS.fetch_add(1, Ordering::Relaxed);
        let name = format!("paytoken-pg-{}-{number}", std::process::id());
        let folder = std::env::temp_dir().join(name);
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
        Self {
            folder,
            bin: server_programs(),
            port,
        }
    }

    fn data(&self) -> String {
        self.folder.join("data").display().to_string()
    }

    /// Starts the stopped server again, on the same port and socket folder; returns once it
    /// accepts connections.
    pub(super) fn resume(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses='' -c fsync=off",
            self.port,
            self.folder.display()
        );
        let log = self.folder.join("server.log").display().to_string();
        let pg_ctl = self.bin.join("pg_ctl");
        as_postgres(
            &pg_ctl,
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

    /// Stops the server the way an operator's restart does (`fast`: open transactions
    /// rolled back, connections cut); returns once it is down.
    pub(super) fn stop(&self) {
        self.pg_ctl(&["-m", "fast", "-w", "stop"]);
    }

    /// Stops the server as a crash does (`immediate`: no shutdown checkpoint; the next
    /// start recovers from the write-ahead log); returns once it is down.
    pub(super) fn crash(&self) {
        self.pg_ctl(&["-m", "immediate", "-w", "stop"]);
    }

    /// Promotes the standby to a primary on a timeline of its own; returns once it takes
    /// writes.
    pub(super) fn promote(&self) {
        self.pg_ctl(&["-w", "promote"]);
    }

    fn pg_ctl(&self, args: &[&str]) {
        let data = self.data();
        let mut all = vec!["-D", &data];
        all.extend_from_slice(args);
        as_postgres(&self.bin.join("pg_ctl"), &all);
    }

    /// A pool of up to four connections, as one instance of a shop keeps, as `postgres`.
    pub(super) fn pool(&self) -> Pool {
        self.pool_as("postgres", 4)
    }

    /// A pool of up to `size` connections as `user`, every wait bounded as the store's
    /// documentation shows.
    pub(super) fn pool_as(&self, user: &str, size: usize) -> Pool {
        let mut config = tokio_postgres::Config::new();
        config
            .host_path(&self.folder)
            .port(self.port)
            .user(user)
            .dbname("postgres")
            .connect_timeout(Duration::from_secs(2));
        Pool::builder(Manager::new(config, tokio_postgres::NoTls))
            .max_size(size)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(2)))
            .create_timeout(Some(Duration::from_secs(2)))
            .recycle_timeout(Some(Duration::from_secs(2)))
            .build()
            .unwrap()
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
