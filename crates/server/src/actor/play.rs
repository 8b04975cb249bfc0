//! Play: an action applied, stored, then acknowledged; rollback and rebuild
//! when a write fails; aborting a game nobody moved in.

use super::{ActReply, GameActor, NotStored, Who};
use crate::clocks::START_KEY;
use crate::error::ApiError;
use crate::error::Code;
use crate::storage::{ActionRow, DeadlineRow, JsonText, StatusRow, Write};
use parlor_core::{Actor, Applied, ErrorKind, Seat, ToAct, Viewer};
use serde_json::Value;
use tokio::time::Instant;

/// A quick bot's answer, applied in memory, stored with the action it
/// answers (see [`GameActor::act_as_then_bot`]).
struct Followed {
    seat: Seat,
    /// The status after it.
    status: StatusRow,
    /// Its events, as the state after it shows them.
    events: super::render::LastEvents,
}

impl GameActor {
    /// The seat acting through `who` (spectators and strangers: refused).
    pub(super) fn seat_of_who(&self, who: &Who) -> Result<Seat, ApiError> {
        match who {
            Who::Conn(conn) => match self.conns.viewer(*conn) {
                Some(Viewer::Seat(s)) => Ok(s),
                Some(Viewer::Spectator) => Err(ApiError::new(
                    Code::Spectator,
                    "spectators cannot act: join with a seat token",
                )),
                None => Err(ApiError::gone()),
            },
            Who::Token(h) => self.seat_for(h),
            Who::Nobody | Who::Host => Err(ApiError::bad_token()),
        }
    }

    /// Answers an action (or a claim): `ack`/`error` on the connection, or
    /// the HTTP handler's result; then shows an accepted one.
    pub(super) fn reply_act(
        &mut self,
        reply: ActReply,
        result: Result<(usize, Vec<Value>), ApiError>,
    ) {
        match (reply, &result) {
            (ActReply::Http(tx), _) => {
                let ok = result.is_ok();
                let _ = tx.send(result);
                if ok {
                    self.after_change();
                }
            }
            (ActReply::Conn { conn, reference }, Ok((seq, _))) => {
                // Written as text: the same JSON as `json!` makes, without
                // a map built and dropped per action.
                let ack = format!(r#"{{"ref":{reference},"seq":{seq},"type":"ack"}}"#);
                let ack = Some((conn, ack.into()));
                let earlier = std::mem::take(&mut self.followed_states);
                if earlier.is_empty() {
                    self.broadcast_state_after(ack);
                } else {
                    self.broadcast_states_then_now(earlier, ack);
                }
                self.maybe_bot();
            }
            (ActReply::Conn { conn, reference }, Err(e)) => {
                let text = e.ws_message(reference).to_string();
                self.send_to(conn, text.into());
            }
        }
    }

    /// Stops a game before its first move: over, without an outcome.
    pub(super) async fn abort(&mut self, who: &Who) -> Result<Value, ApiError> {
        if !matches!(who, Who::Host) {
            self.learn_token(who).await;
            self.seat_of_who(who)?;
        }
        if self.row.aborted {
            return Ok(self.summary());
        }
        if self.m.to_act() == ToAct::Over {
            return Err(ApiError::new(Code::IllegalAction, "the game is over")
                .with_kind(ErrorKind::GameOver));
        }
        let moved = || {
            ApiError::new(
                Code::IllegalAction,
                "moves have been made: only a game nobody has moved in can be aborted",
            )
            .with_kind(ErrorKind::Illegal)
        };
        if self.m.actions_len() > 0 {
            return Err(moved());
        }
        match self.stop_game().await? {
            true => Ok(self.summary()),
            false if self.row.aborted => Ok(self.summary()),
            false => Err(moved()),
        }
    }

    /// When something last happened in the game (ms since the epoch): its
    /// creation, its latest action, the start of its clocks.
    pub(super) fn last_activity_ms(&self) -> i64 {
        let last_action = self.clock.timeline.steps.last().map(|s| s.at_ms);
        [Some(self.row.created_ms), last_action, self.clock.start_ms]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(self.row.created_ms)
    }

    /// Expires an abandoned game (see `crate::Games::abandon_after`):
    /// not over, nothing has happened since `cutoff_ms` and nobody holds a
    /// seat now. Aborted like `POST .../abort`, whatever moves were made.
    /// Returns whether it did.
    pub(super) async fn expire(&mut self, cutoff_ms: i64) -> bool {
        self.catch_up().await;
        if self.row.aborted || self.m.to_act() == ToAct::Over {
            return false;
        }
        if self.last_activity_ms() > cutoff_ms
            || (0..self.seats.rows.len()).any(|s| self.human(s) && self.here(s))
        {
            return false;
        }
        match self.stop_game().await {
            Ok(true) => {
                tracing::info!(
                    "game {}: nothing happened in it for too long: aborted",
                    self.row.id
                );
                true
            }
            Ok(false) => false,
            Err(e) => {
                tracing::warn!("game {}: cannot expire it: {e}", self.row.id);
                false
            }
        }
    }

    /// Marks the game aborted, in the database (only over the status
    /// stored at this seq) and here. `Ok(false)`: another process moved or
    /// aborted first (the game has caught up with it).
    async fn stop_game(&mut self) -> Result<bool, ApiError> {
        self.row.aborted = true;
        let status = self.status_row();
        let write = Write::Abort {
            game_id: self.row.id.clone(),
            status: status.clone(),
        };
        match self.env.store.try_write(write).await {
            Ok(true) => {}
            Ok(false) => {
                self.row.aborted = false;
                self.catch_up().await;
                return Ok(false);
            }
            Err(e) => {
                self.row.aborted = false;
                return Err(ApiError::storage(e));
            }
        }
        self.row.status = status;
        self.clock.clocks = None;
        self.last_by = Some(Actor::Referee);
        self.last_events = Default::default();
        // Bots stop: the game is over for everyone.
        self.bots.cancel.cancel();
        Ok(true)
    }

    /// A person's action: see [`GameActor::act_as`]. With `events`, the
    /// answer carries the events the seat may see (HTTP's answer does; a
    /// connection's `ack` does not, and their copy was made for nothing).
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        action: Value,
        events: bool,
    ) -> Result<(usize, Vec<Value>), ApiError> {
        // A connection's action (no events asked) may bring a quick bot's
        // answer along (see `act_as_then_bot`); HTTP's answer reads the
        // state after it, so it goes the usual way.
        let (seq, applied) = self
            .act_as_then_bot(Actor::Seat(seat), action, true, !events)
            .await
            .map_err(ApiError::from)?;
        let events = if events {
            applied.for_viewer(Viewer::Seat(seat))
        } else {
            Vec::new()
        };
        Ok((seq, events))
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
    pub(super) async fn act_as(
        &mut self,
        actor: Actor,
        action: Value,
        recheck: bool,
    ) -> Result<(usize, Applied), NotStored> {
        self.act_as_then_bot(actor, action, recheck, false).await
    }

    /// [`GameActor::act_as`]; with `follow`, a bot that answers at once
    /// (see `quick_bot_move`) answers the action before it is stored: both
    /// go into one commit (all or nothing), and the states after each,
    /// the first rendered before the bot's move is applied, wait in
    /// `followed_states` for the caller to send with its ack, in one
    /// burst. Either both are stored and shown, or neither.
    pub(super) async fn act_as_then_bot(
        &mut self,
        actor: Actor,
        action: Value,
        recheck: bool,
        follow: bool,
    ) -> Result<(usize, Applied), NotStored> {
        let mut caught_up = false;
        for _ in 0..8 {
            if self.row.aborted {
                return Err(ApiError::new(Code::IllegalAction, "the game was aborted")
                    .with_kind(ErrorKind::GameOver)
                    .into());
            }
            if self.clock.held {
                return Err(ApiError::new(
                    Code::Waiting,
                    "waiting for players: the game's clock starts, and play with it, once every seat is taken",
                )
                .into());
            }
            let now = self.now();
            let events = match self.m.apply_json_at(actor, &action, Some(now)) {
                Ok(events) => events,
                Err(e) => {
                    if recheck && !caught_up && self.refusal_may_be_stale(e.kind) {
                        caught_up = true;
                        self.replication.refusal_caught_up(Instant::now());
                        if self.catch_up().await {
                            continue;
                        }
                    }
                    return Err(ApiError::action(&e).into());
                }
            };
            let seq = self.m.actions_len();
            let old = (
                self.clock.clocks.clone(),
                self.clock.start_ms,
                self.clock.held,
            );
            self.clocks_follow(actor, now);
            let status = self.status_row();
            let mut writes = vec![Write::Action {
                game_id: self.row.id.clone(),
                action: ActionRow {
                    idx: seq - 1,
                    actor: serde_json::to_value(actor).unwrap_or(Value::Null),
                    action: action.clone(),
                    at_ms: now,
                },
                status: status.clone(),
            }];
            // What the memory said before this action, should the bot's
            // answer have to be undone with it. (`self.row.status` changes
            // only once the commit is done: `bot_follows` puts it back.)
            let shown = (self.last_by, std::mem::take(&mut self.last_events));
            self.last_events = super::render::LastEvents::new(&events, seq);
            let bot = match follow {
                true => self.bot_follows(actor, &mut writes),
                false => None,
            };
            let over = bot.as_ref().map_or(status.over, |b| b.status.over);
            // The action that ends a rated game rates it in the same
            // transaction: ratings never lag behind, nor apply twice.
            let actions = writes.len();
            if over && self.row.rated {
                writes.push(Write::Rate {
                    game_id: self.row.id.clone(),
                });
            }
            let stored = self
                .env
                .store
                .commit(writes)
                .await
                .map(|taken| taken.iter().take(actions).all(|t| *t));
            if !matches!(stored, Ok(true)) {
                // Nothing of it was stored: memory goes back to before
                // this action (the bot's answer, if any, first).
                (self.last_by, self.last_events) = shown;
                self.followed_states.clear();
                if bot.is_some() {
                    // Its agent saw a move that is being undone.
                    self.bots.agents = None;
                    self.rollback_last().await;
                    if self.stale {
                        return Err(ApiError::gone().into());
                    }
                }
            }
            match stored {
                Ok(true) => {}
                Ok(false) => {
                    // Another process stored action `seq - 1` first.
                    (self.clock.clocks, self.clock.start_ms, self.clock.held) = old;
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
                    (self.clock.clocks, self.clock.start_ms, self.clock.held) = old;
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
            match bot {
                Some(b) => {
                    self.row.status = b.status;
                    self.last_by = Some(Actor::Seat(b.seat));
                    self.last_events = b.events;
                }
                None => {
                    self.row.status = status;
                    self.last_by = Some(actor);
                }
            }
            return Ok((seq, events));
        }
        Err(ApiError::busy().into())
    }

    /// The quick bot's answer to `actor`'s action, just applied (with its
    /// status and events set as shown): the states after the action are
    /// rendered into `followed_states`, then the bot's move is applied
    /// and its write added to `writes`. None: no bot answers at once.
    fn bot_follows(&mut self, actor: Actor, writes: &mut Vec<Write>) -> Option<Followed> {
        let (seat, action) = self.quick_bot_move()?;
        let seq = self.m.actions_len();
        // The states as they would have been sent for the action alone,
        // with the status after it: lent by its write (the last), and
        // given back.
        let trade_status = |me: &mut Self, writes: &mut Vec<Write>| {
            if let Some(Write::Action { status, .. }) = writes.last_mut() {
                std::mem::swap(&mut me.row.status, status);
            }
        };
        trade_status(self, writes);
        let kept_by = self.last_by.replace(actor);
        self.followed_states = self.render_states();
        let give_back = |me: &mut Self, writes: &mut Vec<Write>, kept_by| {
            trade_status(me, writes);
            me.last_by = kept_by;
        };
        let now = self.now();
        let bot = Actor::Seat(seat);
        let events = match self.m.apply_json_at(bot, &action, Some(now)) {
            Ok(events) => events,
            Err(e) => {
                tracing::warn!(
                    "game {}: bot at {seat} chose a refused action: {e}",
                    self.row.id
                );
                self.bots.passed.push((seat, seq));
                self.followed_states.clear();
                give_back(self, writes, kept_by);
                return None;
            }
        };
        give_back(self, writes, kept_by);
        self.clocks_follow(bot, now);
        let status = self.status_row();
        writes.push(Write::Action {
            game_id: self.row.id.clone(),
            action: ActionRow {
                idx: seq,
                actor: serde_json::to_value(bot).unwrap_or(Value::Null),
                action,
                at_ms: now,
            },
            status: status.clone(),
        });
        Some(Followed {
            seat,
            status,
            events: super::render::LastEvents::new(&events, seq + 1),
        })
    }

    /// Whether a refusal of this kind could come from this process not
    /// having seen another's moves yet, and it is time to look: a
    /// malformed action or an unknown word is refused whatever the state,
    /// so it never costs a database read.
    pub(super) fn refusal_may_be_stale(&self, kind: ErrorKind) -> bool {
        let depends_on_state = matches!(
            kind,
            ErrorKind::NotYourTurn
                | ErrorKind::GameOver
                | ErrorKind::Illegal
                | ErrorKind::Ambiguous
        );
        depends_on_state
            && self.env.store.shared()
            && self.replication.refusal_may_catch_up(Instant::now())
    }

    /// Replaces the state by a replay of the whole stored record. Returns
    /// whether it did.
    pub(super) async fn rebuild(&mut self) -> bool {
        let id = self.row.id.clone();
        let Ok(Some(g)) = self.env.store.read(move |s| s.load(&id)).await else {
            return false;
        };
        match crate::clocks::replay(&*self.entry, &g.row, &g.actions, &self.resources) {
            Ok((m, timeline)) => {
                self.m = m;
                self.clock.timeline = timeline;
                let len = self.m.actions_len();
                self.clock_moves.retain(|&i, _| i < len);
                self.rebuild_clocks();
                // The agents followed a history that may no longer be the
                // game's: new ones catch up from the history.
                self.bots.agents = None;
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
    pub(super) async fn rollback_last(&mut self) {
        let mut record = self.m.record_json();
        if let Some(actions) = record.get_mut("actions").and_then(Value::as_array_mut) {
            actions.pop();
        }
        match self.entry.replay(&record, &self.resources) {
            Ok(m) => {
                self.m = m;
                self.clock.timeline.steps.truncate(self.m.actions_len());
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
    pub(super) async fn store_status(&mut self) -> Result<(), crate::storage::StorageError> {
        let status = self.status_row();
        let write = Write::Status {
            game_id: self.row.id.clone(),
            status: status.clone(),
        };
        if self.env.store.try_write(write).await? {
            self.row.status = status;
        } else {
            self.catch_up().await;
        }
        Ok(())
    }

    /// After any accepted action: show it, then let clocks and bots react.
    pub(super) fn after_change(&mut self) {
        self.broadcast_state();
        self.maybe_bot();
    }

    pub(super) fn status_row(&self) -> StatusRow {
        StatusRow {
            seq: self.m.actions_len(),
            to_act: JsonText::of(&self.m.to_act()),
            outcome: self.m.outcome().map(|o| JsonText::of(&o)),
            over: self.m.to_act() == ToAct::Over || self.row.aborted,
            deadline: self
                .clock
                .start_ms
                .filter(|_| !self.row.aborted)
                .map(|started_ms| DeadlineRow {
                    key: START_KEY.to_string(),
                    started_ms,
                }),
            updated_ms: self.now(),
        }
    }
}
