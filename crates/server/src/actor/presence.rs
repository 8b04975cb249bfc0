//! Presence: who holds each seat, through this process or another (see
//! `crate::presence`), and since when a seat is away.

use super::GameActor;
use crate::storage::SeatKind;
use parlor_core::{Seat, Viewer};

impl GameActor {
    /// The human seats other than `seat` held by a connection now (to
    /// this process or another): who may claim the win from `seat` once
    /// its absent countdown has run out.
    pub(super) fn claimants(&self, seat: Seat) -> Vec<usize> {
        self.seats
            .iter()
            .filter(|s| s.kind == SeatKind::Human && s.seat != seat.0 && self.here(s.seat))
            .map(|s| s.seat)
            .collect()
    }

    /// Whether a connection to this process holds `seat`.
    pub(super) fn held_here(&self, seat: usize) -> bool {
        self.conns
            .values()
            .any(|c| c.viewer == Viewer::Seat(Seat(seat)))
    }

    /// Whether a connection holds `seat`, to this process or (as last
    /// known) to another.
    pub(super) fn here(&self, seat: usize) -> bool {
        self.held_here(seat) || self.remote.get(seat).copied().unwrap_or(false)
    }

    /// Takes the seats other processes hold (`held`) as known; when that
    /// changes who is here, everyone is told (and a clock waiting for
    /// players may start).
    pub(super) async fn set_remote(&mut self, held: &[usize]) {
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

    /// Keeps `away_since` in step with the connections (here and
    /// elsewhere), and this process's presence with its own connections.
    pub(super) fn presence_changed(&mut self) {
        let now = self.now();
        for s in 0..self.seats.len() {
            let mine = self.held_here(s);
            if mine != self.local_told[s] {
                self.local_told[s] = mine;
                if mine {
                    self.env.presence.hold(&self.row.id, s);
                } else {
                    self.env.presence.release(&self.row.id, s);
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
}
