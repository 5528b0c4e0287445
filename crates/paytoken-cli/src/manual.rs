//! `paytoken completions SHELL` and `paytoken man-pages`: a shell's completion script and
//! a man page per command, both made from the command line's own definition
//! ([`cli::command`]), so that neither can drift from it.

use std::path::Path;

use serde_json::json;

use crate::cli;
use crate::report::{Exit, Failure, Outcome, Report};
use crate::vectors::{place, write};

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
pub(crate) fn man_pages(out: &Path) -> Report {
    let mut pages = Vec::new();
    if let Err(error) = render(cli::command(), &mut pages) {
        return Report::from(Failure::failed(format!(
            "cannot render a man page: {error}"
        )));
    }
    // Every place checked before any page is written: a refusal leaves the folder as it was.
    for (name, _) in &pages {
        if let Err(failure) = place(out, name, false) {
            return Report::from(failure);
        }
    }
    let mut written = Vec::with_capacity(pages.len());
    for (name, text) in &pages {
        if let Err(failure) = write(out, name, text) {
            return Report::from(failure);
        }
        written.push(out.join(name).display().to_string());
    }
    let folder = out.display().to_string();
    Report {
        exit: Exit::Success,
        human: format!(
            "man_pages: {} pages in {folder} (read one with `man -l {}`)\n",
            written.len(),
            out.join("paytoken.1").display()
        ),
        json: json!({ "outcome": Outcome::Ok.name(), "folder": folder, "files": written }),
        error_line: None,
    }
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
