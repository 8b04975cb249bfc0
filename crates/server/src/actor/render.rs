//! What each viewer is sent: the summary, the per-viewer state, and the
//! queues of the connections.

use super::{GameActor, Outbound};
use crate::storage::SeatKind;
use crate::summary::{Seats, Summary};
use parlor_core::Applied;
use parlor_core::Viewer;
use serde_json::value::RawValue;
use serde_json::Value;

/// Appends `t` as JSON text (`null` if it cannot be: never for these types).
fn put<T: serde::Serialize>(out: &mut Vec<u8>, t: &T) {
    let start = out.len();
    if serde_json::to_writer(&mut *out, t).is_err() {
        out.truncate(start);
        out.extend_from_slice(b"null");
    }
}

/// The events of the last change as each viewer sees them, as JSON text,
/// rendered once when the change is made (the texts are shared with the
/// change's [`Applied`]). Kept as JSON values, they held a few kilobytes
/// per live game between its actions (a map per event) and were copied
/// whole at every action.
#[derive(Default)]
pub(super) struct LastEvents {
    events: Applied,
    /// The move they came with (its number, the record's length after
    /// it): the state's `move` carries the same events when it is still
    /// the last move.
    n: Option<usize>,
}

impl LastEvents {
    /// The events of move number `n` (the record's length after it).
    pub(super) fn new(applied: &Applied, n: usize) -> Self {
        LastEvents {
            events: applied.clone(),
            n: Some(n),
        }
    }

    fn for_viewer(&self, viewer: Viewer) -> &str {
        self.events.json_for(viewer)
    }
}

impl GameActor {
    /// Per seat: whether it is there (a bot, or held by a connection).
    fn connected(&self) -> Vec<bool> {
        (0..self.seats.rows.len())
            .map(|s| self.seats.rows[s].kind == SeatKind::Bot || self.here(s))
            .collect()
    }

    /// The game's summary as its host knows it: who is here, its clocks.
    fn summary_of(&self) -> Summary<'_> {
        let clock = Some(self.round_json()).filter(|c| !c.is_null());
        Summary::of(
            &self.row,
            &self.seats.rows,
            self.entry.info().title,
            Some(self.connected()),
            clock,
        )
        .live(self.clocks_json(), self.waiting_json())
        .labelled(self.m.seat_labels())
    }

    pub(super) fn summary(&self) -> Value {
        self.summary_of().value()
    }

    /// [`GameActor::summary`] as JSON text, for a message that carries it.
    pub(super) fn summary_text(&self) -> Box<RawValue> {
        self.summary_of().text()
    }

    /// The welcome of a new connection: who it is, and the summary.
    pub(super) fn welcome_text(&self, you: Value) -> String {
        #[derive(serde::Serialize)]
        struct Welcome<'a> {
            game: Summary<'a>,
            r#type: &'static str,
            you: Value,
        }
        serde_json::to_string(&Welcome {
            game: self.summary_of(),
            r#type: "welcome",
            you,
        })
        .unwrap_or_default()
    }

    /// The state message for `viewer` as the HTTP API answers it: the
    /// same JSON as the WebSocket's text ([`GameActor::state_bytes`]).
    pub(super) fn state_json(&self, viewer: Viewer, legal: bool) -> Value {
        serde_json::from_slice(&self.state_bytes(viewer, legal)).unwrap_or(Value::Null)
    }

    /// The state message for `viewer` as JSON text, written straight from
    /// the game's view and legal actions: built as a tree of JSON values
    /// first (a map per object), a Word Sprout state with its listed plays
    /// cost a quarter of the server's CPU in allocations alone.
    fn state_bytes(&self, viewer: Viewer, legal: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        out.extend_from_slice(b"{\"type\":\"state\",\"seq\":");
        put(&mut out, &self.m.actions_len());
        out.extend_from_slice(b",\"view\":");
        // While the clock waits for its players nobody sees the game: a
        // seat that could read the board (Gobble's letters) before the
        // clock starts would have time the others do not.
        if self.clock.held {
            out.extend_from_slice(b"null");
        } else {
            self.m.write_view_json(viewer, &mut out);
        }
        out.extend_from_slice(b",\"to_act\":");
        if self.row.aborted {
            out.extend_from_slice(b"\"over\"");
        } else {
            put(&mut out, &self.m.to_act());
        }
        out.extend_from_slice(b",\"outcome\":");
        put(&mut out, &self.m.outcome());
        out.extend_from_slice(b",\"aborted\":");
        put(&mut out, &self.row.aborted);
        out.extend_from_slice(b",\"clock\":");
        put(&mut out, &self.round_json());
        out.extend_from_slice(b",\"clocks\":");
        put(&mut out, &self.clocks_json());
        out.extend_from_slice(b",\"turn_clock\":");
        put(&mut out, &self.turn_clock_json());
        out.extend_from_slice(b",\"waiting_for\":");
        put(&mut out, &self.waiting_json());
        out.extend_from_slice(b",\"by\":");
        put(&mut out, &self.last_by);
        out.extend_from_slice(b",\"events\":");
        out.extend_from_slice(self.last_events.for_viewer(viewer).as_bytes());
        out.extend_from_slice(b",\"move\":");
        self.write_last_move(viewer, &mut out);
        out.extend_from_slice(b",\"score_words\":");
        put(&mut out, &self.m.score_words());
        out.extend_from_slice(b",\"seat_labels\":");
        put(&mut out, &self.m.seat_labels());
        if let (true, Viewer::Seat(seat)) = (legal, viewer) {
            out.extend_from_slice(b",\"legal\":");
            if self.clock.held {
                out.extend_from_slice(b"null");
            } else {
                self.m.write_legal_actions_json(seat, &mut out);
            }
        }
        out.push(b'}');
        out
    }

    /// The last move as `viewer` may see it, as [`GameActor::last_move_json`]
    /// writes it (`null` before the first), as text: its events are the
    /// last change's text when they belong to this move. Built as a tree
    /// of values, it was a map and a copy of the events per state sent.
    fn write_last_move(&self, viewer: Viewer, out: &mut Vec<u8>) {
        let n = self.clock.timeline.steps.len();
        let known = self
            .last_events
            .n
            .filter(|&k| k == n && k == self.m.actions_len() && n > 0);
        let Some(n) = known else {
            put(out, &self.last_move_json(viewer));
            return;
        };
        #[cfg(debug_assertions)]
        let start = out.len();
        let step = &self.clock.timeline.steps[n - 1];
        let clock = self.on_clock(n - 1).pop().flatten();
        // The keys in the order `json!` gives them (sorted).
        out.extend_from_slice(b"{\"at_ms\":");
        put(out, &step.at_ms);
        out.extend_from_slice(b",\"by\":");
        put(out, &step.actor);
        out.extend_from_slice(b",\"clock\":");
        put(out, &clock.map(super::moves::OnClock::json));
        out.extend_from_slice(b",\"events\":");
        out.extend_from_slice(self.last_events.for_viewer(viewer).as_bytes());
        out.extend_from_slice(b",\"n\":");
        put(out, &n);
        out.push(b'}');
        // This writes by hand what `last_move_json` builds; every test
        // (debug builds) checks the two still agree.
        #[cfg(debug_assertions)]
        {
            let written: Value = serde_json::from_slice(&out[start..]).unwrap_or(Value::Null);
            debug_assert_eq!(written, self.last_move_json(viewer), "move {n}");
        }
    }

    pub(super) fn state_text(&self, viewer: Viewer, legal: bool) -> Outbound {
        // serde_json writes UTF-8 only; the fallback is never taken.
        String::from_utf8(self.state_bytes(viewer, legal))
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            .into()
    }

    /// Queues a message for one connection; a full queue drops the
    /// connection (its writer closes the socket: "too slow").
    pub(super) fn send_to(&mut self, conn: u64, text: Outbound) {
        if self.conns.send_to(conn, text) {
            self.broadcast_seats();
        }
    }

    /// The state for every connection as it is now, not sent: one
    /// serialisation per distinct (viewer, legal), so spectators share
    /// one. `broadcast_state_after` sends it at once; a quick bot's
    /// answer keeps it to send with the states after the answer.
    pub(super) fn render_states(&self) -> Vec<(u64, Outbound)> {
        // A handful of distinct viewers (the seats, the spectators): a
        // list searched in order costs less than a map.
        let mut texts: Vec<((Viewer, bool), Outbound)> = Vec::new();
        self.conns
            .views()
            .map(|(id, viewer, legal)| {
                let key = (viewer, legal);
                let text = match texts.iter().find(|(k, _)| *k == key) {
                    Some((_, t)) => t.clone(),
                    None => {
                        let t = self.state_text(viewer, legal);
                        texts.push((key, t.clone()));
                        t
                    }
                };
                (id, text)
            })
            .collect()
    }

    /// Queues states rendered by `render_states` (now or earlier), `ack`
    /// (taken if its connection is among them) just before its
    /// connection's state. A connection whose queue is full is dropped
    /// afterwards ("too slow"), and the seats are told once.
    fn send_states(&mut self, states: Vec<(u64, Outbound)>, ack: &mut Option<(u64, Outbound)>) {
        if self.conns.send_each(states, ack) {
            self.broadcast_seats();
        }
    }

    /// Sends states rendered earlier (`render_states`), `ack` just before
    /// its connection's, then the state as it is now: the ack, the state
    /// after the person's action and the state after the bot's answer go
    /// out in one burst.
    pub(super) fn broadcast_states_then_now(
        &mut self,
        earlier: Vec<(u64, Outbound)>,
        mut ack: Option<(u64, Outbound)>,
    ) {
        self.send_states(earlier, &mut ack);
        self.broadcast_state_after(ack);
    }

    pub(super) fn broadcast_state(&mut self) {
        self.broadcast_state_after(None);
    }

    /// [`GameActor::broadcast_state`], with `ack` queued for its
    /// connection just before that connection's state: queued apart (the
    /// ack, then the state rendered and queued for everyone), the
    /// connection's writer, woken by the ack on the other core, often
    /// sent it alone, a third more `send`s per action.
    pub(super) fn broadcast_state_after(&mut self, mut ack: Option<(u64, Outbound)>) {
        let now = self.render_states();
        self.send_states(now, &mut ack);
        if let Some((to, a)) = ack {
            // Not among the connections any more: as `send_to` does.
            self.send_to(to, a);
        }
    }

    pub(super) fn broadcast_seats(&mut self) {
        self.presence_changed();
        // Nobody to tell (the last connection has just left, as at every
        // rematch): nothing to render.
        if self.conns.is_empty() {
            return;
        }
        // The seats alone: the whole summary (its config, the seed's
        // hash, the clocks) was built for this at every connection's
        // arrival and departure.
        #[derive(serde::Serialize)]
        struct SeatsMessage<'a> {
            seats: Seats<'a>,
            r#type: &'static str,
        }
        let seats = Seats {
            seats: &self.seats.rows,
            connected: Some(self.connected()),
        };
        let text = serde_json::to_string(&SeatsMessage {
            seats,
            r#type: "seats",
        });
        let text: Outbound = text.unwrap_or_default().into();
        // Dropping a slow seat's connection changes the seats again, but a
        // second round would only tell the same slow clients; stop here.
        self.conns.broadcast(&text);
        self.presence_changed();
    }
}
