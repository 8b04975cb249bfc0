//! A game's summary (`GameSummary` in docs/api.md): what listings, the
//! lobby, a welcome and a rematch's answer show of a game.
//!
//! Written straight as JSON text where it is sent: built as a tree of
//! values (a map and a string per key, twice per seat), the summaries of
//! a rematch's new game were half of the async worker's allocations under
//! nim's load (`parlor serve-bench --game nim`). The
//! fields are in the order of their names, as a map of values writes them.

use crate::storage::{GameRow, JsonText, SeatKind, SeatRow};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// A game's summary, borrowed from what its host holds.
#[derive(Serialize)]
pub(crate) struct Summary<'a> {
    aborted: bool,
    absent_seconds: Option<f64>,
    /// The round clock, while it runs.
    clock: Option<Value>,
    /// Every clock (a live game's summary only: null before they start).
    #[serde(skip_serializing_if = "Option::is_none")]
    clocks: Option<Value>,
    config: &'a JsonText,
    created_ms: i64,
    game: &'a str,
    id: &'a str,
    outcome: &'a Option<JsonText>,
    public: bool,
    rated: bool,
    rematch: &'a Option<String>,
    rematch_of: &'a Option<String>,
    /// What each seat is called now where its number is not its side
    /// (`Game::seat_labels`): a live game's summary only.
    #[serde(skip_serializing_if = "Option::is_none")]
    seat_labels: Option<Vec<String>>,
    seats: Seats<'a>,
    seed_sha256: String,
    seq: usize,
    status: &'static str,
    time_control: &'a parlor_core::TimeControl,
    title: &'a str,
    to_act: &'a JsonText,
    turn_seconds: Option<f64>,
    /// Who the clocks wait for (a live game's summary only).
    #[serde(skip_serializing_if = "Option::is_none")]
    waiting_for: Option<Value>,
}

impl<'a> Summary<'a> {
    /// The summary of a stored game; `connected` per seat when its host
    /// knows who is here (otherwise only bots are), `clock` the round
    /// clock while it runs.
    pub(crate) fn of(
        row: &'a GameRow,
        seats: &'a [SeatRow],
        title: &'a str,
        connected: Option<Vec<bool>>,
        clock: Option<Value>,
    ) -> Self {
        // As the listing of open games reads it: a seat anyone may claim
        // (a human seat nobody holds and nobody was invited to, in a
        // public game). A game whose free seats are all invited waits for
        // its invitees only: it is live.
        let open = row.public
            && seats
                .iter()
                .any(|s| s.kind == SeatKind::Human && !s.joined && s.token.is_none());
        let status = if row.status.over {
            "over"
        } else if open {
            "open"
        } else {
            "live"
        };
        Summary {
            aborted: row.aborted,
            absent_seconds: row.time_control.absent_seconds,
            clock,
            clocks: None,
            config: &row.config,
            created_ms: row.created_ms,
            game: &row.game,
            id: &row.id,
            outcome: &row.status.outcome,
            public: row.public,
            rated: row.rated,
            rematch: &row.rematch,
            rematch_of: &row.rematch_of,
            seat_labels: None,
            seats: Seats { seats, connected },
            seed_sha256: crate::seed_sha256(row.seed),
            seq: row.status.seq,
            status,
            time_control: &row.time_control,
            title,
            to_act: &row.status.to_act,
            turn_seconds: row.time_control.turn_seconds,
            waiting_for: None,
        }
    }

    /// With what a live game's host adds: every clock, and who the clocks
    /// wait for.
    pub(crate) fn live(self, clocks: Value, waiting_for: Value) -> Self {
        Summary {
            clocks: Some(clocks),
            waiting_for: Some(waiting_for),
            ..self
        }
    }

    /// With what each seat is called now, as the game's state says.
    pub(crate) fn labelled(self, seat_labels: Option<Vec<String>>) -> Self {
        Summary {
            seat_labels,
            ..self
        }
    }

    /// As JSON text.
    pub(crate) fn text(&self) -> Box<RawValue> {
        crate::raw_json(self)
    }

    /// As a value, for a caller that adds to it.
    pub(crate) fn value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A stored game's summary as listings show it (who is here is its
/// host's to know: only its bots are shown connected).
pub(crate) fn listed(row: &GameRow, seats: &[SeatRow], title: &str) -> Value {
    Summary::of(row, seats, title, None, None).value()
}

/// The `seats` of a summary (also sent alone, as a `seats` message, when
/// who is here changes).
pub(crate) struct Seats<'a> {
    pub(crate) seats: &'a [SeatRow],
    /// Per seat, whether a connection holds it (None: only bots are here).
    pub(crate) connected: Option<Vec<bool>>,
}

/// One seat as a summary shows it.
#[derive(Serialize)]
struct SeatView<'a> {
    /// The account the seat belongs to (its profile: /u/NAME).
    account: &'a Option<String>,
    connected: bool,
    joined: bool,
    kind: &'static str,
    level: &'a Option<String>,
    name: &'a Option<String>,
    /// Anyone may take it with `claim` (in a public game): a human seat
    /// without a token yet.
    open: bool,
    seat: usize,
}

impl Serialize for Seats<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.seats.iter().map(|seat| {
            SeatView {
                account: &seat.account,
                connected: self
                    .connected
                    .as_ref()
                    .and_then(|c| c.get(seat.seat).copied())
                    .unwrap_or(seat.kind == SeatKind::Bot),
                joined: seat.joined,
                kind: seat.kind.as_str(),
                level: &seat.level,
                name: &seat.name,
                open: seat.kind == SeatKind::Human && seat.token.is_none(),
                seat: seat.seat,
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::StatusRow;

    fn row() -> GameRow {
        GameRow {
            id: "abc".into(),
            game: "nim".into(),
            config: (&serde_json::json!({"pile": 21, "take": [1, 2, 3]})).into(),
            seed: 42,
            lexicons: (&serde_json::json!([])).into(),
            public: true,
            created_ms: 7,
            status: StatusRow {
                seq: 3,
                to_act: serde_json::json!({"seat": 1}).into(),
                outcome: None,
                over: false,
                deadline: None,
                updated_ms: 9,
            },
            rematch_of: Some("xyz".into()),
            rematch: None,
            time_control: parlor_core::TimeControl {
                turn_seconds: Some(30.0),
                ..Default::default()
            },
            aborted: false,
            rated: false,
        }
    }

    fn seats() -> Vec<SeatRow> {
        vec![
            SeatRow {
                seat: 0,
                kind: SeatKind::Human,
                level: None,
                token: Some("t".into()),
                name: Some("Ann".into()),
                player: None,
                joined: true,
                account: None,
            },
            SeatRow {
                seat: 1,
                kind: SeatKind::Bot,
                level: Some("easy".into()),
                token: None,
                name: Some("bot (easy)".into()),
                player: None,
                joined: true,
                account: Some("bea".into()),
            },
        ]
    }

    #[test]
    fn the_text_is_the_value_written_with_its_keys_in_order() {
        let (row, seats) = (row(), seats());
        let summary = Summary::of(&row, &seats, "Nim", Some(vec![false, true]), None)
            .live(serde_json::json!(null), serde_json::json!([]));
        let text = summary.text();
        // A map of values writes its keys in order: the same text.
        assert_eq!(text.get(), summary.value().to_string());
        let v = summary.value();
        assert_eq!(v["config"]["take"][2], 3);
        assert_eq!(v["status"], "live");
        assert_eq!(v["seats"][0]["connected"], false);
        assert_eq!(v["seats"][1]["account"], "bea");
        assert_eq!(v["seats"][1]["open"], false);
        assert_eq!(v["clocks"], Value::Null);
        assert_eq!(v["waiting_for"], serde_json::json!([]));
        assert_eq!(v["turn_seconds"], 30.0);
        assert_eq!(v["seed_sha256"], crate::seed_sha256(42));
    }

    #[test]
    fn a_live_summary_names_seats_as_the_game_does() {
        let (row, seats) = (row(), seats());
        let summary = Summary::of(&row, &seats, "Twin Grids", None, None)
            .live(serde_json::json!(null), serde_json::json!([]))
            .labelled(Some(vec!["player 2".into(), "player 1".into()]));
        // The keys still in order: the text is the value.
        assert_eq!(summary.text().get(), summary.value().to_string());
        assert_eq!(
            summary.value()["seat_labels"],
            serde_json::json!(["player 2", "player 1"])
        );
        let plain = Summary::of(&row, &seats, "Nim", None, None).labelled(None);
        assert!(plain.value().get("seat_labels").is_none());
    }

    #[test]
    fn a_game_whose_free_seats_are_all_invited_is_live_not_open() {
        let (mut row, mut seats) = (row(), seats());
        seats[0].joined = false;
        let status = |row: &GameRow, seats: &[SeatRow]| {
            Summary::of(row, seats, "Nim", None, None).value()["status"].clone()
        };
        // Seat 0 is free but has its token: kept for an invited player.
        assert_eq!(status(&row, &seats), "live");
        // Without a token anyone may claim it: open.
        seats[0].token = None;
        assert_eq!(status(&row, &seats), "open");
        // Only in a public game may anyone claim a seat.
        row.public = false;
        assert_eq!(status(&row, &seats), "live");
    }

    #[test]
    fn a_listing_has_no_live_fields_and_only_bots_are_here() {
        let (row, mut seats) = (row(), seats());
        seats[0].joined = false;
        seats[0].token = None;
        let v = Summary::of(&row, &seats, "Nim", None, None).value();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert!(!keys.contains(&"clocks") && !keys.contains(&"waiting_for"));
        assert!(
            !keys.contains(&"seat_labels"),
            "a listing cannot know sides"
        );
        assert_eq!(v["status"], "open");
        assert_eq!(v["seats"][0]["connected"], false);
        assert_eq!(v["seats"][1]["connected"], true);
        assert_eq!(v["clock"], Value::Null);
    }
}
