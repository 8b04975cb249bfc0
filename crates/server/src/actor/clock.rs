//! The game's clocks (the model is `parlor_core::Clocks`, see
//! `crate::clocks`): when they start, what runs out when, and what the host
//! does then; claiming a win from one who left.
//!
//! [`GameClock`] is the state machine, with no I/O and no clock of its own:
//! every question takes `now` (ms since the epoch) and what it needs of the
//! table through [`Table`], so it is tested in virtual time (the tests at
//! the end). The actor ([`GameActor`]) feeds it actions and the time of
//! its [`crate::TimeSource`], and carries out what it says is due: the
//! round's action, a forfeit on time, a bot's move for a seat, telling
//! everyone that a claim window opened.

use super::{GameActor, NotStored};
use crate::clocks::Timeline;
use crate::error::ApiError;
use crate::storage::SeatKind;
use parlor_core::{Actor, ClockView, Clocks, DynMatch, Expiry, Seat, TimeControl, ToAct, Viewer};
use serde_json::{json, Value};
use std::time::Duration;

/// What the clocks need to know of the table, beyond the game itself.
pub(super) trait Table {
    /// The game, as it stands.
    fn game(&self) -> &dyn DynMatch;
    /// Whether the game was aborted.
    fn aborted(&self) -> bool;
    /// Whether the seat is a person's (bots are never timed out).
    fn human(&self, seat: usize) -> bool;
    /// Whether a connection holds the seat now (here or elsewhere).
    fn here(&self, seat: usize) -> bool;
    /// Since when nobody holds the seat (`None` while somebody does).
    fn away_since(&self, seat: usize) -> Option<i64>;
    /// Whether the seat's bot was already asked to act at `seq` (its
    /// clock ran out, or it passed): its clocks are not owed again.
    fn bot_asked(&self, seat: Seat, seq: usize) -> bool;
    /// How long the other players may claim the win once a seat's absent
    /// countdown has run out.
    fn claim_window_ms(&self) -> i64;
}

/// Why a seat's clock ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Why {
    /// The bank is empty: the flag falls.
    Flag,
    /// The turn clock.
    Turn,
    /// The absent countdown (nobody holds the seat).
    Absent,
    /// The claim window: the absent countdown ran out, the game can put the
    /// seat out and another player is here, who may claim the win until
    /// then (not past the turn clock), before the bot moves.
    Claim,
}

impl Why {
    /// As clients read it (`turn_clock.reason`).
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Why::Flag => "flag",
            Why::Turn => "turn",
            Why::Absent => "absent",
            Why::Claim => "claim",
        }
    }
}

/// A seat's clock that will run out (or has, and is owed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SeatExpiry {
    pub seat: Seat,
    pub at_ms: i64,
    pub why: Why,
}

/// The clocks of one game: the model once play has started, and what the
/// host keeps around it.
pub(super) struct GameClock {
    /// The seats' time control (the game's round clock comes from the
    /// game itself).
    control: TimeControl,
    /// How many seats the game has.
    seats: usize,
    /// The clocks of the seats and the game's round (see `crate::clocks`),
    /// once play has started; `None` before (or for a game with no clock).
    pub clocks: Option<Clocks>,
    /// When play started for the clocks (stored, see `crate::clocks`).
    pub start_ms: Option<i64>,
    /// What the clocks are rebuilt from.
    pub timeline: Timeline,
    /// Seats whose flag fell at this seq and whose forfeit was tried.
    flag_done: Vec<(Seat, usize)>,
    /// A clock key whose action the game refused: not retried.
    pub dead_clock: Option<String>,
    /// The game's clocks are to start, with a round clock or banks, but a
    /// human seat is not there yet (neither arrived nor connected): the
    /// clocks wait, and so does play.
    pub held: bool,
    /// The claim window (seat, seq) everyone was told about.
    claim_told: Option<(Seat, usize)>,
}

/// The stored time control cannot be run (only a control written to the
/// database by hand can be refused).
#[derive(Debug)]
pub(super) struct ControlRefused;

impl GameClock {
    /// The clocks of a game under `control` with `seats` seats, not
    /// started, whose actions so far are `timeline`.
    pub(super) fn new(control: TimeControl, seats: usize, timeline: Timeline) -> GameClock {
        GameClock {
            control,
            seats,
            clocks: None,
            start_ms: None,
            timeline,
            flag_done: Vec::new(),
            dead_clock: None,
            held: false,
            claim_told: None,
        }
    }

    /// The game's deadline now, unless its action was refused before.
    pub(super) fn round_now(&self, m: &dyn DynMatch) -> Option<(String, f64)> {
        crate::clocks::round_of(m).filter(|(k, _)| self.dead_clock.as_ref() != Some(k))
    }

    /// The clocks rebuilt from the stored start and the timeline.
    pub(super) fn rebuild(&mut self) -> Result<(), ControlRefused> {
        let Some(start) = self.start_ms else {
            self.clocks = None;
            return Ok(());
        };
        self.clocks = self.timeline.clocks(&self.control, self.seats, start);
        match self.clocks {
            Some(_) => Ok(()),
            None => Err(ControlRefused),
        }
    }

    /// After an action (already applied to `m`) by `actor` at `at_ms`: the
    /// timeline and the clocks follow, or the clocks start now if they may
    /// (`waiting`: some human seat is not there yet).
    pub(super) fn follow(
        &mut self,
        m: &dyn DynMatch,
        aborted: bool,
        actor: Actor,
        at_ms: i64,
        waiting: bool,
    ) -> Result<(), ControlRefused> {
        let step = self.timeline.push(m, actor, at_ms).clone();
        let round = self.round_now(m);
        match self.clocks.as_mut() {
            Some(clocks) => {
                let round = round.as_ref().map(|(k, s)| (k.as_str(), *s));
                clocks.on_action(step.at_ms, step.actor, &step.to_act, round);
                Ok(())
            }
            None => self.try_start(m, aborted, at_ms, waiting).map(|_| ()),
        }
    }

    /// Starts the clocks at `at_ms` if the game has any (a time control for
    /// the seats, or a round clock now) and may start: a round clock or a
    /// bank waits until every human seat is there (`waiting` is false;
    /// else `held`); a turn clock or an absent countdown alone does not
    /// wait. Returns whether they started.
    pub(super) fn try_start(
        &mut self,
        m: &dyn DynMatch,
        aborted: bool,
        at_ms: i64,
        waiting: bool,
    ) -> Result<bool, ControlRefused> {
        self.held = false;
        if self.clocks.is_some() || aborted || m.to_act() == ToAct::Over {
            return Ok(false);
        }
        let round = self.round_now(m).is_some();
        let tc = &self.control;
        if !round && tc.is_untimed() {
            return Ok(false);
        }
        if (round || tc.bank_seconds.is_some()) && waiting {
            // A friend who opens the invite late loses no time.
            self.held = true;
            return Ok(false);
        }
        self.start_ms = Some(at_ms);
        self.rebuild().map(|()| true)
    }

    /// Per seat, since when it is away, as the clocks take it: bots are
    /// always there.
    pub(super) fn away(&self, t: &impl Table) -> Vec<Option<i64>> {
        (0..self.seats)
            .map(|s| if t.human(s) { t.away_since(s) } else { None })
            .collect()
    }

    /// The clocks, while they run (started, game not aborted nor over, not
    /// waiting for players).
    pub(super) fn running(&self, t: &impl Table) -> Option<&Clocks> {
        if t.aborted() || self.held || t.game().to_act() == ToAct::Over {
            return None;
        }
        self.clocks.as_ref()
    }

    /// The round clock's end and its action, while it runs.
    pub(super) fn round_due(&self, t: &impl Table) -> Option<(i64, String, Value)> {
        let clocks = self.running(t)?;
        let d = t.game().deadline_json()?;
        if self.dead_clock.as_deref() == Some(d.key.as_str()) {
            return None;
        }
        let (ends, _) = clocks
            .expiries(&[])
            .into_iter()
            .find(|(_, e)| *e == Expiry::Round)?;
        Some((ends, d.key, d.action))
    }

    /// The seats' clocks that will run out (or have, and are owed) at
    /// `now`: see [`Why`]. Human seats only; not a seat whose bot was
    /// already asked at this seq, nor a flag already acted on. Earliest
    /// first.
    pub(super) fn seat_expiries(&self, t: &impl Table, now: i64) -> Vec<SeatExpiry> {
        let Some(clocks) = self.running(t) else {
            return Vec::new();
        };
        let m = t.game();
        let seq = m.actions_len();
        let all = clocks.expiries(&self.away(t));
        let turn_end = |seat: Seat| {
            all.iter()
                .find(|(_, e)| *e == Expiry::Turn(seat))
                .map(|(t, _)| *t)
        };
        let claimed_by_someone =
            |seat: Seat| (0..self.seats).any(|s| s != seat.0 && t.human(s) && t.here(s));
        let mut out: Vec<SeatExpiry> = all
            .iter()
            .filter_map(|&(ends, e)| {
                let (seat, why) = match e {
                    Expiry::Flag(s) => (s, Why::Flag),
                    Expiry::Turn(s) => (s, Why::Turn),
                    Expiry::Absent(s) => (s, Why::Absent),
                    Expiry::Round => return None,
                };
                if !t.human(seat.0)
                    || t.bot_asked(seat, seq)
                    || (why == Why::Flag && self.flag_done.contains(&(seat, seq)))
                {
                    return None;
                }
                if why == Why::Absent
                    && ends <= now
                    && claimed_by_someone(seat)
                    && m.forfeit_json(seat).is_some()
                {
                    let until =
                        (ends + t.claim_window_ms()).min(turn_end(seat).unwrap_or(i64::MAX));
                    return Some(SeatExpiry {
                        seat,
                        at_ms: until,
                        why: Why::Claim,
                    });
                }
                Some(SeatExpiry {
                    seat,
                    at_ms: ends,
                    why,
                })
            })
            .collect();
        out.sort_by_key(|e| (e.at_ms, e.seat.0));
        out
    }

    /// The seat whose claim window is open at `now`, if any.
    pub(super) fn claim_open(&self, t: &impl Table, now: i64) -> Option<Seat> {
        self.seat_expiries(t, now)
            .into_iter()
            .find(|e| e.why == Why::Claim)
            .map(|e| e.seat)
    }

    /// A claim window open at `now` that everyone has not been told about
    /// yet (at this seq).
    pub(super) fn claim_to_tell(&self, t: &impl Table, now: i64) -> Option<Seat> {
        let seq = t.game().actions_len();
        self.seat_expiries(t, now)
            .into_iter()
            .find(|e| e.why == Why::Claim && e.at_ms > now)
            .map(|e| e.seat)
            .filter(|&seat| self.claim_told != Some((seat, seq)))
    }

    /// Everyone was told that `seat`'s claim window is open (at this seq).
    pub(super) fn claim_told(&mut self, seat: Seat, seq: usize) {
        self.claim_told = Some((seat, seq));
    }

    /// When the clocks next need the host, whoever hosts.
    pub(super) fn wake(&self, t: &impl Table, now: i64) -> Option<i64> {
        let round = self.round_due(t).map(|(at, _, _)| at);
        let seat = self.seat_expiries(t, now).first().map(|e| e.at_ms);
        match (round, seat) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When to look at the clocks again: for the host, [`GameClock::wake`];
    /// for another process, only at what changes on the screens of the
    /// players connected to it (a claim window opening), never at what is
    /// past (the host acts on that).
    pub(super) fn next_wake(&self, t: &impl Table, now: i64, hosting: bool) -> Option<i64> {
        if hosting {
            return self.wake(t, now);
        }
        let round = self.round_due(t).map(|(at, _, _)| at);
        let seats = self.seat_expiries(t, now).into_iter().map(|e| e.at_ms);
        round.into_iter().chain(seats).filter(|&at| at > now).min()
    }

    /// The round's action, if the round clock has run out by `now`.
    pub(super) fn round_ran_out(&self, t: &impl Table, now: i64) -> Option<(String, Value)> {
        self.round_due(t)
            .filter(|&(ends, _, _)| ends <= now)
            .map(|(_, key, action)| (key, action))
    }

    /// The seat clock that has run out by `now` and is owed, if any (the
    /// first of [`GameClock::seat_expiries`], if it has ended).
    pub(super) fn seat_ran_out(&self, t: &impl Table, now: i64) -> Option<SeatExpiry> {
        self.seat_expiries(t, now)
            .into_iter()
            .next()
            .filter(|e| e.at_ms <= now)
    }

    /// The forfeit on time of `seat` at `seq` is being tried: its flag is
    /// not owed again at this seq.
    pub(super) fn flag_tried(&mut self, seat: Seat, seq: usize) {
        self.flag_done.retain(|&(_, at)| at == seq);
        self.flag_done.push((seat, seq));
    }

    /// The forfeit on time of `seat` at `seq` could not be stored: it is
    /// owed again.
    pub(super) fn flag_failed(&mut self, seat: Seat, seq: usize) {
        self.flag_done.retain(|d| *d != (seat, seq));
    }

    /// A human seat other than `claimant` (a human seat) whose flag has
    /// fallen by `now` and whom the game can put out now.
    pub(super) fn flagged(&self, t: &impl Table, claimant: Seat, now: i64) -> Option<Seat> {
        if t.human(claimant.0) && !t.aborted() {
            let clocks = self.clocks.as_ref()?;
            return clocks
                .flagged(now)
                .into_iter()
                .find(|s| *s != claimant && t.human(s.0) && t.game().forfeit_json(*s).is_some());
        }
        None
    }

    /// Every clock as clients see it at `now`, once started (not for an
    /// aborted game).
    pub(super) fn view(&self, t: &impl Table, now: i64) -> Option<ClockView> {
        match &self.clocks {
            Some(c) if !t.aborted() => Some(c.view(now, &self.away(t))),
            _ => None,
        }
    }
}

/// The actor's table, as its clocks see it.
impl Table for GameActor {
    fn game(&self) -> &dyn DynMatch {
        &*self.m
    }
    fn aborted(&self) -> bool {
        self.row.aborted
    }
    fn human(&self, seat: usize) -> bool {
        GameActor::human(self, seat)
    }
    fn here(&self, seat: usize) -> bool {
        GameActor::here(self, seat)
    }
    fn away_since(&self, seat: usize) -> Option<i64> {
        self.away_since.get(seat).copied().flatten()
    }
    fn bot_asked(&self, seat: Seat, seq: usize) -> bool {
        self.bots.forced == Some((seat, seq)) || self.bots.passed.contains(&(seat, seq))
    }
    fn claim_window_ms(&self) -> i64 {
        self.env.settings.claim_window.as_millis() as i64
    }
}

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
        let now = self.now();
        let flagged = self.clock.flagged(self, claimant, now);
        let seat = match (self.clock.claim_open(self, now), flagged) {
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

    fn warn_control_refused(&self) {
        tracing::warn!(
            "game {}: its stored time control is refused; its clocks do not run",
            self.row.id
        );
    }

    /// The clocks rebuilt from the stored start and the timeline.
    pub(super) fn rebuild_clocks(&mut self) {
        if self.clock.rebuild().is_err() {
            self.warn_control_refused();
        }
    }

    /// After an action (applied to `self.m`) by `actor` at `at_ms`: the
    /// timeline and the clocks follow, or the clocks start now if they may.
    pub(super) fn clocks_follow(&mut self, actor: Actor, at_ms: i64) {
        let waiting = self.clock.clocks.is_none() && !self.waiting_for().is_empty();
        let followed = self
            .clock
            .follow(&*self.m, self.row.aborted, actor, at_ms, waiting);
        if followed.is_err() {
            self.warn_control_refused();
        }
    }

    /// Starts the clocks at `at_ms` if they may start (see
    /// [`GameClock::try_start`]). Does not store the start (the caller's
    /// status write does). Returns whether they started.
    pub(super) fn try_start(&mut self, at_ms: i64) -> bool {
        let waiting = !self.waiting_for().is_empty();
        match self
            .clock
            .try_start(&*self.m, self.row.aborted, at_ms, waiting)
        {
            Ok(started) => started,
            Err(ControlRefused) => {
                self.warn_control_refused();
                true
            }
        }
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
        if self.clock.held {
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

    /// The round clock's end and its action, while it runs.
    pub(super) fn round_due(&self) -> Option<(i64, String, Value)> {
        self.clock.round_due(self)
    }

    /// When the host must act next by the clocks: nothing unless this
    /// process hosts the game (holds its lease), but what changes on the
    /// screens of the players connected here.
    pub(super) fn next_wake(&self) -> Option<i64> {
        self.clock.next_wake(self, self.now(), self.hosting())
    }

    /// When the clocks next need the host, whoever hosts.
    pub(super) fn clock_wake(&self) -> Option<i64> {
        self.clock.wake(self, self.now())
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
        if let Some((key, action)) = self.clock.round_ran_out(self, now) {
            self.round_ran_out(key, action).await;
            return;
        }
        self.tell_claim_window(now).await;
        let seq = self.m.actions_len();
        let Some(SeatExpiry { seat, why, .. }) = self.clock.seat_ran_out(self, now) else {
            return;
        };
        match why {
            // The bank is empty: the seat loses on time, by the game's
            // forfeit if it offers one now; if not, its bot moves for it.
            Why::Flag => {
                self.clock.flag_tried(seat, seq);
                match self.m.forfeit_json(seat) {
                    Some(action) => match self.act_as(Actor::Referee, action, false).await {
                        Ok(_) => self.after_change(),
                        Err(NotStored::MovedOn) => {}
                        Err(NotStored::Refused(e)) if e.code == "storage" => {
                            self.clock.flag_failed(seat, seq);
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
            Why::Turn | Why::Absent | Why::Claim => {
                let elsewhere = why != Why::Turn && self.held_elsewhere(seat).await;
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
        if let Some(seat) = self.clock.claim_to_tell(self, now) {
            if !self.held_elsewhere(seat).await {
                self.clock.claim_told(seat, seq);
                self.broadcast_state();
            }
        }
    }

    /// The seat clock shown as `turn_clock` (the first of the turn clock,
    /// the absent countdown and the claim window to end; not banks).
    pub(super) fn turn_clock_json(&self) -> Value {
        let now = self.now();
        let first = self
            .clock
            .seat_expiries(self, now)
            .into_iter()
            .find(|e| e.why != Why::Flag);
        match first {
            Some(SeatExpiry { seat, at_ms, why }) => {
                let mut v = json!({
                    "seat": seat,
                    "reason": why.as_str(),
                    "ends_ms": at_ms,
                    "remaining_ms": (at_ms - now).max(0),
                });
                if why == Why::Claim {
                    v["claimable_by"] = json!(self.claimants(seat));
                }
                v
            }
            None => Value::Null,
        }
    }

    /// The game's round clock as `clock` (its key, length, start, end).
    pub(super) fn round_json(&self) -> Value {
        let (Some(clocks), Some(d)) = (self.clock.running(self), self.clock.round_now(&*self.m))
        else {
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
        match self.clock.view(self, self.now()) {
            Some(view) => json!(view),
            None => Value::Null,
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
                self.clock.dead_clock = Some(key);
            }
        }
    }
}
