//! The game service's background tasks, one spawned per concern by
//! [`Hub`]'s `start` (and one clock task per timed game): each holds only a
//! weak reference to the hub and ends when the hub is gone.

use super::*;

/// Ends a timed game on time when the running flag falls, whether or not
/// anyone moves. Exits when the game has ended.
pub(super) async fn clock_task(hub: Weak<Hub>, store: Arc<dyn Store>, cell: Arc<Cell>) {
    loop {
        let deadline = {
            let inner = cell.inner.lock().await;
            if inner.room.end().is_some() || inner.evicted {
                return;
            }
            inner.room.deadline()
        };
        let Some(deadline) = deadline else {
            cell.wake.notified().await;
            continue;
        };
        tokio::select! {
            () = tokio::time::sleep_until(deadline.into()) => {
                let mut inner = cell.inner.lock().await;
                if let Some(change) = inner.room.check_deadline(Instant::now()) {
                    match commit(&*store, &mut inner, change, None).await {
                        Ok(_) => {}
                        Err(Failure::Conflict(_)) => {
                            // Another server changed the game since it was
                            // read (a move in time, an ending): read it
                            // again; the flag is decided anew on that.
                            // If it cannot be read, wait before trying again
                            // rather than refusing the same flag in a loop.
                            let id = inner.room.id().to_string();
                            drop(inner);
                            let read = match hub.upgrade() {
                                Some(hub) => hub.catch_up(&id).await,
                                None => return,
                            };
                            if !read {
                                tokio::time::sleep(Duration::from_secs(1)).await;
                            }
                        }
                        Err(Failure::Refused(e)) => {
                            tracing::warn!(game = %inner.room.id(), error = %e.message, "flag fall not stored; retrying");
                            drop(inner);
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                    }
                }
            }
            () = cell.wake.notified() => {}
        }
    }
}

/// Sweeps the games in memory now and then ([`Hub`]'s `sweep`), until the
/// hub is gone.
pub(super) async fn sweeper(hub: Weak<Hub>) {
    let period = match hub.upgrade() {
        Some(hub) => {
            (hub.limits.evict_after / 4).clamp(Duration::from_millis(50), Duration::from_secs(30))
        }
        None => return,
    };
    loop {
        tokio::time::sleep(period).await;
        match hub.upgrade() {
            Some(hub) => hub.sweep(),
            None => return,
        }
    }
}

/// Marks in a shared store, every [`Hub`]'s `presence_period`, the seats
/// followed on this server, and reads again the games followed here that
/// were quiet that long, until the hub is gone.
pub(super) async fn mark_presence(hub: Weak<Hub>) {
    loop {
        let period = match hub.upgrade() {
            Some(hub) => hub.presence_period(),
            None => return,
        };
        tokio::time::sleep(period).await;
        let Some(hub) = hub.upgrade() else {
            return;
        };
        hub.watch_presence().await;
        hub.refresh_quiet().await;
        let seats = hub.followed_seats().await;
        if seats.is_empty() {
            continue;
        }
        if let Err(e) = hub
            .store
            .mark_present(seats, crate::domain::time::now_ms())
            .await
        {
            tracing::warn!(error = %e, "presence not stored");
        }
    }
}

/// Passes a shared store's announcements on: each game changed elsewhere
/// is read again ([`Hub`]'s `catch_up`), games side by side; after missed
/// announcements, every game in memory is.
pub(super) async fn follow_changes(
    hub: Weak<Hub>,
    mut changes: tokio::sync::broadcast::Receiver<crate::store::Changed>,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let change = changes.recv().await;
        let Some(hub) = hub.upgrade() else {
            return;
        };
        match change {
            Ok(crate::store::Changed::Game(id)) => {
                // Each on a task of its own: one game's read does not wait
                // for another's (a game's catch-ups take its lock in turn).
                tokio::spawn(async move { hub.catch_up(&id).await });
            }
            Ok(crate::store::Changed::Move(id, announced)) => {
                tokio::spawn(async move { hub.catch_up_with(&id, Some(&announced)).await });
            }
            Ok(crate::store::Changed::All) | Err(RecvError::Lagged(_)) => {
                for id in hub.loaded() {
                    hub.catch_up(&id).await;
                }
            }
            Err(RecvError::Closed) => return,
        }
    }
}
