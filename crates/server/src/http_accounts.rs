//! The routes of accounts, profiles, ratings and replays (declared with the
//! others in `crate::http::router`; see `docs/api.md` "Accounts").

use crate::actor::Who;
use crate::error::ApiError;
use crate::error::Code;
use crate::extract::{Path, Query};
use crate::http::Body;
use crate::hub::Hub;
use crate::limits::Client;
use crate::storage::RatingRow;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use parlor_core::Viewer;
use serde::Deserialize;
use serde_json::{json, Value};

/// A rating's deviation above which it is shown as provisional (`1620?`),
/// as lichess does: after a few games it falls below.
pub const PROVISIONAL_RD: f64 = 110.0;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    username: String,
    password: String,
}

fn with_cookie(status: StatusCode, cookie: axum::http::HeaderValue, body: Value) -> Response {
    (status, [(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

pub(crate) async fn register(
    State(hub): State<Hub>,
    client: Client,
    headers: HeaderMap,
    Body(c): Body<Credentials>,
) -> Result<Response, ApiError> {
    let (username, cookie) = crate::accounts::register(
        hub.store(),
        hub.accounts(),
        &headers,
        client.0,
        c.username,
        c.password,
    )
    .await?;
    let body = account_json(&hub, &username).await?;
    Ok(with_cookie(StatusCode::CREATED, cookie, body))
}

pub(crate) async fn login(
    State(hub): State<Hub>,
    client: Client,
    headers: HeaderMap,
    Body(c): Body<Credentials>,
) -> Result<Response, ApiError> {
    let (username, cookie) = crate::accounts::login(
        hub.store(),
        hub.accounts(),
        &headers,
        client.0,
        c.username,
        c.password,
    )
    .await?;
    let body = account_json(&hub, &username).await?;
    Ok(with_cookie(StatusCode::OK, cookie, body))
}

pub(crate) async fn logout(
    State(hub): State<Hub>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let cookie = crate::accounts::logout(hub.store(), &headers).await?;
    Ok(with_cookie(
        StatusCode::OK,
        cookie,
        json!({"account": null}),
    ))
}

/// `GET /api/account`: who is logged in (`{"account": null}` for a guest).
pub(crate) async fn me(
    State(hub): State<Hub>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    match crate::accounts::current(hub.store(), &headers).await? {
        None => Ok(Json(json!({"account": null}))),
        Some(u) => Ok(Json(account_json(&hub, &u).await?)),
    }
}

async fn account_json(hub: &Hub, username: &str) -> Result<Value, ApiError> {
    let u = username.to_string();
    let ratings = hub.store().read(move |s| s.ratings(&u)).await?;
    Ok(json!({"account": {
        "username": username,
        "ratings": ratings.iter().map(|r| rating_json(hub, r)).collect::<Vec<_>>(),
    }}))
}

fn rating_json(hub: &Hub, r: &RatingRow) -> Value {
    json!({
        "username": r.username,
        "game": r.game,
        "title": crate::http::title(hub, &r.game),
        "rating": r.rating.rating.round() as i64,
        "rd": r.rating.rd.round() as i64,
        "volatility": r.rating.volatility,
        "provisional": r.rating.rd > PROVISIONAL_RD,
        "games": r.games,
    })
}

/// Most seats claimed in one request.
const CLAIM_MAX: usize = 100;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimSeat {
    game: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimReq {
    seats: Vec<ClaimSeat>,
}

/// `POST /api/account/claim`: the seats whose tokens a guest holds become
/// the logged-in account's. Each seat is answered apart.
pub(crate) async fn claim(
    State(hub): State<Hub>,
    headers: HeaderMap,
    Body(req): Body<ClaimReq>,
) -> Result<Json<Value>, ApiError> {
    let username = crate::accounts::required(hub.store(), &headers).await?;
    if req.seats.len() > CLAIM_MAX {
        return Err(ApiError::bad_json(format!(
            "seats: at most {CLAIM_MAX} seats in one claim"
        )));
    }
    let mut claimed = Vec::new();
    let mut refused = Vec::new();
    for s in req.seats {
        let r = async {
            let stub = hub.stub(&s.game).await?;
            let account = username.clone();
            stub.bind(s.token, account).await
        }
        .await;
        match r {
            Ok(seat) => claimed.push(json!({"game": s.game, "seat": seat})),
            Err(e) => refused.push(json!({"game": s.game, "error": e.fields()})),
        }
    }
    Ok(Json(json!({"claimed": claimed, "refused": refused})))
}

/// `GET /api/account/games`: the account's games, newest first, each seat
/// with its token (so the account plays them from any browser).
pub(crate) async fn my_games(
    State(hub): State<Hub>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let username = crate::accounts::required(hub.store(), &headers).await?;
    let u = username.clone();
    let listed = hub
        .store()
        .read(move |s| s.by_account(&u, false, 200))
        .await?;
    let mut games = Vec::new();
    for l in &listed {
        let summary =
            crate::summary::listed(&l.row, &l.seats, &crate::http::title(&hub, &l.row.game));
        for s in l
            .seats
            .iter()
            .filter(|s| s.account.as_deref() == Some(&username))
        {
            games.push(json!({"seat": s.seat, "token": s.token, "game": summary}));
        }
    }
    Ok(Json(json!({ "games": games })))
}

/// `GET /api/accounts/{username}`: the public profile: ratings and
/// finished games (with what each rated one did to the rating).
pub(crate) async fn profile(
    State(hub): State<Hub>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    crate::accounts::check_username(&name)
        .map_err(|_| ApiError::new(Code::NotFound, "no account by that name"))?;
    let n = name.clone();
    let account = hub
        .store()
        .read(move |s| s.account(&n))
        .await?
        .ok_or_else(|| ApiError::new(Code::NotFound, "no account by that name"))?;
    let u = account.username.clone();
    let (ratings, changes, listed, plays, puzzle_rating) = hub
        .store()
        .read(move |s| {
            let who = format!("a:{u}");
            let plays = s.puzzle_plays(
                &crate::storage::PlaysQuery {
                    who: Some(who.clone()),
                    ..Default::default()
                },
                None,
                crate::http_puzzles::HISTORY,
            )?;
            Ok::<_, crate::storage::StorageError>((
                s.ratings(&u)?,
                s.rating_changes(&u, 200)?,
                s.by_account(&u, true, 100)?,
                plays,
                s.puzzle_rating(&who)?,
            ))
        })
        .await?;
    let games: Vec<Value> = listed
        .iter()
        .map(|l| {
            let seat = l
                .seats
                .iter()
                .find(|s| s.account.as_deref() == Some(account.username.as_str()))
                .map(|s| s.seat);
            let change = changes
                .iter()
                .find(|c| c.game_id == l.row.id)
                .map(|c| json!({"before": c.before.round() as i64, "after": c.after.round() as i64}));
            json!({
                "seat": seat,
                "rating_change": change,
                "game": crate::summary::listed(&l.row, &l.seats, &crate::http::title(&hub, &l.row.game)),
            })
        })
        .collect();
    let puzzles = crate::http_puzzles::history_json(&hub, &plays, puzzle_rating);
    Ok(Json(json!({
        "username": account.username,
        "created_ms": account.created_ms,
        "puzzles": puzzles,
        "ratings": ratings.iter().map(|r| rating_json(&hub, r)).collect::<Vec<_>>(),
        "games": games,
    })))
}

/// `GET /api/games/{id}/ratings`: what a rated game did to its players'
/// ratings, seat by seat (rounded as profiles show them); no changes
/// while it is unrated or not yet over.
pub(crate) async fn game_ratings(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    let summary = stub.summary().await?;
    let summary: Value = serde_json::from_str(summary.get()).unwrap_or(Value::Null);
    let g = id.clone();
    let changes = hub.store().read(move |s| s.game_rating_changes(&g)).await?;
    let seats = summary["seats"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut out: Vec<Value> = changes
        .iter()
        .filter_map(|c| {
            let seat = seats
                .iter()
                .find(|s| s["account"].as_str() == Some(c.username.as_str()))?["seat"]
                .as_u64()?;
            Some(json!({
                "seat": seat,
                "username": c.username,
                "before": c.before.round() as i64,
                "after": c.after.round() as i64,
            }))
        })
        .collect();
    out.sort_by_key(|v| v["seat"].as_u64());
    Ok(Json(json!({
        "rated": summary["rated"].as_bool().unwrap_or(false),
        "changes": out,
    })))
}

#[derive(Deserialize)]
pub(crate) struct LimitQuery {
    limit: Option<usize>,
}

/// `GET /api/leaderboard/{game}`: the best ratings at a game.
pub(crate) async fn leaderboard(
    State(hub): State<Hub>,
    Path(game): Path<String>,
    Query(q): Query<LimitQuery>,
) -> Result<Json<Value>, ApiError> {
    let entry = hub
        .registry()
        .get(&game)
        .map_err(|e| ApiError::new(Code::UnknownGame, e.to_string()))?;
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    let g = game.clone();
    let rows = hub.store().read(move |s| s.leaderboard(&g, limit)).await?;
    let players: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut v = rating_json(&hub, r);
            v["rank"] = json!(i + 1);
            v
        })
        .collect();
    Ok(Json(json!({
        "game": game,
        "title": entry.info().title,
        "players": players,
    })))
}

#[derive(Deserialize)]
pub(crate) struct ReplayQuery {
    step: Option<usize>,
    #[serde(default)]
    helper: Option<bool>,
}

/// `GET /api/games/{id}/replay?step=N[&helper=true]`: a game that is over
/// (finished or aborted) after its first N actions, as a spectator sees
/// it: the view, the events of action N, who made it, and with `helper`
/// the game's own helper (its answer to an empty request) on that
/// position and on the whole game. The helper runs only when asked, and
/// its answers are kept (the game will not change): asked again, they
/// cost no run.
pub(crate) async fn replay(
    State(hub): State<Hub>,
    client: Client,
    Path(id): Path<String>,
    Query(q): Query<ReplayQuery>,
) -> Result<Response, ApiError> {
    let stub = hub.stub(&id).await?;
    let snapshot = stub.assist(Who::Nobody).await?;
    if !snapshot.over {
        return Err(ApiError::new(
            Code::NotOver,
            "a game is replayed once it is over",
        ));
    }
    let steps = snapshot.steps();
    let step = q.step.unwrap_or(steps);
    if step > steps {
        return Err(ApiError::bad_json(format!(
            "step: this game has {steps} moves: 0 to {steps}"
        )));
    }
    let helper = if q.helper.unwrap_or(false) {
        // The helper asked twice: on this position (Word Sprout: what
        // could be played here) and on the whole game (Sprouts: the
        // solver's verdict on every move, given only once over).
        let ask = |at: usize| {
            crate::assist::helper(
                hub.helpers(),
                &snapshot,
                Viewer::Spectator,
                at,
                json!({}),
                client.0,
            )
        };
        let position = verdict(ask(step).await)?;
        let game = verdict(ask(steps).await)?;
        Some(match (position, game) {
            (None, None) => {
                json!({"none": format!("{} has no helper", crate::http::title(&hub, snapshot.record["game"].as_str().unwrap_or_default()))})
                    .to_string()
            }
            (position, game) => format!(
                "{{\"position\":{},\"game\":{}}}",
                position.as_deref().unwrap_or("null"),
                game.as_deref().unwrap_or("null")
            ),
        })
    } else {
        None
    };
    let hub2 = hub.clone();
    let crate::assist::Snapshot {
        record, resources, ..
    } = snapshot;
    let job = move || -> Result<String, ApiError> {
        let mut part = record.clone();
        if let Some(a) = part["actions"].as_array_mut() {
            a.truncate(step);
        }
        let m = hub2.registry().replay(&part, &resources).map_err(|e| {
            ApiError::new(Code::Internal, format!("the game cannot be rebuilt: {e}"))
        })?;
        let by = step
            .checked_sub(1)
            .and_then(|i| record["actions"].get(i))
            .map(|a| a["actor"].clone());
        let events = m
            .history_json(Viewer::Spectator, step)
            .into_iter()
            .next()
            .unwrap_or_default();
        let mut text = json!({
            "step": step,
            "steps": steps,
            "view": m.view_json(Viewer::Spectator),
            "to_act": m.to_act(),
            "outcome": m.outcome(),
            "by": by,
            "events": events,
            "seat_labels": m.seat_labels(),
        })
        .to_string();
        // The helper's answers were written as JSON when they were made:
        // appended as they are.
        text.pop();
        text.push_str(",\"helper\":");
        text.push_str(helper.as_deref().unwrap_or("null"));
        text.push('}');
        Ok(text)
    };
    // Rebuilding the game at a step is the helpers' kind of work: anybody
    // may ask it, so it never waits in the bots' pool.
    let r = crate::assist::on_helper_thread(hub.helpers(), job)
        .await?
        .unwrap_or_else(|()| Err(ApiError::new(Code::Internal, "the game's replay panicked")))?;
    Ok(crate::http::json_text(r))
}

/// One helper answer as the replay shows it: `{"answer": ...}`,
/// `{"refused": "..."}`, or nothing where the game has no helper.
fn verdict(answer: crate::answers::Answer) -> Result<Option<String>, ApiError> {
    match answer {
        Ok(text) => Ok(Some(format!("{{\"answer\":{text}}}"))),
        Err(e) if e.code == Code::NoHelper => Ok(None),
        Err(e) if e.code == Code::HelperRefused => {
            Ok(Some(json!({"refused": e.message}).to_string()))
        }
        Err(e) => Err(e),
    }
}
