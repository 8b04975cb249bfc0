//! Presence: who holds each seat, through this process or another (see
//! `crate::presence`), and since when a seat is away.

use super::GameActor;
use crate::storage::SeatKind;
use parlor_core::Seat;

/// Who holds each seat, as far as this actor knows.
#[derive(Default)]
pub(super) struct Holders {
    /// Per seat: since when no connection holds it, here or in another
    /// process (None while one does).
    pub away_since: Vec<Option<i64>>,
    /// Per seat: held by a connection to another process (presence, see
    /// `crate::presence`), as last read or told.
    pub remote: Vec<bool>,
    /// Per seat: whether this process's presence says it holds the seat
    /// (what it last told the presence tracker).
    pub local_told: Vec<bool>,
}

impl Holders {
    /// `seats` seats nobody holds, away since `now`.
    pub(super) fn new(seats: usize, now: i64) -> Holders {
        Holders {
            away_since: vec![Some(now); seats],
            remote: vec![false; seats],
            local_told: vec![false; seats],
        }
    }

    /// Takes the seats other processes hold (`held`) as known; answers
    /// whether that changed anything.
    pub(super) fn set_remote(&mut self, held: &[usize]) -> bool {
        let remote: Vec<bool> = (0..self.remote.len()).map(|s| held.contains(&s)).collect();
        if remote == self.remote {
            return false;
        }
        self.remote = remote;
        true
    }

    /// Per seat, whether a connection here holds it (`mine`), at `now`:
    /// a seat nobody holds, here or elsewhere, is away since the first
    /// time it was seen so. Answers what this process must tell its
    /// presence: the seats it now holds (`true`) or let go of (`false`).
    pub(super) fn update(&mut self, mine: &[bool], now: i64) -> Vec<(usize, bool)> {
        let mut tell = Vec::new();
        for (s, &mine) in mine.iter().enumerate().take(self.away_since.len()) {
            if mine != self.local_told[s] {
                self.local_told[s] = mine;
                tell.push((s, mine));
            }
            let here = mine || self.remote[s];
            match (here, self.away_since[s]) {
                (true, _) => self.away_since[s] = None,
                (false, None) => self.away_since[s] = Some(now),
                (false, Some(_)) => {}
            }
        }
        tell
    }
}

impl GameActor {
    /// The human seats other than `seat` held by a connection now (to
    /// this process or another): who may claim the win from `seat` once
    /// its absent countdown has run out.
    pub(super) fn claimants(&self, seat: Seat) -> Vec<usize> {
        self.seats
            .rows
            .iter()
            .filter(|s| s.kind == SeatKind::Human && s.seat != seat.0 && self.here(s.seat))
            .map(|s| s.seat)
            .collect()
    }

    /// Whether a connection to this process holds `seat`.
    pub(super) fn held_here(&self, seat: usize) -> bool {
        self.conns.holds(seat)
    }

    /// Whether a connection holds `seat`, to this process or (as last
    /// known) to another.
    pub(super) fn here(&self, seat: usize) -> bool {
        self.held_here(seat) || self.holders.remote.get(seat).copied().unwrap_or(false)
    }

    /// Takes the seats other processes hold (`held`) as known; when that
    /// changes who is here, everyone is told (and a clock waiting for
    /// players may start).
    pub(super) async fn set_remote(&mut self, held: &[usize]) {
        if !self.holders.set_remote(held) {
            return;
        }
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
    pub(super) async fn held_elsewhere(&mut self, seat: Seat) -> bool {
        if !self.env.store.shared() {
            return false;
        }
        match self.env.games.remote_seats(&self.row.id).await {
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

    /// Keeps `holders.away_since` in step with the connections (here and
    /// elsewhere), and this process's presence with its own connections.
    pub(super) fn presence_changed(&mut self) {
        let now = self.now();
        let mine: Vec<bool> = (0..self.seats.rows.len())
            .map(|s| self.held_here(s))
            .collect();
        for (s, holds) in self.holders.update(&mine, now) {
            if holds {
                self.env.presence.hold(&self.row.id, s);
            } else {
                self.env.presence.release(&self.row.id, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_away_from_the_first_time_nobody_holds_it() {
        let mut h = Holders::new(2, 100);
        assert_eq!(h.away_since, [Some(100), Some(100)]);
        // Seat 0 connects here: held, and the presence is told once.
        assert_eq!(h.update(&[true, false], 200), [(0, true)]);
        assert_eq!(h.away_since, [None, Some(100)]);
        assert!(h.update(&[true, false], 300).is_empty());
        // It leaves: away from then on, not from each later look.
        assert_eq!(h.update(&[false, false], 400), [(0, false)]);
        assert!(h.update(&[false, false], 500).is_empty());
        assert_eq!(h.away_since, [Some(400), Some(100)]);
    }

    #[test]
    fn a_seat_held_elsewhere_is_not_away_and_is_not_told_as_ours() {
        let mut h = Holders::new(3, 0);
        assert!(h.set_remote(&[1]));
        assert!(!h.set_remote(&[1]), "nothing changed");
        assert!(h.update(&[false, false, false], 10).is_empty());
        assert_eq!(h.away_since, [Some(0), None, Some(0)]);
        // The other process lets go: away from now.
        assert!(h.set_remote(&[]));
        h.update(&[false, false, false], 20);
        assert_eq!(h.away_since, [Some(0), Some(20), Some(0)]);
        assert_eq!(h.local_told, [false, false, false]);
    }
}
