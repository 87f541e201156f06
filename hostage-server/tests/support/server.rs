//! A server running in the background of a test, on a runtime of its own.
//! Apart from `mod.rs` (included as `#[path = "support/server.rs"] mod
//! server;`) because `hostage-cli/tests/serve.rs` shares `mod.rs` and has no
//! tokio.

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
