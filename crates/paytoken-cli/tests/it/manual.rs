//! Completion scripts and man pages: made for every subcommand `paytoken -h` lists,
//! and a JSON Schema for every command's output.

use std::path::Path;

use crate::common::{paytoken, schema_of};

/// The subcommands `paytoken -h` (or `paytoken NAME -h`) lists, `help` aside. (The short
/// help: the long one ends with examples that show test card numbers.)
pub(crate) async fn subcommands(of: &[&str]) -> Vec<String> {
    let mut line = of.to_vec();
    line.push("-h");
    let run = paytoken(&line, &[]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command line's name: `pay`, `config list`, ...
pub(crate) async fn every_command() -> Vec<Vec<String>> {
    let mut all = Vec::new();
    for name in subcommands(&[]).await {
        let nested = subcommands(&[&name]).await;
        if nested.is_empty() {
            all.push(vec![name]);
        } else {
            all.extend(nested.into_iter().map(|sub| vec![name.clone(), sub]));
        }
    }
    assert!(all.len() >= 22, "{all:?}");
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_shell_completes_every_subcommand() {
    let commands = every_command().await;
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = paytoken(&["completions", shell], &[]).await;
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for command in &commands {
            for word in command {
                assert!(run.stdout.contains(word.as_str()), "{shell} misses {word}");
            }
        }
        let json = paytoken(&["--json", "completions", shell], &[]).await;
        assert_eq!(json.json()["script"], run.stdout.as_str());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_man_page_for_every_command_and_the_first_names_them_all() {
    let out = std::env::temp_dir().join(format!("paytoken-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = paytoken(
        &["--json", "man-pages", "--out", out.to_str().unwrap()],
        &[],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let main = std::fs::read_to_string(out.join("paytoken.1")).unwrap();
    for command in every_command().await {
        let page = out.join(format!("paytoken-{}.1", command.join("-")));
        let text = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{page:?}: {e}"));
        assert!(text.starts_with(".ie"), "{page:?} is roff");
        // roff escapes `-` in names as `\-`.
        assert!(
            main.contains(&command[0].replace('-', "\\-")),
            "paytoken.1 misses {command:?}"
        );
    }
    let commands = every_command().await;
    let mut groups: Vec<&String> = commands
        .iter()
        .filter(|command| command.len() > 1)
        .map(|command| &command[0])
        .collect();
    groups.dedup();
    let files = run.json()["files"].as_array().unwrap().len();
    assert_eq!(
        files,
        commands.len() + groups.len() + 1,
        "and paytoken.1, and a page per group of commands"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_has_a_schema_and_every_schema_a_command() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut operations: Vec<String> = every_command()
        .await
        .iter()
        .map(|command| command.join("_").replace('-', "_"))
        .collect();
    // A line that names no command is answered too.
    operations.push("paytoken".to_owned());
    for operation in &operations {
        let _ = schema_of(operation);
    }
    for entry in std::fs::read_dir(&folder).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let stem = file.strip_suffix(".schema.json").unwrap();
        assert!(
            // `cassette` describes the lines `record` writes: a file's format.
            ["common", "cassette"].contains(&stem)
                || operations.iter().any(|operation| operation == stem),
            "schemas/{file} describes no command"
        );
    }
}
