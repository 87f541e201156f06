//! A server running in the background of a test, on a runtime of its own.
//! Apart from `mod.rs` (included as `#[path = "support/server.rs"] mod
//! server;`) because `hostage-cli/tests/serve.rs` shares `mod.rs` and has no
//! tokio.

#![allow(dead_code)]

use std::future::Future;

use hostage_server::{Server, ServerError};
use tokio::runtime::Runtime;

/// Binds with `bind` (`Server::bind(&config)` or `Server::bind_with_store`)
/// on a new two-thread runtime and serves until the runtime is dropped or
/// shut down: the address, and the runtime to keep meanwhile.
pub fn serve(bind: impl Future<Output = Result<Server, ServerError>>) -> (String, Runtime) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let server = runtime.block_on(bind).expect("bind");
    let addr = server.local_addr().to_string();
    runtime.spawn(server.run(std::future::pending()));
    (addr, runtime)
}

/// A fresh database on the test server, or `None` (said loudly) when no
/// PostgreSQL was given.
///
/// Without `HOSTAGE_TEST_PG_URL` the PostgreSQL tests say so and pass,
/// except in CI (`CI=true`), where they fail.
pub fn fresh_database(name: &str) -> Option<String> {
    let url = database_if_given(name);
    if url.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        let say = "HOSTAGE_TEST_PG_URL is not set: the PostgreSQL tests did NOT run (scripts/test-postgres starts a server and sets it)";
        assert!(!ci, "{say}");
        eprintln!("\n!!!! {say} !!!!\n");
    }
    url
}

/// A fresh database named after `name` on the PostgreSQL server of
/// `HOSTAGE_TEST_PG_URL`, quietly `None` without one.
pub fn database_if_given(name: &str) -> Option<String> {
    let admin = std::env::var("HOSTAGE_TEST_PG_URL").ok()?;
    let db = format!("hostage_{name}_{}", std::process::id());
    admin_sql(
        &admin,
        &[
            &format!("DROP DATABASE IF EXISTS {db}"),
            &format!("CREATE DATABASE {db}"),
        ],
    );
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{db}"))
}

/// A connection of its own to `url`, and the runtime that drives it: run
/// the queries with `runtime.block_on(async { client... })`.
pub fn pg_session(url: &str) -> (Runtime, tokio_postgres::Client) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let client = runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("connect to the test PostgreSQL");
        tokio::spawn(connection);
        client
    });
    (runtime, client)
}

/// Runs `statements` on `url`, in order, on a connection of its own.
pub fn admin_sql(url: &str, statements: &[&str]) {
    let (runtime, client) = pg_session(url);
    runtime.block_on(async {
        for sql in statements {
            client.batch_execute(sql).await.expect(sql);
        }
    });
}
