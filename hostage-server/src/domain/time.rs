//! Time as the domain counts it: wall-clock milliseconds since the Unix
//! epoch (the one reading of the system's clock, as `clock.rs` reads the
//! monotonic one), and the PGN date and time of such an instant.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 if the clock is before it).
#[must_use]
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A PGN time (`HH:MM:SS`, UTC) from milliseconds since the Unix epoch.
#[must_use]
pub fn pgn_time(ms: u64) -> String {
    let s = (ms / 1000) % 86_400;
    format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// A PGN date (`YYYY.MM.DD`, UTC) from milliseconds since the Unix epoch.
#[must_use]
pub fn pgn_date(ms: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = i64::try_from(ms / 86_400_000).unwrap_or(0);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn pgn_dates() {
        assert_eq!(super::pgn_date(0), "1970.01.01");
        assert_eq!(super::pgn_time(0), "00:00:00");
        // 2024-02-29 12:00:00 UTC, plus 34 min 56.789 s.
        assert_eq!(super::pgn_time(1_709_208_000_000 + 2_096_789), "12:34:56");
        // 2024-02-29T12:00:00Z
        assert_eq!(super::pgn_date(1_709_208_000_000), "2024.02.29");
    }
}
