//! The puzzle routes (see `docs/api.md`, "Puzzles and the daily
//! challenge"): what there is, today's challenges, a puzzle played as a
//! game against the best computer player, and the verdict on the moves
//! made in that game.

use crate::error::{ApiError, Code};
use crate::extract::{Path, Query};
use crate::http::Body;
use crate::hub::{Hub, NewGameSpec};
use crate::puzzles::{date_of, day_at, day_of, Offered};
use crate::storage::{ChallengeRow, PlaysQuery, PuzzlePlayRow, Write};
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

/// The puzzle `id` the server offers.
fn offered(hub: &Hub, id: &str) -> Result<Offered, ApiError> {
    hub.settings()
        .puzzles
        .get(id)
        .cloned()
        .ok_or_else(|| unknown_puzzle(id))
}

fn about(o: &Offered, hub: &Hub) -> Value {
    json!({
        "id": o.id,
        "game": o.puzzle.game,
        "title": crate::http::title(hub, &o.puzzle.game),
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

/// The day a query's `date` names (`YYYY-MM-DD`), today without one.
fn day_asked(hub: &Hub, date: Option<&str>) -> Result<i64, ApiError> {
    match date {
        None | Some("") => Ok(today(hub)),
        Some(d) => day_of(d).map_err(|e| ApiError::bad_json(format!("date: {e}"))),
    }
}

/// `GET /api/puzzles`: the sets and today's challenges.
pub(crate) async fn sets(State(hub): State<Hub>) -> Json<Value> {
    let puzzles = &hub.settings().puzzles;
    let sets: Vec<Value> = puzzles
        .sets()
        .iter()
        .map(|s| {
            json!({
                "set": s.name,
                "game": s.game,
                "title": crate::http::title(&hub, &s.game),
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

/// A query of a day: `?date=YYYY-MM-DD`, today without one.
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
    let day = day_asked(&hub, q.date.as_deref())?;
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

/// `GET /api/puzzles/{id}`: what a puzzle asks (never its answer), and how
/// hard it is: its rating from players' tries, or before any, from its
/// proof's size.
pub(crate) async fn get_puzzle(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let o = offered(&hub, &id)?;
    let subject = format!("p:{id}");
    let rated = hub.store().read(move |s| s.puzzle_rating(&subject)).await?;
    let difficulty = match rated {
        Some((r, tries)) if tries > 0 => {
            json!({"rating": r.rating.round() as i64, "tries": tries, "from": "players"})
        }
        _ => json!({
            "rating": hub.settings().puzzles.first_rating_of(&o).rating.round() as i64,
            "tries": 0,
            "from": "proof",
        }),
    };
    let mut v = about(&o, &hub);
    v["difficulty"] = difficulty;
    Ok(Json(v))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayReq {
    name: Option<String>,
    player: Option<String>,
    /// Played as today's challenge: one try each.
    #[serde(default)]
    daily: bool,
    /// Played through a friend's challenge.
    challenge: Option<String>,
}

/// Who plays: an account, else a guest by its player key.
fn who(account: &Option<String>, player: &Option<String>) -> Option<String> {
    match (account, player) {
        (Some(a), _) => Some(format!("a:{a}")),
        (None, Some(p)) => Some(format!("g:{p}")),
        (None, None) => None,
    }
}

/// The answer of `play` for the game `game_id` made for `o`.
async fn played(hub: &Hub, o: &Offered, game_id: &str, again: bool) -> Result<Response, ApiError> {
    let stub = hub.stub(game_id).await?;
    let summary = stub.summary().await?;
    let token = stub.seat_token(o.puzzle.seat).await?;
    Ok((
        if again {
            StatusCode::OK
        } else {
            StatusCode::CREATED
        },
        Json(json!({
            "puzzle": about(o, hub),
            "game": summary,
            "you": {"seat": o.puzzle.seat, "token": token},
            "again": again,
        })),
    )
        .into_response())
}

/// `POST /api/puzzles/{id}/play`: a game at the puzzle's position, the
/// caller in the solving seat and the best computer player in the others;
/// as today's challenge (`daily`), one try each: asked again, the same
/// game.
pub(crate) async fn play(
    State(hub): State<Hub>,
    client: crate::limits::Client,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(req): Body<PlayReq>,
) -> Result<Response, ApiError> {
    let o = offered(&hub, &id)?;
    let player = crate::http::check_player(req.player)?;
    let name = crate::http::check_name(req.name)?;
    let account = crate::accounts::current(hub.store(), &headers).await?;
    let who = who(&account, &player);
    let day = today(&hub);
    let daily = if req.daily {
        if !hub.settings().puzzles.is_daily(day, &id) {
            return Err(ApiError::bad_json(format!(
                "daily: puzzle {id} is not one of today's challenges ({}; GET /api/daily lists them)",
                date_of(day)
            )));
        }
        let Some(who) = who.clone() else {
            return Err(ApiError::bad_json(
                "daily: the day's challenge is one try each: log in, or send your player key (player)",
            ));
        };
        if let Some(game) = first_try(&hub, &id, Some(day), who).await? {
            return played(&hub, &o, &game, true).await;
        }
        Some(day)
    } else {
        None
    };
    let challenge = match req.challenge.filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => {
            let shown: String = c.chars().take(40).collect();
            let key = c.clone();
            let row = if c.len() <= 64 {
                hub.store().read(move |s| s.challenge(&key)).await?
            } else {
                None
            };
            match row {
                Some(r) if r.puzzle_id == id => Some(r.id),
                Some(_) => {
                    return Err(ApiError::bad_json(format!(
                        "challenge: {shown} is a challenge of another puzzle"
                    )))
                }
                None => {
                    return Err(ApiError::new(
                        Code::UnknownPuzzle,
                        format!("challenge: no challenge {shown:?}"),
                    ))
                }
            }
        }
    };
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
            take_seat: Some((p.seat, name.clone(), player.clone())),
            rematch_of: None,
            start: Some(start),
            time_control: Default::default(),
            rated: false,
            account: account.clone(),
            client: Some(client.0),
        })
        .await?;
    if let Some(who) = who {
        let row = PuzzlePlayRow {
            game_id: created.id.clone(),
            puzzle_id: id.clone(),
            day: daily,
            challenge,
            who: who.clone(),
            name: account.clone().or(name),
            created_ms: hub.settings().games.time.now_ms(),
            solved: None,
            complete: false,
            why: None,
            rating: None,
            score: None,
        };
        let taken = hub.store().commit(vec![Write::PuzzlePlay { row }]).await?;
        if taken.first() != Some(&true) {
            // Another request of the same player made the day's try first.
            if let Some(game) = first_try(&hub, &id, daily, who).await? {
                return played(&hub, &o, &game, true).await;
            }
        }
    }
    played(&hub, &o, &created.id, false).await
}

/// The game of `who`'s try of puzzle `id` (as `day`'s challenge, where
/// given), if they have one.
async fn first_try(
    hub: &Hub,
    id: &str,
    day: Option<i64>,
    who: String,
) -> Result<Option<String>, ApiError> {
    let query = PlaysQuery {
        puzzle_id: Some(id.to_string()),
        day,
        who: Some(who),
        ..PlaysQuery::default()
    };
    let tried = hub
        .store()
        .read(move |s| s.puzzle_plays(&query, None, 1))
        .await?;
    Ok(tried.into_iter().next().map(|p| p.game_id))
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
    let o = offered(&hub, &id)?;
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
    let game = q.game.clone();
    let row = hub.store().read(move |s| s.puzzle_play(&game)).await?;
    // A game made by `play` for a player is linked to its puzzle; one made
    // without a player key nor an account has no link, and is judged if
    // its record starts as the puzzle's (nothing is kept of it).
    let made_for_it = stored.actions.len() >= start.len()
        && match &row {
            Some(r) => r.puzzle_id == id,
            None => {
                stored.row.game == p.game
                    && stored.row.config.value() == p.record["config"]
                    && Some(stored.row.seed) == p.record["seed"].as_u64()
                    && stored
                        .actions
                        .iter()
                        .zip(&start)
                        .all(|(a, (actor, action))| {
                            serde_json::from_value::<Actor>(a.actor.clone()).ok() == Some(*actor)
                                && &a.action == action
                        })
            }
        };
    if !made_for_it {
        return Err(ApiError::bad_json(format!(
            "game: {} was not made from puzzle {id} (POST /api/puzzles/{id}/play makes one)",
            q.game
        )));
    }
    let play = row;
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
    // The player's points, in a game that scores.
    let score = stored
        .row
        .status
        .outcome
        .as_ref()
        .and_then(|o| o.value()["scores"][p.seat].as_i64());
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
    // The verdict is kept once it is final: the first answer stands, and
    // an account's first try of the puzzle moves both ratings.
    let mut rating = play.as_ref().and_then(|p| p.rating);
    if let (Some(play), true) = (&play, settled) {
        let why = last.map(|j| j.why.clone()).unwrap_or_default();
        let mut writes = Vec::new();
        if play.solved.is_none() || (complete && !play.complete) {
            writes.push(Write::PuzzleJudged {
                game_id: q.game.clone(),
                solved: solving.is_some(),
                complete,
                why,
            });
        }
        if let (Some(score), true, None) = (score, over, play.score) {
            writes.push(Write::PuzzleScore {
                game_id: q.game.clone(),
                score,
            });
        }
        if let (Some(account), None) = (play.who.strip_prefix("a:"), play.rating) {
            writes.push(Write::PuzzleRate {
                game_id: q.game.clone(),
                account: account.to_string(),
                puzzle_id: id.clone(),
                puzzle_first: hub.settings().puzzles.first_rating_of(&o),
                at_ms: hub.settings().games.time.now_ms(),
            });
        }
        if !writes.is_empty() {
            hub.store().commit(writes).await?;
            let game = q.game.clone();
            let again = hub.store().read(move |s| s.puzzle_play(&game)).await?;
            rating = again.and_then(|p| p.rating);
        }
    }
    Ok(Json(json!({
        "puzzle": about(&o, &hub),
        "game": q.game,
        "daily": play.as_ref().and_then(|p| p.day).map(date_of),
        "challenge": play.as_ref().and_then(|p| p.challenge.clone()),
        "rating": rating.map(|(before, after)| json!({
            "before": before.round() as i64,
            "after": after.round() as i64,
        })),
        "tries": judged.len(),
        "answered": settled,
        "solved": solving.is_some(),
        "why": last.map(|j| j.why.clone()),
        "answers": if settled { json!(p.answers) } else { Value::Null },
        "over": over,
        "won": won,
        "score": score,
        "complete": complete,
    })))
}

/// The most plays a comparison reads.
const MOST_PLAYS: usize = 2_000;

/// What a list of plays adds up to, and (`names`) who played, newest
/// first: a friend's challenge shows everyone; a day's challenge shows
/// only the counts.
fn compared(plays: &[PuzzlePlayRow], names: bool) -> Value {
    let answered = plays.iter().filter(|p| p.solved.is_some()).count();
    let solved = plays.iter().filter(|p| p.solved == Some(true)).count();
    let complete = plays.iter().filter(|p| p.complete).count();
    let mut scores: Vec<i64> = plays.iter().filter_map(|p| p.score).collect();
    scores.sort_unstable();
    let mut v = json!({
        "scores": scores,
        "played": plays.len(),
        "answered": answered,
        "solved": solved,
        "complete": complete,
        "more": plays.len() >= MOST_PLAYS,
    });
    if names {
        v["plays"] = plays
            .iter()
            .take(100)
            .map(|p| {
                json!({
                    "game": p.game_id,
                    "name": p.name,
                    "account": p.who.strip_prefix("a:"),
                    "solved": p.solved,
                    "complete": p.complete,
                    "why": p.why,
                    "created_ms": p.created_ms,
                })
            })
            .collect();
    }
    v
}

/// `GET /api/puzzles/{id}/results[?date=YYYY-MM-DD]`: how a day's
/// challenge went for everyone (today's without a date): how many played,
/// answered, solved it.
pub(crate) async fn results(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<DailyQuery>,
) -> Result<Json<Value>, ApiError> {
    offered(&hub, &id)?;
    let day = day_asked(&hub, q.date.as_deref())?;
    let query = PlaysQuery {
        puzzle_id: Some(id.clone()),
        day: Some(day),
        ..PlaysQuery::default()
    };
    let plays = hub
        .store()
        .read(move |s| s.puzzle_plays(&query, None, MOST_PLAYS))
        .await?;
    let mut v = compared(&plays, false);
    v["date"] = json!(date_of(day));
    v["puzzle"] = json!(id);
    Ok(Json(v))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChallengeReq {
    name: Option<String>,
}

/// `POST /api/puzzles/{id}/challenge`: a friend's challenge: a link that
/// gives the puzzle to anyone, and one page that compares everyone who
/// played it.
pub(crate) async fn challenge(
    State(hub): State<Hub>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(req): Body<ChallengeReq>,
) -> Result<Response, ApiError> {
    offered(&hub, &id)?;
    let name = crate::http::check_name(req.name)?;
    let account = crate::accounts::current(hub.store(), &headers).await?;
    let row = ChallengeRow {
        id: crate::hub::new_token()[..16].to_string(),
        puzzle_id: id,
        by_name: account.or(name),
        created_ms: hub.settings().games.time.now_ms(),
    };
    let cid = row.id.clone();
    let taken = hub
        .store()
        .commit(vec![Write::NewChallenge { row }])
        .await?;
    if taken.first() != Some(&true) {
        return Err(ApiError::new(
            Code::Busy,
            "that challenge id was just taken; ask again",
        ));
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({"challenge": cid, "url": format!("/puzzles/c/{cid}")})),
    )
        .into_response())
}

/// `GET /api/challenges/{id}`: a friend's challenge: its puzzle, who made
/// it, and everyone who played it.
pub(crate) async fn get_challenge(
    State(hub): State<Hub>,
    Path(cid): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let shown: String = cid.chars().take(40).collect();
    let missing = || ApiError::new(Code::UnknownPuzzle, format!("no challenge {shown:?}"));
    if cid.len() > 64 {
        return Err(missing());
    }
    let key = cid.clone();
    let row = hub
        .store()
        .read(move |s| s.challenge(&key))
        .await?
        .ok_or_else(missing)?;
    let o = offered(&hub, &row.puzzle_id)?;
    let query = PlaysQuery {
        challenge: Some(row.id.clone()),
        ..PlaysQuery::default()
    };
    let plays = hub
        .store()
        .read(move |s| s.puzzle_plays(&query, None, MOST_PLAYS))
        .await?;
    let mut v = compared(&plays, true);
    v["challenge"] = json!({"id": row.id, "by": row.by_name, "created_ms": row.created_ms});
    v["puzzle"] = about(&o, &hub);
    Ok(Json(v))
}

/// The most puzzle plays a profile reads (its history and streak).
pub(crate) const HISTORY: usize = 400;

/// The days in a row, up to today or yesterday (today may not be played
/// yet), with a day's challenge solved.
pub(crate) fn streak(solved_days: &[i64], today: i64) -> usize {
    let days: std::collections::BTreeSet<i64> = solved_days.iter().copied().collect();
    let mut day = if days.contains(&today) {
        today
    } else {
        today - 1
    };
    let mut n = 0;
    while days.contains(&day) {
        n += 1;
        day -= 1;
    }
    n
}

/// An account's puzzles for its profile: its puzzle rating, its streak of
/// days with a challenge solved, and its latest plays.
pub(crate) fn history_json(
    hub: &Hub,
    plays: &[PuzzlePlayRow],
    rating: Option<(crate::ratings::Rating, i64)>,
) -> Value {
    let solved_days: Vec<i64> = plays
        .iter()
        .filter(|p| p.solved == Some(true))
        .filter_map(|p| p.day)
        .collect();
    let latest: Vec<Value> = plays
        .iter()
        .take(20)
        .map(|p| {
            let set = hub
                .settings()
                .puzzles
                .get(&p.puzzle_id)
                .map(|o| json!({"title": crate::http::title(hub, &o.puzzle.game), "about": o.kind.about}));
            json!({
                "puzzle": p.puzzle_id,
                "set": set,
                "game": p.game_id,
                "daily": p.day.map(date_of),
                "solved": p.solved,
                "complete": p.complete,
                "created_ms": p.created_ms,
            })
        })
        .collect();
    json!({
        "rating": rating.map(|(r, tries)| json!({
            "rating": r.rating.round() as i64,
            "rd": r.rd.round() as i64,
            "tries": tries,
        })),
        "streak": streak(&solved_days, today(hub)),
        "solved_days": solved_days.iter().collect::<std::collections::BTreeSet<_>>().len(),
        "latest": latest,
    })
}

/// `GET /api/daily/leaderboard[?date=YYYY-MM-DD]`: the accounts that
/// solved the most of a day's challenges, the earliest to finish first.
pub(crate) async fn leaderboard(
    State(hub): State<Hub>,
    Query(q): Query<DailyQuery>,
) -> Result<Json<Value>, ApiError> {
    let day = day_asked(&hub, q.date.as_deref())?;
    let query = PlaysQuery {
        day: Some(day),
        ..PlaysQuery::default()
    };
    let plays = hub
        .store()
        .read(move |s| s.puzzle_plays(&query, None, MOST_PLAYS))
        .await?;
    // Per account: challenges solved, and when the last of them was made.
    let mut by: std::collections::BTreeMap<&str, (usize, i64)> = Default::default();
    for p in plays.iter().filter(|p| p.solved == Some(true)) {
        if let Some(name) = p.who.strip_prefix("a:") {
            let e = by.entry(name).or_insert((0, 0));
            e.0 += 1;
            e.1 = e.1.max(p.created_ms);
        }
    }
    let mut rows: Vec<(&str, usize, i64)> = by.into_iter().map(|(n, (k, t))| (n, k, t)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(b.0)));
    let rows: Vec<Value> = rows
        .iter()
        .take(50)
        .map(|(name, solved, _)| json!({"username": name, "solved": solved}))
        .collect();
    Ok(Json(json!({
        "date": date_of(day),
        "challenges": hub.settings().puzzles.daily(day).len(),
        "leaders": rows,
    })))
}

#[cfg(test)]
mod tests {
    use super::streak;

    #[test]
    fn a_streak_counts_the_days_in_a_row_up_to_today_or_yesterday() {
        assert_eq!(streak(&[], 100), 0);
        assert_eq!(streak(&[100, 99, 98, 96], 100), 3);
        // Today not played yet: the streak up to yesterday still stands.
        assert_eq!(streak(&[99, 98, 98], 100), 2);
        assert_eq!(streak(&[98, 97], 100), 0);
        assert_eq!(streak(&[101, 100], 100), 1);
    }
}
