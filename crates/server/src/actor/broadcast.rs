//! The game's connections in this process and what is sent to them.
//!
//! Each connection has a bounded queue that its writer drains (`crate::ws`).
//! Sending never waits: a connection whose queue is full (its client does
//! not read fast enough) or closed (its writer is gone) is dropped at once,
//! so one slow client never holds up the game or the others. Each sending
//! method says whether it dropped a seat's connection: the seats (who is
//! here) then changed, and the actor tells everyone.

use super::Outbound;
use parlor_core::{Seat, Viewer};
use std::collections::HashMap;
use tokio::sync::mpsc;

/// One connection: who it sees the game as, and its queue.
struct Conn {
    viewer: Viewer,
    /// Whether state messages carry the seat's legal actions.
    legal: bool,
    out: mpsc::Sender<Outbound>,
}

/// A connection just opened: its number and both ends of its queue.
pub(super) struct Opened {
    pub conn: u64,
    pub out: mpsc::Receiver<Outbound>,
    pub own: mpsc::WeakSender<Outbound>,
}

/// The game's connections here, by number. Numbers are never reused, so a
/// message for a connection that left cannot reach a later one.
pub(super) struct Connections {
    conns: HashMap<u64, Conn>,
    next: u64,
}

impl Default for Connections {
    fn default() -> Self {
        Connections {
            conns: HashMap::new(),
            next: 1,
        }
    }
}

impl Connections {
    /// A new connection for `viewer`, with a queue of `queue` messages.
    pub(super) fn open(&mut self, viewer: Viewer, legal: bool, queue: usize) -> Opened {
        let (tx, out) = mpsc::channel(queue.max(1));
        let own = tx.downgrade();
        let conn = self.next;
        self.next += 1;
        self.conns.insert(
            conn,
            Conn {
                viewer,
                legal,
                out: tx,
            },
        );
        Opened { conn, out, own }
    }

    /// Forgets `conn` (it left, or lost its seat); answers who it was.
    pub(super) fn close(&mut self, conn: u64) -> Option<Viewer> {
        self.conns.remove(&conn).map(|c| c.viewer)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    /// Who `conn` sees the game as.
    pub(super) fn viewer(&self, conn: u64) -> Option<Viewer> {
        self.conns.get(&conn).map(|c| c.viewer)
    }

    /// Who `conn` sees the game as, and whether it wants the legal actions.
    pub(super) fn view(&self, conn: u64) -> Option<(Viewer, bool)> {
        self.conns.get(&conn).map(|c| (c.viewer, c.legal))
    }

    /// Every connection: its number, viewer and whether it wants the
    /// legal actions.
    pub(super) fn views(&self) -> impl Iterator<Item = (u64, Viewer, bool)> + '_ {
        self.conns.iter().map(|(&id, c)| (id, c.viewer, c.legal))
    }

    /// Every connection's number.
    pub(super) fn ids(&self) -> Vec<u64> {
        self.conns.keys().copied().collect()
    }

    /// Whether a connection here holds `seat`.
    pub(super) fn holds(&self, seat: usize) -> bool {
        self.conns
            .values()
            .any(|c| c.viewer == Viewer::Seat(Seat(seat)))
    }

    /// The connections bound to `seat`.
    pub(super) fn bound_to(&self, seat: usize) -> Vec<u64> {
        self.conns
            .iter()
            .filter(|(_, c)| c.viewer == Viewer::Seat(Seat(seat)))
            .map(|(&k, _)| k)
            .collect()
    }

    /// Queues `text` for `conn` (nothing if it is gone). Answers whether a
    /// seat's connection was dropped.
    pub(super) fn send_to(&mut self, conn: u64, text: Outbound) -> bool {
        let Some(c) = self.conns.get(&conn) else {
            return false;
        };
        if c.out.try_send(text).is_ok() {
            return false;
        }
        self.drop_all([conn])
    }

    /// Queues `text` for every connection. Answers whether a seat's
    /// connection was dropped.
    pub(super) fn broadcast(&mut self, text: &Outbound) -> bool {
        let slow: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| c.out.try_send(text.clone()).is_err())
            .map(|(&id, _)| id)
            .collect();
        self.drop_all(slow)
    }

    /// Queues each connection's own text (states rendered for each), and
    /// `ack` (taken if its connection is among them) just before its
    /// connection's text. A connection gone since the texts were rendered
    /// is skipped. Answers whether a seat's connection was dropped.
    pub(super) fn send_each(
        &mut self,
        texts: Vec<(u64, Outbound)>,
        ack: &mut Option<(u64, Outbound)>,
    ) -> bool {
        let mut slow = Vec::new();
        for (id, text) in texts {
            let Some(c) = self.conns.get(&id) else {
                continue;
            };
            if let Some((_, a)) = ack.take_if(|(to, _)| *to == id) {
                if c.out.try_send(a).is_err() {
                    slow.push(id);
                    continue;
                }
            }
            if c.out.try_send(text).is_err() {
                slow.push(id);
            }
        }
        self.drop_all(slow)
    }

    /// Drops `ids`; answers whether one of them held a seat.
    fn drop_all(&mut self, ids: impl IntoIterator<Item = u64>) -> bool {
        let mut seat = false;
        for id in ids {
            seat |= matches!(self.close(id), Some(Viewer::Seat(_)));
        }
        seat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Outbound {
        s.to_string().into()
    }

    fn drain(rx: &mut mpsc::Receiver<Outbound>) -> Vec<String> {
        let mut v = Vec::new();
        while let Ok(t) = rx.try_recv() {
            v.push(t.as_str().to_string());
        }
        v
    }

    #[test]
    fn numbers_are_never_reused() {
        let mut c = Connections::default();
        let a = c.open(Viewer::Spectator, false, 4).conn;
        assert_eq!(c.close(a), Some(Viewer::Spectator));
        let b = c.open(Viewer::Spectator, false, 4).conn;
        assert_ne!(a, b);
        // A message for the connection that left reaches nobody.
        assert!(!c.send_to(a, text("late")));
        assert_eq!(c.ids(), vec![b]);
    }

    #[test]
    fn a_full_queue_drops_its_connection_and_says_whether_it_held_a_seat() {
        let mut c = Connections::default();
        let mut seat = c.open(Viewer::Seat(Seat(0)), true, 1);
        let mut watcher = c.open(Viewer::Spectator, false, 1);
        assert!(!c.send_to(seat.conn, text("one")));
        assert!(!c.send_to(watcher.conn, text("one")));
        // Neither client has read: the second message finds both full.
        assert!(!c.send_to(watcher.conn, text("two")), "a spectator");
        assert!(c.send_to(seat.conn, text("two")), "a seat");
        assert!(c.is_empty());
        assert!(!c.holds(0));
        assert_eq!(drain(&mut seat.out), ["one"]);
        assert_eq!(drain(&mut watcher.out), ["one"]);
    }

    #[test]
    fn a_broadcast_drops_the_slow_and_the_closed_and_reaches_the_rest() {
        let mut c = Connections::default();
        let mut quick = c.open(Viewer::Seat(Seat(0)), false, 8);
        let slow = c.open(Viewer::Seat(Seat(1)), false, 1);
        let closed = c.open(Viewer::Spectator, false, 8);
        assert!(!c.send_to(slow.conn, text("filler")));
        drop(closed.out);
        assert!(
            c.broadcast(&text("seats")),
            "seat 1's connection was dropped"
        );
        assert_eq!(c.ids(), vec![quick.conn]);
        assert_eq!(drain(&mut quick.out), ["seats"]);
        assert!(c.holds(0) && !c.holds(1));
        // Nothing more to drop: no seat changed.
        assert!(!c.broadcast(&text("again")));
    }

    #[test]
    fn an_ack_goes_just_before_its_connections_state() {
        let mut c = Connections::default();
        let mut a = c.open(Viewer::Seat(Seat(0)), true, 8);
        let mut b = c.open(Viewer::Seat(Seat(1)), true, 8);
        let gone = c.open(Viewer::Spectator, false, 8).conn;
        c.close(gone);
        let mut ack = Some((b.conn, text("ack")));
        let states = vec![
            (a.conn, text("state a")),
            (gone, text("state gone")),
            (b.conn, text("state b")),
        ];
        assert!(!c.send_each(states, &mut ack));
        assert!(ack.is_none(), "the ack was taken");
        assert_eq!(drain(&mut a.out), ["state a"]);
        assert_eq!(drain(&mut b.out), ["ack", "state b"]);
        // An ack for a connection not among the states stays to be sent.
        let mut ack = Some((a.conn, text("ack a")));
        c.send_each(vec![(b.conn, text("state b"))], &mut ack);
        assert!(ack.is_some());
    }

    #[test]
    fn the_connections_of_a_seat_are_found_by_its_number() {
        let mut c = Connections::default();
        let one = c.open(Viewer::Seat(Seat(2)), false, 2).conn;
        let two = c.open(Viewer::Seat(Seat(2)), false, 2).conn;
        c.open(Viewer::Seat(Seat(0)), false, 2);
        c.open(Viewer::Spectator, false, 2);
        let mut bound = c.bound_to(2);
        bound.sort();
        assert_eq!(bound, vec![one, two]);
        assert!(c.holds(2) && c.holds(0) && !c.holds(1));
        assert_eq!(c.view(one), Some((Viewer::Seat(Seat(2)), false)));
    }
}
