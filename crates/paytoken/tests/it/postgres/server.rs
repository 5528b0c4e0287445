//! A PostgreSQL server of the test's own: Debian's `initdb` and `pg_ctl`, run as the
//! `postgres` user (the server refuses root) in a folder it owns, with its own port and
//! socket folder; stopped and started at the test's word, stopped at once and removed when
//! dropped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use paytoken::postgres::deadpool_postgres::{Manager, Pool, tokio_postgres};

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
        server.resume();
        server
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
        let pg_ctl = self.bin.join("pg_ctl");
        as_postgres(&pg_ctl, &["-D", &self.data(), "-m", "fast", "-w", "stop"]);
    }

    /// A pool of up to four connections, as one instance of a shop keeps.
    pub(super) fn pool(&self) -> Pool {
        let mut config = tokio_postgres::Config::new();
        config
            .host_path(&self.folder)
            .port(self.port)
            .user("postgres")
            .dbname("postgres");
        Pool::builder(Manager::new(config, tokio_postgres::NoTls))
            .max_size(4)
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
