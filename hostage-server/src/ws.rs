//! The socket loop of one WebSocket connection.
//!
//! Policy: this layer only moves frames. Every incoming frame passes the
//! flood control first, then the size check and the parser
//! (`wire/protocol.rs`); what parses goes to the game service (`service/games.rs`), what
//! does not is answered with its error. Requests of one connection are
//! handled one at a time, in order. A writer task drains the connection's
//! queue into the socket; the connection ends when the client closes, the
//! socket fails, the flood control gives up, the game service finds the
//! queue full (a client that does not read: [`QUEUE`] messages or
//! `max_queued_bytes`), a frame is over [`MAX_FRAME_BYTES`] (close 1009),
//! or the connection follows no game and has sent no message for
//! `idle_timeout` (close 1000). The server sends no pings of its own; the
//! client's pings and pongs are answered or ignored by the socket layer and
//! do not count as activity.

use std::{
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use axum::extract::ws::{CloseFrame, Message as Frame, Utf8Bytes, WebSocket};
use futures_util::{
    stream::{SplitSink, SplitStream},
    SinkExt, StreamExt,
};
use tokio::sync::{mpsc, Notify};

use crate::{
    domain::account::SeatOwner,
    ratelimit::{self, RateLimiter, Verdict},
    service::games::{Conn, Following, Hub},
    service::limits::ServerLimits,
    service::lobby::{Lobby, Member},
    wire::protocol::{
        self, Envelope, ErrorCode, Limits, Message, ProtoError, Request, MAX_FRAME_BYTES,
        MAX_GAMES_PER_CONNECTION, MAX_MESSAGE_BYTES, SUPPORTED_VERSIONS,
    },
};

/// Unread messages queued for one client before it is closed.
pub const QUEUE: usize = 256;

/// How long a closing connection may take to send what is queued.
const DRAIN: Duration = Duration::from_secs(5);

/// WebSocket close code: a policy was violated (flooding).
const CLOSE_POLICY: u16 = 1008;
/// WebSocket close code: a message too big to process.
const CLOSE_TOO_BIG: u16 = 1009;
/// WebSocket close code: normal closure (idle).
const CLOSE_NORMAL: u16 = 1000;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// The lobby and a new connection's part in it (`lobby.rs`): lobby
/// requests go there, and the seats its challenges win come from there.
pub struct InLobby {
    /// The server's lobby.
    pub lobby: Arc<Lobby>,
    /// This connection's part.
    pub member: Member,
}

enum Out {
    Text(Arc<str>),
    Close(u16, &'static str),
}

/// Whether a read error is a frame or message over the socket layer's
/// capacity (then the client gets close 1009 if the socket still writes).
fn over_capacity(e: axum::Error) -> bool {
    e.into_inner()
        .downcast_ref::<tungstenite::Error>()
        .is_some_and(|e| matches!(e, tungstenite::Error::Capacity(_)))
}

/// Serves one upgraded socket until it ends, for `account` if the
/// connection came with a session (`http.rs`). `place` is the connection's
/// place under the connection caps, freed as soon as the connection stops
/// reading (before the close frame and the drain), so that a client that
/// sees its connection end can open another at once.
pub async fn serve<P: Send>(
    socket: WebSocket,
    hub: Arc<Hub>,
    limits: ServerLimits,
    place: P,
    in_lobby: InLobby,
    account: Option<Arc<SeatOwner>>,
) {
    let InLobby { lobby, mut member } = in_lobby;
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Arc<str>>(QUEUE);
    let (close_tx, close_rx) = mpsc::channel::<Out>(1);
    let queued = Arc::new(AtomicUsize::new(0));
    let conn = Conn {
        id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
        tx,
        kick: Arc::new(Notify::new()),
        queued: Arc::clone(&queued),
        max_queued_bytes: limits.max_queued_bytes,
        account,
    };
    let writer = tokio::spawn(write_loop(sink, rx, close_rx, queued));

    conn.reply(&hello(&limits), None);
    let mut limiter = RateLimiter::new(Instant::now());
    let mut following = Following::default();
    let mut last_heard = tokio::time::Instant::now();
    let closing = loop {
        let idle_at = last_heard + limits.idle_timeout;
        // The idle timer runs only while no game is followed: a follower
        // waits for its game however long (and no timer fires in a loop).
        let frame = tokio::select! {
            () = conn.kick.notified() => break None,
            () = tokio::time::sleep_until(idle_at),
                if following.is_empty() && !lobby.keeps_open(&conn, &member) => {
                break Some((CLOSE_NORMAL, "idle"));
            }
            // A challenge of this connection's was accepted: take the seat.
            Some(seat) = member.next_seat() => {
                lobby.seat(&conn, &mut following, seat).await;
                continue;
            }
            frame = stream.next() => frame,
        };
        let text = match read(frame) {
            Read::End(closing) => break closing,
            Read::Skip => continue,
            Read::Binary => None,
            Read::Text(text) => Some(text),
        };
        last_heard = tokio::time::Instant::now();
        match limiter.check(Instant::now()) {
            Verdict::Allow => {}
            Verdict::Refuse => {
                conn.reply(&Message::Error(rate_limited()), None);
                continue;
            }
            Verdict::Close => {
                let _ = close_tx.try_send(Out::Close(CLOSE_POLICY, "flooding"));
                break None;
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
            Ok(Envelope {
                id,
                request: Request::Lobby(request),
            }) => {
                lobby
                    .handle(&conn, &mut member, &mut following, request, id.as_ref())
                    .await;
            }
            Ok(envelope) => hub.handle(&conn, &mut following, envelope).await,
            Err(rejection) => {
                conn.reply(&Message::Error(rejection.error), rejection.id.as_ref());
            }
        }
    };
    drop(place);
    lobby.leave(&conn).await;
    hub.disconnect(&conn, &following).await;
    drop(conn);
    close(stream, close_tx, writer, closing).await;
}

/// Drains the connection's queue and its close frame into the socket.
async fn write_loop(
    mut sink: SplitSink<WebSocket, Frame>,
    mut rx: mpsc::Receiver<Arc<str>>,
    mut close_rx: mpsc::Receiver<Out>,
    queued: Arc<AtomicUsize>,
) {
    loop {
        let out = tokio::select! {
            biased;
            Some(text) = rx.recv() => Out::Text(text),
            Some(close) = close_rx.recv() => close,
            else => break,
        };
        let frame = match out {
            Out::Text(text) => {
                queued.fetch_sub(text.len(), Ordering::AcqRel);
                Frame::Text(Utf8Bytes::from(text.as_ref()))
            }
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
}

/// What a frame read from the socket asks of the loop.
enum Read {
    /// The connection ends, with this close frame to send, if any.
    End(Option<(u16, &'static str)>),
    /// A ping or a pong, answered by the socket layer: not activity.
    Skip,
    /// A binary frame (refused).
    Binary,
    /// A text frame.
    Text(Utf8Bytes),
}

fn read(frame: Option<Result<Frame, axum::Error>>) -> Read {
    const TOO_BIG: Option<(u16, &str)> = Some((CLOSE_TOO_BIG, "frame too large"));
    match frame {
        None | Some(Ok(Frame::Close(_))) => Read::End(None),
        Some(Err(e)) => Read::End(if over_capacity(e) { TOO_BIG } else { None }),
        // The socket layer answers pings; neither counts as activity,
        // so a client cannot hold an idle place with pings alone.
        Some(Ok(Frame::Ping(_) | Frame::Pong(_))) => Read::Skip,
        Some(Ok(Frame::Binary(b))) if b.len() > MAX_FRAME_BYTES => Read::End(TOO_BIG),
        Some(Ok(Frame::Text(t))) if t.len() > MAX_FRAME_BYTES => Read::End(TOO_BIG),
        Some(Ok(Frame::Binary(_))) => Read::Binary,
        Some(Ok(Frame::Text(text))) => Read::Text(text),
    }
}

fn rate_limited() -> ProtoError {
    ProtoError::new(
        ErrorCode::RateLimited,
        format!(
            "too many messages: at most {} at once, then {} a second",
            ratelimit::BURST,
            ratelimit::PER_SECOND
        ),
    )
}

/// Ends a connection that stopped reading: sends its close frame, if any,
/// and lets the writer drain what is queued (for at most [`DRAIN`] each).
async fn close(
    mut stream: SplitStream<WebSocket>,
    close_tx: mpsc::Sender<Out>,
    writer: tokio::task::JoinHandle<()>,
    closing: Option<(u16, &'static str)>,
) {
    if let Some((code, reason)) = closing {
        let _ = close_tx.try_send(Out::Close(code, reason));
        // Read on (and drop) what the client still sends until it answers
        // the close, so that our close frame is not lost to a reset.
        let _ = tokio::time::timeout(DRAIN, async {
            while let Some(Ok(frame)) = stream.next().await {
                if matches!(frame, Frame::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    drop(close_tx);
    // The writer drains what is queued, unless the client does not read.
    let abort = writer.abort_handle();
    if tokio::time::timeout(DRAIN, writer).await.is_err() {
        abort.abort();
    }
}

fn hello(limits: &ServerLimits) -> Message {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    Message::Hello {
        server: concat!("hostage/", env!("CARGO_PKG_VERSION")),
        protocol: SUPPORTED_VERSIONS,
        limits: Limits {
            max_message_bytes: MAX_MESSAGE_BYTES,
            max_frame_bytes: MAX_FRAME_BYTES,
            burst: ratelimit::BURST,
            per_second: ratelimit::PER_SECOND,
            max_games_per_connection: MAX_GAMES_PER_CONNECTION,
            idle_timeout_ms: ms(limits.idle_timeout),
            max_connections_per_address: limits.max_connections_per_address,
            max_queued_messages: QUEUE,
            max_queued_bytes: limits.max_queued_bytes,
            abandon_after_ms: ms(limits.abandon_after),
            first_move_ms: ms(limits.first_move),
        },
    }
}
