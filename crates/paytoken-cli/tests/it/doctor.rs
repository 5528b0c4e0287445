//! `paytoken doctor` against sandboxes over real sockets, TLS included (a certificate
//! authority made at test time): every check passes and no money moves; a wrong key, a
//! plain http URL beyond loopback, a gateway clock an hour ahead and an expired
//! certificate each fail their check, with advice.

use std::time::Duration;

use paytoken_sandbox::{Sandbox, TlsIdentity};
use serde_json::Value;

use crate::common::{Run, as_merchant, merchant_of, paytoken, with_flags};

/// The check named `name` of a `doctor --json` run.
fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|check| check["name"] == name)
        .unwrap_or_else(|| panic!("no check {name}: {report}"))
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|check| {
            (
                check["name"].as_str().unwrap().to_owned(),
                check["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Asserts the run failed `name` with advice, exit 1.
fn assert_failed(run: &Run, name: &str, detail: &str) {
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["outcome"], "checks_failed");
    let failed = check(&report, name);
    assert_eq!(failed["verdict"], "fail", "{report}");
    assert!(
        failed["detail"].as_str().unwrap().contains(detail),
        "{name}: {failed}"
    );
    assert!(
        failed["advice"]
            .as_str()
            .is_some_and(|advice| !advice.is_empty())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_passes_every_check_against_the_sandbox_and_moves_no_money() {
    let sandbox = Sandbox::start().await.unwrap();
    let run = as_merchant(&sandbox, &["doctor"]).await;
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["outcome"], "ok");
    let expected: Vec<(String, String)> = [
        ("settings", "pass"),
        ("base_url", "pass"),
        ("reachable", "pass"),
        ("tls", "skipped"),
        ("auth_token", "pass"),
        ("clock", "pass"),
        ("signed_read", "pass"),
        ("inquiry", "pass"),
        ("invoices", "pass"),
        ("answer_shapes", "pass"),
    ]
    .iter()
    .map(|(name, verdict)| ((*name).to_owned(), (*verdict).to_owned()))
    .collect();
    assert_eq!(verdicts(&report), expected, "{report}");
    assert!(sandbox.books().is_empty(), "doctor moved no money");
    assert_eq!(
        report["answerShapes"],
        serde_json::json!([]),
        "the sandbox answers as the samples do"
    );
    assert_eq!(
        report["settings"]["settings"]["memberId"]["source"],
        "flag --member-id"
    );

    // Readable: a line per check.
    let (mut flags, env) = merchant_of(&sandbox);
    flags.push("doctor".to_owned());
    let readable = with_flags(&flags, &env[0].1, &[]).await;
    assert_eq!(readable.code, 0, "{}", readable.stderr);
    assert!(
        readable.stdout.starts_with("doctor: every check passed"),
        "{}",
        readable.stdout
    );
    assert!(
        readable.stdout.contains("signed_read"),
        "{}",
        readable.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_names_the_answer_shapes_a_deployment_sends() {
    let sandbox = Sandbox::builder().vary_answers(11).start().await.unwrap();
    let run = as_merchant(&sandbox, &["doctor"]).await;
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    let shapes = report["answerShapes"].as_array().unwrap();
    assert!(!shapes.is_empty(), "{report}");
    assert!(
        check(&report, "answer_shapes")["detail"]
            .as_str()
            .unwrap()
            .contains("all read")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_key_fails_the_token_and_the_signed_read() {
    let sandbox = Sandbox::start().await.unwrap();
    let (mut flags, _) = merchant_of(&sandbox);
    flags.extend(["--json".to_owned(), "doctor".to_owned()]);
    let run = with_flags(&flags, "not-the-secure-key", &[]).await;
    assert_failed(&run, "auth_token", "refused");
    assert_failed(&run, "signed_read", "refused");
    assert!(run.stderr.contains("doctor: "), "{}", run.stderr);
    assert!(!format!("{}{}", run.stdout, run.stderr).contains("not-the-secure-key"));
    assert!(sandbox.books().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_http_beyond_loopback_is_refused_before_any_connection() {
    let run = paytoken(
        &[
            "--base-url",
            "http://192.0.2.10:8080",
            "--member-id",
            "11344",
            "--json",
            "doctor",
        ],
        &[("PAYTOKEN_SECURE_KEY", "a-key")],
    )
    .await;
    assert_failed(&run, "base_url", "plain http");
    let report = run.json();
    for (name, verdict) in verdicts(&report).into_iter().skip(2) {
        assert_eq!(verdict, "skipped", "{name}: nothing is sent");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_clock_an_hour_ahead_fails_the_clock_check() {
    let sandbox = Sandbox::start().await.unwrap();
    sandbox.advance_clock(Duration::from_secs(3600)).unwrap();
    let run = as_merchant(&sandbox, &["doctor"]).await;
    assert_failed(&run, "clock", "1 h 0 min ahead of");
    // Only the clock: the rest of the deployment is well.
    let failed: Vec<_> = verdicts(&run.json())
        .into_iter()
        .filter(|(_, verdict)| verdict == "fail")
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
}

/// A certificate authority made now, and the sandbox's identity signed by it, valid or
/// expired; the authority's certificate as PEM.
fn authority(expired: bool) -> (String, TlsIdentity) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
    static AUTHORITIES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    // A name of its own: another authority is another issuer, not a forged signature.
    let number = AUTHORITIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    ca_params.distinguished_name.push(
        DnType::CommonName,
        format!("paytoken test authority {number}"),
    );
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let server_key = KeyPair::generate().unwrap();
    let mut server = CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap();
    if expired {
        server.not_before = rcgen::date_time_ymd(2020, 1, 1);
        server.not_after = rcgen::date_time_ymd(2021, 1, 1);
    }
    let server = server.signed_by(&server_key, &ca).unwrap();
    let identity = TlsIdentity {
        certificate_chain: vec![server.der().to_vec()],
        private_key: server_key.serialize_der(),
    };
    (pem(ca.der()), identity)
}

/// DER as a PEM certificate (RFC 7468): base64 in lines of 64.
fn pem(der: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut encoded = String::new();
    for chunk in der.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let group = (b(0) << 16) | (b(1) << 8) | b(2);
        for (n, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            encoded.push(if n <= chunk.len() {
                char::from(ALPHABET[usize::try_from((group >> shift) & 63).unwrap()])
            } else {
                '='
            });
        }
    }
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(64)
        .map(|line| std::str::from_utf8(line).unwrap())
        .collect();
    format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        lines.join("\n")
    )
}

/// `doctor --json` against `sandbox` over TLS, trusting the authority `ca_pem`.
async fn doctor_over_tls(sandbox: &Sandbox, ca_pem: &str, name: &str) -> Run {
    let folder =
        std::env::temp_dir().join(format!("paytoken-doctor-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let ca_file = folder.join("ca.pem");
    std::fs::write(&ca_file, ca_pem).unwrap();
    let (mut flags, env) = merchant_of(sandbox);
    flags.extend([
        "--root-certificate".to_owned(),
        ca_file.display().to_string(),
        "--json".to_owned(),
        "doctor".to_owned(),
    ]);
    with_flags(&flags, &env[0].1, &[]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_with_a_private_authority_every_check_passes() {
    let (ca_pem, identity) = authority(false);
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    assert!(sandbox.base_url().starts_with("https://"));
    let run = doctor_over_tls(&sandbox, &ca_pem, "valid").await;
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    let tls = check(&report, "tls");
    assert_eq!(tls["verdict"], "pass", "{report}");
    assert!(tls["detail"].as_str().unwrap().contains("TLSv1_3"), "{tls}");

    // The other commands trust the authority too.
    let (mut flags, env) = merchant_of(&sandbox);
    let ca_file = std::env::temp_dir()
        .join(format!("paytoken-doctor-{}-valid", std::process::id()))
        .join("ca.pem");
    flags.extend([
        "--root-certificate".to_owned(),
        ca_file.display().to_string(),
        "--json".to_owned(),
        "cards-and-accounts".to_owned(),
    ]);
    let cards = with_flags(&flags, &env[0].1, &[]).await;
    assert_eq!(cards.code, 0, "{}{}", cards.stdout, cards.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_certificate_fails_the_tls_check() {
    let (ca_pem, identity) = authority(true);
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    let run = doctor_over_tls(&sandbox, &ca_pem, "expired").await;
    assert_failed(&run, "tls", "expired");
    let report = run.json();
    assert_eq!(check(&report, "reachable")["verdict"], "pass");
    assert_eq!(check(&report, "signed_read")["verdict"], "skipped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_authority_is_named_with_the_flag_that_trusts_it() {
    let (_, identity) = authority(false);
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    let (other_ca, _) = authority(false);
    let run = doctor_over_tls(&sandbox, &other_ca, "unknown").await;
    assert_failed(&run, "tls", "does not trust");
    let advice = check(&run.json(), "tls")["advice"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(advice.contains("--root-certificate"), "{advice}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bounds_no_call_could_meet_are_usage_errors() {
    for bound in [["--timeout", "0"], ["--max-answer-bytes", "0"]] {
        let mut line = vec!["--base-url", "http://127.0.0.1:9", "--member-id", "11344"];
        line.extend(bound);
        line.extend(["--json", "doctor"]);
        let run = paytoken(&line, &[("PAYTOKEN_SECURE_KEY", "a-key")]).await;
        assert_eq!(run.code, 2, "{bound:?}: {}", run.stdout);
        assert_eq!(run.json()["outcome"], "usage_error");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_read_is_no_pass_of_the_answer_shapes() {
    let page = "<html><body>502 Bad Gateway</body></html>";
    let url = crate::common::answering(page).await;
    let run = crate::common::at_gateway(&url, &["--json", "doctor"]).await;
    let report = run.json();
    assert_eq!(
        check(&report, "answer_shapes")["verdict"],
        "skipped",
        "{report}"
    );
}
