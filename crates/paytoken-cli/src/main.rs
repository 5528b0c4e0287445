//! The `paytoken` command. Everything lives in the library half of this crate
//! (`src/lib.rs`), so that the workspace's tests can run the demo's life-cycle script.

fn main() -> std::process::ExitCode {
    paytoken_cli::main()
}
