//! One task per live game: the [`GameActor`] owns the game's state, the
//! [`GameStub`]s talk to it through a bounded queue.
//!
//! Everything that touches a game goes through its actor, one message at a
//! time: actions (from a seat's connection, from HTTP, from a bot, from the
//! clock), joins, connections. So nothing needs a lock, and the order in
//! which actions are accepted is the order in which they are stored.
//!
//! An action is applied to the in-memory state, written to the database and
//! only then acknowledged and shown to anyone. If the write fails, the state
//! is rebuilt without it and the sender gets a `storage` error.

use crate::clocks::{Timeline, START_KEY};
use crate::error::ApiError;
use crate::hub::{Hub, NewGameSpec};
use crate::storage::{ActionRow, DeadlineRow, GameRow, SeatKind, SeatRow, StatusRow, Write};
use crate::{now_ms, summary_json};
use axum::extract::ws::Utf8Bytes;
use parlor_core::{
    Actor, Applied, Budget, Cancel, Clocks, DynAgent, DynMatch, ErrorKind, Expiry, GameEntry,
    Level, Resources, Seat, ToAct, Viewer,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// The internal error code of an action decided for a state that another
/// process has moved past (a clock's, a bot's): dropped, never shown.
/// Why an action was not stored ([`GameActor::act_as`]).
#[derive(Debug)]
enum NotStored {
    /// An action decided for an older state (a bot's, the clock's, a
    /// claimed forfeit) lost the race to another process's move: dropped;
    /// the game has caught up.
    MovedOn,
    /// Refused: the rules, the database or the game's state said no.
    Refused(ApiError),
}

impl From<ApiError> for NotStored {
    fn from(e: ApiError) -> Self {
        NotStored::Refused(e)
    }
}

impl From<NotStored> for ApiError {
    fn from(e: NotStored) -> Self {
        match e {
            NotStored::MovedOn => ApiError::new(
                "illegal_action",
                "the game moved on meanwhile (a move was made): look again",
            )
            .with_kind(ErrorKind::Illegal),
            NotStored::Refused(e) => e,
        }
    }
}

/// What a connection's writer receives: a text frame, already serialised.
pub(crate) type Outbound = Utf8Bytes;

/// Who is sending an action.
pub(crate) enum Who {
    /// A connection already bound to a seat (or a spectator's: refused).
    Conn(u64),
    /// An HTTP request with a seat token.
    Token(String),
    /// An HTTP request without a token (a spectator's; only the helper
    /// accepts it).
    Nobody,
}

/// Where the answer to an action goes.
pub(crate) enum ActReply {
    /// Into the connection's queue, as `ack`/`error` with the client's ref.
    Conn { conn: u64, reference: Value },
    /// To an HTTP handler.
    Http(oneshot::Sender<Result<(usize, Vec<Value>), ApiError>>),
}

pub(crate) struct Connected {
    pub conn: u64,
    pub out: mpsc::Receiver<Outbound>,
    /// A spectator's connection: its actions are refused before they
    /// reach the game's queue.
    pub spectator: bool,
}

pub(crate) enum Msg {
    Connect {
        token: Option<String>,
        legal: bool,
        reply: oneshot::Sender<Result<Connected, ApiError>>,
    },
    Disconnect {
        conn: u64,
    },
    Act {
        who: Who,
        action: Value,
        reply: ActReply,
    },
    /// Claim the win from a player who left (see `GameActor::claim_win`).
    ClaimWin {
        who: Who,
        reply: ActReply,
    },
    Sync {
        conn: u64,
    },
    State {
        token: Option<String>,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    Summary {
        reply: oneshot::Sender<Value>,
    },
    Join {
        token: String,
        name: Option<String>,
        player: Option<String>,
        reply: oneshot::Sender<Result<(usize, Value), ApiError>>,
    },
    Claim {
        seat: usize,
        name: Option<String>,
        player: Option<String>,
        reply: oneshot::Sender<Result<(usize, String, Value), ApiError>>,
    },
    SeatToken {
        seat: usize,
        reply: oneshot::Sender<Option<String>>,
    },
    Rematch {
        token: String,
        reply: oneshot::Sender<Result<(usize, String, Value), ApiError>>,
    },
    Record {
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    Abort {
        token: String,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// The seats of this game that other processes hold now (presence,
    /// from the hub: a notice or its poll).
    Presence {
        held: Vec<usize>,
    },
    /// Another process changed the game (PostgreSQL's `NOTIFY`, or the
    /// hub's safety-net poll): with `seq`, its record is that long now.
    /// Catch up if it is ahead of ours (see `GameActor::catch_up`).
    Notified {
        seq: Option<usize>,
    },
    /// This process took or lost the game's lease (see `crate::lease`).
    Hosting,
    /// A snapshot for the game's helper: who asks, and the record to
    /// rebuild the game from off the actor (see `crate::assist`).
    Assist {
        who: Who,
        reply: oneshot::Sender<Result<(Viewer, Value, Resources), ApiError>>,
    },
}

/// The handle to a live game, cloned into every connection.
#[derive(Clone)]
pub(crate) struct GameStub {
    tx: mpsc::Sender<Msg>,
    /// How many actions the actor holds, kept by the actor after every
    /// message: the hub wakes an actor about another process's change only
    /// when the database is ahead of it (its own writes come back as
    /// notices too, and the safety-net poll names every live game).
    seq: Arc<AtomicUsize>,
}

impl GameStub {
    /// Whether the database's `seq` is ahead of the actor.
    pub(crate) fn behind(&self, seq: usize) -> bool {
        seq > self.seq.load(Ordering::Relaxed)
    }

    /// Queues a message; a full queue hands the work back as `busy`.
    pub(crate) fn send(&self, msg: Msg) -> Result<(), ApiError> {
        self.tx.try_send(msg).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => ApiError::busy(),
            mpsc::error::TrySendError::Closed(_) => ApiError::gone(),
        })
    }

    /// Sends a request and waits for its answer.
    pub(crate) async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Msg,
    ) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.send(make(tx))?;
        rx.await.map_err(|_| ApiError::gone())
    }

    /// Queues a message, waiting for room.
    pub(crate) async fn send_wait(&self, msg: Msg) -> Result<(), ApiError> {
        self.tx.send(msg).await.map_err(|_| ApiError::gone())
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

struct Conn {
    viewer: Viewer,
    /// Whether state messages carry the seat's legal actions.
    legal: bool,
    out: mpsc::Sender<Outbound>,
}

/// A bot's copy of the game, so it can think off the actor's task while the
/// actor goes on accepting actions.
#[derive(Default)]
struct Bots {
    /// The copy, when it is home (not lent to a thinking task).
    shadow: Option<Shadow>,
    /// Raised to stop a decision nobody will use (the game was rebuilt,
    /// the actor stopped); a fresh flag for each decision.
    cancel: Cancel,
    /// Whether a decision is under way.
    thinking: bool,
    /// Actions accepted while the copy was away, to replay on its return.
    pending: Vec<(Actor, Value)>,
    /// Bot seats that passed (or failed) at this seq: not asked again
    /// until something changes.
    passed: Vec<(Seat, usize)>,
    /// Seat the next simultaneous-phase decision starts looking from.
    next: usize,
    /// A human seat whose turn clock ran out at this seq: its bot moves.
    forced: Option<(Seat, usize)>,
    /// The game was rebuilt while the copy was away: drop it on return.
    discard: bool,
}

impl Drop for Bots {
    /// The game left memory (or the server stops): a decision under way is
    /// of no use to anyone.
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The bots' copy of the game and the bots themselves: one agent per bot
/// seat, kept for the life of the game so that it may remember what it
/// has seen. A copy made again from the record (after a restart, or when
/// it fell out of step) starts with new agents, which catch up from the
/// game's history before their first decision.
struct Shadow {
    m: Box<dyn DynMatch>,
    /// Behind a lock only so that the actor stays `Sync` (agents are
    /// `Send`); one thread uses them at a time.
    agents: std::sync::Mutex<std::collections::BTreeMap<usize, Box<dyn DynAgent>>>,
}

impl Shadow {
    fn new(m: Box<dyn DynMatch>) -> Self {
        Shadow {
            m,
            agents: Default::default(),
        }
    }
}

struct BotResult {
    shadow: Option<Shadow>,
    seat: Seat,
    at_seq: usize,
    action: Result<Option<Value>, String>,
}

pub(crate) struct GameActor {
    hub: Hub,
    entry: Arc<dyn GameEntry>,
    m: Box<dyn DynMatch>,
    /// The word lists this game uses (the server's, plus an uploaded one).
    resources: Resources,
    row: GameRow,
    seats: Vec<SeatRow>,
    conns: HashMap<u64, Conn>,
    next_conn: u64,
    /// The clocks of the seats and the game's round (see `crate::clocks`),
    /// once play has started; `None` before (or for a game with no clock).
    clocks: Option<Clocks>,
    /// When play started for the clocks (stored, see `crate::clocks`).
    start_ms: Option<i64>,
    /// What the clocks are rebuilt from.
    timeline: Timeline,
    /// Seats whose flag fell at this seq and whose forfeit was tried.
    flag_done: Vec<(Seat, usize)>,
    /// A clock key whose action the game refused: not retried.
    dead_clock: Option<String>,
    bots: Bots,
    bot_tx: mpsc::UnboundedSender<BotResult>,
    last_by: Option<Actor>,
    last_events: Applied,
    /// Per seat: since when no connection holds it, here or in another
    /// process (None while one does).
    away_since: Vec<Option<i64>>,
    /// Per seat: held by a connection to another process (presence, see
    /// `crate::presence`), as last read or told.
    remote: Vec<bool>,
    /// Per seat: whether this process's presence says it holds the seat
    /// (what it last told the presence tracker).
    local_told: Vec<bool>,
    /// The game's clocks are to start, with a round clock or banks, but a
    /// human seat is not there yet (neither arrived nor connected): the
    /// clocks wait, and so does play.
    held: bool,
    /// Per seat: whether its player has arrived for the clock's sake
    /// (joined; bots always have). A rematch keeps its seats joined (they
    /// stay reserved for the same players) but its players have not
    /// arrived until they join or connect, so its clock waits for them.
    arrived: Vec<bool>,
    /// The claim window (seat, seq) everyone was told about.
    claim_told: Option<(Seat, usize)>,
    /// Shared with the stubs: see [`GameStub::behind`].
    seq: Arc<AtomicUsize>,
    /// When a refused action last sent this game to the database to catch
    /// up (see [`GameActor::act_as`]).
    refusal_caught_up: Option<Instant>,
    /// When this process last tried to take the game's lease (shared
    /// databases, see `crate::lease`).
    lease_tried: Option<Instant>,
    /// Memory may no longer match the database (a failed write could not
    /// be undone, nor the game rebuilt from its record): the actor stops
    /// and the hub forgets the game, so the next visitor loads it as
    /// stored.
    stale: bool,
}

/// A refused action sends the game to the database to catch up at most
/// this often: the database's change notices bring other processes' moves
/// anyway, and a client sending refused actions must not cost a read each.
const REFUSAL_CATCH_UP_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

impl GameActor {
    /// Starts the actor task for a game whose state `m` matches `row` and
    /// the stored actions. Returns its stub.
    pub(crate) fn spawn(
        hub: Hub,
        entry: Arc<dyn GameEntry>,
        m: Box<dyn DynMatch>,
        resources: Resources,
        row: GameRow,
        seats: Vec<SeatRow>,
        timeline: Timeline,
    ) -> GameStub {
        let (tx, rx) = mpsc::channel(hub.settings().game_queue);
        let (bot_tx, bot_rx) = mpsc::unbounded_channel();
        let seq = Arc::new(AtomicUsize::new(m.actions_len()));
        let mut actor = GameActor {
            hub,
            entry,
            m,
            resources,
            row,
            seats,
            conns: HashMap::new(),
            next_conn: 1,
            clocks: None,
            start_ms: None,
            timeline,
            flag_done: Vec::new(),
            dead_clock: None,
            bots: Bots::default(),
            bot_tx,
            last_by: None,
            last_events: Applied::default(),
            away_since: Vec::new(),
            remote: Vec::new(),
            local_told: Vec::new(),
            held: false,
            stale: false,
            arrived: Vec::new(),
            claim_told: None,
            seq: seq.clone(),
            refusal_caught_up: None,
            lease_tried: None,
        };
        let now = now_ms();
        actor.away_since = vec![Some(now); actor.seats.len()];
        actor.remote = vec![false; actor.seats.len()];
        actor.local_told = vec![false; actor.seats.len()];
        // A rematch nobody has moved in whose clock has not started: its
        // players come again (join or connect) before its clock runs.
        let fresh_rematch = actor.row.rematch_of.is_some()
            && actor.m.actions_len() == 0
            && actor.row.status.deadline.is_none();
        actor.arrived = actor
            .seats
            .iter()
            .map(|s| s.kind == SeatKind::Bot || (s.joined && !fresh_rematch))
            .collect();
        tokio::spawn(actor.run(rx, bot_rx));
        GameStub { tx, seq }
    }

    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Msg>,
        mut bot_rx: mpsc::UnboundedReceiver<BotResult>,
    ) {
        let mut shutdown = self.hub.shutdown_signal();
        // Who is here through other processes, before any countdown runs.
        if self.hub.store().shared() {
            match self.hub.remote_seats(&self.row.id).await {
                Ok(seats) => {
                    self.set_remote(&seats).await;
                }
                Err(e) => tracing::warn!("game {}: cannot read presence: {e}", self.row.id),
            }
        }
        // Clocks stored before a restart continue from their stored start
        // and the stored actions' times (a row of an older version holds
        // its round clock's start: stored again as the start of play).
        match self.row.status.deadline.clone() {
            Some(d) => {
                self.start_ms = Some(d.started_ms);
                self.rebuild_clocks();
                if d.key != START_KEY && !self.row.aborted {
                    let _ = self.store_status().await;
                }
            }
            None => {
                self.start_clocks().await;
            }
        }
        self.maybe_bot();
        let idle = self.hub.settings().idle_unload;
        let mut last_busy = Instant::now();
        loop {
            self.seq.store(self.m.actions_len(), Ordering::Relaxed);
            self.lease_follow().await;
            let wake = self.next_wake().map(instant_at);
            let lease_retry = self.lease_retry_at();
            tokio::select! {
                _ = sleep_until_opt(lease_retry) => {}
                msg = rx.recv() => {
                    let Some(msg) = msg else { break };
                    last_busy = Instant::now();
                    self.handle(msg).await;
                }
                Some(result) = bot_rx.recv() => {
                    last_busy = Instant::now();
                    self.bot_done(result).await;
                }
                _ = sleep_until_opt(wake) => {
                    self.clock_woke().await;
                }
                _ = tokio::time::sleep_until(last_busy + idle),
                    if self.conns.is_empty() && !self.bots.thinking
                        && self.next_wake().is_none() => {
                    // Nobody is here and nothing will happen by itself:
                    // leave memory; the next visitor reloads from the database.
                    if self.hub.unload(&self.row.id, &rx) {
                        rx.close();
                        while let Ok(msg) = rx.try_recv() {
                            self.handle(msg).await;
                        }
                        self.hub.leases().release(self.hub.store(), &self.row.id).await;
                        break;
                    }
                    last_busy = Instant::now();
                }
                _ = shutdown.changed() => break,
            }
            if self.stale {
                tracing::warn!(
                    "game {}: leaving memory after a failed write it could not undo; \
                     the next visitor reloads it from the database",
                    self.row.id
                );
                self.hub.forget(&self.row.id);
                break;
            }
        }
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Connect {
                token,
                legal,
                reply,
            } => {
                // A newcomer gets the state as stored, whoever stored it.
                self.catch_up().await;
                let r = self.connect(token, legal);
                let conn = r.as_ref().ok().map(|c| c.conn);
                let _ = reply.send(r);
                // A watcher wakes a game that bots play alone.
                self.maybe_bot();
                // The first state goes after the clock's start, if this
                // seat was the last one missing: it carries the view.
                if !self.start_clocks().await {
                    if let Some(conn) = conn {
                        if let Some((v, legal)) = self.conns.get(&conn).map(|c| (c.viewer, c.legal))
                        {
                            let text = self.state_text(v, legal);
                            self.send_to(conn, text);
                        }
                    }
                }
            }
            Msg::Disconnect { conn } => {
                if let Some(c) = self.conns.remove(&conn) {
                    if matches!(c.viewer, Viewer::Seat(_)) {
                        self.broadcast_seats();
                    }
                }
            }
            Msg::Act { who, action, reply } => {
                self.learn_token(&who).await;
                let result = match self.seat_of_who(&who) {
                    Ok(seat) => self.act(seat, action).await,
                    Err(e) => Err(e),
                };
                self.reply_act(reply, result);
            }
            Msg::ClaimWin { who, reply } => {
                self.learn_token(&who).await;
                let result = match self.seat_of_who(&who) {
                    Ok(seat) => self.claim_win(seat).await,
                    Err(e) => Err(e),
                };
                self.reply_act(reply, result);
            }
            Msg::Sync { conn } => {
                if let Some((v, legal)) = self.conns.get(&conn).map(|c| (c.viewer, c.legal)) {
                    let text = self.state_text(v, legal);
                    self.send_to(conn, text);
                }
            }
            Msg::State { token, reply } => {
                self.catch_up().await;
                let r = match token.filter(|t| !t.is_empty()) {
                    None => Ok(self.state_json(Viewer::Spectator, false)),
                    Some(t) => match self.seat_of_token(&t) {
                        Some(s) => Ok(self.state_json(Viewer::Seat(s), true)),
                        None => Err(ApiError::bad_token()),
                    },
                };
                let _ = reply.send(r);
            }
            Msg::Summary { reply } => {
                let _ = reply.send(self.summary());
            }
            Msg::Join {
                token,
                name,
                player,
                reply,
            } => {
                let token = Who::Token(token);
                self.learn_token(&token).await;
                let r = match self.seat_of_who(&token) {
                    Err(e) => Err(e),
                    Ok(seat) => self
                        .take_seat(seat.0, name, player)
                        .await
                        .map(|()| (seat.0, self.summary())),
                };
                let _ = reply.send(r);
            }
            Msg::Claim {
                seat,
                name,
                player,
                reply,
            } => {
                let r = self.claim(seat, name, player).await;
                let _ = reply.send(r);
            }
            Msg::SeatToken { seat, reply } => {
                let _ = reply.send(self.seats.get(seat).and_then(|s| s.token.clone()));
            }
            Msg::Rematch { token, reply } => {
                self.catch_up().await;
                let r = self.rematch(token).await;
                let _ = reply.send(r);
            }
            Msg::Abort { token, reply } => {
                self.catch_up().await;
                let r = self.abort(token).await;
                let changed = r.is_ok();
                let _ = reply.send(r);
                if changed {
                    self.broadcast_state();
                }
            }
            Msg::Assist { who, reply } => {
                self.learn_token(&who).await;
                let viewer = match who {
                    Who::Conn(conn) => self
                        .conns
                        .get(&conn)
                        .map(|c| c.viewer)
                        .ok_or_else(ApiError::gone),
                    Who::Token(t) if t.is_empty() => Ok(Viewer::Spectator),
                    Who::Token(t) => self
                        .seat_of_token(&t)
                        .map(Viewer::Seat)
                        .ok_or_else(ApiError::bad_token),
                    Who::Nobody => Ok(Viewer::Spectator),
                };
                let _ =
                    reply.send(viewer.map(|v| (v, self.m.record_json(), self.resources.clone())));
            }
            Msg::Presence { held } => {
                self.set_remote(&held).await;
            }
            Msg::Hosting => {
                // Taken over: catch up with what the last host stored, and
                // go on; lost: `maybe_bot` and the clocks see it.
                if self.hosting() {
                    self.catch_up().await;
                }
                self.maybe_bot();
            }
            Msg::Notified { seq } => {
                let behind = match seq {
                    Some(seq) => seq > self.m.actions_len(),
                    None => true,
                };
                if behind {
                    self.catch_up().await;
                }
            }
            Msg::Record { reply } => {
                if self.m.to_act() != ToAct::Over && !self.row.aborted {
                    self.catch_up().await;
                }
                let r = if self.m.outcome().is_some()
                    || self.m.to_act() == ToAct::Over
                    || self.row.aborted
                {
                    Ok(self.m.record_json())
                } else {
                    Err(ApiError::new(
                        "not_over",
                        "the record holds hidden information: it is available once the game is over",
                    ))
                };
                let _ = reply.send(r);
            }
        }
    }

    /// The seat acting through `who` (spectators and strangers: refused).
    fn seat_of_who(&self, who: &Who) -> Result<Seat, ApiError> {
        match who {
            Who::Conn(conn) => match self.conns.get(conn).map(|c| c.viewer) {
                Some(Viewer::Seat(s)) => Ok(s),
                Some(Viewer::Spectator) => Err(ApiError::new(
                    "spectator",
                    "spectators cannot act: join with a seat token",
                )),
                None => Err(ApiError::gone()),
            },
            Who::Token(t) => self.seat_of_token(t).ok_or_else(ApiError::bad_token),
            Who::Nobody => Err(ApiError::bad_token()),
        }
    }

    /// Answers an action (or a claim): `ack`/`error` on the connection, or
    /// the HTTP handler's result; then shows an accepted one.
    fn reply_act(&mut self, reply: ActReply, result: Result<(usize, Vec<Value>), ApiError>) {
        let ok = result.is_ok();
        match reply {
            ActReply::Http(tx) => {
                let _ = tx.send(result);
            }
            ActReply::Conn { conn, reference } => {
                let msg = match &result {
                    Ok((seq, _)) => json!({"type": "ack", "ref": reference, "seq": seq}),
                    Err(e) => crate::ws::error_json(reference.clone(), e),
                };
                self.send_to(conn, msg.to_string().into());
            }
        }
        if ok {
            self.after_change();
        }
    }

    /// The human seats other than `seat` held by a connection now (to
    /// this process or another): who may claim the win from `seat` once
    /// its absent countdown has run out.
    fn claimants(&self, seat: Seat) -> Vec<usize> {
        self.seats
            .iter()
            .filter(|s| s.kind == SeatKind::Human && s.seat != seat.0 && self.here(s.seat))
            .map(|s| s.seat)
            .collect()
    }

    /// Whether a connection to this process holds `seat`.
    fn held_here(&self, seat: usize) -> bool {
        self.conns
            .values()
            .any(|c| c.viewer == Viewer::Seat(Seat(seat)))
    }

    /// Whether a connection holds `seat`, to this process or (as last
    /// known) to another.
    fn here(&self, seat: usize) -> bool {
        self.held_here(seat) || self.remote.get(seat).copied().unwrap_or(false)
    }

    /// Takes the seats other processes hold (`held`) as known; when that
    /// changes who is here, everyone is told (and a clock waiting for
    /// players may start).
    async fn set_remote(&mut self, held: &[usize]) {
        let remote: Vec<bool> = (0..self.seats.len()).map(|s| held.contains(&s)).collect();
        if remote == self.remote {
            return;
        }
        self.remote = remote;
        self.broadcast_seats();
        if !self.start_clocks().await {
            // The countdown may have stopped or started: show it.
            self.broadcast_state();
        }
    }

    /// Before an absent countdown acts against `seat` (its bot moves, a
    /// claim window opens, a claim is made): reads whether a connection to
    /// another process holds it now (shared databases only). The notices
    /// and the poll keep `remote` close; this read makes the decision on
    /// the database's word. A failed read does not hold the game up.
    async fn held_elsewhere(&mut self, seat: Seat) -> bool {
        if !self.hub.store().shared() {
            return false;
        }
        match self.hub.remote_seats(&self.row.id).await {
            Ok(seats) => {
                self.set_remote(&seats).await;
                seats.contains(&seat.0)
            }
            Err(e) => {
                tracing::warn!(
                    "game {}: cannot read presence before the absent countdown acts: {e}",
                    self.row.id
                );
                false
            }
        }
    }

    /// "Claim a win from one who left": while the claim window is open
    /// (the absent countdown of a seat to act ran out, the game offers a
    /// forfeit for it, the claimant is another player who is here), the
    /// game's forfeit is applied as the referee. Also "claim the win when
    /// the opponent's time runs out": another human seat whose bank is
    /// empty ([`Clocks::flagged`]) and whom the game can put out now, for
    /// a process that has not yet acted on the flag itself.
    async fn claim_win(&mut self, claimant: Seat) -> Result<(usize, Vec<Value>), ApiError> {
        let not = |m: &str| ApiError::new("not_claimable", m.to_string());
        let flagged = self.flagged_claim(claimant);
        let seat = match (self.claim_open(), flagged) {
            (_, Some(seat)) => seat,
            (Some(seat), None) => {
                if !self.claimants(seat).contains(&claimant.0) {
                    return Err(not(
                        "only another player who is here (connected with their seat) can claim the win",
                    ));
                }
                if self.held_elsewhere(seat).await {
                    return Err(not(
                        "that player is back (connected through another server): there is no win to claim",
                    ));
                }
                seat
            }
            (None, None) => {
                return Err(not(
                    "there is no win to claim now: a claim opens when the absent player's countdown runs out on their turn, or an opponent's bank runs out, where the game can put that seat out",
                ))
            }
        };
        let action = self
            .m
            .forfeit_json(seat)
            .ok_or_else(|| not("the game offers no forfeit for that seat now"))?;
        self.act_as(Actor::Referee, action, false)
            .await
            .map(|(seq, applied)| (seq, applied.for_viewer(Viewer::Seat(claimant)).to_vec()))
            .map_err(|e| match e {
                NotStored::MovedOn => {
                    not("the game moved on meanwhile (a move was made): look again")
                }
                NotStored::Refused(e) => e,
            })
    }

    /// A human seat other than `claimant` (a human seat) whose flag has
    /// fallen and whom the game can put out now.
    fn flagged_claim(&self, claimant: Seat) -> Option<Seat> {
        if self.human(claimant.0) && !self.row.aborted {
            let clocks = self.clocks.as_ref()?;
            return clocks
                .flagged(now_ms())
                .into_iter()
                .find(|s| *s != claimant && self.human(s.0) && self.m.forfeit_json(*s).is_some());
        }
        None
    }

    fn human(&self, seat: usize) -> bool {
        self.seats
            .get(seat)
            .is_some_and(|s| s.kind == SeatKind::Human)
    }

    /// A token this actor does not know may be a seat's claimed through
    /// another process (shared databases: an open seat gets its token when
    /// claimed): then it reads the seats afresh first. Only while some
    /// seat of ours is still open, so a wrong token costs a read only
    /// then.
    async fn learn_token(&mut self, who: &Who) {
        let Who::Token(t) = who else { return };
        if !t.is_empty()
            && self.seat_of_token(t).is_none()
            && self
                .seats
                .iter()
                .any(|s| s.kind == SeatKind::Human && s.token.is_none())
        {
            self.catch_up().await;
        }
    }

    fn seat_of_token(&self, token: &str) -> Option<Seat> {
        if token.is_empty() {
            return None;
        }
        self.seats
            .iter()
            .find(|s| s.token.as_deref() == Some(token))
            .map(|s| Seat(s.seat))
    }

    fn connect(&mut self, token: Option<String>, legal: bool) -> Result<Connected, ApiError> {
        let viewer = match token.filter(|t| !t.is_empty()) {
            None => Viewer::Spectator,
            Some(t) => Viewer::Seat(self.seat_of_token(&t).ok_or_else(ApiError::bad_token)?),
        };
        let (tx, rx) = mpsc::channel(self.hub.settings().conn_queue);
        let conn = self.next_conn;
        self.next_conn += 1;
        let you = match viewer {
            Viewer::Seat(s) => json!({"seat": s.0}),
            Viewer::Spectator => json!({"spectator": true}),
        };
        self.conns.insert(
            conn,
            Conn {
                viewer,
                legal,
                out: tx,
            },
        );
        let welcome = json!({"type": "welcome", "you": you, "game": self.summary()});
        self.send_to(conn, welcome.to_string().into());
        // The whole state follows (see `Msg::Connect`).
        if matches!(viewer, Viewer::Seat(_)) {
            self.broadcast_seats();
        }
        Ok(Connected {
            conn,
            out: rx,
            spectator: viewer == Viewer::Spectator,
        })
    }

    /// Stops a game before its first move: over, without an outcome.
    async fn abort(&mut self, token: String) -> Result<Value, ApiError> {
        self.seat_of_token(&token).ok_or_else(ApiError::bad_token)?;
        if self.row.aborted {
            return Ok(self.summary());
        }
        if self.m.to_act() == ToAct::Over {
            return Err(
                ApiError::new("illegal_action", "the game is over").with_kind(ErrorKind::GameOver)
            );
        }
        if self.m.actions_len() > 0 {
            return Err(ApiError::new(
                "illegal_action",
                "moves have been made: only a game nobody has moved in can be aborted",
            )
            .with_kind(ErrorKind::Illegal));
        }
        self.row.aborted = true;
        let status = self.status_row();
        let write = Write::Abort {
            game_id: self.row.id.clone(),
            status: status.clone(),
        };
        match self.hub.store().try_write(write).await {
            Ok(true) => {}
            Ok(false) => {
                // Another process stored a move (or the abort) first.
                self.row.aborted = false;
                self.catch_up().await;
                if self.row.aborted {
                    return Ok(self.summary());
                }
                return Err(ApiError::new(
                    "illegal_action",
                    "moves have been made: only a game nobody has moved in can be aborted",
                )
                .with_kind(ErrorKind::Illegal));
            }
            Err(e) => {
                self.row.aborted = false;
                return Err(ApiError::storage(e));
            }
        }
        self.row.status = status;
        self.clocks = None;
        self.last_by = Some(Actor::Referee);
        self.last_events = Applied::default();
        Ok(self.summary())
    }

    /// A person's action: see [`GameActor::act_as`].
    async fn act(&mut self, seat: Seat, action: Value) -> Result<(usize, Vec<Value>), ApiError> {
        let (seq, applied) = self
            .act_as(Actor::Seat(seat), action, true)
            .await
            .map_err(ApiError::from)?;
        Ok((seq, applied.for_viewer(Viewer::Seat(seat)).to_vec()))
    }

    /// Applies, stores, and only then reports an action. On a storage error
    /// the state is rebuilt without the action.
    ///
    /// Optimistic concurrency with other processes on the same database:
    /// the action is stored at the next index only if that index is free.
    /// If another process stored one there first, this game catches up
    /// with the database and then, with `recheck` (a person's action),
    /// checks the action again against the new state: still legal, it is
    /// stored at the new index; no longer legal, the sender gets the rules'
    /// refusal as for any illegal action. Without `recheck` (the clock's,
    /// a bot's or a referee's action, decided for the old state) it is
    /// dropped: [`NotStored::MovedOn`]. A person's action the rules refuse is also
    /// checked again after a catch-up, in case this process had not yet
    /// seen another's moves.
    async fn act_as(
        &mut self,
        actor: Actor,
        action: Value,
        recheck: bool,
    ) -> Result<(usize, Applied), NotStored> {
        let mut caught_up = false;
        for _ in 0..8 {
            if self.row.aborted {
                return Err(ApiError::new("illegal_action", "the game was aborted")
                    .with_kind(ErrorKind::GameOver)
                    .into());
            }
            if self.held {
                return Err(ApiError::new(
                    "waiting",
                    "waiting for players: the game's clock starts, and play with it, once every seat is taken",
                )
                .into());
            }
            let now = now_ms();
            let events = match self.m.apply_json_at(actor, &action, Some(now)) {
                Ok(events) => events,
                Err(e) => {
                    if recheck && !caught_up && self.refusal_may_be_stale(e.kind) {
                        caught_up = true;
                        self.refusal_caught_up = Some(Instant::now());
                        if self.catch_up().await {
                            continue;
                        }
                    }
                    return Err(ApiError::action(&e).into());
                }
            };
            let seq = self.m.actions_len();
            let old = (self.clocks.clone(), self.start_ms, self.held);
            self.clocks_follow(actor, now);
            let status = self.status_row();
            let write = Write::Action {
                game_id: self.row.id.clone(),
                action: ActionRow {
                    idx: seq - 1,
                    actor: serde_json::to_value(actor).unwrap_or(Value::Null),
                    action: action.clone(),
                    at_ms: now,
                },
                status: status.clone(),
            };
            match self.hub.store().try_write(write).await {
                Ok(true) => {}
                Ok(false) => {
                    // Another process stored action `seq - 1` first.
                    (self.clocks, self.start_ms, self.held) = old;
                    self.rollback_last().await;
                    if self.stale {
                        return Err(ApiError::gone().into());
                    }
                    self.catch_up().await;
                    caught_up = true;
                    if !recheck {
                        return Err(NotStored::MovedOn);
                    }
                    continue;
                }
                Err(e) => {
                    // As the record holds it (the game's own form of it).
                    let ours = self.m.record_json()["actions"][seq - 1].clone();
                    (self.clocks, self.start_ms, self.held) = old;
                    self.rollback_last().await;
                    if self.stale {
                        return Err(ApiError::storage(e).into());
                    }
                    // A connection that broke during the commit leaves it
                    // unknown whether the action went in: on a shared
                    // database, the database says (SQLite commits or not).
                    if self.catch_up().await
                        && self.m.record_json()["actions"].get(seq - 1) == Some(&ours)
                    {
                        return Ok((seq, events));
                    }
                    return Err(ApiError::storage(e).into());
                }
            }
            self.row.status = status;
            self.last_by = Some(actor);
            self.last_events = events.clone();
            self.bots_follow(actor, &action);
            return Ok((seq, events));
        }
        Err(ApiError::busy().into())
    }

    /// Whether a refusal of this kind could come from this process not
    /// having seen another's moves yet, and it is time to look: a
    /// malformed action or an unknown word is refused whatever the state,
    /// so it never costs a database read.
    fn refusal_may_be_stale(&self, kind: ErrorKind) -> bool {
        let depends_on_state = matches!(
            kind,
            ErrorKind::NotYourTurn
                | ErrorKind::GameOver
                | ErrorKind::Illegal
                | ErrorKind::Ambiguous
        );
        depends_on_state
            && self.hub.store().shared()
            && self
                .refusal_caught_up
                .is_none_or(|at| at.elapsed() >= REFUSAL_CATCH_UP_EVERY)
    }

    /// Keeps the bots' copy of the game in step with an accepted action.
    fn bots_follow(&mut self, actor: Actor, action: &Value) {
        if self.bots.thinking {
            self.bots.pending.push((actor, action.clone()));
        } else if let Some(shadow) = self.bots.shadow.as_mut() {
            if shadow.m.apply_json(actor, action).is_err() {
                // A copy that disagrees is useless; a new one is made when needed.
                self.bots.shadow = None;
            }
        }
    }

    /// Brings the game up to date with the database, where another process
    /// (PostgreSQL only) may have stored actions, taken seats, made the
    /// rematch, aborted the game or started its clock. The stored actions
    /// were checked by the process that stored them: they are applied as
    /// a replay applies a record. Everyone connected here is sent the new
    /// state. Returns whether anything changed. Nothing new is harmless.
    async fn catch_up(&mut self) -> bool {
        if !self.hub.store().shared() {
            return false;
        }
        let id = self.row.id.clone();
        let from = self.m.actions_len();
        let g = match self
            .hub
            .store()
            .read(move |s| s.load_since(&id, from))
            .await
        {
            Ok(Some(g)) => g,
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!(
                    "game {}: cannot catch up with the database: {e}",
                    self.row.id
                );
                return false;
            }
        };
        let mut changed = false;
        let mut seats_changed = false;
        for s in g.seats {
            let n = s.seat;
            if let Some(mine) = self.seats.get_mut(n) {
                if *mine != s {
                    if s.joined && !mine.joined {
                        if let Some(a) = self.arrived.get_mut(n) {
                            *a = true;
                        }
                    }
                    *mine = s;
                    seats_changed = true;
                }
            }
        }
        if g.row.rematch.is_some() && g.row.rematch != self.row.rematch {
            self.row.rematch = g.row.rematch.clone();
            let text: Outbound = json!({"type": "rematch", "game": g.row.rematch})
                .to_string()
                .into();
            let conns: Vec<u64> = self.conns.keys().copied().collect();
            for c in conns {
                self.send_to(c, text.clone());
            }
        }
        if g.row.aborted && !self.row.aborted {
            self.row.aborted = true;
            self.last_by = Some(Actor::Referee);
            self.last_events = Applied::default();
            changed = true;
        }
        for a in &g.actions {
            if a.idx != self.m.actions_len() {
                continue;
            }
            let applied = serde_json::from_value::<Actor>(a.actor.clone())
                .map_err(|e| e.to_string())
                .and_then(|actor| {
                    self.m
                        .apply_json_at(actor, &a.action, Some(a.at_ms))
                        .map(|events| (actor, events))
                        .map_err(|e| e.to_string())
                });
            match applied {
                Ok((actor, events)) => {
                    self.last_by = Some(actor);
                    self.last_events = events;
                    self.clocks_follow(actor, a.at_ms);
                    self.bots_follow(actor, &a.action);
                    changed = true;
                }
                Err(e) => {
                    // Cannot happen with a record the game itself wrote;
                    // the database is the truth: rebuild from it whole.
                    tracing::warn!(
                        "game {}: stored action {} does not apply here ({e}); rebuilding from the record",
                        self.row.id, a.idx
                    );
                    self.rebuild().await;
                    changed = true;
                    break;
                }
            }
        }
        // The clocks' start as stored (another process may have started
        // them).
        if let Some(d) = g.row.status.deadline.filter(|d| d.key == START_KEY) {
            if self.start_ms != Some(d.started_ms) {
                self.start_ms = Some(d.started_ms);
                self.held = false;
                self.rebuild_clocks();
                changed = true;
            }
        }
        if changed || seats_changed {
            if self.clocks.is_none() {
                // Not started by anyone yet: maybe now (stored with the
                // next action, or by the next arrival).
                self.try_start(now_ms());
            }
            self.row.status = self.status_row();
            if seats_changed {
                self.broadcast_seats();
            }
            self.broadcast_state();
            self.maybe_bot();
        }
        changed || seats_changed
    }

    /// Replaces the state by a replay of the whole stored record. Returns
    /// whether it did.
    async fn rebuild(&mut self) -> bool {
        let id = self.row.id.clone();
        let Ok(Some(g)) = self.hub.store().read(move |s| s.load(&id)).await else {
            return false;
        };
        match crate::clocks::replay(&*self.entry, &g.row, &g.actions, &self.resources) {
            Ok((m, timeline)) => {
                self.m = m;
                self.timeline = timeline;
                self.rebuild_clocks();
                self.bots.shadow = None;
                self.bots.pending.clear();
                self.bots.discard = self.bots.thinking;
                // A decision for the old copy is of no use: stop it now.
                self.bots.cancel.cancel();
                true
            }
            Err(e) => {
                tracing::warn!("game {}: cannot replay its stored record: {e}", self.row.id);
                false
            }
        }
    }

    /// Rebuilds the state from its record minus the last action (one that
    /// was not stored). If that replay fails, the state is rebuilt from the
    /// database; if that fails too, the actor is marked `stale`, so it
    /// stops before anyone sees or builds on the unstored action.
    async fn rollback_last(&mut self) {
        let mut record = self.m.record_json();
        if let Some(actions) = record.get_mut("actions").and_then(Value::as_array_mut) {
            actions.pop();
        }
        self.bots.shadow = None;
        match self.entry.replay(&record, &self.resources) {
            Ok(m) => {
                self.m = m;
                self.timeline.steps.truncate(self.m.actions_len());
                return;
            }
            Err(e) => tracing::warn!(
                "game {}: cannot rebuild after a failed write ({e}); \
                 rebuilding from the database",
                self.row.id
            ),
        }
        if !self.rebuild().await {
            self.stale = true;
        }
    }

    /// Stores the game's status (a clock's start) at its stored seq. When
    /// another process changed the game since (started the clock itself,
    /// or moved on), theirs stands and the game catches up instead.
    async fn store_status(&mut self) -> Result<(), crate::storage::StorageError> {
        let status = self.status_row();
        let write = Write::Status {
            game_id: self.row.id.clone(),
            status: status.clone(),
        };
        if self.hub.store().try_write(write).await? {
            self.row.status = status;
        } else {
            self.catch_up().await;
        }
        Ok(())
    }

    /// After any accepted action: show it, then let clocks and bots react.
    fn after_change(&mut self) {
        self.broadcast_state();
        self.maybe_bot();
    }

    fn status_row(&self) -> StatusRow {
        StatusRow {
            seq: self.m.actions_len(),
            to_act: serde_json::to_value(self.m.to_act()).unwrap_or(Value::Null),
            outcome: self
                .m
                .outcome()
                .map(|o| serde_json::to_value(o).unwrap_or(Value::Null)),
            over: self.m.to_act() == ToAct::Over || self.row.aborted,
            deadline: self
                .start_ms
                .filter(|_| !self.row.aborted)
                .map(|started_ms| DeadlineRow {
                    key: START_KEY.to_string(),
                    started_ms,
                }),
            updated_ms: now_ms(),
        }
    }

    // ---- clocks (the model is `parlor_core::Clocks`, see `crate::clocks`) ----

    /// The game's deadline now, unless its action was refused before.
    fn round_now(&self) -> Option<(String, f64)> {
        crate::clocks::round_of(&*self.m).filter(|(k, _)| self.dead_clock.as_ref() != Some(k))
    }

    /// The clocks rebuilt from the stored start and the timeline.
    fn rebuild_clocks(&mut self) {
        self.clocks = self.start_ms.and_then(|start| {
            let n = self.seats.len();
            let clocks = self.timeline.clocks(&self.row.time_control, n, start);
            if clocks.is_none() {
                tracing::warn!(
                    "game {}: its stored time control is refused; its clocks do not run",
                    self.row.id
                );
            }
            clocks
        });
    }

    /// After an action (applied to `self.m`) by `actor` at `at_ms`: the
    /// timeline and the clocks follow, or the clocks start now if they may.
    fn clocks_follow(&mut self, actor: Actor, at_ms: i64) {
        let step = self.timeline.push(&*self.m, actor, at_ms).clone();
        let round = self.round_now();
        match self.clocks.as_mut() {
            Some(clocks) => {
                let round = round.as_ref().map(|(k, s)| (k.as_str(), *s));
                clocks.on_action(step.at_ms, step.actor, &step.to_act, round);
            }
            None => {
                self.try_start(at_ms);
            }
        }
    }

    /// Starts the clocks at `at_ms` if the game has any (a time control for
    /// the seats, or a round clock now) and may start: a round clock or a
    /// bank waits until every human seat is there (`held`); a turn clock or
    /// an absent countdown alone does not wait. Does not store the start
    /// (the caller's status write does). Returns whether they started.
    fn try_start(&mut self, at_ms: i64) -> bool {
        self.held = false;
        if self.clocks.is_some() || self.row.aborted || self.m.to_act() == ToAct::Over {
            return false;
        }
        let round = self.round_now().is_some();
        let tc = &self.row.time_control;
        if !round && tc.is_untimed() {
            return false;
        }
        if (round || tc.bank_seconds.is_some()) && !self.waiting_for().is_empty() {
            // A friend who opens the invite late loses no time.
            self.held = true;
            return false;
        }
        self.start_ms = Some(at_ms);
        self.rebuild_clocks();
        true
    }

    /// The human seats not there yet: neither arrived (join, claim, the
    /// creator's seat; in a fresh rematch only a join counts) nor held by a
    /// connection now. Bots are always there.
    fn waiting_for(&self) -> Vec<usize> {
        self.seats
            .iter()
            .filter(|s| {
                s.kind == SeatKind::Human
                    && !self.arrived.get(s.seat).copied().unwrap_or(s.joined)
                    && !self.here(s.seat)
            })
            .map(|s| s.seat)
            .collect()
    }

    /// The seats a held clock waits for (empty when nothing waits).
    fn waiting_json(&self) -> Value {
        if self.held {
            json!(self.waiting_for())
        } else {
            json!([])
        }
    }

    /// After someone arrived (or at load): starts the clocks if they may
    /// start now, stores the start (so a restart keeps it) and tells
    /// everyone. Returns whether it did (and so sent everyone the state).
    async fn start_clocks(&mut self) -> bool {
        if !self.try_start(now_ms()) {
            return false;
        }
        // The clocks run anyway if this fails; only a restart would start
        // them again.
        if let Err(e) = self.store_status().await {
            tracing::warn!("game {}: cannot store the clocks' start: {e}", self.row.id);
        }
        self.broadcast_state();
        self.maybe_bot();
        true
    }

    /// Per seat, since when it is away, as the clocks take it: bots are
    /// always there.
    fn away_for_clocks(&self) -> Vec<Option<i64>> {
        (0..self.seats.len())
            .map(|s| {
                if self.human(s) {
                    self.away_since.get(s).copied().flatten()
                } else {
                    None
                }
            })
            .collect()
    }

    /// Whether the clocks run (started, game not aborted nor over).
    fn running(&self) -> Option<&Clocks> {
        if self.row.aborted || self.held || self.m.to_act() == ToAct::Over {
            return None;
        }
        self.clocks.as_ref()
    }

    /// The round clock's end and its action, while it runs.
    fn round_due(&self) -> Option<(i64, String, Value)> {
        let clocks = self.running()?;
        let d = self.m.deadline_json()?;
        if self.dead_clock.as_deref() == Some(d.key.as_str()) {
            return None;
        }
        let (ends, _) = clocks
            .expiries(&[])
            .into_iter()
            .find(|(_, e)| *e == Expiry::Round)?;
        Some((ends, d.key, d.action))
    }

    /// The seats' clocks that will run out (or have, and are owed), each
    /// as (seat, when, why): `flag` (bank empty), `turn` (the turn clock),
    /// `absent` (nobody holds the seat), or `claim` (the absent countdown
    /// ran out, the game can put the seat out and another player is here:
    /// they may claim the win until then, not past the turn clock, before
    /// the bot moves). Human seats only; not a seat whose bot was already
    /// asked at this seq. Earliest first.
    fn seat_expiries(&self) -> Vec<(Seat, i64, &'static str)> {
        let Some(clocks) = self.running() else {
            return Vec::new();
        };
        let seq = self.m.actions_len();
        let now = now_ms();
        let all = clocks.expiries(&self.away_for_clocks());
        let turn_end = |seat: Seat| {
            all.iter()
                .find(|(_, e)| *e == Expiry::Turn(seat))
                .map(|(t, _)| *t)
        };
        let mut out: Vec<(Seat, i64, &'static str)> = all
            .iter()
            .filter_map(|&(ends, e)| {
                let (seat, why) = match e {
                    Expiry::Flag(s) => (s, "flag"),
                    Expiry::Turn(s) => (s, "turn"),
                    Expiry::Absent(s) => (s, "absent"),
                    Expiry::Round => return None,
                };
                if !self.human(seat.0)
                    || self.bots.forced == Some((seat, seq))
                    || self.bots.passed.contains(&(seat, seq))
                    || (why == "flag" && self.flag_done.contains(&(seat, seq)))
                {
                    return None;
                }
                if why == "absent"
                    && ends <= now
                    && !self.claimants(seat).is_empty()
                    && self.m.forfeit_json(seat).is_some()
                {
                    let window = self.hub.settings().claim_window.as_millis() as i64;
                    let until = (ends + window).min(turn_end(seat).unwrap_or(i64::MAX));
                    return Some((seat, until, "claim"));
                }
                Some((seat, ends, why))
            })
            .collect();
        out.sort_by_key(|&(seat, t, _)| (t, seat.0));
        out
    }

    /// The seat whose claim window is open now, if any.
    fn claim_open(&self) -> Option<Seat> {
        self.seat_expiries()
            .into_iter()
            .find(|(_, _, why)| *why == "claim")
            .map(|(seat, _, _)| seat)
    }

    /// When the actor must next look at its clocks.
    /// When the host must act next by the clocks: nothing unless this
    /// process hosts the game (holds its lease).
    fn next_wake(&self) -> Option<i64> {
        if self.hosting() {
            return self.clock_wake();
        }
        // Not the host: wake only for what changes on the screens of the
        // players connected here (a claim window opening), never for
        // what is past (the host acts on that).
        let now = now_ms();
        let round = self.round_due().map(|(t, _, _)| t);
        let seats = self.seat_expiries().into_iter().map(|(_, t, _)| t);
        round.into_iter().chain(seats).filter(|&t| t > now).min()
    }

    /// Whether this process runs the game's clocks and bots (always, on a
    /// database it does not share; see `crate::lease`).
    fn hosting(&self) -> bool {
        self.hub.leases().holds(&self.row.id)
    }

    /// Whether the game has something to do by itself: a clock to keep or
    /// a bot to move.
    fn wants_host(&self) -> bool {
        if self.row.aborted || self.held || self.m.to_act() == ToAct::Over {
            return false;
        }
        if self.clock_wake().is_some() {
            return true;
        }
        !self.unwatched_bots_only()
            && self
                .m
                .to_act()
                .seats()
                .iter()
                .any(|s| self.bot_level(*s).is_some())
    }

    /// Takes the game's lease when it has something to do by itself (at
    /// most once per `lease_refresh`), lets go of it when it has nothing
    /// left to do ever.
    async fn lease_follow(&mut self) {
        if !self.hub.store().shared() {
            return;
        }
        let hosting = self.hosting();
        let finished = self.row.aborted || self.m.to_act() == ToAct::Over;
        if hosting && finished {
            self.hub
                .leases()
                .release(self.hub.store(), &self.row.id)
                .await;
        } else if !hosting && self.lease_retry_at().is_some_and(|at| at <= Instant::now()) {
            self.lease_tried = Some(Instant::now());
            if self.hub.leases().take(self.hub.store(), &self.row.id).await {
                self.catch_up().await;
                self.maybe_bot();
            }
        }
    }

    /// When to try again to take the lease of a game that wants a host.
    fn lease_retry_at(&self) -> Option<Instant> {
        if !self.hub.store().shared() || self.hosting() || !self.wants_host() {
            return None;
        }
        Some(match self.lease_tried {
            None => Instant::now(),
            Some(t) => t + self.hub.settings().lease_refresh,
        })
    }

    /// When the clocks next need the host, whoever hosts.
    fn clock_wake(&self) -> Option<i64> {
        let round = self.round_due().map(|(t, _, _)| t);
        let seat = self.seat_expiries().first().map(|(_, t, _)| *t);
        match (round, seat) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// A clock ran out (or a claim window opened): the host's rules.
    async fn clock_woke(&mut self) {
        let now = now_ms();
        if !self.hosting() {
            // Another process acts on the clocks; here, only what the
            // players connected here should see at this moment.
            self.tell_claim_window(now).await;
            return;
        }
        if let Some((ends, key, action)) = self.round_due() {
            if ends <= now {
                self.round_ran_out(key, action).await;
                return;
            }
        }
        self.tell_claim_window(now).await;
        let expiries = self.seat_expiries();
        let seq = self.m.actions_len();
        let Some((seat, ends, why)) = expiries.into_iter().next() else {
            return;
        };
        if self.m.actions_len() != seq {
            return;
        }
        match why {
            _ if ends > now => {}
            // The bank is empty: the seat loses on time, by the game's
            // forfeit if it offers one now; if not, its bot moves for it.
            "flag" => {
                self.flag_done.retain(|&(_, at)| at == seq);
                self.flag_done.push((seat, seq));
                match self.m.forfeit_json(seat) {
                    Some(action) => match self.act_as(Actor::Referee, action, false).await {
                        Ok(_) => self.after_change(),
                        Err(NotStored::MovedOn) => {}
                        Err(NotStored::Refused(e)) if e.code == "storage" => {
                            self.flag_done.retain(|d| *d != (seat, seq));
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                        Err(NotStored::Refused(e)) => {
                            tracing::warn!(
                                "game {}: the game refused its own forfeit of seat {} on time ({e}); its bot moves for it",
                                self.row.id, seat.0
                            );
                            self.bots.forced = Some((seat, seq));
                            self.maybe_bot();
                        }
                    },
                    None => {
                        self.bots.forced = Some((seat, seq));
                        self.maybe_bot();
                    }
                }
            }
            // The turn clock, the absent countdown or the claim window ran
            // out: the game's bot moves for the seat (for the absent
            // countdown, unless a connection to another process holds the
            // seat after all).
            _ => {
                let elsewhere = why != "turn" && self.held_elsewhere(seat).await;
                if !elsewhere {
                    self.bots.forced = Some((seat, seq));
                    self.maybe_bot();
                }
            }
        }
    }

    /// A claim window opened: tell everyone (once); not if another
    /// process holds the seat.
    async fn tell_claim_window(&mut self, now: i64) {
        let seq = self.m.actions_len();
        let open = self
            .seat_expiries()
            .into_iter()
            .find(|&(_, ends, why)| why == "claim" && ends > now);
        if let Some((seat, _, _)) = open {
            let at = (seat, seq);
            if self.claim_told != Some(at) && !self.held_elsewhere(seat).await {
                self.claim_told = Some(at);
                self.broadcast_state();
            }
        }
    }

    /// The seat clock shown as `turn_clock` (the first of the turn clock,
    /// the absent countdown and the claim window to end; not banks).
    fn turn_clock_json(&self) -> Value {
        let first = self
            .seat_expiries()
            .into_iter()
            .find(|(_, _, why)| *why != "flag");
        match first {
            Some((seat, ends, why)) => {
                let now = now_ms();
                let mut v = json!({
                    "seat": seat,
                    "reason": why,
                    "ends_ms": ends,
                    "remaining_ms": (ends - now).max(0),
                });
                if why == "claim" {
                    v["claimable_by"] = json!(self.claimants(seat));
                }
                v
            }
            None => Value::Null,
        }
    }

    /// The game's round clock as `clock` (its key, length, start, end).
    fn round_json(&self) -> Value {
        let (Some(clocks), Some(d)) = (self.running(), self.round_now()) else {
            return Value::Null;
        };
        match clocks.view(now_ms(), &[]).round {
            Some(r) => json!({
                "key": r.key,
                "seconds": d.1,
                "started_ms": r.started_ms,
                "ends_ms": r.ends_ms,
                "remaining_ms": r.remaining_ms,
            }),
            None => Value::Null,
        }
    }

    /// Every clock as `clocks`: [`parlor_core::ClockView`] (per seat bank,
    /// running, delay, turn and absent; the round), or null before the
    /// clocks start.
    fn clocks_json(&self) -> Value {
        match &self.clocks {
            Some(c) if !self.row.aborted => {
                json!(c.view(now_ms(), &self.away_for_clocks()))
            }
            _ => Value::Null,
        }
    }

    /// Keeps `away_since` in step with the connections (here and
    /// elsewhere), and this process's presence with its own connections.
    fn presence_changed(&mut self) {
        let now = now_ms();
        for s in 0..self.seats.len() {
            let mine = self.held_here(s);
            if mine != self.local_told[s] {
                self.local_told[s] = mine;
                if mine {
                    self.hub.presence().hold(&self.row.id, s);
                } else {
                    self.hub.presence().release(&self.row.id, s);
                }
            }
            let here = mine || self.remote[s];
            match (here, self.away_since[s]) {
                (true, _) => self.away_since[s] = None,
                (false, None) => self.away_since[s] = Some(now),
                (false, Some(_)) => {}
            }
        }
    }

    async fn round_ran_out(&mut self, key: String, action: Value) {
        match self.act_as(Actor::Referee, action, false).await {
            Ok(_) => self.after_change(),
            // Another process applied it (or something else) first; the
            // catch-up brought the game and its clocks up to date.
            Err(NotStored::MovedOn) => {
                if self.round_due().map(|r| r.1) == Some(key) {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
            Err(NotStored::Refused(e)) if e.code == "storage" => {
                // Try again shortly rather than spin.
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(NotStored::Refused(e)) => {
                tracing::warn!(
                    "game {}: the game refused its own clock action ({key}): {e}",
                    self.row.id
                );
                self.dead_clock = Some(key);
            }
        }
    }

    // ---- bots ----

    fn bot_level(&self, seat: Seat) -> Option<Level> {
        let s = self.seats.get(seat.0)?;
        if self.bots.forced == Some((seat, self.m.actions_len())) {
            return Some(Level::Easy);
        }
        if s.kind != SeatKind::Bot {
            return None;
        }
        Some(
            s.level
                .as_deref()
                .and_then(|l| l.parse().ok())
                .unwrap_or(Level::Easy),
        )
    }

    /// Whether every seat is a bot's and no connection here watches.
    fn unwatched_bots_only(&self) -> bool {
        self.conns.is_empty() && self.seats.iter().all(|s| s.kind == SeatKind::Bot)
    }

    /// Starts a bot decision if a bot seat may act and none is under way.
    fn maybe_bot(&mut self) {
        if self.bots.thinking || self.row.aborted || self.held {
            return;
        }
        if self.unwatched_bots_only() {
            // Bots playing bots for nobody: paused until somebody watches
            // (the game then leaves memory like any idle one).
            return;
        }
        if !self.hosting() {
            // Another process runs the bots (or will, once it takes the
            // lease: see `lease_follow`).
            return;
        }
        let seq = self.m.actions_len();
        self.bots.passed.retain(|&(_, at)| at == seq);
        let to_act = self.m.to_act().seats();
        let n = self.seats.len().max(1);
        let start = self.bots.next % n;
        let pick = (0..n).map(|i| Seat((start + i) % n)).find(|s| {
            to_act.contains(s)
                && self.bot_level(*s).is_some()
                && !self.bots.passed.iter().any(|(p, _)| p == s)
        });
        let Some(seat) = pick else { return };
        let level = self.bot_level(seat).unwrap_or(Level::Easy);
        self.bots.next = seat.0 + 1;
        self.bots.thinking = true;
        let shadow = self.bots.shadow.take();
        let record = if shadow.is_none() {
            Some(self.m.record_json())
        } else {
            None
        };
        let entry = self.entry.clone();
        let resources = self.resources.clone();
        let settings = self.hub.settings();
        // One agent per seat for the whole game: its seed is the seat's.
        let seed = self.row.seed ^ (seat.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let delay = if self.round_due().is_some() {
            settings.bot_delay_clocked
        } else {
            settings.bot_delay
        };
        let tx = self.bot_tx.clone();
        let cancel = Cancel::new();
        self.bots.cancel = cancel.clone();
        let think = move || {
            let shadow = match shadow {
                Some(s) => Ok(s),
                None => entry
                    .replay(&record.unwrap_or(Value::Null), &resources)
                    .map(Shadow::new)
                    .map_err(|e| e.to_string()),
            };
            match shadow {
                Ok(shadow) => {
                    let mut agents = shadow.agents.lock().unwrap_or_else(|e| e.into_inner());
                    let agent = match agents.entry(seat.0) {
                        std::collections::btree_map::Entry::Occupied(a) => Ok(a.into_mut()),
                        std::collections::btree_map::Entry::Vacant(v) => shadow
                            .m
                            .agent(seat, level, seed, &resources)
                            .map(|a| v.insert(a)),
                    };
                    let budget = Budget::time(settings.bot_think).with_cancel(cancel);
                    let action = agent
                        .map(|a| a.choose(&*shadow.m, budget))
                        .map_err(|e| e.to_string());
                    drop(agents);
                    BotResult {
                        shadow: Some(shadow),
                        seat,
                        at_seq: seq,
                        action,
                    }
                }
                Err(e) => BotResult {
                    shadow: None,
                    seat,
                    at_seq: seq,
                    action: Err(e),
                },
            }
        };
        // The decision runs on a blocking thread; a panicking bot reports
        // an error instead of leaving the game waiting forever.
        let job = move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(think))
                .unwrap_or_else(|_| BotResult {
                    shadow: None,
                    seat,
                    at_seq: seq,
                    action: Err("the bot panicked".into()),
                });
            let _ = tx.send(result);
        };
        // At most `bot_threads` decisions run at once, so thinking bots can
        // never take the cores from the tasks that accept and acknowledge
        // people's actions; the others wait their turn.
        let slots = self.hub.think_slots();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let Ok(permit) = slots.acquire_owned().await else {
                return;
            };
            let _ = tokio::task::spawn_blocking(move || {
                job();
                drop(permit);
            })
            .await;
        });
    }

    async fn bot_done(&mut self, r: BotResult) {
        self.bots.thinking = false;
        let mut shadow = r.shadow;
        if std::mem::take(&mut self.bots.discard) {
            shadow = None;
            self.bots.pending.clear();
        }
        for (actor, action) in std::mem::take(&mut self.bots.pending) {
            if let Some(s) = shadow.as_mut() {
                if s.m.apply_json(actor, &action).is_err() {
                    shadow = None;
                }
            }
        }
        self.bots.shadow = shadow;
        if self.m.actions_len() != r.at_seq {
            // The game moved on while the bot thought: ask again.
            self.maybe_bot();
            return;
        }
        match r.action {
            Ok(Some(action)) => match self.act_as(Actor::Seat(r.seat), action, false).await {
                Ok(_) => self.after_change(),
                // Another process's bot (or a person) moved first.
                Err(NotStored::MovedOn) => self.maybe_bot(),
                Err(NotStored::Refused(e)) => {
                    if e.code != "storage" {
                        tracing::warn!(
                            "game {}: bot at {} chose a refused action: {e}",
                            self.row.id,
                            r.seat
                        );
                    }
                    self.bots.passed.push((r.seat, r.at_seq));
                    self.maybe_bot();
                }
            },
            Ok(None) => {
                self.bots.passed.push((r.seat, r.at_seq));
                self.maybe_bot();
            }
            Err(e) => {
                tracing::warn!("game {}: bot at {} failed: {e}", self.row.id, r.seat);
                self.bots.passed.push((r.seat, r.at_seq));
                self.maybe_bot();
            }
        }
    }

    // ---- seats ----

    async fn take_seat(
        &mut self,
        seat: usize,
        name: Option<String>,
        player: Option<String>,
    ) -> Result<(), ApiError> {
        let name = name
            .map(|n| n.trim().chars().take(40).collect::<String>())
            .filter(|n| !n.is_empty());
        let write = Write::Join {
            game_id: self.row.id.clone(),
            seat,
            name: name.clone(),
            player: player.clone(),
        };
        self.hub.store().write(write).await?;
        self.seat_taken(seat, name, player).await;
        Ok(())
    }

    /// After a stored join or claim: the seat is its player's.
    async fn seat_taken(&mut self, seat: usize, name: Option<String>, player: Option<String>) {
        let s = &mut self.seats[seat];
        s.joined = true;
        self.arrived[seat] = true;
        if name.is_some() {
            s.name = name;
        }
        if player.is_some() {
            s.player = player;
        }
        self.broadcast_seats();
        self.start_clocks().await;
    }

    async fn claim(
        &mut self,
        seat: usize,
        name: Option<String>,
        player: Option<String>,
    ) -> Result<(usize, String, Value), ApiError> {
        if !self.row.public {
            return Err(ApiError::new(
                "bad_token",
                "this game is private: ask a player for an invite link",
            ));
        }
        let Some(s) = self.seats.get(seat) else {
            return Err(ApiError::bad_json(format!(
                "seat {seat} does not exist: this game has seats 0 to {}",
                self.seats.len().saturating_sub(1)
            )));
        };
        if s.kind == SeatKind::Bot {
            return Err(ApiError::bad_json(format!("seat {seat} is a bot's")));
        }
        if s.joined {
            return Err(ApiError::new(
                "seat_taken",
                format!("seat {seat} is taken: choose a free seat"),
            ));
        }
        if s.token.is_some() {
            // An invited seat: its token is its invitee's, and a seat has
            // one holder.
            return Err(ApiError::new(
                "invite_only",
                format!(
                    "seat {seat} is kept for an invited player: only their invite link takes it; choose an open seat"
                ),
            ));
        }
        // The claimant's own secret, minted now: an open seat has no token
        // until it is claimed.
        let token = crate::hub::new_token();
        let name = name
            .map(|n| n.trim().chars().take(40).collect::<String>())
            .filter(|n| !n.is_empty());
        let write = Write::Claim {
            game_id: self.row.id.clone(),
            seat,
            token: token.clone(),
            name: name.clone(),
            player: player.clone(),
        };
        if !self.hub.store().try_write(write).await? {
            // Somebody claimed it through another process first.
            self.catch_up().await;
            return Err(ApiError::new(
                "seat_taken",
                format!("seat {seat} is taken: choose a free seat"),
            ));
        }
        self.seats[seat].token = Some(token.clone());
        self.seat_taken(seat, name, player).await;
        Ok((seat, token, self.summary()))
    }

    async fn rematch(&mut self, token: String) -> Result<(usize, String, Value), ApiError> {
        let old = self.seat_of_token(&token).ok_or_else(ApiError::bad_token)?;
        if self.m.to_act() != ToAct::Over {
            return Err(ApiError::new(
                "not_over",
                "a rematch can be made once this game is over",
            ));
        }
        let n = self.seats.len();
        let new_seat = (old.0 + n - 1) % n;
        let new_id = match &self.row.rematch {
            Some(id) => id.clone(),
            None => {
                // New seat k is old seat k + 1: the first player alternates.
                let seats: Vec<SeatRow> = (0..n)
                    .map(|k| {
                        let o = &self.seats[(k + 1) % n];
                        SeatRow {
                            seat: k,
                            kind: o.kind,
                            level: o.level.clone(),
                            token: None,
                            name: o.name.clone(),
                            player: o.player.clone(),
                            joined: o.joined,
                        }
                    })
                    .collect();
                // A seat that was open and nobody claimed stays open.
                let open_seats = seats
                    .iter()
                    .filter(|s| {
                        let o = &self.seats[(s.seat + 1) % n];
                        o.kind == SeatKind::Human && o.token.is_none()
                    })
                    .map(|s| s.seat)
                    .collect();
                let spec = NewGameSpec {
                    game: self.row.game.clone(),
                    config: self.row.config.clone(),
                    // A fresh seed, drawn by the server.
                    seed: None,
                    public: self.row.public,
                    seats: Some(seats),
                    bots: Vec::new(),
                    open_seats,
                    take_seat: None,
                    rematch_of: Some(self.row.id.clone()),
                    time_control: self.row.time_control.clone(),
                };
                let created = self.hub.create(spec).await?;
                let id = created.id.clone();
                let taken = self
                    .hub
                    .store()
                    .try_write(Write::Rematch {
                        from: self.row.id.clone(),
                        to: id.clone(),
                    })
                    .await?;
                if !taken {
                    // Another process made the rematch first: that one it
                    // is; the game made here is aborted (nobody knows it).
                    if let Some((_, token)) = created.tokens.first() {
                        let token = token.clone();
                        if let Ok(stub) = self.hub.stub(&id).await {
                            let _ = stub.ask(|reply| Msg::Abort { token, reply }).await;
                        }
                    }
                    self.catch_up().await;
                    match self.row.rematch.clone() {
                        Some(theirs) => return self.rematch_seat(&theirs, new_seat).await,
                        None => {
                            return Err(ApiError::storage(
                                "the rematch was made elsewhere but cannot be read",
                            ))
                        }
                    }
                }
                self.row.rematch = Some(id.clone());
                let text: Outbound = json!({"type": "rematch", "game": id}).to_string().into();
                let conns: Vec<u64> = self.conns.keys().copied().collect();
                for c in conns {
                    self.send_to(c, text.clone());
                }
                id
            }
        };
        self.rematch_seat(&new_id, new_seat).await
    }

    /// The seat, token and summary of `new_seat` in the rematch `new_id`.
    async fn rematch_seat(
        &self,
        new_id: &str,
        new_seat: usize,
    ) -> Result<(usize, String, Value), ApiError> {
        let stub = self.hub.stub(new_id).await?;
        let token = stub
            .ask(|reply| Msg::SeatToken {
                seat: new_seat,
                reply,
            })
            .await?
            .unwrap_or_default();
        let summary = stub.ask(|reply| Msg::Summary { reply }).await?;
        Ok((new_seat, token, summary))
    }

    // ---- output ----

    fn summary(&self) -> Value {
        let connected: Vec<bool> = (0..self.seats.len())
            .map(|s| self.seats[s].kind == SeatKind::Bot || self.here(s))
            .collect();
        let clock = Some(self.round_json()).filter(|c| !c.is_null());
        let mut v = summary_json(
            &self.row,
            &self.seats,
            self.entry.info().title,
            Some(&connected),
            clock,
        );
        v["waiting_for"] = self.waiting_json();
        v["clocks"] = self.clocks_json();
        v
    }

    fn state_json(&self, viewer: Viewer, legal: bool) -> Value {
        // While the clock waits for its players nobody sees the game: a
        // seat that could read the board (Gobble's letters) before the
        // clock starts would have time the others do not.
        let view = if self.held {
            Value::Null
        } else {
            self.m.view_json(viewer)
        };
        let mut v = json!({
            "type": "state",
            "seq": self.m.actions_len(),
            "view": view,
            "to_act": if self.row.aborted { json!("over") } else { json!(self.m.to_act()) },
            "outcome": self.m.outcome(),
            "aborted": self.row.aborted,
            "clock": self.round_json(),
            "clocks": self.clocks_json(),
            "turn_clock": self.turn_clock_json(),
            "waiting_for": self.waiting_json(),
            "by": self.last_by,
            "events": self.last_events.for_viewer(viewer),
        });
        if let (true, Viewer::Seat(seat)) = (legal, viewer) {
            v["legal"] = if self.held {
                Value::Null
            } else {
                json!(self.m.legal_actions_json(seat))
            };
        }
        v
    }

    fn state_text(&self, viewer: Viewer, legal: bool) -> Outbound {
        self.state_json(viewer, legal).to_string().into()
    }

    /// Queues a message for one connection; a full queue drops the
    /// connection (its writer closes the socket: "too slow").
    fn send_to(&mut self, conn: u64, text: Outbound) {
        let full = match self.conns.get(&conn) {
            Some(c) => c.out.try_send(text).is_err(),
            None => false,
        };
        if full {
            let seat = self.conns.remove(&conn).map(|c| c.viewer);
            if matches!(seat, Some(Viewer::Seat(_))) {
                self.broadcast_seats();
            }
        }
    }

    fn broadcast_state(&mut self) {
        // One serialisation per distinct (viewer, legal): spectators share one.
        let mut texts: HashMap<(Viewer, bool), Outbound> = HashMap::new();
        let mut slow = Vec::new();
        for (&id, c) in &self.conns {
            let text = texts
                .entry((c.viewer, c.legal))
                .or_insert_with(|| self.state_text(c.viewer, c.legal))
                .clone();
            if c.out.try_send(text).is_err() {
                slow.push(id);
            }
        }
        let mut dropped = false;
        for id in slow {
            if let Some(c) = self.conns.remove(&id) {
                dropped |= matches!(c.viewer, Viewer::Seat(_));
            }
        }
        if dropped {
            self.broadcast_seats();
        }
    }

    fn broadcast_seats(&mut self) {
        self.presence_changed();
        let summary = self.summary();
        let text: Outbound = json!({"type": "seats", "seats": summary["seats"]})
            .to_string()
            .into();
        let slow: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| c.out.try_send(text.clone()).is_err())
            .map(|(&id, _)| id)
            .collect();
        // Dropping a slow seat's connection changes the seats again, but a
        // second round would only tell the same slow clients; stop here.
        for id in slow {
            self.conns.remove(&id);
        }
        self.presence_changed();
    }
}

/// The tokio instant at a wall-clock time (ms since the epoch).
fn instant_at(ms: i64) -> Instant {
    Instant::now() + Duration::from_millis((ms - now_ms()).max(0) as u64)
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
