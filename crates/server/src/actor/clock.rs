//! The game's clocks (the model is `parlor_core::Clocks`, see
//! `crate::clocks`): starting them, what runs out when, and what the host
//! does then; claiming a win from one who left.

use super::{GameActor, NotStored};
use crate::error::ApiError;
use crate::storage::SeatKind;
use parlor_core::{Actor, Clocks, Expiry, Seat, ToAct, Viewer};
use serde_json::{json, Value};
use std::time::Duration;

impl GameActor {
    /// "Claim a win from one who left": while the claim window is open
    /// (the absent countdown of a seat to act ran out, the game offers a
    /// forfeit for it, the claimant is another player who is here), the
    /// game's forfeit is applied as the referee. Also "claim the win when
    /// the opponent's time runs out": another human seat whose bank is
    /// empty ([`Clocks::flagged`]) and whom the game can put out now, for
    /// a process that has not yet acted on the flag itself.
    pub(super) async fn claim_win(
        &mut self,
        claimant: Seat,
    ) -> Result<(usize, Vec<Value>), ApiError> {
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
    pub(super) fn flagged_claim(&self, claimant: Seat) -> Option<Seat> {
        if self.human(claimant.0) && !self.row.aborted {
            let clocks = self.clocks.as_ref()?;
            return clocks
                .flagged(self.now())
                .into_iter()
                .find(|s| *s != claimant && self.human(s.0) && self.m.forfeit_json(*s).is_some());
        }
        None
    }

    /// The game's deadline now, unless its action was refused before.
    pub(super) fn round_now(&self) -> Option<(String, f64)> {
        crate::clocks::round_of(&*self.m).filter(|(k, _)| self.dead_clock.as_ref() != Some(k))
    }

    /// The clocks rebuilt from the stored start and the timeline.
    pub(super) fn rebuild_clocks(&mut self) {
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
    pub(super) fn clocks_follow(&mut self, actor: Actor, at_ms: i64) {
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
    pub(super) fn try_start(&mut self, at_ms: i64) -> bool {
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
    pub(super) fn waiting_for(&self) -> Vec<usize> {
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
    pub(super) fn waiting_json(&self) -> Value {
        if self.held {
            json!(self.waiting_for())
        } else {
            json!([])
        }
    }

    /// After someone arrived (or at load): starts the clocks if they may
    /// start now, stores the start (so a restart keeps it) and tells
    /// everyone. Returns whether it did (and so sent everyone the state).
    pub(super) async fn start_clocks(&mut self) -> bool {
        if !self.try_start(self.now()) {
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
    pub(super) fn away_for_clocks(&self) -> Vec<Option<i64>> {
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
    pub(super) fn running(&self) -> Option<&Clocks> {
        if self.row.aborted || self.held || self.m.to_act() == ToAct::Over {
            return None;
        }
        self.clocks.as_ref()
    }

    /// The round clock's end and its action, while it runs.
    pub(super) fn round_due(&self) -> Option<(i64, String, Value)> {
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
    pub(super) fn seat_expiries(&self) -> Vec<(Seat, i64, &'static str)> {
        let Some(clocks) = self.running() else {
            return Vec::new();
        };
        let seq = self.m.actions_len();
        let now = self.now();
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
                    let window = self.env.settings.claim_window.as_millis() as i64;
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
    pub(super) fn claim_open(&self) -> Option<Seat> {
        self.seat_expiries()
            .into_iter()
            .find(|(_, _, why)| *why == "claim")
            .map(|(seat, _, _)| seat)
    }

    /// When the actor must next look at its clocks.
    /// When the host must act next by the clocks: nothing unless this
    /// process hosts the game (holds its lease).
    pub(super) fn next_wake(&self) -> Option<i64> {
        if self.hosting() {
            return self.clock_wake();
        }
        // Not the host: wake only for what changes on the screens of the
        // players connected here (a claim window opening), never for
        // what is past (the host acts on that).
        let now = self.now();
        let round = self.round_due().map(|(t, _, _)| t);
        let seats = self.seat_expiries().into_iter().map(|(_, t, _)| t);
        round.into_iter().chain(seats).filter(|&t| t > now).min()
    }

    /// When the clocks next need the host, whoever hosts.
    pub(super) fn clock_wake(&self) -> Option<i64> {
        let round = self.round_due().map(|(t, _, _)| t);
        let seat = self.seat_expiries().first().map(|(_, t, _)| *t);
        match (round, seat) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// A clock ran out (or a claim window opened): the host's rules.
    pub(super) async fn clock_woke(&mut self) {
        let now = self.now();
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
    pub(super) async fn tell_claim_window(&mut self, now: i64) {
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
    pub(super) fn turn_clock_json(&self) -> Value {
        let first = self
            .seat_expiries()
            .into_iter()
            .find(|(_, _, why)| *why != "flag");
        match first {
            Some((seat, ends, why)) => {
                let now = self.now();
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
    pub(super) fn round_json(&self) -> Value {
        let (Some(clocks), Some(d)) = (self.running(), self.round_now()) else {
            return Value::Null;
        };
        match clocks.view(self.now(), &[]).round {
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
    pub(super) fn clocks_json(&self) -> Value {
        match &self.clocks {
            Some(c) if !self.row.aborted => {
                json!(c.view(self.now(), &self.away_for_clocks()))
            }
            _ => Value::Null,
        }
    }

    pub(super) async fn round_ran_out(&mut self, key: String, action: Value) {
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
}
