//! The command's own tools hold their bounds against hostile files, clients and settings:
//! `replay --check` reads a cassette as a stream, a line at a time, up to its bounds.
//! Each test asserts the bound, scaled down where the reproduction is big; the full-size
//! figures are in docs/RELIABILITY.md.

use crate::common::{fresh_folder as folder, mkfifo, paytoken};

/// A cassette of `lines` in a fresh folder named `name`: its path.
fn cassette(name: &str, lines: impl IntoIterator<Item = Vec<u8>>) -> String {
    let path = folder(name).join("cassette.jsonl");
    let mut text = Vec::new();
    for line in lines {
        text.extend_from_slice(&line);
        text.push(b'\n');
    }
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_lists_a_thousand_exchanges_and_counts_the_rest() {
    let path = cassette("listed", (0..1500).map(|_| b"{}".to_vec()));
    let run = paytoken(&["--json", "replay", "--check", &path], &[]).await;
    let printed = run.json();
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        (printed["read"].as_u64(), printed["unread"].as_u64()),
        (Some(0), Some(1500))
    );
    assert_eq!(printed["exchanges"].as_array().unwrap().len(), 1000);
    assert_eq!(printed["notListed"], 500);
    let readable = paytoken(&["replay", "--check", &path], &[]).await;
    assert!(
        readable
            .stdout
            .contains("... and 500 more exchange(s), not listed")
    );
    assert!(
        readable.stdout.lines().count() < 1005,
        "one line an exchange listed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_passes_over_a_line_past_its_bound_and_reads_on() {
    // One byte past the bound of a line (33 MiB), then a line that is read.
    let long = vec![b'x'; 33 * 1024 * 1024 + 1];
    let path = cassette("long-line", [long, b"{}".to_vec()]);
    let run = paytoken(&["--json", "replay", "--check", &path], &[]).await;
    let exchanges = run.json()["exchanges"].as_array().unwrap().clone();
    assert_eq!(exchanges.len(), 2, "{}", run.stdout);
    assert_eq!(exchanges[0]["verdict"], "unreadable_line");
    assert!(
        exchanges[0]["reason"]
            .as_str()
            .unwrap()
            .contains("longer than 33 MiB"),
        "{}",
        exchanges[0]
    );
    assert_eq!(
        exchanges[1]["reason"],
        "not a line of a cassette of this version"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_refuses_a_cassette_path_that_is_no_regular_file() {
    let dir = folder("record-places");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "the victim's text\n").unwrap();
    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let fifo = dir.join("fifo.jsonl");
    mkfifo(&fifo);
    let sub_folder = dir.join("folder.jsonl");
    std::fs::create_dir(&sub_folder).unwrap();
    for (place, kind) in [
        (&link, "a symbolic link"),
        (&fifo, "a FIFO"),
        (&sub_folder, "a folder"),
    ] {
        let run = paytoken(
            &[
                "--json",
                "record",
                "--upstream",
                "http://127.0.0.1:9",
                "--addr",
                "127.0.0.1:0",
                "--cassette",
                place.to_str().unwrap(),
            ],
            &[],
        )
        .await;
        assert_eq!(
            (run.code, run.json()["outcome"].as_str()),
            (2, Some("usage_error")),
            "{kind}: {}",
            run.stdout
        );
        assert!(
            run.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains(kind),
            "{}",
            run.stdout
        );
    }
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's text\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_in_a_base_url_are_never_printed() {
    let url = "https://shop:S3CRET@gw.example/api?sKey=S3CRET#S3CRET";
    let dir = folder("url-credentials");
    let file = dir.join("profiles.toml");
    std::fs::write(
        &file,
        format!("[profiles.shop]\nbase_url = \"{url}\"\nmember_id = \"11344\"\n"),
    )
    .unwrap();
    let file = file.to_str().unwrap().to_owned();
    let env = [
        ("PAYTOKEN_CONFIG_FILE", file.as_str()),
        ("PAYTOKEN_SECURE_KEY", "a-key"),
    ];
    for args in [
        vec!["--profile", "shop", "whoami"],
        vec!["--json", "--profile", "shop", "whoami"],
        vec!["--json", "config", "show", "shop"],
        vec!["config", "show", "shop"],
        vec!["--json", "--profile", "shop", "doctor"],
        vec!["--json", "--base-url", url, "--member-id", "1", "doctor"],
        vec!["--base-url", url, "--member-id", "1", "whoami"],
    ] {
        let run = paytoken(&args, &env).await;
        let printed = format!("{}{}", run.stdout, run.stderr);
        assert!(!printed.contains("S3CRET"), "{args:?}: {printed}");
        assert!(printed.contains("gw.example"), "{args:?}: {printed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_as_key_or_profiles_file_is_refused_at_once() {
    let dir = folder("fifos");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    for (args, env) in [
        (
            vec![
                "--json",
                "--member-id",
                "1",
                "--secure-key-file",
                fifo,
                "whoami",
            ],
            vec![],
        ),
        (
            vec!["--json", "whoami"],
            vec![("PAYTOKEN_CONFIG_FILE", fifo)],
        ),
    ] {
        // A hang here would hold the test until its harness gave up: the answer is at once.
        let run = paytoken(&args, &env).await;
        let printed = format!("{}{}", run.stdout, run.stderr);
        assert!(
            printed.contains("not a regular file"),
            "{args:?}: {printed}"
        );
    }
}

/// A gateway that answers the cards list only to the auth token `expected`, and 20003
/// (an auth token refused) to any other.
async fn gateway_for_token(expected: &'static str) -> String {
    use tokio::io::AsyncWriteExt as _;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let Some(request) = crate::common::read_request(&mut stream).await else {
                continue;
            };
            let token = paytoken_test_support::http::header(&request.head, "AuthToken");
            let body = if token == Some(expected) {
                r#"{"memberId":"11344","result":{"code":"0008","description":"ok"}}"#
            } else {
                r#"{"result":{"code":"20003","description":"Invalid auth token"}}"#
            };
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    format!("http://{address}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_auth_token_comes_from_the_environment_or_a_file_never_a_flag() {
    const TOKEN: &str = "eyJ0.e30.c2ln";
    let url = gateway_for_token(TOKEN).await;
    let base = ["--json", "--base-url", url.as_str(), "--member-id", "11344"];
    let key = ("PAYTOKEN_SECURE_KEY", "a-key");

    let mut args = base.to_vec();
    args.push("cards");
    let run = paytoken(&args, &[key, ("PAYTOKEN_AUTH_TOKEN", TOKEN)]).await;
    assert_eq!(run.code, 0, "from the environment: {}", run.stdout);

    let file = folder("auth-token").join("token");
    std::fs::write(&file, format!("{TOKEN}\n")).unwrap();
    let mut args = base.to_vec();
    args.extend(["--auth-token-file", file.to_str().unwrap(), "cards"]);
    let run = paytoken(&args, &[key]).await;
    assert_eq!(run.code, 0, "from a file: {}", run.stdout);

    // As a flag's value it would show in `ps`: there is no such flag.
    let mut args = base.to_vec();
    args.extend(["--auth-token", TOKEN, "cards"]);
    let run = paytoken(&args, &[key]).await;
    assert_eq!(run.code, 2, "{}", run.stdout);
}
