//! Every wait of the store bounded: a claim behind a holder stalled inside its transaction
//! is `Busy` within the lock timeout, the setting stays inside that transaction, the
//! role's idle timeout ends the holder, and a lease or a setting past its bound is refused
//! before any statement.

use std::time::Duration;

use paytoken::DuplicateStore as _;
use paytoken::notification::Claim;
use paytoken::postgres::deadpool_postgres::{Manager, Pool, tokio_postgres};
use paytoken::postgres::{
    DEFAULT_LOCK_TIMEOUT, Error, MAX_LEASE, MAX_LOCK_TIMEOUT, MAX_RETENTION, PostgresDuplicates,
};

use super::server::Server;
use super::{ACT, acted, key, shop_store};

/// A holder marks its key done, then stops sending inside its transaction (a pause, a
/// partition: not `pg_sleep`, which no idle timeout ends). Another instance's claim meets
/// the locked row and is `Busy` within the lock timeout plus half a second, its setting
/// gone with its transaction. The shop's role ends the holder after two idle seconds:
/// its action rolls back with its mark, and the key is claimed again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's postgresql; cargo xtask ci installs it and runs it"]
async fn a_claim_behind_a_stalled_holder_is_busy_within_the_lock_timeout() {
    let server = Server::start();
    let other = shop_store(server.pool_as("postgres", 1)).await;
    other
        .pool()
        .get()
        .await
        .unwrap()
        .batch_execute(
            "CREATE ROLE shop LOGIN;
             ALTER ROLE shop SET idle_in_transaction_session_timeout = '2s';
             GRANT ALL ON paytoken_notifications, acted TO shop;
             GRANT ALL ON SEQUENCE paytoken_notification_fence TO shop;",
        )
        .await
        .unwrap();
    let holder = PostgresDuplicates::new(server.pool_as("shop", 1));
    let (key, lease) = (key(0), Duration::from_millis(200));
    let Claim::Claimed(fence) = holder.claim(&key, lease).await.unwrap() else {
        panic!("a new key")
    };
    let mut connection = holder.pool().get().await.unwrap();
    let transaction = connection.transaction().await.unwrap();
    transaction.execute(ACT, &[&key.to_string()]).await.unwrap();
    assert!(
        PostgresDuplicates::done_in(&*transaction, &key, fence)
            .await
            .unwrap()
    );
    // The holder sends nothing more; its lease runs out on the database's clock.
    tokio::time::sleep(lease * 2).await;

    let within = DEFAULT_LOCK_TIMEOUT + Duration::from_millis(500);
    let claim = tokio::time::timeout(within, other.claim(&key, lease))
        .await
        .expect("a claim behind a locked row is answered within the lock timeout");
    assert_eq!(claim.unwrap(), Claim::Busy);
    let session = other.pool().get().await.unwrap();
    let setting = session.query_one("SHOW lock_timeout", &[]).await.unwrap();
    assert_eq!(
        setting.get::<_, String>(0),
        "0",
        "nothing stays on the session"
    );
    drop(session);

    // The role's idle timeout ends the holder; the key is then claimed again.
    let taken_over = async {
        loop {
            match other.claim(&key, lease).await.unwrap() {
                Claim::Claimed(fence) => return fence,
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    };
    let new_fence = tokio::time::timeout(Duration::from_secs(10), taken_over)
        .await
        .expect("the stalled holder is ended by its role's idle timeout");
    assert_ne!(new_fence, fence);
    assert!(transaction.commit().await.is_err(), "the holder was ended");
    assert!(
        acted(other.pool()).await.is_empty(),
        "its action rolled back with its mark"
    );
    assert!(other.done(&key, new_fence).await.unwrap());

    // The longest lease there is works on a real server.
    assert!(matches!(
        other.claim(&super::key(1), MAX_LEASE).await,
        Ok(Claim::Claimed(_))
    ));
}

/// A pool that would fail any statement: the refusals below come before one.
fn nowhere() -> Pool {
    let mut config = tokio_postgres::Config::new();
    config.host_path("/nonexistent").user("nobody");
    Pool::builder(Manager::new(config, tokio_postgres::NoTls))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_lease_or_a_setting_past_its_bound_is_refused_before_any_statement() {
    let store = PostgresDuplicates::new(nowhere());
    let too_long = MAX_LEASE + Duration::from_millis(1);
    match store.claim(&key(0), too_long).await {
        Err(error @ Error::LeaseTooLong(lease)) => {
            assert_eq!(lease, too_long);
            assert_eq!(
                error.to_string(),
                "a lease of 3600.001s is longer than the store's 3600s"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        store.claim(&key(0), Duration::MAX).await,
        Err(Error::LeaseTooLong(_))
    ));
    for wait in [
        Duration::ZERO,
        Duration::from_micros(999),
        MAX_LOCK_TIMEOUT + Duration::from_nanos(1),
    ] {
        let refused = PostgresDuplicates::new(nowhere()).with_lock_timeout(wait);
        assert!(
            matches!(refused, Err(Error::LockTimeout(w)) if w == wait),
            "{wait:?}"
        );
    }
    assert_eq!(MAX_LOCK_TIMEOUT, Duration::from_millis(2_500));
    let longest = PostgresDuplicates::new(nowhere()).with_lock_timeout(MAX_LOCK_TIMEOUT);
    assert!(longest.is_ok());
    let refused = PostgresDuplicates::new(nowhere()).with_retention(MAX_RETENTION * 2);
    assert!(matches!(refused, Err(Error::RetentionTooLong(_))));
    let none = PostgresDuplicates::new(nowhere()).with_retention(Duration::ZERO);
    assert!(none.is_ok(), "a shop may keep nothing, at its own risk");
    // A database out of reach is an error, not a panic, from every call.
    let unreachable = store.claim(&key(0), Duration::from_secs(1)).await;
    assert!(
        matches!(unreachable, Err(Error::Pool(_))),
        "{unreachable:?}"
    );
}
