//! The socket loop of one WebSocket connection.
//!
//! Policy: this layer only moves frames. Every incoming frame passes the
//! flood control first, then the size check and the parser
//! (`protocol.rs`); what parses goes to the game service (`games.rs`), what
//! does not is answered with its error. Requests of one connection are
//! handled one at a time, in order. A writer task drains the connection's
//! queue into the socket; the connection ends when the client closes, the
//! socket fails, the flood control gives up, or the game service finds the
//! queue full (a client that does not read).

use std::{
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use axum::extract::ws::{CloseFrame, Message as Frame, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, Notify};

use crate::{
    games::{Conn, Following, Hub},
    protocol::{
        self, ErrorCode, Limits, Message, ProtoError, MAX_GAMES_PER_CONNECTION, MAX_MESSAGE_BYTES,
        SUPPORTED_VERSIONS,
    },
    ratelimit::{self, RateLimiter, Verdict},
};

/// Unread messages queued for one client before it is closed.
pub const QUEUE: usize = 256;

/// How long a closing connection may take to send what is queued.
const DRAIN: Duration = Duration::from_secs(5);

/// WebSocket close code: a policy was violated (flooding).
const CLOSE_POLICY: u16 = 1008;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

enum Out {
    Text(Arc<str>),
    Close(u16, &'static str),
}

/// Serves one upgraded socket until it ends.
pub async fn serve(socket: WebSocket, hub: Arc<Hub>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(QUEUE);
    let (close_tx, mut close_rx) = mpsc::channel::<Out>(1);
    let conn = Conn {
        id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
        tx,
        kick: Arc::new(Notify::new()),
    };
    let writer = tokio::spawn(async move {
        loop {
            let out = tokio::select! {
                biased;
                Some(text) = rx.recv() => Out::Text(text),
                Some(close) = close_rx.recv() => close,
                else => break,
            };
            let frame = match out {
                Out::Text(text) => Frame::Text(Utf8Bytes::from(text.as_ref())),
                Out::Close(code, reason) => Frame::Close(Some(CloseFrame {
                    code,
                    reason: Utf8Bytes::from_static(reason),
                })),
            };
            let closing = matches!(frame, Frame::Close(_));
            if sink.send(frame).await.is_err() || closing {
                break;
            }
        }
    });

    conn.reply(&hello(), None);
    let mut limiter = RateLimiter::new(Instant::now());
    let mut following = Following::default();
    loop {
        let frame = tokio::select! {
            () = conn.kick.notified() => break,
            frame = stream.next() => frame,
        };
        let text = match frame {
            None | Some(Err(_)) | Some(Ok(Frame::Close(_))) => break,
            Some(Ok(Frame::Ping(_) | Frame::Pong(_))) => continue,
            Some(Ok(Frame::Binary(_))) => None,
            Some(Ok(Frame::Text(text))) => Some(text),
        };
        match limiter.check(Instant::now()) {
            Verdict::Allow => {}
            Verdict::Refuse => {
                let e = ProtoError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "too many messages: at most {} at once, then {} a second",
                        ratelimit::BURST,
                        ratelimit::PER_SECOND
                    ),
                );
                conn.reply(&Message::Error(e), None);
                continue;
            }
            Verdict::Close => {
                let _ = close_tx.try_send(Out::Close(CLOSE_POLICY, "flooding"));
                break;
            }
        }
        let Some(text) = text else {
            let e = ProtoError::new(
                ErrorCode::BinaryFrame,
                "messages are JSON in text frames; binary frames are ignored",
            );
            conn.reply(&Message::Error(e), None);
            continue;
        };
        match protocol::parse(text.as_str()) {
            Ok(envelope) => hub.handle(&conn, &mut following, envelope).await,
            Err(rejection) => {
                conn.reply(&Message::Error(rejection.error), rejection.id.as_ref());
            }
        }
    }
    hub.disconnect(&conn, &following).await;
    drop(conn);
    drop(close_tx);
    // The writer drains what is queued, unless the client does not read.
    let abort = writer.abort_handle();
    if tokio::time::timeout(DRAIN, writer).await.is_err() {
        abort.abort();
    }
}

fn hello() -> Message {
    Message::Hello {
        server: concat!("hostage/", env!("CARGO_PKG_VERSION")),
        protocol: SUPPORTED_VERSIONS,
        limits: Limits {
            max_message_bytes: MAX_MESSAGE_BYTES,
            burst: ratelimit::BURST,
            per_second: ratelimit::PER_SECOND,
            max_games_per_connection: MAX_GAMES_PER_CONNECTION,
        },
    }
}
