//! The origin policy: a WebSocket upgrade or a state-changing HTTP request
//! (any method but `GET`, `HEAD` and `OPTIONS`) whose `Origin` header is
//! present and is not the server's own origin is refused, 403 with the
//! code `origin_refused`, before any route runs.
//!
//! The server's own origin is the configured one
//! ([`AccountOptions::public_origin`]) when set; otherwise it is the
//! scheme (`https` when the server is told it is behind TLS, else `http`)
//! with the `Host` header of the request. Browsers send `Origin` on every
//! WebSocket handshake and on every cross-origin (and same-origin) `POST`,
//! so a page of another site can neither open a socket with the player's
//! cookie nor post to the account endpoints; a request without `Origin`
//! (a command-line client, a server-side program) carries no browser's
//! cookie by accident and is let through. `Origin: null` (a sandboxed
//! frame, a file) is refused like any other origin.

use axum::{
    extract::{Request, State},
    http::{header, Method},
    middleware::Next,
    response::Response,
};

use crate::{
    account_http::refusal_response,
    domain::account::{AccountError, AccountRefusal},
    service::accounts::AccountOptions,
};

/// What decides the server's own origin.
#[derive(Clone, Debug, Default)]
pub struct OriginPolicy {
    /// The configured origin, if any.
    pub public_origin: Option<String>,
    /// The server is reached over TLS.
    pub behind_tls: bool,
}

impl OriginPolicy {
    /// The policy of these options.
    #[must_use]
    pub fn of(options: &AccountOptions) -> OriginPolicy {
        OriginPolicy {
            public_origin: options
                .public_origin
                .as_ref()
                .map(|o| o.trim_end_matches('/').to_owned()),
            behind_tls: options.behind_tls,
        }
    }

    /// Whether a request with `origin` and `host` headers may change
    /// something (`origin` absent: yes).
    #[must_use]
    pub fn allows(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let Some(origin) = origin else {
            return true;
        };
        match &self.public_origin {
            Some(own) => origin.eq_ignore_ascii_case(own),
            None => {
                let scheme = if self.behind_tls { "https" } else { "http" };
                host.is_some_and(|host| {
                    origin
                        .strip_prefix(scheme)
                        .and_then(|rest| rest.strip_prefix("://"))
                        .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
                })
            }
        }
    }
}

/// Whether `request` changes something or opens a socket.
fn guarded(request: &Request) -> bool {
    let method = request.method();
    let upgrade = request
        .headers()
        .get(header::UPGRADE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    upgrade || !(method == Method::GET || method == Method::HEAD || method == Method::OPTIONS)
}

/// The middleware: 403 `origin_refused` for a guarded request from
/// another origin.
pub async fn check_origin(
    State(policy): State<OriginPolicy>,
    request: Request,
    next: Next,
) -> Response {
    if guarded(&request) {
        let text = |name| {
            request
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap_or("\u{fffd}"))
        };
        if !policy.allows(text(header::ORIGIN), text(header::HOST)) {
            return refusal_response(&AccountError::new(
                AccountRefusal::OriginRefused,
                "this request comes from another site's page: refused",
            ));
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_own_origin_is_the_host_or_the_configured_one() {
        let plain = OriginPolicy::default();
        let host = Some("127.0.0.1:8080");
        assert!(plain.allows(None, host));
        assert!(plain.allows(Some("http://127.0.0.1:8080"), host));
        assert!(!plain.allows(Some("https://127.0.0.1:8080"), host));
        assert!(!plain.allows(Some("http://evil.example"), host));
        assert!(!plain.allows(Some("http://127.0.0.1:8080.evil.example"), host));
        assert!(!plain.allows(Some("null"), host));
        assert!(!plain.allows(Some("http://127.0.0.1:8080"), None));
        let tls = OriginPolicy {
            public_origin: None,
            behind_tls: true,
        };
        assert!(tls.allows(Some("https://hostage.example"), Some("hostage.example")));
        assert!(!tls.allows(Some("http://hostage.example"), Some("hostage.example")));
        let fixed = OriginPolicy::of(&AccountOptions {
            public_origin: Some("https://hostage.example/".into()),
            ..AccountOptions::default()
        });
        assert!(fixed.allows(Some("https://hostage.example"), Some("internal:9000")));
        assert!(!fixed.allows(Some("http://internal:9000"), Some("internal:9000")));
    }
}
