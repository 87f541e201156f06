//! Password hashing: Argon2id (RustCrypto's `argon2` crate) with OWASP's
//! parameters, kept as a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`).
//!
//! Policy: the parameters are OWASP's first choice for Argon2id
//! (Password Storage Cheat Sheet): 19 MiB of memory ([`MEMORY_KIB`]), two
//! passes ([`PASSES`]), one lane ([`LANES`]), a 16-byte random salt drawn
//! by the caller, a 32-byte output. A stored hash is verified with the
//! parameters it carries, so a later change of parameters still reads the
//! hashes made before it. The comparison of the outputs is the crate's,
//! in constant time. Hashing is deliberately slow (tens of milliseconds):
//! callers run it off the async threads and bound how many run at once.

use argon2::{
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
    Algorithm, Argon2, Params, Version,
};

/// Argon2id's memory, in KiB (19 MiB).
pub const MEMORY_KIB: u32 = 19_456;
/// Argon2id's passes over the memory.
pub const PASSES: u32 = 2;
/// Argon2id's lanes.
pub const LANES: u32 = 1;
/// The salt's length, in bytes.
pub const SALT_BYTES: usize = 16;

fn hasher() -> Argon2<'static> {
    // The parameters are constants within Argon2's bounds: `new` cannot fail.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string of `password` with `salt`; `None` only if the crate
/// refuses (it does not for a password of the account rule).
#[must_use]
pub fn hash(password: &str, salt: &[u8; SALT_BYTES]) -> Option<String> {
    let salt = SaltString::encode_b64(salt).ok()?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .ok()
        .map(|h| h.to_string())
}

/// Whether `password` is the one hashed in `phc` (a stored PHC string);
/// false for a string that is no Argon2 PHC string.
#[must_use]
pub fn verify(phc: &str, password: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_an_argon2id_phc_string_that_verifies_only_its_password() {
        let phc = hash("correct horse", &[7; SALT_BYTES]).unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(!phc.contains("correct horse"));
        assert!(verify(&phc, "correct horse"));
        assert!(!verify(&phc, "correct horsE"));
        assert!(!verify(&phc, ""));
        assert!(!verify("not a hash", "correct horse"));
        // Another salt, another string; both verify.
        let other = hash("correct horse", &[8; SALT_BYTES]).unwrap();
        assert_ne!(phc, other);
        assert!(verify(&other, "correct horse"));
    }

    #[test]
    fn the_reference_implementation_gives_the_same_string() {
        // Made apart from this crate, by the reference C implementation
        // (Debian's `argon2` command):
        //   echo -n password | argon2 somesaltsomesalt -id -t 2 -k 19456 -p 1 -l 32 -e
        const REFERENCE: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE";
        assert_eq!(
            hash("password", b"somesaltsomesalt").as_deref(),
            Some(REFERENCE)
        );
        assert!(verify(REFERENCE, "password"));
        assert!(!verify(REFERENCE, "Password"));
    }
}
