//! The PGN's `Site` tag from a request's `Host` header, shared by the
//! game's PGN (`http.rs`) and a player's PGN stream (`players_http.rs`).

use axum::http::{header, HeaderMap};

/// The host the client asked for (`Host`), as the PGN's `Site`, if it is a
/// plain host name or address with an optional port: anything else (a
/// quote, a space, markup) is not written into the PGN.
pub(crate) fn site_of(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let plain = !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    plain.then(|| host.to_string())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn only_a_plain_host_becomes_the_pgn_site() {
        let site = |host: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::HOST, HeaderValue::from_static(host));
            site_of(&headers)
        };
        assert_eq!(
            site("hostage.example:8080").as_deref(),
            Some("hostage.example:8080")
        );
        assert_eq!(site("[::1]:80").as_deref(), Some("[::1]:80"));
        for bad in ["a\"] [Evil \"x", "a b", "<b>", ""] {
            assert_eq!(site(bad), None, "{bad:?}");
        }
        assert_eq!(site_of(&HeaderMap::new()), None);
    }
}
