//! The table's chat: who speaks in which channel, and who hears it (see
//! `crate::chat` for the rules and the bounds).

use super::{GameActor, Outbound};
use crate::chat::{Channel, ChatLog, ChatRequest, Speaker};
use parlor_core::Viewer;
use serde_json::{json, Value};

impl GameActor {
    /// A chat line from connection `conn`: kept and sent to every
    /// connection that reads its channel (the speaker's included, which
    /// is how a client learns its line went through).
    pub(super) fn chat(&mut self, conn: u64, request: ChatRequest) {
        let Some(viewer) = self.conns.viewer(conn) else {
            return; // gone meanwhile: nobody to answer
        };
        let (from, name) = match viewer {
            Viewer::Seat(s) => {
                // A seat speaks under its seat's name, never one it gives
                // itself: nobody can speak as another player.
                let name = self
                    .seats
                    .rows
                    .get(s.0)
                    .and_then(|r| r.name.clone())
                    .unwrap_or_else(|| format!("Player {}", s.0 + 1));
                (Speaker::Seat(s.0), name)
            }
            Viewer::Spectator => (
                Speaker::Spectator(conn),
                request.name.unwrap_or_else(|| "Spectator".to_string()),
            ),
        };
        let channel = Channel::of(viewer);
        let now = self.now();
        let line = self.chat.get_or_insert_with(Default::default).push(
            now,
            channel,
            from,
            name,
            request.said,
        );
        let text: Outbound = json!({"type": "chat", "message": line.json()})
            .to_string()
            .into();
        let hearers: Vec<u64> = self
            .conns
            .views()
            .filter(|&(_, viewer, _)| channel.read_by(viewer))
            .map(|(id, _, _)| id)
            .collect();
        for id in hearers {
            self.send_to(id, text.clone());
        }
    }

    /// The messages `conn` may read, as one `chat_history` message (none
    /// while nothing was said).
    pub(super) fn send_chat_history(&mut self, conn: u64) {
        let Some(viewer) = self.conns.viewer(conn) else {
            return;
        };
        let Some(log) = self.chat.as_deref().filter(|l| !l.is_empty()) else {
            return;
        };
        let messages: Vec<Value> = ChatLog::history(log, viewer)
            .into_iter()
            .map(|l| l.json())
            .collect();
        if messages.is_empty() {
            return;
        }
        let text: Outbound = json!({"type": "chat_history", "messages": messages})
            .to_string()
            .into();
        self.send_to(conn, text);
    }
}
