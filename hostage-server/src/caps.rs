//! Caps on open WebSocket connections: per client address and in total.
//!
//! Policy: a connection takes a [`Place`] before its upgrade and holds it
//! until it closes; dropping the place frees it at once, so a client that
//! closes one connection can open another right away. Past the cap the
//! upgrade is refused (HTTP 429 for one address, 503 for the total, see
//! `http.rs`); the other clients are not affected.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
};

/// Why a place was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refused {
    /// This address holds its maximum.
    PerAddress,
    /// The server holds its maximum.
    Total,
}

#[derive(Default)]
struct Counts {
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// The open connections, counted.
pub struct ConnCaps {
    per_address: usize,
    total: usize,
    counts: Mutex<Counts>,
}

/// One open connection's place; freed when dropped.
pub struct Place {
    caps: Arc<ConnCaps>,
    addr: IpAddr,
}

impl ConnCaps {
    /// Caps of `per_address` connections per address and `total` in all.
    #[must_use]
    pub fn new(per_address: usize, total: usize) -> Arc<ConnCaps> {
        Arc::new(ConnCaps {
            per_address,
            total,
            counts: Mutex::new(Counts::default()),
        })
    }

    /// A place for a connection from `addr`.
    ///
    /// # Errors
    ///
    /// [`Refused`] when a cap is reached.
    pub fn take(self: &Arc<ConnCaps>, addr: IpAddr) -> Result<Place, Refused> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.total >= self.total {
            return Err(Refused::Total);
        }
        let n = counts.by_address.entry(addr).or_insert(0);
        if *n >= self.per_address {
            return Err(Refused::PerAddress);
        }
        *n += 1;
        counts.total += 1;
        Ok(Place {
            caps: Arc::clone(self),
            addr,
        })
    }

    /// Open connections now (all addresses).
    #[must_use]
    pub fn open(&self) -> usize {
        self.counts.lock().map_or(0, |c| c.total)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.caps.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.total = counts.total.saturating_sub(1);
        if let Some(n) = counts.by_address.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                counts.by_address.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_address_and_in_total_and_places_come_back() {
        let caps = ConnCaps::new(2, 3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = caps.take(a).unwrap();
        let _a2 = caps.take(a).unwrap();
        assert_eq!(caps.take(a).err(), Some(Refused::PerAddress));
        let _b1 = caps.take(b).unwrap();
        assert_eq!(caps.take(b).err(), Some(Refused::Total));
        drop(a1);
        assert_eq!(caps.open(), 2);
        let _a3 = caps.take(a).unwrap();
    }
}
