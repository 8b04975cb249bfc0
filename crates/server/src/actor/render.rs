//! What each viewer is sent: the summary, the per-viewer state, and the
//! queues of the connections.

use super::{GameActor, Outbound};
use crate::storage::SeatKind;
use crate::summary_json;
use parlor_core::Viewer;
use serde_json::{json, Value};
use std::collections::HashMap;

impl GameActor {
    pub(super) fn summary(&self) -> Value {
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

    pub(super) fn state_json(&self, viewer: Viewer, legal: bool) -> Value {
        // While the clock waits for its players nobody sees the game: a
        // seat that could read the board (Gobble's letters) before the
        // clock starts would have time the others do not.
        let view = if self.clock.held {
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
            "move": self.last_move_json(viewer),
            "score_words": self.m.score_words(),
        });
        if let (true, Viewer::Seat(seat)) = (legal, viewer) {
            v["legal"] = if self.clock.held {
                Value::Null
            } else {
                json!(self.m.legal_actions_json(seat))
            };
        }
        v
    }

    pub(super) fn state_text(&self, viewer: Viewer, legal: bool) -> Outbound {
        self.state_json(viewer, legal).to_string().into()
    }

    /// Queues a message for one connection; a full queue drops the
    /// connection (its writer closes the socket: "too slow").
    pub(super) fn send_to(&mut self, conn: u64, text: Outbound) {
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

    pub(super) fn broadcast_state(&mut self) {
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

    pub(super) fn broadcast_seats(&mut self) {
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
