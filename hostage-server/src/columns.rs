//! Column values shared by the SQL stores (`sqlite.rs`, `postgres.rs`): how
//! the domain's clocks, endings, colours and token digests are written to
//! and read from a row. Both stores keep the same schema, so a value means
//! the same in either database.

use hostage_core::Color;

use crate::{
    domain::{color_named, End, TokenHash},
    store::{StoreError, StoredClocks},
};

/// Milliseconds as a signed column (SQL has no unsigned integers).
pub(crate) fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A signed column back as milliseconds; a negative value reads as 0.
pub(crate) fn uint(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The two clock columns (both null for an untimed game).
pub(crate) fn clock_params(clocks: StoredClocks) -> (Option<i64>, Option<i64>) {
    clocks.map_or((None, None), |c| (Some(int(c.white)), Some(int(c.black))))
}

/// The termination and winner columns, by the core's names.
pub(crate) fn end_params(end: Option<End>) -> (Option<&'static str>, Option<&'static str>) {
    match end {
        None => (None, None),
        Some(end) => (Some(end.termination()), end.winner.map(Color::name)),
    }
}

/// A write that must change exactly one row, or it lost a race.
pub(crate) fn conflict_unless(changed: u64, what: &str) -> Result<(), StoreError> {
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(what.to_string()))
    }
}

/// A colour column read back.
pub(crate) fn side_of(name: Option<String>) -> Result<Option<Color>, StoreError> {
    name.map(|n| color_named(&n).ok_or_else(|| StoreError::Corrupt(format!("side {n:?}"))))
        .transpose()
}

/// A token-digest column read back.
pub(crate) fn hash_of(hex: Option<String>) -> Result<Option<TokenHash>, StoreError> {
    hex.map(|h| TokenHash::from_hex(&h).ok_or_else(|| StoreError::Corrupt("token digest".into())))
        .transpose()
}
