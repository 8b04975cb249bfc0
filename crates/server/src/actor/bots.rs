//! Bots: a copy of the game that thinks off the actor's task, one agent
//! per bot seat, and what happens with a bot's decision.

use super::{GameActor, NotStored};
use crate::error::Code;
use crate::storage::SeatKind;
use parlor_core::{Actor, Budget, Cancel, DynAgent, Level, Seat};
use serde_json::Value;
use tokio::sync::oneshot;

/// The bots of a game: their agents, and the decision under way. A bot
/// thinks on a copy of the game made for the decision (so the actor goes
/// on accepting actions meanwhile), dropped when it answers: a copy kept
/// between decisions cost every game a second copy of its state (and
/// every action a second application, with its events projected for
/// every viewer for nobody).
#[derive(Default)]
pub(super) struct Bots {
    /// The agents, when they are home (not lent to a thinking task).
    pub(super) agents: Option<Agents>,
    /// Raised to stop a decision nobody will use (the game was rebuilt,
    /// the actor stopped); a fresh flag for each decision.
    pub(super) cancel: Cancel,
    /// Whether a decision is under way.
    pub(super) thinking: bool,
    /// Bot seats that passed (or failed) at this seq: not asked again
    /// until something changes.
    pub(super) passed: Vec<(Seat, usize)>,
    /// Seat the next simultaneous-phase decision starts looking from.
    pub(super) next: usize,
    /// A human seat whose turn clock ran out at this seq: its bot moves.
    pub(super) forced: Option<(Seat, usize)>,
    /// The game was rebuilt while the agents were away: they followed a
    /// history that is no longer the game's; drop them on return.
    pub(super) discard: bool,
    /// Where the decision under way answers: one oneshot per decision
    /// (a channel per game held a block of slots for the game's life).
    pub(super) answer: Option<oneshot::Receiver<Box<BotResult>>>,
    /// The last decision took under `Bots::quick_bot`: the next is
    /// made on the actor's own task (see [`GameActor::maybe_bot`]). One
    /// that then takes longer goes back to the threads for its next
    /// decision, so a slow bot holds an async worker at most once in a row.
    pub(super) quick: bool,
    /// What the process's memory of quick bots (`Env::quick_bots`) was
    /// last told (or said at the start) of this game's bots: it is told
    /// again only when that changes.
    pub(super) remembered: bool,
}

impl Drop for Bots {
    /// The game left memory (or the server stops): a decision under way is
    /// of no use to anyone.
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The bots themselves: one agent per bot seat, kept for the life of the
/// game (in memory) so that it may remember what it has seen. Each
/// counts the entries of the game's history it was shown, so an agent
/// made again (after a restart, or after a rebuild of the game) catches
/// up from the history before its first decision. Behind a lock only so
/// that the actor stays `Sync` (agents are `Send`); one thread uses them
/// at a time.
pub(super) type Agents = std::sync::Mutex<std::collections::BTreeMap<usize, Box<dyn DynAgent>>>;

pub(super) struct BotResult {
    /// The agents, home again.
    pub(super) agents: Agents,
    pub(super) seat: Seat,
    pub(super) at_seq: usize,
    pub(super) action: Result<Option<Value>, String>,
    /// How long the decision took.
    pub(super) took: std::time::Duration,
}

impl GameActor {
    pub(super) fn bot_level(&self, seat: Seat) -> Option<Level> {
        let s = self.seats.rows.get(seat.0)?;
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

    /// What `Env::quick_bots` knows the bot at `seat` by: its rules and
    /// level.
    fn quick_key(&self, seat: Seat) -> Option<String> {
        let level = self.bot_level(seat)?;
        Some(format!(
            "{}\n{level}\n{}",
            self.row.game,
            self.row.config.as_str()
        ))
    }

    /// A new game's bots start as quick as the process's last decision of
    /// the same rules and level was (see `Env::quick_bots`).
    pub(super) fn recall_quick_bots(&mut self) {
        let mut keys = (0..self.seats.rows.len())
            .filter(|&s| self.seats.rows[s].kind == SeatKind::Bot)
            .filter_map(|s| self.quick_key(Seat(s)))
            .peekable();
        let quick = keys.peek().is_some() && keys.all(|k| self.env.quick_bots.is_quick(&k));
        self.bots.quick = quick;
        self.bots.remembered = quick;
    }

    /// A decision of the bot at `seat` took `took`.
    fn note_decision(&mut self, seat: Seat, took: std::time::Duration) {
        let quick = took < self.env.settings.bots.quick_bot;
        self.bots.quick = quick;
        if quick != self.bots.remembered {
            self.bots.remembered = quick;
            if let Some(key) = self.quick_key(seat) {
                self.env.quick_bots.remember(key, quick);
            }
        }
    }

    /// Whether every seat is a bot's and no connection here watches.
    pub(super) fn unwatched_bots_only(&self) -> bool {
        self.conns.is_empty() && self.seats.rows.iter().all(|s| s.kind == SeatKind::Bot)
    }

    /// Starts a bot decision if a bot seat may act and none is under way.
    pub(super) fn maybe_bot(&mut self) {
        if self.bots.thinking || self.row.aborted || self.clock.held {
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
        let Some(seat) = self.next_bot_seat() else {
            return;
        };
        let seq = self.m.actions_len();
        let level = self.bot_level(seat).unwrap_or(Level::Easy);
        self.bots.next = seat.0 + 1;
        self.bots.thinking = true;
        // The copy the bot thinks on: cheaper than the copy kept in step
        // with every action it replaces (a clone per decision, against an
        // application per action).
        let game = self.m.clone_match();
        let agents = self.bots.agents.take().unwrap_or_default();
        let resources = self.resources.clone();
        let think_for = self.env.settings.bots.bot_think;
        let seed = self.bot_seed(seat);
        let delay = self.bot_delay();
        let (tx, rx) = oneshot::channel();
        self.bots.answer = Some(rx);
        let cancel = Cancel::new();
        self.bots.cancel = cancel.clone();
        let think = move || {
            let began = std::time::Instant::now();
            let action = {
                let mut seats = agents.lock().unwrap_or_else(|e| e.into_inner());
                let agent = match seats.entry(seat.0) {
                    std::collections::btree_map::Entry::Occupied(a) => Ok(a.into_mut()),
                    std::collections::btree_map::Entry::Vacant(v) => game
                        .agent(seat, level, seed, &resources)
                        .map(|a| v.insert(a)),
                };
                let budget = Budget::time(think_for).with_cancel(cancel);
                agent
                    .map(|a| a.choose(&*game, budget))
                    .map_err(|e| e.to_string())
            };
            BotResult {
                agents,
                seat,
                at_seq: seq,
                action,
                took: began.elapsed(),
            }
        };
        // The decision runs on a blocking thread (or here, if the last
        // one was quick); a panicking bot reports an error instead of
        // leaving the game waiting forever (its agents are lost with it).
        let job = move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(think))
                .unwrap_or_else(|_| BotResult {
                    agents: Agents::default(),
                    seat,
                    at_seq: seq,
                    action: Err("the bot panicked".into()),
                    took: std::time::Duration::MAX,
                });
            let _ = tx.send(Box::new(result));
        };
        let quick = std::mem::take(&mut self.bots.quick);
        if delay.is_zero() && quick {
            // Answered at once: the loop picks the answer up next.
            job();
            return;
        }
        // At most `bot_threads` decisions run at once, so thinking bots can
        // never take the cores from the tasks that accept and acknowledge
        // people's actions; the others wait their turn.
        let slots = self.env.think_slots.clone();
        // Without a delay and with a free permit the decision goes straight
        // to a blocking thread (one task fewer per bot move); otherwise a
        // task waits out the delay and its turn.
        let free = if delay.is_zero() {
            slots.clone().try_acquire_owned().ok()
        } else {
            None
        };
        if let Some(permit) = free {
            tokio::task::spawn_blocking(move || {
                job();
                drop(permit);
            });
            return;
        }
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            if quick {
                job();
                return;
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

    /// The bot seat that may act next (none: no bot may act now), looking
    /// from the seat after the last one that moved.
    fn next_bot_seat(&mut self) -> Option<Seat> {
        let seq = self.m.actions_len();
        self.bots.passed.retain(|&(_, at)| at == seq);
        let to_act = self.m.to_act().seats();
        let n = self.seats.rows.len().max(1);
        let start = self.bots.next % n;
        (0..n).map(|i| Seat((start + i) % n)).find(|s| {
            to_act.contains(s)
                && self.bot_level(*s).is_some()
                && !self.bots.passed.iter().any(|(p, _)| p == s)
        })
    }

    /// One agent per seat for the whole game: its seed is the seat's.
    fn bot_seed(&self, seat: Seat) -> u64 {
        self.row.seed ^ (seat.0 as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// How long a bot waits before it moves now.
    fn bot_delay(&self) -> std::time::Duration {
        // Once only bots are left to act (every person has finished a
        // simultaneous phase, such as Gobble's search), nobody watches
        // them think: they go on at once, so the people do not wait out
        // the clock for a bot's pace.
        let only_bots_left = match self.m.to_act() {
            parlor_core::ToAct::Simultaneous(left) => left.iter().all(|s| {
                self.seats
                    .rows
                    .get(s.0)
                    .is_none_or(|r| r.kind == SeatKind::Bot)
            }),
            _ => false,
        };
        let settings = &self.env.settings;
        if only_bots_left && self.seats.rows.iter().any(|r| r.kind == SeatKind::Human) {
            std::time::Duration::ZERO
        } else if self.round_due().is_some() {
            settings.bots.bot_delay_clocked
        } else {
            settings.bots.bot_delay
        }
    }

    /// The move of a bot that answers at once (its last decision was
    /// quick, see `Bots::quick_bot`), it has no delay to wait out), decided here on the game
    /// itself, for the person's action just applied: that action and the
    /// bot's answer are then stored in one commit and sent in one burst
    /// (see `GameActor::act_as`). Answered apart, the bot's move was a
    /// second write request, a second wake-up of the actor and a second
    /// `send` to every connection: about a third of the server's system
    /// calls per nim action. None: no such bot is to act (it then moves
    /// the usual way, if at all).
    ///
    /// Only on a database this process writes alone: on a shared one the
    /// person's action may lose its index to another process, and the
    /// bot's answer must not be stored without it.
    pub(super) fn quick_bot_move(&mut self) -> Option<(Seat, Value)> {
        if !self.bots.quick
            || self.bots.thinking
            || self.row.aborted
            || self.clock.held
            || self.env.store.shared()
            || self.unwatched_bots_only()
            || !self.hosting()
            || !self.bot_delay().is_zero()
        {
            return None;
        }
        let seat = self.next_bot_seat()?;
        // A person's seat whose clock ran out moves the usual way (its
        // move list says why).
        if self
            .seats
            .rows
            .get(seat.0)
            .is_none_or(|s| s.kind != SeatKind::Bot)
        {
            return None;
        }
        let seq = self.m.actions_len();
        let level = self.bot_level(seat).unwrap_or(Level::Easy);
        self.bots.next = seat.0 + 1;
        let agents = self.bots.agents.take().unwrap_or_default();
        let seed = self.bot_seed(seat);
        let began = std::time::Instant::now();
        let think = || {
            let mut seats = agents.lock().unwrap_or_else(|e| e.into_inner());
            let agent = match seats.entry(seat.0) {
                std::collections::btree_map::Entry::Occupied(a) => Ok(a.into_mut()),
                std::collections::btree_map::Entry::Vacant(v) => self
                    .m
                    .agent(seat, level, seed, &self.resources)
                    .map(|a| v.insert(a)),
            };
            let budget = Budget::time(self.env.settings.bots.bot_think);
            agent
                .map(|a| a.choose(&*self.m, budget))
                .map_err(|e| e.to_string())
        };
        // As on the threads: a panicking bot is an error, not a dead game
        // (its agents are lost with it).
        let action = std::panic::catch_unwind(std::panic::AssertUnwindSafe(think));
        self.note_decision(seat, began.elapsed());
        let action = match action {
            Ok(action) => {
                self.bots.agents = Some(agents);
                action
            }
            Err(_) => Err("the bot panicked".into()),
        };
        match action {
            Ok(Some(action)) => Some((seat, action)),
            Ok(None) => {
                self.bots.passed.push((seat, seq));
                None
            }
            Err(e) => {
                tracing::warn!("game {}: bot at {seat} failed: {e}", self.row.id);
                self.bots.passed.push((seat, seq));
                None
            }
        }
    }

    /// A decision that never answered (its task was dropped, as at
    /// shutdown, with the copy): not thinking any more, and not asked
    /// again from here, so a pool that no longer runs decisions cannot
    /// make the actor spin; the next message asks again.
    pub(super) fn bot_lost(&mut self) {
        self.bots.thinking = false;
        self.bots.discard = false;
        self.bots.agents = None;
    }

    pub(super) async fn bot_done(&mut self, r: BotResult) {
        self.bots.thinking = false;
        self.note_decision(r.seat, r.took);
        if !std::mem::take(&mut self.bots.discard) {
            self.bots.agents = Some(r.agents);
        }
        if self.m.actions_len() != r.at_seq {
            // The game moved on while the bot thought: ask again.
            self.maybe_bot();
            return;
        }
        match r.action {
            Ok(Some(action)) => match self.act_as(Actor::Seat(r.seat), action, false).await {
                Ok((n, _)) => {
                    // A human seat's clock ran out: the move list says so.
                    if let Some((seat, seq, why)) = self.forced_why {
                        if seat == r.seat && seq == r.at_seq {
                            self.clock_moves
                                .insert(n - 1, super::moves::OnClock::Seat(seat, why));
                        }
                    }
                    self.after_change()
                }
                // Another process's bot (or a person) moved first.
                Err(NotStored::MovedOn) => self.maybe_bot(),
                Err(NotStored::Refused(e)) => {
                    if e.code != Code::Storage {
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
}
