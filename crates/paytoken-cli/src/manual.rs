//! `paytoken completions SHELL` and `paytoken man-pages`: a shell's completion script and
//! a man page per command, both made from the command line's own definition
//! ([`cli::command`]), so that neither can drift from it.

use std::path::Path;

use serde_json::json;

use crate::cli;
use crate::report::{Exit, Failure, Outcome, Report};
use crate::vectors::write_all;

/// The completion script of `shell`: printed as it is, or as `script` in the JSON.
pub(crate) fn completions(shell: clap_complete::Shell) -> Report {
    let mut command = cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "paytoken", &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    Report {
        exit: Exit::Success,
        json: json!({ "outcome": Outcome::Ok.name(), "shell": shell.to_string(), "script": script }),
        human: script,
        error_line: None,
    }
}

/// Writes `paytoken.1` and a page per subcommand (`paytoken-pay.1`,
/// `paytoken-config-show.1`) under `out`.
pub(crate) fn man_pages(out: &Path) -> Result<Report, Failure> {
    let mut pages = Vec::new();
    render(cli::command(), &mut pages)
        .map_err(|error| Failure::failed(format!("cannot render a man page: {error}")))?;
    let written = write_all(out, &pages)?;
    let folder = out.display().to_string();
    Ok(Report {
        exit: Exit::Success,
        human: format!(
            "man_pages: {} pages in {folder} (read one with `man -l {}`)\n",
            written.len(),
            out.join("paytoken.1").display()
        ),
        json: json!({ "outcome": Outcome::Ok.name(), "folder": folder, "files": written }),
        error_line: None,
    })
}

/// The page of `command` and of each of its visible subcommands, as (file name, roff).
fn render(command: clap::Command, pages: &mut Vec<(String, String)>) -> std::io::Result<()> {
    for sub in command.get_subcommands() {
        if !sub.is_hide_set() && sub.get_name() != "help" {
            render(sub.clone(), pages)?;
        }
    }
    let man = clap_mangen::Man::new(command);
    let mut roff = Vec::new();
    man.render(&mut roff)?;
    pages.push((
        man.get_filename(),
        String::from_utf8_lossy(&roff).into_owned(),
    ));
    Ok(())
}
