//! The puzzle routes (see `docs/api.md`, "Puzzles and the daily
//! challenge"): what there is, today's challenges, a puzzle played as a
//! game against the best computer player, and the verdict on the moves
//! made in that game.

use crate::error::{ApiError, Code};
use crate::extract::{Path, Query};
use crate::http::Body;
use crate::hub::{Hub, NewGameSpec};
use crate::puzzles::{date_of, day_at, day_of, Offered};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use parlor_core::{Actor, Answer, Judged, Level, Seat};
use serde::Deserialize;
use serde_json::{json, Value};

/// The most moves of one player a verdict judges: a Gobble round's words
/// are bounded by the game, this bounds the work whatever the game.
const MOST_TRIES: usize = 400;

fn unknown_puzzle(id: &str) -> ApiError {
    ApiError::new(
        Code::UnknownPuzzle,
        format!(
            "no puzzle {:?}: GET /api/puzzles lists the sets, /api/puzzles/next gives one",
            id.chars().take(40).collect::<String>()
        ),
    )
}

fn about(o: &Offered, hub: &Hub) -> Value {
    let title = hub
        .registry()
        .get(&o.puzzle.game)
        .map(|e| e.info().title.to_string())
        .unwrap_or_default();
    json!({
        "id": o.id,
        "game": o.puzzle.game,
        "title": title,
        "kind": o.kind.name,
        "set": format!("{}/{}", o.puzzle.game, o.kind.name),
        "about": o.kind.about,
        "answer": o.kind.answer,
        "themes": o.puzzle.themes,
        "seat": o.puzzle.seat,
        "proof_size": o.puzzle.proof_size,
    })
}

fn today(hub: &Hub) -> i64 {
    day_at(hub.settings().games.time.now_ms())
}

/// `GET /api/puzzles`: the sets and today's challenges.
pub(crate) async fn sets(State(hub): State<Hub>) -> Json<Value> {
    let puzzles = &hub.settings().puzzles;
    let sets: Vec<Value> = puzzles
        .sets()
        .iter()
        .map(|s| {
            let title = hub
                .registry()
                .get(&s.game)
                .map(|e| e.info().title.to_string())
                .unwrap_or_default();
            json!({
                "set": s.name,
                "game": s.game,
                "title": title,
                "kind": s.kind.name,
                "about": s.kind.about,
                "answer": s.kind.answer,
                "count": s.members.len(),
                "daily": s.daily,
            })
        })
        .collect();
    Json(json!({"sets": sets, "daily": daily_json(&hub, today(&hub))}))
}

fn daily_json(hub: &Hub, day: i64) -> Value {
    let challenges: Vec<Value> = hub
        .settings()
        .puzzles
        .daily(day)
        .iter()
        .map(|c| {
            let mut v = about(c.puzzle, hub);
            v["replaced"] = json!(c.replaced);
            v
        })
        .collect();
    json!({"date": date_of(day), "challenges": challenges})
}

#[derive(Deserialize)]
pub(crate) struct DailyQuery {
    date: Option<String>,
}

/// `GET /api/daily[?date=YYYY-MM-DD]`: a day's challenges, today's or an
/// earlier day's (never a day to come: it is nobody's to practise).
pub(crate) async fn daily(
    State(hub): State<Hub>,
    Query(q): Query<DailyQuery>,
) -> Result<Json<Value>, ApiError> {
    let now = today(&hub);
    let day = match q.date.as_deref() {
        None | Some("") => now,
        Some(d) => day_of(d).map_err(|e| ApiError::bad_json(format!("date: {e}")))?,
    };
    if day > now {
        return Err(ApiError::bad_json(format!(
            "date: {} has not come yet (today is {} in UTC); ask for today or an earlier day",
            date_of(day),
            date_of(now)
        )));
    }
    Ok(Json(daily_json(&hub, day)))
}

#[derive(Deserialize)]
pub(crate) struct NextQuery {
    set: Option<String>,
    not: Option<String>,
}

/// `GET /api/puzzles/next[?set=game/kind][&not=ID]`: a puzzle of the set
/// (of any set without one), other than `not`.
pub(crate) async fn next(
    State(hub): State<Hub>,
    Query(q): Query<NextQuery>,
) -> Result<Json<Value>, ApiError> {
    let puzzles = &hub.settings().puzzles;
    let set = q.set.as_deref().filter(|s| !s.is_empty());
    if let Some(name) = set {
        if !puzzles.sets().iter().any(|s| s.name == name) {
            let names: Vec<&str> = puzzles.sets().iter().map(|s| s.name.as_str()).collect();
            return Err(ApiError::new(
                Code::UnknownPuzzle,
                format!(
                    "set: no puzzle set {:?}; the sets are {}",
                    name.chars().take(40).collect::<String>(),
                    names.join(", ")
                ),
            ));
        }
    }
    let o = puzzles
        .any(set, q.not.as_deref())
        .ok_or_else(|| ApiError::new(Code::UnknownPuzzle, "this server has no puzzles"))?;
    Ok(Json(about(o, &hub)))
}

/// `GET /api/puzzles/{id}`: what a puzzle asks (never its answer).
pub(crate) async fn get_puzzle(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let o = hub
        .settings()
        .puzzles
        .get(&id)
        .ok_or_else(|| unknown_puzzle(&id))?;
    Ok(Json(about(o, &hub)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayReq {
    name: Option<String>,
    player: Option<String>,
}

/// `POST /api/puzzles/{id}/play`: a game at the puzzle's position, the
/// caller in the solving seat and the best computer player in the others.
pub(crate) async fn play(
    State(hub): State<Hub>,
    client: crate::limits::Client,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(req): Body<PlayReq>,
) -> Result<Response, ApiError> {
    let o = hub
        .settings()
        .puzzles
        .get(&id)
        .ok_or_else(|| unknown_puzzle(&id))?;
    let player = crate::http::check_player(req.player)?;
    let name = crate::http::check_name(req.name)?;
    let account = crate::accounts::current(hub.store(), &headers).await?;
    let p = &o.puzzle;
    let start = start_moves(&p.record)
        .map_err(|e| ApiError::new(Code::Internal, format!("puzzle {id}: {e}")))?;
    let seats = hub
        .registry()
        .get(&p.game)
        .and_then(|e| e.needs(&p.record["config"]))
        .map_err(|e| ApiError::new(Code::Internal, format!("puzzle {id}: {e}")))?
        .seats;
    let created = hub
        .create(NewGameSpec {
            game: p.game.clone(),
            config: p.record["config"].clone(),
            seed: Some(p.record["seed"].as_u64().unwrap_or(p.seed)),
            public: false,
            seats: None,
            bots: (0..seats)
                .filter(|&s| s != p.seat)
                .map(|s| (s, Level::Best))
                .collect(),
            open_seats: Vec::new(),
            take_seat: Some((p.seat, name, player)),
            rematch_of: None,
            start: Some(start),
            time_control: Default::default(),
            rated: false,
            account,
            client: Some(client.0),
        })
        .await?;
    let token = created
        .tokens
        .iter()
        .find(|(s, _)| *s == p.seat)
        .map(|(_, t)| t.clone());
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "puzzle": about(o, &hub),
            "game": created.summary,
            "you": {"seat": p.seat, "token": token},
        })),
    )
        .into_response())
}

/// The moves of a puzzle's record, as the game's start.
fn start_moves(record: &Value) -> Result<Vec<(Actor, Value)>, String> {
    let Some(actions) = record["actions"].as_array() else {
        return Err("its record has no actions".into());
    };
    actions
        .iter()
        .map(|a| {
            let actor: Actor = serde_json::from_value(a["actor"].clone())
                .map_err(|e| format!("its record's actor: {e}"))?;
            Ok((actor, a["action"].clone()))
        })
        .collect()
}

#[derive(Deserialize)]
pub(crate) struct VerdictQuery {
    game: String,
}

/// `GET /api/puzzles/{id}/verdict?game=ID`: the verdict on the moves made
/// in a game played from the puzzle: which answered it, whether it solved
/// it and why (the solver's refutation of a wrong one), and, for a puzzle
/// that is then won out, whether it was.
pub(crate) async fn verdict(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<VerdictQuery>,
) -> Result<Json<Value>, ApiError> {
    let o = hub
        .settings()
        .puzzles
        .get(&id)
        .ok_or_else(|| unknown_puzzle(&id))?
        .clone();
    if !crate::hub::valid_id(&q.game) {
        return Err(ApiError::not_found(&q.game));
    }
    let game = q.game.clone();
    let stored = hub
        .store()
        .read(move |s| s.load(&game))
        .await?
        .ok_or_else(|| ApiError::not_found(&q.game))?;
    let p = &o.puzzle;
    let start = start_moves(&p.record).map_err(|e| ApiError::new(Code::Internal, e))?;
    let played_from_it = stored.row.game == p.game
        && stored.row.config.value() == p.record["config"]
        && Some(stored.row.seed) == p.record["seed"].as_u64()
        && stored.actions.len() >= start.len()
        && stored
            .actions
            .iter()
            .zip(&start)
            .all(|(a, (actor, action))| {
                serde_json::from_value::<Actor>(a.actor.clone()).ok() == Some(*actor)
                    && &a.action == action
            });
    if !played_from_it {
        return Err(ApiError::bad_json(format!(
            "game: {} was not made from puzzle {id} (POST /api/puzzles/{id}/play makes one)",
            q.game
        )));
    }
    let solver = Actor::Seat(Seat(p.seat));
    let tries: Vec<Value> = stored.actions[start.len()..]
        .iter()
        .filter(|a| serde_json::from_value::<Actor>(a.actor.clone()).ok() == Some(solver))
        .map(|a| a.action.clone())
        .take(match o.kind.answer {
            Answer::AnyMove => MOST_TRIES,
            Answer::FirstMove | Answer::FirstMoveThenWin => 1,
        })
        .collect();
    let over = stored.row.status.over;
    let won = stored
        .row
        .status
        .outcome
        .as_ref()
        .map(|o| o.value())
        .and_then(|o| o["ranking"][0].as_array().cloned())
        .is_some_and(|first| first.len() == 1 && first[0].as_u64() == Some(p.seat as u64));
    let book = hub
        .registry()
        .get(&p.game)
        .ok()
        .and_then(|e| e.puzzles())
        .ok_or_else(|| ApiError::new(Code::Internal, format!("{} makes no puzzles", p.game)))?;
    let resources = hub.resources();
    let puzzle = p.clone();
    // Judging replays the position: off the async workers.
    let judged: Vec<Judged> = tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        for t in &tries {
            let j = (book.judge)(&puzzle, t, &resources).unwrap_or_else(|e| Judged {
                solved: false,
                why: e,
            });
            let solved = j.solved;
            out.push(j);
            if solved {
                break;
            }
        }
        out
    })
    .await
    .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?;
    let solving = judged.iter().position(|j| j.solved);
    let last = solving.map(|i| &judged[i]).or(judged.last());
    // A try is final once it solves, or when no other can come.
    let settled = match o.kind.answer {
        Answer::AnyMove => solving.is_some() || over,
        Answer::FirstMove | Answer::FirstMoveThenWin => !judged.is_empty(),
    };
    let complete = match o.kind.answer {
        Answer::FirstMoveThenWin => solving.is_some() && over && won,
        _ => solving.is_some(),
    };
    Ok(Json(json!({
        "puzzle": about(&o, &hub),
        "game": q.game,
        "tries": judged.len(),
        "answered": settled,
        "solved": solving.is_some(),
        "why": last.map(|j| j.why.clone()),
        "answers": if settled { json!(p.answers) } else { Value::Null },
        "over": over,
        "won": won,
        "complete": complete,
    })))
}
