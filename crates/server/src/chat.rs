//! Chat and reactions at a game's table.
//!
//! Two channels per game: `players` (the seats speak, everyone reads) and
//! `spectators` (spectators speak and read; the players never see it, so a
//! spectator cannot tell a player what they see). A message is a line of
//! text or one reaction from a small fixed set. Chat is its own message
//! type on the WebSocket, never part of a game's view or events, and the
//! game never sees it: it cannot carry the game's hidden information any
//! more than a player's own keyboard can.
//!
//! The log lives in the game actor's memory only, bounded per channel by
//! messages and by bytes ([`ChatLog`]): it is sent whole to a connection
//! when it opens, so a reload shows it, and it is gone when the game leaves
//! memory (nobody connected for a while) or the server restarts. It is not
//! stored in the database.

use crate::error::ApiError;
use crate::error::Code;
use parlor_core::Viewer;
use serde_json::{json, Value};
use std::collections::VecDeque;

/// Longest chat line, in characters.
pub(crate) const MAX_TEXT_CHARS: usize = 280;

/// Longest name a spectator may give themselves, in characters.
pub(crate) const MAX_NAME_CHARS: usize = 40;

/// Messages kept per channel.
pub(crate) const KEEP_MESSAGES: usize = 100;

/// Bytes of text kept per channel (a hundred full lines of non-Latin text
/// would otherwise be four times a hundred lines of English).
pub(crate) const KEEP_BYTES: usize = 32 * 1024;

/// The reactions a message may carry: a small fixed set, so that a
/// reaction is never a way around the length limit or the text checks.
pub(crate) const REACTIONS: [&str; 8] = ["👍", "👏", "😮", "😂", "🤔", "😅", "🙏", "🎉"];

/// Who may read a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Channel {
    /// The seats' channel: players write, players and spectators read.
    Players,
    /// The spectators' channel: only spectators write and read.
    Spectators,
}

impl Channel {
    fn as_str(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
        }
    }

    /// The channel a viewer writes in.
    pub(crate) fn of(viewer: Viewer) -> Channel {
        match viewer {
            Viewer::Seat(_) => Channel::Players,
            Viewer::Spectator => Channel::Spectators,
        }
    }

    /// Whether `viewer` reads this channel.
    pub(crate) fn read_by(self, viewer: Viewer) -> bool {
        match self {
            Channel::Players => true,
            Channel::Spectators => viewer == Viewer::Spectator,
        }
    }
}

/// What a client asked to say, checked: a line of text or one reaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Said {
    /// A line of text (trimmed, at most [`MAX_TEXT_CHARS`]).
    Text(String),
    /// One of [`REACTIONS`].
    Reaction(&'static str),
}

/// A client's chat message, as read from its JSON (before the actor
/// decides who is speaking).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChatRequest {
    pub said: Said,
    /// A spectator's name for themselves (a seat's name is its seat's).
    pub name: Option<String>,
}

/// Reads a `{"type": "chat", "text": ...}` or `{"type": "chat",
/// "reaction": ...}` message. Every length is checked before anything
/// is copied.
pub(crate) fn parse(msg: &Value) -> Result<ChatRequest, ApiError> {
    let text = msg.get("text");
    let reaction = msg.get("reaction");
    let said = match (text, reaction) {
        (Some(_), Some(_)) => {
            return Err(bad("send either \"text\" or \"reaction\", not both"));
        }
        (None, None) => {
            return Err(bad(
                "the message has neither \"text\" (a line of chat) nor \"reaction\"",
            ))
        }
        (Some(t), None) => {
            let t = t.as_str().ok_or_else(|| bad("\"text\" must be a string"))?;
            Said::Text(clean_text(t)?)
        }
        (None, Some(r)) => {
            let r = r.as_str().unwrap_or("");
            let known = REACTIONS.iter().find(|&&k| k == r).ok_or_else(|| {
                bad(format!(
                    "unknown reaction: use one of {}",
                    REACTIONS.join(" ")
                ))
            })?;
            Said::Reaction(known)
        }
    };
    let name = match msg.get("name") {
        None | Some(Value::Null) => None,
        Some(n) => {
            let n = n.as_str().ok_or_else(|| bad("\"name\" must be a string"))?;
            if n.chars().take(MAX_NAME_CHARS + 1).count() > MAX_NAME_CHARS {
                return Err(bad(format!(
                    "a name is at most {MAX_NAME_CHARS} characters"
                )));
            }
            if let Some((at, c)) = crate::shown::hidden_char(n) {
                return Err(bad(format!(
                    "a name may not hold control, invisible or bidirectional characters; \
                     this one has {}",
                    crate::shown::describe(at, c)
                )));
            }
            Some(n.trim().to_string()).filter(|n| !n.is_empty())
        }
    };
    Ok(ChatRequest { said, name })
}

/// A line of chat, trimmed: refused when empty, over the limit, or
/// holding control characters (line breaks included: a line is a line)
/// or characters drawn unseen that change how the rest is drawn (see
/// [`crate::shown`]).
fn clean_text(t: &str) -> Result<String, ApiError> {
    // Counting stops one past the limit: a long message costs no more
    // than a short one (and the WebSocket's own limit bounds it anyway).
    let t = t.trim();
    let n = t.chars().take(MAX_TEXT_CHARS + 1).count();
    if n > MAX_TEXT_CHARS {
        return Err(bad(format!(
            "a chat line is at most {MAX_TEXT_CHARS} characters; this one has {}",
            t.chars().count()
        )));
    }
    if t.is_empty() {
        return Err(bad("an empty chat line: write something"));
    }
    if let Some((at, c)) = crate::shown::hidden_char(t) {
        return Err(bad(if c.is_control() {
            "a chat line may not hold control characters (line breaks, tabs): send one line"
                .to_string()
        } else {
            format!(
                "a chat line may not hold invisible or bidirectional characters; this one has {}",
                crate::shown::describe(at, c)
            )
        }));
    }
    Ok(t.to_string())
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::new(Code::BadChat, m)
}

/// Who said something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Speaker {
    /// A seat's player.
    Seat(usize),
    /// A spectator, by a number of their connection (stable while it is
    /// open: a client mutes a spectator by it).
    Spectator(u64),
}

/// One message of the log.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub id: u64,
    pub at_ms: i64,
    pub channel: Channel,
    pub from: Speaker,
    pub name: String,
    pub said: Said,
}

impl Line {
    /// The `ChatMessage` of `docs/api.md`.
    pub(crate) fn json(&self) -> Value {
        let from = match self.from {
            Speaker::Seat(s) => json!({"seat": s}),
            Speaker::Spectator(k) => json!({"spectator": k}),
        };
        let mut v = json!({
            "id": self.id,
            "at_ms": self.at_ms,
            "channel": self.channel.as_str(),
            "from": from,
            "name": self.name,
        });
        match &self.said {
            Said::Text(t) => v["text"] = json!(t),
            Said::Reaction(r) => v["reaction"] = json!(r),
        }
        v
    }

    fn bytes(&self) -> usize {
        let said = match &self.said {
            Said::Text(t) => t.len(),
            Said::Reaction(r) => r.len(),
        };
        said + self.name.len() + 64
    }
}

/// The chat of one game: the last messages of each channel.
#[derive(Debug, Default)]
pub(crate) struct ChatLog {
    players: VecDeque<Line>,
    spectators: VecDeque<Line>,
    players_bytes: usize,
    spectators_bytes: usize,
    next_id: u64,
}

impl ChatLog {
    /// Adds a message, letting the oldest of its channel go past the
    /// bounds. Returns it.
    pub(crate) fn push(
        &mut self,
        at_ms: i64,
        channel: Channel,
        from: Speaker,
        name: String,
        said: Said,
    ) -> &Line {
        self.next_id += 1;
        let line = Line {
            id: self.next_id,
            at_ms,
            channel,
            from,
            name,
            said,
        };
        let (q, bytes) = match channel {
            Channel::Players => (&mut self.players, &mut self.players_bytes),
            Channel::Spectators => (&mut self.spectators, &mut self.spectators_bytes),
        };
        *bytes += line.bytes();
        q.push_back(line);
        while q.len() > KEEP_MESSAGES || (*bytes > KEEP_BYTES && q.len() > 1) {
            if let Some(old) = q.pop_front() {
                *bytes -= old.bytes();
            }
        }
        q.back().expect("just pushed")
    }

    /// Every kept message `viewer` may read, oldest first.
    pub(crate) fn history(&self, viewer: Viewer) -> Vec<&Line> {
        let mut all: Vec<&Line> = self
            .players
            .iter()
            .chain(
                self.spectators
                    .iter()
                    .filter(|_| viewer == Viewer::Spectator),
            )
            .collect();
        all.sort_by_key(|l| l.id);
        all
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.players.is_empty() && self.spectators.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::Seat;

    #[test]
    fn text_and_reactions_are_read_and_checked() {
        let r = parse(&json!({"type": "chat", "text": "  good game  "})).unwrap();
        assert_eq!(r.said, Said::Text("good game".into()));
        let r = parse(&json!({"type": "chat", "reaction": "👍"})).unwrap();
        assert_eq!(r.said, Said::Reaction("👍"));
        for bad_msg in [
            json!({"type": "chat"}),
            json!({"type": "chat", "text": "a", "reaction": "👍"}),
            json!({"type": "chat", "text": 5}),
            json!({"type": "chat", "text": "   "}),
            json!({"type": "chat", "text": "one\ntwo"}),
            json!({"type": "chat", "reaction": "💩"}),
            json!({"type": "chat", "reaction": "👍👍"}),
            json!({"type": "chat", "text": "hi", "name": "a\u{0}b"}),
            json!({"type": "chat", "text": "hi", "name": "x".repeat(41)}),
        ] {
            let e = parse(&bad_msg).unwrap_err();
            assert_eq!(e.code, Code::BadChat, "{bad_msg}");
        }
    }

    #[test]
    fn the_length_limit_is_in_characters_and_says_so() {
        let ok = "é".repeat(MAX_TEXT_CHARS);
        assert!(parse(&json!({"type": "chat", "text": ok})).is_ok());
        let long = "é".repeat(MAX_TEXT_CHARS + 1);
        let e = parse(&json!({"type": "chat", "text": long})).unwrap_err();
        assert!(e.message.contains("at most 280"), "{}", e.message);
        assert!(e.message.contains("281"), "{}", e.message);
    }

    #[test]
    fn players_never_read_the_spectators_channel() {
        let mut log = ChatLog::default();
        log.push(
            1,
            Channel::Players,
            Speaker::Seat(0),
            "Ann".into(),
            Said::Text("hi".into()),
        );
        log.push(
            2,
            Channel::Spectators,
            Speaker::Spectator(7),
            "Bo".into(),
            Said::Text("she should play x".into()),
        );
        log.push(
            3,
            Channel::Players,
            Speaker::Seat(1),
            "Cy".into(),
            Said::Reaction("👍"),
        );
        let seat: Vec<u64> = log
            .history(Viewer::Seat(Seat(0)))
            .iter()
            .map(|l| l.id)
            .collect();
        assert_eq!(seat, vec![1, 3]);
        let spectator: Vec<u64> = log
            .history(Viewer::Spectator)
            .iter()
            .map(|l| l.id)
            .collect();
        assert_eq!(spectator, vec![1, 2, 3]);
        assert!(!Channel::Spectators.read_by(Viewer::Seat(Seat(1))));
        assert!(Channel::Players.read_by(Viewer::Spectator));
    }

    #[test]
    fn the_log_keeps_the_last_messages_of_each_channel() {
        let mut log = ChatLog::default();
        log.push(
            0,
            Channel::Spectators,
            Speaker::Spectator(1),
            "s".into(),
            Said::Text("kept".into()),
        );
        for i in 0..(KEEP_MESSAGES + 50) {
            log.push(
                i as i64,
                Channel::Players,
                Speaker::Seat(0),
                "Ann".into(),
                Said::Text(format!("m{i}")),
            );
        }
        let seen = log.history(Viewer::Seat(Seat(0)));
        assert_eq!(seen.len(), KEEP_MESSAGES);
        assert_eq!(seen[0].json()["text"], "m50");
        assert_eq!(
            seen.last().unwrap().json()["text"],
            format!("m{}", KEEP_MESSAGES + 49)
        );
        // The other channel kept its own.
        assert_eq!(log.history(Viewer::Spectator).len(), KEEP_MESSAGES + 1);
    }

    #[test]
    fn the_log_is_bounded_by_bytes_too() {
        let mut log = ChatLog::default();
        let long = "字".repeat(MAX_TEXT_CHARS); // 840 bytes
        for _ in 0..KEEP_MESSAGES {
            log.push(
                0,
                Channel::Players,
                Speaker::Seat(0),
                "Ann".into(),
                Said::Text(long.clone()),
            );
        }
        let kept = log.history(Viewer::Seat(Seat(0)));
        let bytes: usize = kept.iter().map(|l| l.bytes()).sum();
        assert!(bytes <= KEEP_BYTES, "{bytes}");
        assert!(kept.len() < KEEP_MESSAGES && kept.len() >= KEEP_BYTES / 1000);
    }
}
