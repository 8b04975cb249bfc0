//! One WebSocket per player (or spectator) connection.
//!
//! The connection is bound to a seat when it opens (by the token in its
//! URL) and never changes seat. Its reader passes actions to the game's
//! actor without waiting for them, so a client may send several; its writer
//! drains the connection's bounded queue, which the actor fills and, when
//! full, drops (the client is too slow and is disconnected).
//!
//! A seat's connection to a finished game may move to its rematch
//! (`{"type": "rematch", "move": true}`): the same socket is bound to the
//! new game's seat, with no new handshake and no close (issue 16).
//!
//! tungstenite reads the socket; the server writes its own frames
//! (`frames.rs`: tungstenite kept each connection's largest burst as a
//! buffer for the connection's life), a burst at a time.

mod frames;
mod incoming;
mod upgrade;

use crate::actor::{Connected, GameStub, Outbound, Who};
use crate::error::ApiError;
use crate::error::Code;
use crate::extract::{Path, Query};
use axum::extract::ws::Utf8Bytes;
use axum::extract::State;
use axum::response::Response;
use frames::{Frame, ReadSide};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;
use upgrade::Upgrade;

/// What a WebSocket needs from its process, and nothing more, given at
/// the upgrade (the hub makes it): a live game's door by id (`Rooms`: its own, a rematch's),
/// the store (the session of a seat's account), the settings, the
/// client's buckets, the game's helper and the shutdown signal. A
/// connection never reaches the hub itself.
#[derive(Clone)]
pub(crate) struct Doors {
    pub games: std::sync::Arc<dyn crate::actor::Rooms>,
    pub store: crate::storage::Store,
    pub settings: std::sync::Arc<crate::Settings>,
    pub limits: std::sync::Arc<crate::limits::ClientLimits>,
    pub helpers: crate::assist::Helpers,
    pub shutdown: tokio::sync::watch::Receiver<bool>,
}

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default)]
    token: Option<String>,
    /// `legal=true`: state messages carry the seat's legal actions.
    #[serde(default)]
    legal: Option<String>,
}

/// What a connection is bound to: its game, its number there and its
/// queue's sending side. It changes when the connection moves to a
/// rematch.
struct Binding {
    stub: GameStub,
    conn: u64,
    /// What the connection answers by itself goes into the game's queue
    /// for it, behind what the game sent before; if the game has let go
    /// of the connection (too slow, or the game left memory) it is dropped.
    own: mpsc::WeakSender<Outbound>,
    spectator: bool,
}

impl Binding {
    /// The binding to a game the connection has just joined, and the
    /// queue the writer drains for it.
    fn new(stub: GameStub, connected: Connected) -> (Self, mpsc::Receiver<Outbound>) {
        let Connected {
            conn,
            out,
            own,
            spectator,
        } = connected;
        let bound = Binding {
            stub,
            conn,
            own,
            spectator,
        };
        (bound, out)
    }

    fn local(&self, text: Utf8Bytes) {
        if let Some(tx) = self.own.upgrade() {
            let _ = tx.try_send(text);
        }
    }
}

/// A connection's move to a rematch, for the writer: the new game's queue
/// and the `rematch_seat` that opens it.
struct Moved {
    /// Written when the old game's queue closes: after everything the old
    /// game sent, before the new game's welcome.
    answer: Outbound,
    out: mpsc::Receiver<Outbound>,
}

pub(crate) async fn upgrade(
    State(doors): State<Doors>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    headers: axum::http::HeaderMap,
    client: crate::limits::Client,
    ws: Upgrade,
) -> Result<Response, ApiError> {
    let stub = doors.games.stub(&id).await?;
    let legal = matches!(q.legal.as_deref(), Some("true" | "1" | "yes"));
    // A seat that belongs to an account is bound only for its session.
    let account = match q.token.as_deref() {
        Some(t) if !t.is_empty() => crate::accounts::current(&doors.store, &headers).await?,
        _ => None,
    };
    let connected = stub.connect(q.token, account.clone(), legal).await?;
    let max = doors.settings.connections.max_message;
    Ok(ws.answer(move |io| async move {
        let (read, write) = tokio::io::split(io);
        // Accept frames somewhat over the limit so that the client gets a
        // clear `too_large` instead of a dropped connection; far larger
        // ones close it. A small read buffer: a client's messages are a
        // few hundred bytes (a larger one grows the buffer as it comes),
        // and it is zeroed to its whole size on the first read, so ten
        // thousand connections with the default 128 KiB each (or even
        // 8 KiB) would cost memory for nothing. tungstenite writes
        // nothing here (`ReadSide`): the writer below sends every frame.
        let config = WebSocketConfig::default()
            .read_buffer_size(2 * 1024)
            .write_buffer_size(0)
            .max_message_size(Some(max * 8))
            .max_frame_size(Some(max * 8));
        let stream =
            WebSocketStream::from_raw_socket(ReadSide(read), Role::Server, Some(config)).await;
        let conn = Conn {
            doors,
            legal,
            max,
            client: client.0,
            account,
        };
        run(stream, write, conn, stub, connected).await
    }))
}

/// `first` and everything already queued after it, as frames in one
/// buffer for one write: one system call for an ack and the states after
/// it. The buffer lives for this burst only.
fn burst(first: Outbound, out: &mut mpsc::Receiver<Outbound>) -> Vec<u8> {
    let mut burst = Vec::with_capacity(Frame::Text(&first).encoded_len());
    Frame::Text(&first).put(&mut burst);
    drop(first);
    while let Ok(more) = out.try_recv() {
        Frame::Text(&more).put(&mut burst);
    }
    burst
}

fn error_text(reference: Value, e: &ApiError) -> Utf8Bytes {
    e.ws_message(reference).to_string().into()
}

/// The writing half of a connection, shared by the writer (the game's
/// messages, pings, the close) and the reader (pongs): each write is
/// whole frames, so theirs never interleave.
struct Writes<W> {
    io: tokio::sync::Mutex<W>,
    /// A client that does not read for this long is dropped: the socket
    /// closes and the game never waits for it.
    limit: Duration,
}

impl<W: AsyncWrite + Unpin> Writes<W> {
    /// Writes `bytes` (encoded frames) within the time limit; false if
    /// the socket failed or the client did not read them in time.
    async fn write(&self, bytes: &[u8]) -> bool {
        let write = async {
            let mut io = self.io.lock().await;
            io.write_all(bytes).await?;
            io.flush().await
        };
        matches!(tokio::time::timeout(self.limit, write).await, Ok(Ok(())))
    }

    async fn frame(&self, frame: Frame<'_>) -> bool {
        let mut buf = Vec::with_capacity(frame.encoded_len());
        frame.put(&mut buf);
        self.write(&buf).await
    }
}

type Stream<R> = WebSocketStream<ReadSide<R>>;

/// What a connection keeps whichever game it is bound to.
struct Conn {
    doors: Doors,
    /// State messages carry the seat's legal actions (`legal=true`).
    legal: bool,
    /// The longest message read.
    max: usize,
    /// The client's address (metered).
    client: std::net::IpAddr,
    /// The account logged in where the connection was opened: its seat
    /// in a rematch is bound for it too.
    account: Option<String>,
}

/// When the client was last heard from, for the keep-alive: it is pinged
/// only after `ping_every` with nothing heard (a client that talks proves
/// it is there, and its messages keep NATs open), and closed after `idle`
/// of silence, so its seat turns absent. Timers are moved only when they
/// fire: a message only notes when it was heard (moving a timer at every
/// message took it out of tokio's timer wheel and put it back).
struct KeepAlive {
    opened: tokio::time::Instant,
    /// Microseconds since `opened`.
    heard: std::sync::atomic::AtomicU64,
}

impl KeepAlive {
    fn new() -> KeepAlive {
        KeepAlive {
            opened: tokio::time::Instant::now(),
            heard: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The client was heard from now.
    fn hear(&self) {
        self.heard.store(
            self.opened.elapsed().as_micros() as u64,
            std::sync::atomic::Ordering::Relaxed,
        );
    }

    /// For a timer set to fire `after` the client was last heard from,
    /// when it fires: when it is due now, if the client was heard from
    /// since.
    fn due_later(&self, after: Duration) -> Option<tokio::time::Instant> {
        let last = Duration::from_micros(self.heard.load(std::sync::atomic::Ordering::Relaxed));
        let due = self.opened + last + after;
        (tokio::time::Instant::now() < due).then_some(due)
    }
}

/// What the reader keeps for the connection's whole life, whichever game
/// it is bound to.
struct Session {
    doors: Doors,
    legal: bool,
    max: usize,
    client: std::net::IpAddr,
    account: Option<String>,
    bucket: crate::limits::ConnLimit,
    chat_bucket: crate::limits::ChatLimit,
    metered: bool,
    /// The helper's requests under way (two at most).
    assists: std::sync::Arc<tokio::sync::Semaphore>,
    /// Where a helper's answer goes: the queue of the game the connection
    /// is bound to when the answer is ready, which after a move to the
    /// rematch is the new game's (the answer still comes, with its ref).
    answers_to: std::sync::Arc<std::sync::Mutex<mpsc::WeakSender<Outbound>>>,
}

/// How the reader stopped.
#[derive(Default)]
struct Ended {
    /// The client kept sending past its limit.
    flooded: bool,
    /// The client's close frame (and its code, if it gave one): answered
    /// once the reader stops, as the closing handshake asks.
    closed_by_client: Option<Option<u16>>,
}

async fn run<R, W>(mut stream: Stream<R>, write: W, c: Conn, stub: GameStub, connected: Connected)
where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let Conn {
        doors,
        legal,
        max,
        client,
        account,
    } = c;
    let (mut bound, mut out) = Binding::new(stub, connected);
    // The next game's queue, once the connection moves to a rematch: the
    // writer takes it when the old game lets go of the old queue (after
    // what it had queued), so the client reads the old game's last
    // messages, then `rematch_seat`, then the new game's welcome.
    let next_out: std::sync::Mutex<Option<Moved>> = Default::default();
    let settings = doors.settings.clone();
    let writes = Writes {
        io: tokio::sync::Mutex::new(write),
        limit: settings.connections.write_timeout,
    };
    let keep = KeepAlive::new();
    let (ping_every, idle) = (
        settings.connections.ws_ping,
        settings.connections.ws_idle_timeout,
    );
    let mut session = Session {
        bucket: crate::limits::ConnLimit::new(settings.rates.rate_conn),
        chat_bucket: crate::limits::ChatLimit::new(settings.rates.rate_chat),
        metered: settings.rates.rate_limits,
        assists: std::sync::Arc::new(tokio::sync::Semaphore::new(2)),
        answers_to: std::sync::Arc::new(std::sync::Mutex::new(bound.own.clone())),
        doors: doors.clone(),
        legal,
        max,
        client,
        account,
    };
    let shutdown = doors.shutdown.clone();
    let mut ended = Ended::default();
    tokio::select! {
        _ = write_side(&writes, &mut out, &next_out, &keep, ping_every, &shutdown) => {}
        _ = read_side(&mut stream, &writes, &mut session, &mut bound, &next_out, &keep, idle, &mut ended) => {}
    }
    if let Some(code) = ended.closed_by_client {
        writes.frame(Frame::Close(code.map(|c| (c, "")))).await;
    }
    if ended.flooded {
        // Say why before closing: what was queued, then a policy close.
        let mut goodbye = Vec::new();
        while let Ok(text) = out.try_recv() {
            Frame::Text(&text).put(&mut goodbye);
        }
        Frame::Close(Some((
            1008,
            "too many messages: this connection kept sending past its limit",
        )))
        .put(&mut goodbye);
        if writes.write(&goodbye).await {
            // Finish the closing handshake, discarding what is still on
            // the way: closing with unread data would reset the
            // connection and lose the explanation.
            let drain = async {
                while let Some(Ok(m)) = stream.next().await {
                    if matches!(m, Message::Close(_)) {
                        break;
                    }
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
        }
    }
    // Tell the game the seat left; wait for room rather than lose it.
    bound.stub.disconnect(bound.conn).await;
}

/// The writer: the game's messages in bursts, pings after `ping_every` of
/// silence from the client, the move to a rematch's queue, and the close
/// when the game lets go of the connection.
async fn write_side<W: AsyncWrite + Unpin>(
    writes: &Writes<W>,
    out: &mut mpsc::Receiver<Outbound>,
    next_out: &std::sync::Mutex<Option<Moved>>,
    keep: &KeepAlive,
    ping_every: Duration,
    shutdown: &tokio::sync::watch::Receiver<bool>,
) {
    let ping = tokio::time::sleep(ping_every);
    tokio::pin!(ping);
    loop {
        tokio::select! {
            _ = ping.as_mut() => {
                if let Some(due) = keep.due_later(ping_every) {
                    ping.as_mut().reset(due);
                    continue;
                }
                if !writes.frame(Frame::Ping(b"")).await {
                    break;
                }
                ping.as_mut().reset(tokio::time::Instant::now() + ping_every);
            }
            m = out.recv() => match m {
                Some(text) => {
                    if !writes.write(&burst(text, out)).await {
                        break;
                    }
                }
                None => {
                    let moved = next_out.lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let Some(moved) = moved {
                        // The answer and the new game's first messages
                        // (its welcome, seats, state) in one write.
                        *out = moved.out;
                        if !writes.write(&burst(moved.answer, out)).await {
                            break;
                        }
                        continue;
                    }
                    let (code, reason) = if *shutdown.borrow() {
                        (1012, "server restarting")
                    } else {
                        (1008, "too slow")
                    };
                    writes.frame(Frame::Close(Some((code, reason)))).await;
                    break;
                }
            },
        }
    }
}

/// The reader: every frame drawn on the connection's bucket, checked, and
/// handed to [`handle`]; closes after `idle` of silence.
#[allow(clippy::too_many_arguments)]
async fn read_side<R, W>(
    stream: &mut Stream<R>,
    writes: &Writes<W>,
    session: &mut Session,
    bound: &mut Binding,
    next_out: &std::sync::Mutex<Option<Moved>>,
    keep: &KeepAlive,
    idle: Duration,
    ended: &mut Ended,
) where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let silence = tokio::time::sleep(idle);
    tokio::pin!(silence);
    loop {
        let msg = tokio::select! {
            m = stream.next() => match m {
                Some(Ok(m)) => m,
                _ => break,
            },
            _ = silence.as_mut() => match keep.due_later(idle) {
                Some(due) => {
                    silence.as_mut().reset(due);
                    continue;
                }
                None => break,
            },
        };
        keep.hear();
        if let Message::Close(frame) = &msg {
            ended.closed_by_client = Some(frame.as_ref().map(|f| u16::from(f.code)));
            break;
        }
        // Every message draws on the connection's bucket before it is
        // read, so a flood costs the server no more than its refusals;
        // a client that never slows down is cut off. (Its pongs, the
        // answers to the server's pings, are not counted.)
        if session.metered && !matches!(msg, Message::Pong(_)) {
            match session.bucket.check() {
                Ok(()) => {}
                Err(Some(e)) => {
                    bound.local(error_text(Value::Null, &e));
                    continue;
                }
                Err(None) => {
                    ended.flooded = true;
                    break;
                }
            }
        }
        let text = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let e = ApiError::bad_json("send JSON text messages, not binary ones");
                bound.local(error_text(Value::Null, &e));
                continue;
            }
            // tungstenite checked its size (at most 125 bytes).
            Message::Ping(payload) => {
                if writes.frame(Frame::Pong(&payload)).await {
                    continue;
                }
                break;
            }
            _ => continue,
        };
        if text.len() > session.max {
            let e = ApiError::new(
                Code::TooLarge,
                format!(
                    "messages are at most {} bytes; this one has {}",
                    session.max,
                    text.len()
                ),
            );
            bound.local(error_text(Value::Null, &e));
            continue;
        }
        handle(text.as_str(), session, bound, next_out).await;
    }
}

/// One message from the client, read and sent on to its game (or answered
/// here: a refusal, a pong, the helper's answer later).
async fn handle(
    text: &str,
    session: &mut Session,
    bound: &mut Binding,
    next_out: &std::sync::Mutex<Option<Moved>>,
) {
    let Session {
        doors,
        legal,
        client,
        account,
        chat_bucket,
        metered,
        assists,
        answers_to,
        ..
    } = session;
    let (legal, client, metered) = (*legal, *client, *metered);
    let incoming::Incoming {
        kind,
        reference,
        action,
        request,
        moving,
    } = match incoming::Incoming::read(text) {
        Ok(m) => m,
        Err(e) => {
            let e = ApiError::bad_json(format!("not JSON: {e}"));
            bound.local(error_text(Value::Null, &e));
            return;
        }
    };
    let kind = kind.as_deref();
    if bound.spectator && matches!(kind, Some("act" | "claim-win" | "rematch")) {
        // Refused here: a spectator's message never takes a place
        // in the game's queue.
        let e = ApiError::new(
            Code::Spectator,
            "spectators cannot act: join with a seat token",
        );
        bound.local(error_text(reference, &e));
        return;
    }
    let result = match kind {
        Some("act") => match action {
            Some(action) => bound.stub.act_from(bound.conn, action, reference.clone()),
            None => Err(ApiError::bad_json("act: the message has no \"action\"")),
        },
        Some("assist") => {
            // Answered off the game's task; at most two at once per
            // connection, so one client cannot fill the helper's queue,
            // and drawn on the client's helper bucket like HTTP's.
            let metered = doors.limits.meter(crate::limits::Kind::Helper, client);
            match metered.map(|()| assists.clone().try_acquire_owned()) {
                Err(e) => Err(e),
                Ok(Ok(permit)) => {
                    let (helpers, stub, answers_to, conn) = (
                        doors.helpers.clone(),
                        bound.stub.clone(),
                        answers_to.clone(),
                        bound.conn,
                    );
                    let reference = reference.clone();
                    tokio::spawn(async move {
                        let r =
                            crate::assist::assist(&helpers, &stub, Who::Conn(conn), request, client)
                                .await;
                        drop(permit);
                        let text = match r {
                            // The answer was written as JSON off the
                            // async workers: only copied here.
                            Ok(answer) => format!(
                                "{{\"type\":\"assist\",\"ref\":{reference},\"answer\":{answer}}}"
                            )
                            .into(),
                            Err(e) => error_text(reference, &e),
                        };
                        let own = answers_to.lock().unwrap_or_else(|e| e.into_inner()).clone();
                        if let Some(tx) = own.upgrade() {
                            let _ = tx.send(text).await;
                        }
                    });
                    Ok(())
                }
                Ok(Err(_)) => Err(ApiError::new(
                    Code::Busy,
                    "two helper requests are already under way on this connection",
                )),
            }
        }
        Some("claim-win") => bound.stub.claim_win_from(bound.conn, reference.clone()),
        Some("chat") => {
            // Metered and checked here, before the game's queue:
            // a refused line costs the game nothing.
            let checked = if metered { chat_bucket.check() } else { Ok(()) };
            // The whole message, read again: chat is rare, and
            // `chat::parse` reads the message as a whole.
            let value = serde_json::from_str(text).unwrap_or(Value::Null);
            match checked.and_then(|()| crate::chat::parse(&value)) {
                Ok(request) => bound.stub.chat(bound.conn, request),
                Err(e) => Err(e),
            }
        }
        // A new game: metered as creating one over HTTP is
        // (`POST .../rematch`), by the client's address.
        Some("rematch") if moving => match doors.limits.meter(crate::limits::Kind::Create, client) {
            Ok(()) => {
                // The reader waits for the move: what the client
                // sends meanwhile is for the new game.
                let to = (legal, account.clone());
                move_to_rematch(doors, bound, to, reference.clone(), next_out).await;
                *answers_to.lock().unwrap_or_else(|e| e.into_inner()) = bound.own.clone();
                Ok(())
            }
            Err(e) => Err(e),
        },
        Some("rematch") => doors
            .limits
            .meter(crate::limits::Kind::Create, client)
            .and_then(|()| {
                bound.stub.rematch_from(bound.conn, reference.clone())
            }),
        Some("sync") => bound.stub.sync(bound.conn),
        Some("ping") => {
            bound.local(json!({"type": "pong", "ref": reference}).to_string().into());
            Ok(())
        }
        Some(other) => Err(ApiError::bad_json(format!(
            "unknown message type {other:?}: use act, claim-win, rematch, assist, chat, sync or ping"
        ))),
        None => Err(ApiError::bad_json(
            "the message has no \"type\": use act, claim-win, rematch, assist, chat, sync or ping",
        )),
    };
    if let Err(e) = result {
        bound.local(error_text(reference, &e));
    }
}

/// Moves the connection to the rematch of its finished game: the rematch
/// is made (or found) by the old game as over HTTP, the connection joins
/// the new game's seat with its token, and the old game lets go of it.
/// The client reads `rematch_seat` (with `"moved": true`) as the old
/// game's last message, then the new game's `welcome` and state on the
/// same socket. If the new game cannot take the connection, the answer
/// says `"moved": false` and the connection stays where it was; a refused
/// rematch is an `error`, as without `move`.
async fn move_to_rematch(
    doors: &Doors,
    bound: &mut Binding,
    (legal, account): (bool, Option<String>),
    reference: Value,
    next_out: &std::sync::Mutex<Option<Moved>>,
) {
    let made = bound.stub.rematch(Who::Conn(bound.conn)).await;
    let made = match made {
        Ok(made) => made,
        Err(e) => return bound.local(error_text(reference, &e)),
    };
    let joined = match doors.games.stub(&made.id).await {
        Ok(stub) => stub
            .connect(Some(made.token.clone()), account, legal)
            .await
            .map(|c| (stub, c)),
        Err(e) => Err(e),
    };
    let answer = made.answer(Some((&reference, Some(joined.is_ok()))));
    let answer: Utf8Bytes = answer.get().into();
    let Ok((stub, connected)) = joined else {
        // The connection stays: the answer is queued behind what the old
        // game sent, waiting for room rather than lost.
        if let Some(tx) = bound.own.upgrade() {
            let _ = tx.send(answer).await;
        }
        return;
    };
    // Nothing is awaited from here until the connection is bound to the
    // new game: the reader is dropped mid-move if the writer stops (the
    // client stopped reading, or left), and then `run` disconnects what
    // `bound` holds. A seat joined but not yet bound would stay held by a
    // connection that is gone (`connected` true, the game kept in memory).
    //
    // Handed to the writer before the old game lets go of the old queue,
    // so that the writer finds it when that queue closes; the answer is
    // written then, as the old game's last message (issue 16).
    let (new, out) = Binding::new(stub, connected);
    *next_out.lock().unwrap_or_else(|e| e.into_inner()) = Some(Moved { answer, out });
    let old = std::mem::replace(bound, new);
    // The old game lets go of the connection, waiting for room rather
    // than lost, in a task of its own so that the connection ending
    // meanwhile cannot lose it either (the old seat would stay held).
    tokio::spawn(async move {
        old.stub.disconnect(old.conn).await;
    });
}
