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
use crate::error::Code;
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
        self.untold(&self.seat_expiries(t, now), seq, now)
    }

    /// Of `expiries`, the open claim window not told yet at `seq`.
    fn untold(&self, expiries: &[SeatExpiry], seq: usize, now: i64) -> Option<Seat> {
        expiries
            .iter()
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
        let seats = self.seat_expiries(t, now);
        if self.untold(&seats, t.game().actions_len(), now).is_some() {
            // A claim window opened while the actor was busy: tell it now.
            return Some(now);
        }
        let round = self.round_due(t).map(|(at, _, _)| at);
        let seat = seats.first().map(|e| e.at_ms);
        match (round, seat) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When to look at the clocks again: for the host, [`GameClock::wake`];
    /// for another process, only at what changes on the screens of the
    /// players connected to it (a claim window opening), never at what is
    /// past (the host acts on that). Either way, at once while an open
    /// claim window has not been told: the actor may have been busy (a
    /// database call) at the moment it opened.
    pub(super) fn next_wake(&self, t: &impl Table, now: i64, hosting: bool) -> Option<i64> {
        if hosting {
            return self.wake(t, now);
        }
        let seats = self.seat_expiries(t, now);
        if self.untold(&seats, t.game().actions_len(), now).is_some() {
            return Some(now);
        }
        let round = self.round_due(t).map(|(at, _, _)| at);
        let seats = seats.into_iter().map(|e| e.at_ms);
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
        self.holders.away_since.get(seat).copied().flatten()
    }
    fn bot_asked(&self, seat: Seat, seq: usize) -> bool {
        self.bots.forced == Some((seat, seq)) || self.bots.passed.contains(&(seat, seq))
    }
    fn claim_window_ms(&self) -> i64 {
        self.env.settings.games.claim_window.as_millis() as i64
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
        let not = |m: &str| ApiError::new(Code::NotClaimable, m.to_string());
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
        let why = if flagged.is_some() {
            Why::Flag
        } else {
            Why::Claim
        };
        self.act_as(Actor::Referee, action, false)
            .await
            .map(|(seq, applied)| {
                self.clock_moves
                    .insert(seq - 1, super::moves::OnClock::Seat(seat, why));
                (seq, applied.for_viewer(Viewer::Seat(claimant)))
            })
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
        let idx = self.clock.timeline.steps.len();
        let seen = self.clock.clocks.as_ref().and_then(|c| {
            super::moves::step_on_clock(c, actor, at_ms, |s| self.human(s), self.seats.rows.len())
        });
        self.last_clock_step = Some((idx, at_ms, actor, seen));
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
            .rows
            .iter()
            .filter(|s| {
                s.kind == SeatKind::Human
                    && !self.seats.arrived.get(s.seat).copied().unwrap_or(s.joined)
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
                        Ok((n, _)) => {
                            self.clock_moves
                                .insert(n - 1, super::moves::OnClock::Seat(seat, Why::Flag));
                            self.after_change()
                        }
                        Err(NotStored::MovedOn) => {}
                        Err(NotStored::Refused(e)) if e.code == Code::Storage => {
                            self.clock.flag_failed(seat, seq);
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                        Err(NotStored::Refused(e)) => {
                            tracing::warn!(
                                "game {}: the game refused its own forfeit of seat {} on time ({e}); its bot moves for it",
                                self.row.id, seat.0
                            );
                            self.bots.forced = Some((seat, seq));
                            self.forced_why = Some((seat, seq, Why::Flag));
                            self.maybe_bot();
                        }
                    },
                    None => {
                        self.bots.forced = Some((seat, seq));
                        self.forced_why = Some((seat, seq, Why::Flag));
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
                    self.forced_why = Some((seat, seq, why));
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
            Err(NotStored::Refused(e)) if e.code == Code::Storage => {
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

/// The state machine in virtual time: every test picks its `now`, nothing
/// sleeps.
#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::{
        ConfigError, Deadline, ErrorKind, Game, GameError, GameInfo, Outcome, Registry, Resources,
        Seed,
    };
    use serde::{Deserialize, Serialize};

    /// "Duel": two seats take turns saying a number, `turns` in all. With
    /// `round`, a round clock of that many seconds whose referee action
    /// ends the game; with `forfeit`, the seat to act can be put out.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    struct DuelConfig {
        turns: u32,
        round: Option<f64>,
        forfeit: bool,
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum DuelAction {
        Say(u32),
        Forfeit(usize),
        Time,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("not now")]
    struct NotNow;

    impl GameError for NotNow {
        fn kind(&self) -> ErrorKind {
            ErrorKind::Illegal
        }
    }

    #[derive(Clone, Debug)]
    struct Duel {
        config: DuelConfig,
        said: u32,
        ended: bool,
    }

    impl Game for Duel {
        type Config = DuelConfig;
        type Action = DuelAction;
        type View = u32;
        type Event = u32;
        type Error = NotNow;
        type Query = parlor_core::NoHelper;
        type Answer = parlor_core::NoHelper;
        const INFO: GameInfo = GameInfo {
            name: "duel",
            title: "Duel",
            min_seats: 2,
            max_seats: 2,
        };
        fn new(config: &DuelConfig, _: Seed, _: &Resources) -> Result<Self, ConfigError> {
            Ok(Duel {
                config: config.clone(),
                said: 0,
                ended: false,
            })
        }
        fn config(&self) -> &DuelConfig {
            &self.config
        }
        fn action_bound(&self) -> usize {
            self.config.turns as usize + 1
        }
        fn seats(&self) -> usize {
            2
        }
        fn to_act(&self) -> ToAct {
            if self.ended || self.said >= self.config.turns {
                ToAct::Over
            } else {
                ToAct::One(Seat(self.said as usize % 2))
            }
        }
        fn apply(&mut self, actor: Actor, action: DuelAction) -> Result<Vec<u32>, NotNow> {
            match (actor, action) {
                _ if self.to_act() == ToAct::Over => return Err(NotNow),
                (Actor::Seat(s), DuelAction::Say(n)) if ToAct::One(s) == self.to_act() => {
                    self.said += 1;
                    return Ok(vec![n]);
                }
                (Actor::Referee, DuelAction::Forfeit(_) | DuelAction::Time) => self.ended = true,
                _ => return Err(NotNow),
            }
            Ok(Vec::new())
        }
        fn view(&self, _: Viewer) -> u32 {
            self.said
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.to_act() == ToAct::Over).then(|| Outcome::from_scores(vec![0, 0]))
        }
        fn deadline(&self) -> Option<Deadline<DuelAction>> {
            let seconds = self.config.round?;
            (self.to_act() != ToAct::Over).then(|| Deadline {
                key: "round".into(),
                seconds,
                action: DuelAction::Time,
            })
        }
        fn forfeit(&self, seat: Seat) -> Option<DuelAction> {
            (self.config.forfeit && ToAct::One(seat) == self.to_act())
                .then_some(DuelAction::Forfeit(seat.0))
        }
    }

    /// The table around the clocks: both seats human unless said, each
    /// here unless away.
    struct Fake {
        m: Box<dyn DynMatch>,
        human: [bool; 2],
        away: [Option<i64>; 2],
        asked: Vec<(Seat, usize)>,
        window_ms: i64,
    }

    impl Table for Fake {
        fn game(&self) -> &dyn DynMatch {
            &*self.m
        }
        fn aborted(&self) -> bool {
            false
        }
        fn human(&self, seat: usize) -> bool {
            self.human[seat]
        }
        fn here(&self, seat: usize) -> bool {
            self.away[seat].is_none()
        }
        fn away_since(&self, seat: usize) -> Option<i64> {
            self.away[seat]
        }
        fn bot_asked(&self, seat: Seat, seq: usize) -> bool {
            self.asked.contains(&(seat, seq))
        }
        fn claim_window_ms(&self) -> i64 {
            self.window_ms
        }
    }

    /// Play starts at this time (ms since the epoch).
    const T0: i64 = 1_700_000_000_000;

    /// A Duel of `config` under `control`, its clocks started at `T0` (if it
    /// has any).
    fn table(config: serde_json::Value, control: TimeControl) -> (Fake, GameClock) {
        let mut registry = Registry::new();
        registry.register::<Duel>();
        let entry = registry.get("duel").unwrap();
        let m = entry.new_match(&config, 1, &Resources::default()).unwrap();
        let timeline = Timeline::new(&*m);
        let fake = Fake {
            m,
            human: [true, true],
            away: [None, None],
            asked: Vec::new(),
            window_ms: 1_000,
        };
        let mut clock = GameClock::new(control, 2, timeline);
        // Untimed without a round, nothing starts.
        clock.try_start(&*fake.m, false, T0, false).unwrap();
        (fake, clock)
    }

    /// Seat `seat` says a number at `at`.
    fn say(fake: &mut Fake, clock: &mut GameClock, seat: usize, at: i64) {
        let actor = Actor::Seat(Seat(seat));
        fake.m
            .apply_json_at(actor, &json!({"say": 1}), Some(at))
            .unwrap();
        clock.follow(&*fake.m, false, actor, at, false).unwrap();
    }

    fn expiry(seat: usize, at_ms: i64, why: Why) -> SeatExpiry {
        SeatExpiry {
            seat: Seat(seat),
            at_ms,
            why,
        }
    }

    fn bank(seconds: f64, increment: f64) -> TimeControl {
        TimeControl {
            bank_seconds: Some(seconds),
            increment_seconds: increment,
            ..TimeControl::default()
        }
    }

    #[test]
    fn a_bank_runs_out_at_its_time_and_an_increment_puts_it_off() {
        let (mut fake, mut clock) = table(json!({"turns": 9, "forfeit": true}), bank(10.0, 2.0));
        assert_eq!(clock.wake(&fake, T0), Some(T0 + 10_000));
        assert_eq!(clock.seat_ran_out(&fake, T0 + 9_999), None);
        assert_eq!(
            clock.seat_ran_out(&fake, T0 + 10_000),
            Some(expiry(0, T0 + 10_000, Why::Flag))
        );
        // Ann says her number after 4 s: 6 s left, plus 2; Bea's bank runs.
        say(&mut fake, &mut clock, 0, T0 + 4_000);
        assert_eq!(clock.seat_ran_out(&fake, T0 + 10_000), None);
        assert_eq!(clock.wake(&fake, T0 + 4_000), Some(T0 + 14_000));
        let view = clock.view(&fake, T0 + 5_000).unwrap();
        assert_eq!(view.seats[0].bank_ms, Some(8_000));
        assert_eq!(view.seats[1].bank_ms, Some(9_000));
        // Bea's flag falls: Ann may claim the win; once the forfeit is
        // tried, the flag is not owed again at this seq.
        let late = T0 + 14_000;
        assert_eq!(
            clock.seat_ran_out(&fake, late),
            Some(expiry(1, late, Why::Flag))
        );
        assert_eq!(clock.flagged(&fake, Seat(0), late), Some(Seat(1)));
        assert_eq!(clock.flagged(&fake, Seat(0), late - 1), None);
        clock.flag_tried(Seat(1), 1);
        assert_eq!(clock.seat_ran_out(&fake, late), None);
        clock.flag_failed(Seat(1), 1);
        assert_eq!(
            clock.seat_ran_out(&fake, late).map(|e| e.why),
            Some(Why::Flag)
        );
    }

    #[test]
    fn a_bank_or_a_round_waits_for_every_player_a_turn_clock_does_not() {
        let (fake, _) = table(json!({"turns": 9}), TimeControl::default());
        let mut clock = GameClock::new(bank(60.0, 0.0), 2, Timeline::new(&*fake.m));
        assert!(!clock.try_start(&*fake.m, false, T0, true).unwrap());
        assert!(clock.held);
        assert_eq!(clock.running(&fake), None);
        assert_eq!(clock.wake(&fake, T0 + 999_999), None);
        assert!(clock.try_start(&*fake.m, false, T0 + 5_000, false).unwrap());
        assert!(!clock.held);
        assert_eq!(clock.start_ms, Some(T0 + 5_000));
        assert_eq!(clock.wake(&fake, T0 + 5_000), Some(T0 + 65_000));

        let turn = TimeControl {
            turn_seconds: Some(5.0),
            ..TimeControl::default()
        };
        let mut clock = GameClock::new(turn, 2, Timeline::new(&*fake.m));
        assert!(clock.try_start(&*fake.m, false, T0, true).unwrap());

        // Untimed, no round: no clocks at all.
        let mut clock = GameClock::new(TimeControl::default(), 2, Timeline::new(&*fake.m));
        assert!(!clock.try_start(&*fake.m, false, T0, false).unwrap());
        assert_eq!(clock.view(&fake, T0), None);
    }

    #[test]
    fn the_turn_clock_hands_the_seat_to_its_bot_once() {
        let turn = TimeControl {
            turn_seconds: Some(5.0),
            ..TimeControl::default()
        };
        let (mut fake, mut clock) = table(json!({"turns": 9}), turn);
        assert_eq!(clock.seat_ran_out(&fake, T0 + 4_999), None);
        assert_eq!(
            clock.seat_ran_out(&fake, T0 + 5_000),
            Some(expiry(0, T0 + 5_000, Why::Turn))
        );
        // Its bot was asked: nothing more is owed at this seq.
        fake.asked.push((Seat(0), 0));
        assert_eq!(clock.seat_ran_out(&fake, T0 + 60_000), None);
        assert_eq!(clock.wake(&fake, T0 + 60_000), None);
        // The move restarts the clock, for the other seat.
        say(&mut fake, &mut clock, 0, T0 + 6_000);
        assert_eq!(clock.wake(&fake, T0 + 6_000), Some(T0 + 11_000));
        // Bots are never timed out.
        fake.human[1] = false;
        assert_eq!(clock.wake(&fake, T0 + 6_000), None);
    }

    #[test]
    fn the_absent_countdown_runs_only_for_the_absent_then_a_claim_window() {
        let absent = TimeControl {
            absent_seconds: Some(3.0),
            ..TimeControl::default()
        };
        let (mut fake, clock) = table(json!({"turns": 9, "forfeit": true}), absent.clone());
        // Ann is here: no countdown however long she thinks.
        assert_eq!(clock.wake(&fake, T0 + 600_000), None);
        // Ann left at T0 + 1 s: her countdown ends 3 s later. Bea is here,
        // and the game can put Ann out: Bea may claim the win for the
        // claim window; then Ann's bot moves.
        fake.away[0] = Some(T0 + 1_000);
        assert_eq!(
            clock.seat_expiries(&fake, T0 + 3_999),
            vec![expiry(0, T0 + 4_000, Why::Absent)]
        );
        let opened = T0 + 4_000;
        assert_eq!(
            clock.seat_expiries(&fake, opened),
            vec![expiry(0, opened + 1_000, Why::Claim)]
        );
        assert_eq!(clock.claim_open(&fake, opened), Some(Seat(0)));
        assert_eq!(clock.seat_ran_out(&fake, opened), None);
        // Not told yet (the actor was busy when it opened): at once.
        let busy = opened + 300;
        assert_eq!(clock.next_wake(&fake, busy, true), Some(busy));
        assert_eq!(clock.next_wake(&fake, busy, false), Some(busy));
        assert_eq!(
            clock.seat_ran_out(&fake, opened + 1_000),
            Some(expiry(0, opened + 1_000, Why::Claim))
        );
        // Everyone is told once that the window opened.
        let mut clock = clock;
        assert_eq!(clock.claim_to_tell(&fake, opened), Some(Seat(0)));
        clock.claim_told(Seat(0), 0);
        assert_eq!(clock.claim_to_tell(&fake, opened), None);
        // Told: the next wake is the window's end (nothing to show to
        // another process's players until then).
        assert_eq!(clock.next_wake(&fake, busy, true), Some(opened + 1_000));
        assert_eq!(clock.next_wake(&fake, busy, false), Some(opened + 1_000));
        // Nobody here to claim: the countdown's end hands the seat to its
        // bot at once.
        fake.away[1] = Some(T0);
        assert_eq!(
            clock.seat_ran_out(&fake, opened),
            Some(expiry(0, opened, Why::Absent))
        );
        // Without a forfeit in the game, no claim window either.
        let (mut fake, clock) = table(json!({"turns": 9}), absent);
        fake.away[0] = Some(T0);
        assert_eq!(
            clock.seat_ran_out(&fake, T0 + 3_000),
            Some(expiry(0, T0 + 3_000, Why::Absent))
        );
    }

    #[test]
    fn the_round_clock_runs_out_once_and_a_refused_action_is_not_retried() {
        let (fake, mut clock) = table(json!({"turns": 9, "round": 30.0}), TimeControl::default());
        assert_eq!(clock.round_ran_out(&fake, T0 + 29_999), None);
        assert_eq!(clock.wake(&fake, T0), Some(T0 + 30_000));
        assert_eq!(
            clock.round_ran_out(&fake, T0 + 30_000),
            Some(("round".to_string(), json!("time")))
        );
        clock.dead_clock = Some("round".into());
        assert_eq!(clock.round_ran_out(&fake, T0 + 30_000), None);
        assert_eq!(clock.wake(&fake, T0 + 30_000), None);
    }

    #[test]
    fn another_process_wakes_only_for_what_is_still_to_come() {
        let turn = TimeControl {
            turn_seconds: Some(5.0),
            ..TimeControl::default()
        };
        let (fake, clock) = table(json!({"turns": 9}), turn);
        assert_eq!(clock.next_wake(&fake, T0, false), Some(T0 + 5_000));
        // Past it, the host acts; another process has nothing to wake for.
        assert_eq!(clock.next_wake(&fake, T0 + 5_000, false), None);
        assert_eq!(clock.next_wake(&fake, T0 + 5_000, true), Some(T0 + 5_000));
    }

    #[test]
    fn clocks_rebuilt_from_the_timeline_are_the_clocks_that_followed_play() {
        let (mut fake, mut clock) = table(json!({"turns": 9}), bank(10.0, 1.0));
        say(&mut fake, &mut clock, 0, T0 + 2_500);
        say(&mut fake, &mut clock, 1, T0 + 3_000);
        say(&mut fake, &mut clock, 0, T0 + 9_000);
        let mut rebuilt = GameClock::new(bank(10.0, 1.0), 2, clock.timeline.clone());
        rebuilt.start_ms = Some(T0);
        rebuilt.rebuild().unwrap();
        let now = T0 + 9_500;
        assert_eq!(
            json!(rebuilt.view(&fake, now).unwrap()),
            json!(clock.view(&fake, now).unwrap())
        );
        assert_eq!(rebuilt.wake(&fake, now), clock.wake(&fake, now));
        // A control the model refuses: no clocks, said so.
        let refused = TimeControl {
            bank_seconds: Some(-1.0),
            ..TimeControl::default()
        };
        let mut bad = GameClock::new(refused, 2, clock.timeline.clone());
        bad.start_ms = Some(T0);
        assert!(bad.rebuild().is_err());
        assert!(bad.clocks.is_none());
    }
}
