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

mod bots;
mod broadcast;
mod chat;
mod clock;
mod env;
mod moves;
mod play;
mod presence;
mod render;
mod replication;
mod seats;

use crate::clocks::{Timeline, START_KEY};
use crate::error::ApiError;
use crate::error::Code;
use crate::storage::{GameRow, SeatRow};
use crate::time::TimeSource;
use axum::extract::ws::Utf8Bytes;
use bots::{BotResult, Bots};
use clock::GameClock;
pub(crate) use env::{Env, Games, Rooms};
use parlor_core::{Actor, DynMatch, ErrorKind, GameEntry, Resources, Seat, ToAct, Viewer};
use presence::Holders;
pub(crate) use seats::RematchSeat;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
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
                Code::IllegalAction,
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
    Token(Holder),
    /// An HTTP request without a token (a spectator's; only the helper
    /// accepts it).
    Nobody,
    /// The server itself (a rematch made twice through two processes is
    /// aborted by the one that lost): no seat needed.
    Host,
}

/// What a request shows to act for a seat: the seat's secret and the
/// account logged in where it was sent (its session cookie), if any. A
/// seat that belongs to an account acts only for that account, whatever
/// token is shown (see `GameActor::seat_for`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Holder {
    pub token: String,
    pub account: Option<String>,
}

impl Holder {
    pub(crate) fn new(token: String, account: Option<String>) -> Self {
        Holder { token, account }
    }
}

/// Where the answer to an action goes.
enum ActReply {
    /// Into the connection's queue, as `ack`/`error` with the client's ref.
    Conn { conn: u64, reference: Value },
    /// To an HTTP handler.
    Http(oneshot::Sender<Result<(usize, Vec<Value>), ApiError>>),
}

/// Where the answer to a rematch goes: the new seat, its token and the
/// new game's summary.
enum RematchReply {
    /// Into the connection's queue, as `rematch_seat`/`error` with the
    /// client's ref (docs/api.md, "Client to server").
    Conn { conn: u64, reference: Value },
    /// To a task waiting for it: an HTTP handler, or a connection that
    /// moves to the rematch (`ws::move_to_rematch`).
    Http(oneshot::Sender<Result<RematchSeat, ApiError>>),
}

pub(crate) struct Connected {
    pub conn: u64,
    pub out: mpsc::Receiver<Outbound>,
    /// The same queue, for what the connection answers by itself (errors,
    /// pongs, the helper): weak, so that the queue still closes when the
    /// actor lets go of the connection. One queue per connection: a
    /// second one held its own block of slots.
    pub own: mpsc::WeakSender<Outbound>,
    /// A spectator's connection: its actions are refused before they
    /// reach the game's queue.
    pub spectator: bool,
}

enum Msg {
    Connect {
        token: Option<String>,
        /// The account logged in where the connection was opened.
        account: Option<String>,
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
    /// A chat line or reaction from a connection, already checked (see
    /// `crate::chat`).
    Chat {
        conn: u64,
        request: crate::chat::ChatRequest,
    },
    State {
        holder: Option<Holder>,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// The summary, as JSON text.
    Summary {
        reply: oneshot::Sender<Box<serde_json::value::RawValue>>,
    },
    /// The move list from move `from` + 1 on, as the token's seat (or a
    /// spectator) may see it.
    Moves {
        holder: Option<Holder>,
        from: usize,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Take a seat with its token (an invite's, which the join retires,
    /// or the seat's own secret again); `account`: the logged-in account
    /// the seat then belongs to (a rated game's seat needs one). Answers
    /// the seat, its secret from now on, and the summary.
    Join {
        token: String,
        name: Option<String>,
        player: Option<String>,
        account: Option<String>,
        reply: oneshot::Sender<Result<(usize, String, Value), ApiError>>,
    },
    Claim {
        seat: usize,
        name: Option<String>,
        player: Option<String>,
        account: Option<String>,
        reply: oneshot::Sender<Result<(usize, String, Value), ApiError>>,
    },
    /// The seat of `token` becomes `account`'s (a guest's games claimed
    /// into an account): answers the seat.
    Bind {
        token: String,
        account: String,
        reply: oneshot::Sender<Result<usize, ApiError>>,
    },
    SeatToken {
        seat: usize,
        reply: oneshot::Sender<Option<String>>,
    },
    /// The rematch of a finished game, for the seat of `who` (a token
    /// over HTTP, or the seat's own connection).
    Rematch {
        who: Who,
        reply: RematchReply,
    },
    Record {
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    Abort {
        who: Who,
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
    /// Nothing happened in this game since `cutoff_ms`: expire it unless
    /// that changed (see `crate::Games::abandon_after`).
    Expire {
        cutoff_ms: i64,
    },
    /// This process took or lost the game's lease (see `crate::lease`).
    Hosting,
    /// A snapshot for the game's helper: who asks, and the record to
    /// rebuild the game from off the actor (see `crate::assist`).
    Assist {
        who: Who,
        reply: oneshot::Sender<Result<Snapshot, ApiError>>,
    },
}

/// A game's queue of messages, as its actor holds it. Boxed: a channel
/// allocates room for 32 messages at once, and ten thousand live games
/// each with 32 slots of a whole `Msg` held 3 KiB apiece for nothing.
type Inbox = mpsc::Receiver<Box<Msg>>;

/// The handle to a live game, cloned into every connection.
#[derive(Clone)]
pub(crate) struct GameStub {
    tx: mpsc::Sender<Box<Msg>>,
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
    fn send(&self, msg: Msg) -> Result<(), ApiError> {
        self.tx.try_send(Box::new(msg)).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => ApiError::busy(),
            mpsc::error::TrySendError::Closed(_) => ApiError::gone(),
        })
    }

    /// Sends a request and waits for its answer.
    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Msg) -> Result<T, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.send(make(tx))?;
        rx.await.map_err(|_| ApiError::gone())
    }

    /// Queues a message, waiting for room.
    async fn send_wait(&self, msg: Msg) -> Result<(), ApiError> {
        self.tx
            .send(Box::new(msg))
            .await
            .map_err(|_| ApiError::gone())
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    // The requests a game answers: the only door into its actor.

    /// A new connection, on the seat of `token` (or watching).
    pub(crate) async fn connect(
        &self,
        token: Option<String>,
        account: Option<String>,
        legal: bool,
    ) -> Result<Connected, ApiError> {
        self.ask(|reply| Msg::Connect {
            token,
            account,
            legal,
            reply,
        })
        .await?
    }

    /// A connection has gone: waits for room rather than lose it (the seat
    /// would stay held).
    pub(crate) async fn disconnect(&self, conn: u64) {
        let _ = self.send_wait(Msg::Disconnect { conn }).await;
    }

    /// An action over HTTP: its sequence number and events.
    pub(crate) async fn act(
        &self,
        who: Who,
        action: Value,
    ) -> Result<(usize, Vec<Value>), ApiError> {
        self.ask(|tx| Msg::Act {
            who,
            action,
            reply: ActReply::Http(tx),
        })
        .await?
    }

    /// A connection's action: answered into its queue (`ack` or `error`
    /// with the client's `reference`).
    pub(crate) fn act_from(
        &self,
        conn: u64,
        action: Value,
        reference: Value,
    ) -> Result<(), ApiError> {
        self.send(Msg::Act {
            who: Who::Conn(conn),
            action,
            reply: ActReply::Conn { conn, reference },
        })
    }

    /// Claims the win from a player who left, over HTTP.
    pub(crate) async fn claim_win(&self, who: Who) -> Result<(usize, Vec<Value>), ApiError> {
        self.ask(|tx| Msg::ClaimWin {
            who,
            reply: ActReply::Http(tx),
        })
        .await?
    }

    /// A connection's claim of the win: answered into its queue.
    pub(crate) fn claim_win_from(&self, conn: u64, reference: Value) -> Result<(), ApiError> {
        self.send(Msg::ClaimWin {
            who: Who::Conn(conn),
            reply: ActReply::Conn { conn, reference },
        })
    }

    /// The whole state again, for a connection that asks.
    pub(crate) fn sync(&self, conn: u64) -> Result<(), ApiError> {
        self.send(Msg::Sync { conn })
    }

    /// A checked chat line or reaction from a connection.
    pub(crate) fn chat(
        &self,
        conn: u64,
        request: crate::chat::ChatRequest,
    ) -> Result<(), ApiError> {
        self.send(Msg::Chat { conn, request })
    }

    /// The state as `holder`'s seat (or a spectator) sees it.
    pub(crate) async fn state(&self, holder: Option<Holder>) -> Result<Value, ApiError> {
        self.ask(|reply| Msg::State { holder, reply }).await?
    }

    /// The game's summary, as JSON text.
    pub(crate) async fn summary(&self) -> Result<Box<serde_json::value::RawValue>, ApiError> {
        self.ask(|reply| Msg::Summary { reply }).await
    }

    /// The moves after move `from`, as `holder`'s seat may see them.
    pub(crate) async fn moves(
        &self,
        holder: Option<Holder>,
        from: usize,
    ) -> Result<Value, ApiError> {
        self.ask(|reply| Msg::Moves {
            holder,
            from,
            reply,
        })
        .await?
    }

    /// Takes the seat of `token` (see `Msg::Join`): the seat, its secret
    /// from now on, and the summary.
    pub(crate) async fn join(
        &self,
        token: String,
        name: Option<String>,
        player: Option<String>,
        account: Option<String>,
    ) -> Result<(usize, String, Value), ApiError> {
        self.ask(|reply| Msg::Join {
            token,
            name,
            player,
            account,
            reply,
        })
        .await?
    }

    /// Takes a free seat by its number.
    pub(crate) async fn claim(
        &self,
        seat: usize,
        name: Option<String>,
        player: Option<String>,
        account: Option<String>,
    ) -> Result<(usize, String, Value), ApiError> {
        self.ask(|reply| Msg::Claim {
            seat,
            name,
            player,
            account,
            reply,
        })
        .await?
    }

    /// The seat of `token` becomes `account`'s: the seat.
    pub(crate) async fn bind(&self, token: String, account: String) -> Result<usize, ApiError> {
        self.ask(|reply| Msg::Bind {
            token,
            account,
            reply,
        })
        .await?
    }

    /// A seat's token, if it has one.
    pub(crate) async fn seat_token(&self, seat: usize) -> Result<Option<String>, ApiError> {
        self.ask(|reply| Msg::SeatToken { seat, reply }).await
    }

    /// The rematch for `who`'s seat, waited for.
    pub(crate) async fn rematch(&self, who: Who) -> Result<RematchSeat, ApiError> {
        self.ask(|tx| Msg::Rematch {
            who,
            reply: RematchReply::Http(tx),
        })
        .await?
    }

    /// A connection's rematch: answered into its queue.
    pub(crate) fn rematch_from(&self, conn: u64, reference: Value) -> Result<(), ApiError> {
        self.send(Msg::Rematch {
            who: Who::Conn(conn),
            reply: RematchReply::Conn { conn, reference },
        })
    }

    /// The game's record.
    pub(crate) async fn record(&self) -> Result<Value, ApiError> {
        self.ask(|reply| Msg::Record { reply }).await?
    }

    /// Aborts the game for `who`: the new summary.
    pub(crate) async fn abort(&self, who: Who) -> Result<Value, ApiError> {
        self.ask(|reply| Msg::Abort { who, reply }).await?
    }

    /// The seats other processes hold now.
    pub(crate) fn presence(&self, held: Vec<usize>) -> Result<(), ApiError> {
        self.send(Msg::Presence { held })
    }

    /// Another process changed the game (its record is `seq` long).
    pub(crate) fn notified(&self, seq: Option<usize>) -> Result<(), ApiError> {
        self.send(Msg::Notified { seq })
    }

    /// Expire the game if nothing happened since `cutoff_ms`; waits for
    /// room.
    pub(crate) async fn expire(&self, cutoff_ms: i64) -> Result<(), ApiError> {
        self.send_wait(Msg::Expire { cutoff_ms }).await
    }

    /// This process took or lost the game's lease.
    pub(crate) fn hosting(&self) -> Result<(), ApiError> {
        self.send(Msg::Hosting)
    }

    /// A snapshot for the game's helper, for `who`.
    pub(crate) async fn assist(&self, who: Who) -> Result<Snapshot, ApiError> {
        self.ask(|reply| Msg::Assist { who, reply }).await?
    }
}

/// What the game's helper works from (see `crate::assist`), taken from
/// the game's actor: the helper runs off it.
pub(crate) struct Snapshot {
    pub id: String,
    /// Who asks, as the game sees them.
    pub viewer: Viewer,
    pub record: Value,
    pub resources: Resources,
    /// Over or aborted: the record will not change.
    pub over: bool,
}

impl Snapshot {
    /// Actions in the record.
    pub(crate) fn steps(&self) -> usize {
        self.record["actions"].as_array().map_or(0, Vec::len)
    }
}

pub(crate) struct GameActor {
    env: Env,
    entry: Arc<dyn GameEntry>,
    m: Box<dyn DynMatch>,
    /// The word lists this game uses (the server's, plus an uploaded one).
    resources: Resources,
    row: GameRow,
    /// The seats (see [`seats::Seating`]).
    seats: seats::Seating,
    /// The connections here (see [`broadcast::Connections`]).
    conns: broadcast::Connections,
    /// The clocks (see [`GameClock`]).
    clock: GameClock,
    bots: Bots,
    last_by: Option<Actor>,
    last_events: render::LastEvents,
    /// Who holds each seat (see [`Holders`]).
    holders: Holders,
    /// Shared with the stubs: see [`GameStub::behind`].
    seq: Arc<AtomicUsize>,
    /// When the game last went to the database of its own accord (see
    /// [`replication::Replication`]).
    replication: replication::Replication,
    /// Moves a seat's clock made that the stored times cannot tell (the
    /// absent countdown, a claimed win; see `moves`), by action index,
    /// while the game is live here.
    clock_moves: HashMap<usize, moves::OnClock>,
    /// Whether the latest action was a clock's, worked out as it was
    /// applied: (index, time, actor, answer), so that each state message
    /// does not replay the clocks to tell it.
    last_clock_step: Option<(usize, i64, Actor, Option<moves::OnClock>)>,
    /// Why the bot moves for a human seat whose clock ran out
    /// (`Bots::forced`), for the move list.
    forced_why: Option<(Seat, usize, clock::Why)>,
    /// Memory may no longer match the database (a failed write could not
    /// be undone, nor the game rebuilt from its record): the actor stops
    /// and the hub forgets the game, so the next visitor loads it as
    /// stored.
    stale: bool,
    /// The states after a person's action that a quick bot answered in
    /// the same commit, rendered before the bot's move, waiting to go out
    /// with the ack (see `GameActor::act_as_then_bot`).
    followed_states: Vec<(u64, Outbound)>,
    /// The table's chat, once somebody has said something (memory only,
    /// see `crate::chat`).
    chat: Option<Box<crate::chat::ChatLog>>,
}

impl GameActor {
    /// Now, for the clocks ([`Env::time`]: the system's clock, or a test's
    /// manual one).
    fn now(&self) -> i64 {
        self.env.time.now_ms()
    }

    /// Starts the actor task for a game whose state `m` matches `row` and
    /// the stored actions. Returns its stub.
    pub(crate) fn spawn(
        env: Env,
        entry: Arc<dyn GameEntry>,
        m: Box<dyn DynMatch>,
        resources: Resources,
        row: GameRow,
        seats: Vec<SeatRow>,
        timeline: Timeline,
    ) -> GameStub {
        let (tx, rx) = mpsc::channel(env.settings.games.game_queue);
        let seq = Arc::new(AtomicUsize::new(m.actions_len()));
        let clock = GameClock::new(row.time_control.clone(), seats.len(), timeline);
        // A rematch nobody has moved in whose clock has not started: its
        // players come again (join or connect) before its clock runs.
        let fresh_rematch =
            row.rematch_of.is_some() && m.actions_len() == 0 && row.status.deadline.is_none();
        let mut actor = GameActor {
            env,
            entry,
            m,
            resources,
            row,
            seats: seats::Seating::new(seats, fresh_rematch),
            conns: Default::default(),
            clock,
            bots: Bots::default(),
            last_by: None,
            last_events: render::LastEvents::default(),
            holders: Holders::default(),
            stale: false,
            seq: seq.clone(),
            replication: Default::default(),
            clock_moves: HashMap::new(),
            last_clock_step: None,
            forced_why: None,
            followed_states: Vec::new(),
            chat: None,
        };
        let now = actor.now();
        actor.holders = Holders::new(actor.seats.rows.len(), now);
        actor.recall_quick_bots();
        tokio::spawn(actor.run(rx));
        GameStub { tx, seq }
    }

    /// The actor's life: its start, then one message (or wake-up) at a
    /// time until it leaves memory.
    ///
    /// Every step is awaited through `Box::pin`: a task keeps the state of
    /// its deepest await for its whole life, and inlined, the largest step
    /// (an action: play, store, reply, bots) made each of ten thousand idle
    /// games hold about 6 KiB. Boxed, a step's state lives only while it
    /// runs.
    async fn run(mut self, mut rx: Inbox) {
        Box::pin(self.start()).await;
        let time = self.env.time.clone();
        let mut shutdown = self.env.shutdown.clone();
        // One wait for the actor's whole life: a `changed()` made afresh at
        // every turn of the loop entered, and left, the one list of every
        // game's waiters under its lock (~0.6% of nim's server time).
        let shutdown = shutdown.changed();
        tokio::pin!(shutdown);
        let mut last_busy = Instant::now();
        loop {
            self.seq.store(self.m.actions_len(), Ordering::Relaxed);
            // Only a shared database has leases: a step boxed for nothing
            // was an allocation at every turn of the loop.
            if self.env.store.shared() {
                Box::pin(self.lease_follow()).await;
            }
            let wake = self.next_wake();
            let lease_retry = self.lease_retry_at();
            // A game that is over waits only briefly for someone to come
            // back to it: its players have moved on (to a rematch), and a
            // visitor reloads it from the database in a moment.
            let over = self.m.to_act() == ToAct::Over || self.row.aborted;
            if over && !self.bots.thinking {
                // No bot moves again in a game that is over: its agents
                // would only wait out the unload.
                self.bots.agents = None;
            }
            let idle = if over {
                self.env
                    .settings
                    .games
                    .idle_unload_over
                    .min(self.env.settings.games.idle_unload)
            } else {
                self.env.settings.games.idle_unload
            };
            // The bot's answer is awaited here, outside `self`, so that the
            // steps below may borrow the actor whole; a decision started by
            // a step is picked up on the next turn of the loop.
            let mut answer = self.bots.answer.take();
            tokio::select! {
                _ = sleep_until_opt(lease_retry) => {}
                msg = rx.recv() => {
                    let Some(msg) = msg else { break };
                    last_busy = Instant::now();
                    Box::pin(self.handle(*msg)).await;
                }
                result = bot_answer(&mut answer) => {
                    answer = None;
                    last_busy = Instant::now();
                    match result {
                        Some(result) => Box::pin(self.bot_done(*result)).await,
                        None => self.bot_lost(),
                    }
                }
                _ = sleep_until_ms_opt(&time, wake) => {
                    Box::pin(self.clock_woke()).await;
                }
                _ = tokio::time::sleep_until(last_busy + idle),
                    if self.conns.is_empty() && !self.bots.thinking
                        && self.next_wake().is_none() => {
                    // Nobody is here and nothing will happen by itself:
                    // leave memory; the next visitor reloads from the database.
                    if self.env.games.unload(&self.row.id, &|| rx.is_empty()) {
                        rx.close();
                        while let Ok(msg) = rx.try_recv() {
                            Box::pin(self.handle(*msg)).await;
                        }
                        Box::pin(self.env.leases.release(&self.env.store, &self.row.id)).await;
                        break;
                    }
                    last_busy = Instant::now();
                }
                _ = &mut shutdown => break,
            }
            if answer.is_some() {
                // Still thinking: no step can have started another decision.
                self.bots.answer = answer;
            }
            if self.stale {
                tracing::warn!(
                    "game {}: leaving memory after a failed write it could not undo; \
                     the next visitor reloads it from the database",
                    self.row.id
                );
                self.env.games.forget(&self.row.id);
                break;
            }
        }
    }

    /// What the actor does before its first message: presence through
    /// other processes, clocks, a bot's first move.
    async fn start(&mut self) {
        // Who is here through other processes, before any countdown runs.
        if self.env.store.shared() {
            match self.env.games.remote_seats(&self.row.id).await {
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
                self.clock.start_ms = Some(d.started_ms);
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
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Connect {
                token,
                account,
                legal,
                reply,
            } => {
                // A newcomer gets the state as stored, whoever stored it.
                self.catch_up().await;
                let r = self.connect(token, account, legal);
                let conn = r.as_ref().ok().map(|c| c.conn);
                let _ = reply.send(r);
                // A watcher wakes a game that bots play alone.
                self.maybe_bot();
                // The first state goes after the clock's start, if this
                // seat was the last one missing: it carries the view.
                if !self.start_clocks().await {
                    if let Some(conn) = conn {
                        if let Some((v, legal)) = self.conns.view(conn) {
                            let text = self.state_text(v, legal);
                            self.send_to(conn, text);
                        }
                    }
                }
                // Then what was said so far, so a reload shows it.
                if let Some(conn) = conn {
                    self.send_chat_history(conn);
                }
            }
            Msg::Disconnect { conn } => {
                if let Some(viewer) = self.conns.close(conn) {
                    if matches!(viewer, Viewer::Seat(_)) {
                        self.broadcast_seats();
                    }
                }
            }
            Msg::Act { who, action, reply } => {
                self.learn_token(&who).await;
                let result = match self.seat_of_who(&who) {
                    Ok(seat) => {
                        let events = matches!(reply, ActReply::Http(_));
                        self.act(seat, action, events).await
                    }
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
            Msg::Chat { conn, request } => {
                self.chat(conn, request);
            }
            Msg::Sync { conn } => {
                if let Some((v, legal)) = self.conns.view(conn) {
                    let text = self.state_text(v, legal);
                    self.send_to(conn, text);
                }
            }
            Msg::State { holder, reply } => {
                self.catch_up().await;
                let r = self
                    .viewer_of(holder.as_ref())
                    .map(|v| self.state_json(v, v != Viewer::Spectator));
                let _ = reply.send(r);
            }
            Msg::Summary { reply } => {
                let _ = reply.send(self.summary_text());
            }
            Msg::Moves {
                holder,
                from,
                reply,
            } => {
                self.catch_up().await;
                let r = self.viewer_of(holder.as_ref()).map(|v| {
                    serde_json::json!({
                        "seq": self.m.actions_len(),
                        "moves": self.moves_json(v, from),
                        "score_words": self.m.score_words(),
                    })
                });
                let _ = reply.send(r);
            }
            Msg::Join {
                token,
                name,
                player,
                account,
                reply,
            } => {
                let r = self.join(token, name, player, account).await;
                let _ = reply.send(r);
            }
            Msg::Claim {
                seat,
                name,
                player,
                account,
                reply,
            } => {
                let r = match self.may_sit(seat, account.as_deref()) {
                    Err(e) => Err(e),
                    Ok(()) => match self.claim(seat, name, player).await {
                        Err(e) => Err(e),
                        Ok(taken) => self
                            .bind_after_sitting(taken.0, account)
                            .await
                            .map(|()| (taken.0, taken.1, self.summary())),
                    },
                };
                let _ = reply.send(r);
            }
            Msg::Bind {
                token,
                account,
                reply,
            } => {
                let who = Who::Token(Holder::new(token, Some(account.clone())));
                self.learn_token(&who).await;
                let r = match self.seat_of_who(&who) {
                    Err(e) => Err(e),
                    Ok(seat) => self.bind_account(seat.0, account).await.map(|()| seat.0),
                };
                let _ = reply.send(r);
            }
            Msg::SeatToken { seat, reply } => {
                let _ = reply.send(self.seats.rows.get(seat).and_then(|s| s.token.clone()));
            }
            Msg::Rematch { who, reply } => {
                self.catch_up().await;
                // A connection moving to the rematch (it asks as over
                // HTTP, from its reader) learns of it from its answer.
                let mover = match (&who, &reply) {
                    (Who::Conn(conn), RematchReply::Http(_)) => Some(*conn),
                    _ => None,
                };
                let r = match self.seat_of_who(&who) {
                    Ok(seat) => self.rematch(seat, mover).await,
                    Err(e) => Err(e),
                };
                match reply {
                    RematchReply::Http(tx) => {
                        let _ = tx.send(r);
                    }
                    RematchReply::Conn { conn, reference } => {
                        // The client moves to the new game without an
                        // HTTP request of its own (issue 16).
                        let text = match r {
                            Ok(made) => made.answer(Some((&reference, None))).get().to_string(),
                            Err(e) => e.ws_message(reference).to_string(),
                        };
                        self.send_to(conn, text.into());
                    }
                }
            }
            Msg::Abort { who, reply } => {
                self.catch_up().await;
                let r = self.abort(&who).await;
                let changed = r.is_ok();
                let _ = reply.send(r);
                if changed {
                    self.broadcast_state();
                }
            }
            Msg::Assist { who, reply } => {
                self.learn_token(&who).await;
                let viewer = match who {
                    Who::Conn(conn) => self.conns.viewer(conn).ok_or_else(ApiError::gone),
                    Who::Token(h) => self.viewer_of(Some(&h)),
                    Who::Nobody | Who::Host => Ok(Viewer::Spectator),
                };
                let _ = reply.send(viewer.map(|viewer| Snapshot {
                    id: self.row.id.clone(),
                    viewer,
                    record: self.m.record_json(),
                    resources: self.resources.clone(),
                    // An aborted game is over too: its record will not change.
                    over: self.m.to_act() == ToAct::Over || self.row.aborted,
                }));
            }
            Msg::Expire { cutoff_ms } => {
                if self.expire(cutoff_ms).await {
                    self.broadcast_state();
                }
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
                        Code::NotOver,
                        "the record holds hidden information: it is available once the game is over",
                    ))
                };
                let _ = reply.send(r);
            }
        }
    }
}

/// Waits until `time` reaches `at` (ms since the epoch), or for ever.
async fn sleep_until_ms_opt(time: &TimeSource, at: Option<i64>) {
    match at {
        Some(at) => time.sleep_until_ms(at).await,
        None => std::future::pending().await,
    }
}

/// The bot's decision under way (None: it was dropped unanswered), or
/// for ever when none is.
async fn bot_answer(
    answer: &mut Option<oneshot::Receiver<Box<BotResult>>>,
) -> Option<Box<BotResult>> {
    match answer {
        Some(rx) => rx.await.ok(),
        None => std::future::pending().await,
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
