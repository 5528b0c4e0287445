//! Profiles: a payment with `--profile`, with a flag and a variable over it (checked on the
//! wire), `whoami`'s sources, the refusals that never echo a key, and the sandbox's
//! `--write-profile` as the one step from the demo to one's own commands.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::common::{
    Run, card_flags, fresh_folder as folder, paytoken, read_request, sandbox_process,
};
use paytoken_sandbox::cards;

/// A key no output may show.
const KEY: &str = "pr0file-k3y-never-printed";

fn write(path: &Path, text: &str, mode: u32) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A gateway that answers every payment approved and keeps each request's form.
async fn recording_gateway() -> (String, Arc<Mutex<Vec<String>>>) {
    use tokio::io::AsyncWriteExt as _;
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&bodies);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let Some(request) = read_request(&mut stream).await else {
                continue;
            };
            kept.lock()
                .unwrap()
                .push(String::from_utf8(request.body).unwrap());
            let body = r#"{"paymentId":"54279","merchantTransactionId":"order-p1","amount":"50.00","currency":"EUR","result":{"code":"00001","description":"Transaction succeeded"},"transactionStatus":"Y"}"#;
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    (format!("http://{address}"), bodies)
}

/// `pay` with `extra` flags before it, in the environment `env`.
async fn pay(extra: &[&str], env: &[(&str, &str)]) -> Run {
    let mut line = extra.to_vec();
    line.extend([
        "pay",
        "--amount",
        "50.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "order-p1",
    ]);
    line.extend(card_flags(cards::APPROVED));
    let run = paytoken(&line, env).await;
    assert!(!format!("{}{}", run.stdout, run.stderr).contains(KEY));
    run
}

fn member_sent(bodies: &Mutex<Vec<String>>) -> String {
    let last = bodies.lock().unwrap().pop().expect("a request was sent");
    last.split('&')
        .find_map(|pair| pair.strip_prefix("authentication.memberId="))
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_is_used_and_flags_and_variables_beat_it_on_the_wire() {
    let (base_url, bodies) = recording_gateway().await;
    let dir = folder("wire");
    let config = dir.join("config.toml");
    write(
        &config,
        &format!(
            "[profiles.shop]\nbase_url = \"{base_url}\"\nmember_id = 11344\npartner_id = \"100\"\nsecure_key_file = \"shop.key\"\n"
        ),
        0o600,
    );
    write(&dir.join("shop.key"), &format!("{KEY}\n"), 0o600);
    let file = config.to_str().unwrap();
    let env = [("PAYTOKEN_CONFIG_FILE", file)];

    let run = pay(&["--json", "--profile", "shop"], &env).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["outcome"], "approved");
    assert_eq!(member_sent(&bodies), "11344");

    let run = pay(&["--profile", "shop", "--member-id", "22222"], &env).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(member_sent(&bodies), "22222");

    let with_variable = [
        env[0],
        ("PAYTOKEN_MEMBER_ID", "33333"),
        ("PAYTOKEN_PROFILE", "shop"),
    ];
    let run = pay(&[], &with_variable).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(member_sent(&bodies), "33333");
    let run = pay(&["--member-id", "44444"], &with_variable).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(member_sent(&bodies), "44444");

    let run = paytoken(
        &["--json", "--member-id", "5", "whoami"],
        &[
            with_variable[0],
            ("PAYTOKEN_PARTNER_ID", "7"),
            with_variable[2],
        ],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let who = run.json();
    assert_eq!(who["operation"], "whoami");
    assert_eq!(who["profile"]["name"], "shop");
    assert_eq!(who["profile"]["source"], "environment PAYTOKEN_PROFILE");
    assert_eq!(
        who["configFile"]["source"],
        "environment PAYTOKEN_CONFIG_FILE"
    );
    let settings = &who["settings"];
    assert_eq!(settings["memberId"]["source"], "flag --member-id");
    assert_eq!(settings["memberId"]["value"], "5");
    assert_eq!(
        settings["partnerId"]["source"],
        "environment PAYTOKEN_PARTNER_ID"
    );
    assert_eq!(settings["baseUrl"]["source"], "profile shop");
    assert_eq!(settings["username"]["source"], "default");
    assert_eq!(who["secureKey"]["source"], "profile shop");
    assert_eq!(who["secureKey"]["usable"], true);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_key_a_broken_line_and_open_permissions_are_refused_without_the_key() {
    let (base_url, bodies) = recording_gateway().await;
    let dir = folder("refusals");
    let config = dir.join("config.toml");
    let file = config.to_str().unwrap();
    let env = [("PAYTOKEN_CONFIG_FILE", file)];
    let head = format!("[profiles.shop]\nbase_url = \"{base_url}\"\nmember_id = 11344\n");
    for (text, expected) in [
        (
            format!("{head}secure_key = \"{KEY}\"\n"),
            "holds `secure_key` itself",
        ),
        (format!("{head}secure_key = {KEY}\n"), "line 4, column 14"),
        (format!("{head}{KEY} = \"x\"\n"), "unknown key"),
    ] {
        write(&config, &text, 0o600);
        let run = pay(&["--profile", "shop"], &env).await;
        assert_eq!(run.code, 2, "{text}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        assert!(run.stderr.contains(expected), "{text}: {}", run.stderr);
    }

    write(
        &config,
        &format!("{head}secure_key_file = \"shop.key\"\n"),
        0o600,
    );
    write(&dir.join("shop.key"), KEY, 0o644);
    let run = pay(&["--profile", "shop"], &env).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("chmod 600"), "{}", run.stderr);

    std::fs::set_permissions(dir.join("shop.key"), std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o666)).unwrap();
    let run = pay(&["--profile", "shop"], &env).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("chmod go-w"), "{}", run.stderr);

    let run = pay(&["--profile", "nowhere"], &[]).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no profiles file"), "{}", run.stderr);

    assert!(bodies.lock().unwrap().is_empty(), "nothing is sent");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_writes_a_profile_that_the_next_command_uses() {
    let dir = folder("sandbox");
    let config = dir.join("paytoken").join("config.toml");
    let (mut sandbox, _announcement) = sandbox_process(&[
        "--addr",
        "127.0.0.1:0",
        "--write-profile",
        "local",
        "--config-file",
        config.to_str().unwrap(),
    ])
    .await;
    let key_file = dir.join("paytoken").join("local.key");
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&key_file), 0o600);
    assert_eq!(mode(&config), 0o600);

    let env = [("XDG_CONFIG_HOME", dir.to_str().unwrap())];
    let run = pay(&["--json", "--profile", "local"], &env).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["outcome"], "approved");

    let run = paytoken(&["--json", "config", "list"], &env).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let listed = run.json();
    assert_eq!(listed["profiles"][0]["name"], "local");
    assert_eq!(
        listed["profiles"][0]["secureKey"]["file"],
        key_file.to_str().unwrap()
    );
    let run = paytoken(&["config", "show", "local"], &env).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("memberId: 11344"), "{}", run.stdout);

    sandbox.kill().unwrap();
    sandbox.wait().unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
