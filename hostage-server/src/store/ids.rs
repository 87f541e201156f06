//! Game ids and seat tokens, from the operating system's random source.
//!
//! Policy: a game id is public (it is in the link) and only needs to be
//! unique: 10 characters of `[a-z0-9]` (51 bits). A token is the secret that
//! plays a seat: 128 random bits as 32 hex characters, never derived from
//! anything guessable. If the random source fails, nothing is created.

/// The characters of a game id.
const ALPHABET: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";
/// The length of a game id.
pub const GAME_ID_LEN: usize = 10;
/// The length of a token.
pub const TOKEN_LEN: usize = 32;

/// Why no id could be made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RandomError;

fn fill(buf: &mut [u8]) -> Result<(), RandomError> {
    getrandom::getrandom(buf).map_err(|_| RandomError)
}

/// A new game id.
///
/// # Errors
///
/// The random source failed.
pub fn game_id() -> Result<String, RandomError> {
    let mut id = String::with_capacity(GAME_ID_LEN);
    let mut buf = [0u8; 32];
    while id.len() < GAME_ID_LEN {
        fill(&mut buf)?;
        // Rejection sampling: 252 = 7 * 36 keeps the letters uniform.
        for &b in buf.iter().filter(|&&b| b < 252) {
            if id.len() < GAME_ID_LEN {
                id.push(char::from(ALPHABET[usize::from(b % 36)]));
            }
        }
    }
    Ok(id)
}

/// A new seat token.
///
/// # Errors
///
/// The random source failed.
pub fn token() -> Result<String, RandomError> {
    let mut buf = [0u8; TOKEN_LEN / 2];
    fill(&mut buf)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// A fair coin.
///
/// # Errors
///
/// The random source failed.
pub fn coin() -> Result<bool, RandomError> {
    let mut buf = [0u8; 1];
    fill(&mut buf)?;
    Ok(buf[0] & 1 == 1)
}

/// Whether `text` has the shape of a game id (checked before any look-up).
#[must_use]
pub fn is_game_id(text: &str) -> bool {
    text.len() == GAME_ID_LEN && text.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let id = game_id().unwrap();
        assert!(is_game_id(&id), "{id}");
        assert_ne!(id, game_id().unwrap());
        let t = token().unwrap();
        assert_eq!(t.len(), TOKEN_LEN);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(!is_game_id("ABCDEFGHIJ"));
        assert!(!is_game_id("abc"));
    }
}
