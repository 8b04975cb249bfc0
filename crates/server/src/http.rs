//! Every HTTP route, declared in one place (see `docs/api.md`).

use crate::actor::{Holder, Who};
use crate::error::ApiError;
use crate::error::Code;
use crate::extract::{Path, Query};
use crate::hub::{Hub, NewGameSpec};
use crate::storage::ListFilter;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use parlor_core::Level;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

pub(crate) fn router(hub: Hub) -> Router {
    let routes = Router::new()
        .route("/api/health", get(health))
        .route("/api/catalog", get(catalog))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/state", get(state))
        .route("/api/games/{id}/moves", get(moves))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/assist", post(assist))
        .route("/api/games/{id}/claim-win", post(claim_win))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/my-games", get(my_games))
        .route("/api/games/{id}/replay", get(crate::http_accounts::replay))
        .route(
            "/api/games/{id}/ratings",
            get(crate::http_accounts::game_ratings),
        )
        .route("/api/account", get(crate::http_accounts::me))
        .route(
            "/api/account/register",
            post(crate::http_accounts::register),
        )
        .route("/api/account/login", post(crate::http_accounts::login))
        .route("/api/account/logout", post(crate::http_accounts::logout))
        .route("/api/account/claim", post(crate::http_accounts::claim))
        .route("/api/account/games", get(crate::http_accounts::my_games))
        .route(
            "/api/accounts/{username}",
            get(crate::http_accounts::profile),
        )
        .route(
            "/api/leaderboard/{game}",
            get(crate::http_accounts::leaderboard),
        )
        .route("/api/puzzles", get(crate::http_puzzles::sets))
        .route("/api/puzzles/next", get(crate::http_puzzles::next))
        .route("/api/puzzles/{id}", get(crate::http_puzzles::get_puzzle))
        .route("/api/puzzles/{id}/play", post(crate::http_puzzles::play))
        .route(
            "/api/puzzles/{id}/verdict",
            get(crate::http_puzzles::verdict),
        )
        .route(
            "/api/puzzles/{id}/results",
            get(crate::http_puzzles::results),
        )
        .route(
            "/api/puzzles/{id}/challenge",
            post(crate::http_puzzles::challenge),
        )
        .route(
            "/api/challenges/{id}",
            get(crate::http_puzzles::get_challenge),
        )
        .route("/api/daily", get(crate::http_puzzles::daily))
        .route(
            "/api/daily/leaderboard",
            get(crate::http_puzzles::leaderboard),
        )
        .route("/api/word-lists", post(upload_word_list))
        .route("/api/word-lists/{id}", get(get_word_list))
        .fallback(fallback)
        .merge(crate::web::routes())
        .layer(axum::middleware::from_fn_with_state(hub.clone(), meter));
    crate::web::with_security_headers(routes).with_state(hub)
}

/// Every request draws on its client's bucket for its kind before any work
/// is done on it (see `crate::limits`).
async fn meter(State(hub): State<Hub>, mut req: Request, next: axum::middleware::Next) -> Response {
    use crate::limits::Kind;
    let client = crate::limits::client_address(
        req.headers(),
        req.extensions(),
        &hub.settings().connections.trusted_proxies,
    );
    // A trusted proxy's connection carries many clients: each request (a
    // WebSocket for its whole life) takes its client's place instead.
    let mut slot = None;
    if client.via_proxy && hub.settings().rates.rate_limits {
        if let Some(counts) = req.extensions().get::<crate::conn::ConnCounts>() {
            match counts.0.take(client.ip) {
                Some(s) => slot = Some(std::sync::Arc::new(s)),
                None => return crate::conn::too_many_connections(counts.0.cap()).into_response(),
            }
        }
    }
    if let Some(s) = &slot {
        req.extensions_mut().insert(ProxiedSlot(s.clone()));
    }
    // Read once: handlers that meter on their own take it from here.
    req.extensions_mut()
        .insert(crate::limits::Client(client.ip));
    let path = req.uri().path();
    let post = req.method() == axum::http::Method::POST;
    // A request another site made the browser send, with our session
    // cookie or to the account routes (see `crate::accounts`).
    if post
        && (path.starts_with("/api/account/")
            || crate::accounts::session_token(req.headers()).is_some())
    {
        if let Err(e) = crate::accounts::same_site(req.headers()) {
            return e.into_response();
        }
    }
    let helper = (post && path.ends_with("/assist"))
        || (path.starts_with("/api/puzzles/") && path.ends_with("/verdict"))
        || (path.ends_with("/replay")
            && req
                .uri()
                .query()
                .is_some_and(|q| q.split('&').any(|p| p == "helper=true")));
    let kind = if post
        && (path == "/api/games"
            || path.ends_with("/rematch")
            || (path.starts_with("/api/puzzles/")
                && (path.ends_with("/play") || path.ends_with("/challenge"))))
    {
        Kind::Create
    } else if post && path == "/api/word-lists" {
        Kind::Upload
    } else if helper {
        Kind::Helper
    } else if post || path.ends_with("/ws") {
        Kind::Play
    } else {
        Kind::Read
    };
    let answer = match hub.meter(kind, client.ip) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    };
    drop(slot);
    answer
}

/// A forwarded client's place in its address's count (see `meter`): a
/// WebSocket's upgrade keeps it for the socket's life.
#[derive(Clone)]
pub(crate) struct ProxiedSlot(#[allow(dead_code)] pub std::sync::Arc<crate::conn::AddressSlot>);

/// A JSON request body read with our own limits and error messages.
pub(crate) struct Body<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Hub> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, hub: &Hub) -> Result<Self, ApiError> {
        let max = hub.settings().connections.max_body;
        let bytes = axum::body::to_bytes(req.into_body(), max)
            .await
            .map_err(|e| {
                if crate::conn::is_body_timeout(&e) {
                    ApiError::new(Code::TooSlow, e.to_string())
                } else {
                    ApiError::new(
                        Code::TooLarge,
                        format!("the request body is over {}", human_bytes(max as u64)),
                    )
                }
            })?;
        serde_json::from_slice(&bytes)
            .map(Body)
            .map_err(|e| ApiError::bad_json(format!("request body: {e}")))
    }
}

async fn fallback() -> ApiError {
    ApiError::new(Code::NotFound, "no such route: see docs/api.md")
}

async fn health(State(hub): State<Hub>) -> Json<Value> {
    Json(json!({"ok": true, "storage": hub.store().kind()}))
}

async fn catalog(State(hub): State<Hub>) -> Json<Value> {
    let games: Vec<Value> = hub
        .registry()
        .names()
        .into_iter()
        .filter_map(|name| hub.registry().get(name).ok())
        .map(|e| {
            let info = e.info();
            json!({
                "name": info.name,
                "title": info.title,
                "min_seats": info.min_seats,
                "max_seats": info.max_seats,
                "default_config": e.default_config(),
                "settings": e.settings(),
                "presets": e.presets(),
                "how_to_play": e.how_to_play(),
                "seats_change_sides": e.seats_change_sides(),
                "rules_url": crate::web::has_rules(info.name).then(|| format!("/rules/{}", info.name)),
            })
        })
        .collect();
    let resources = hub.resources();
    let names = resources.lexicon_names();
    // Word counts for the lobby (loading a list once; it stays shared).
    let word_lists: Vec<Value> = names
        .iter()
        .filter_map(|name| {
            let l = resources.lexicon(name).ok()?;
            Some(json!({ "name": name, "words": l.len() }))
        })
        .collect();
    Json(json!({ "games": games, "lexicons": names, "word_lists": word_lists }))
}

#[derive(Deserialize)]
struct BotReq {
    seat: usize,
    #[serde(default)]
    level: Option<String>,
}

#[derive(Deserialize)]
struct CreateReq {
    game: String,
    #[serde(default)]
    config: Value,
    #[serde(default)]
    bots: Vec<BotReq>,
    #[serde(default)]
    public: Option<bool>,
    #[serde(default)]
    take_seat: Option<usize>,
    /// Human seats anyone may claim (a public game's "sit down"); the
    /// other human seats are invited: their tokens go to the creator.
    #[serde(default)]
    open_seats: Vec<usize>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    turn_seconds: Option<f64>,
    #[serde(default)]
    absent_seconds: Option<f64>,
    /// The time control (`parlor_core::TimeControl`'s JSON); the two
    /// shorthands above fill its turn and absent clocks.
    #[serde(default)]
    time_control: Option<Value>,
    /// Rated between accounts: needs a logged-in creator, no bots.
    #[serde(default)]
    rated: bool,
}

pub(crate) fn check_player(p: Option<String>) -> Result<Option<String>, ApiError> {
    match p {
        None => Ok(None),
        Some(p) if valid_player(&p) => Ok(Some(p)),
        Some(_) => Err(ApiError::bad_json(
            "player: a player key is 16 to 128 characters of A-Z a-z 0-9 _ -",
        )),
    }
}

/// Longest display name accepted, in characters (names are shown cut to
/// 40).
const NAME_MAX_CHARS: usize = 100;

/// A display name as sent: at most [`NAME_MAX_CHARS`] characters, none
/// that is drawn unseen or changes how the rest is drawn (a NUL, a
/// newline, a right-to-left override, a zero width space: see
/// [`crate::shown`]): refused with `bad_json` before anything is stored.
pub(crate) fn check_name(name: Option<String>) -> Result<Option<String>, ApiError> {
    if let Some(n) = &name {
        if n.chars().count() > NAME_MAX_CHARS {
            return Err(ApiError::bad_json(format!(
                "name: a display name is at most {NAME_MAX_CHARS} characters"
            )));
        }
        if let Some((at, c)) = crate::shown::hidden_char(n) {
            return Err(ApiError::bad_json(format!(
                "name: a display name has no control, invisible or bidirectional characters; \
                 this one has {}",
                crate::shown::describe(at, c)
            )));
        }
    }
    Ok(name)
}

fn valid_player(p: &str) -> bool {
    (16..=128).contains(&p.len())
        && p.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

async fn create_game(
    State(hub): State<Hub>,
    client: crate::limits::Client,
    headers: HeaderMap,
    Body(req): Body<CreateReq>,
) -> Result<Response, ApiError> {
    let player = check_player(req.player)?;
    let account = crate::accounts::current(hub.store(), &headers).await?;
    if req.rated {
        if account.is_none() {
            return Err(ApiError::new(
                Code::LoginRequired,
                "rated: only an account can create a rated game; log in, or leave out rated",
            ));
        }
        if req.take_seat.is_none() {
            return Err(ApiError::bad_json(
                "rated: the creator of a rated game takes a seat (take_seat)",
            ));
        }
    }
    let mut bots = Vec::new();
    for b in req.bots {
        let level: Level = match b.level.as_deref() {
            None => Level::Easy,
            Some(l) => l
                .parse()
                .map_err(|e: String| ApiError::bad_json(format!("bots: {e}")))?,
        };
        bots.push((b.seat, level));
    }
    if !req.config.is_object() && !req.config.is_null() {
        return Err(ApiError::new(
            Code::BadConfig,
            "config: the rules are a JSON object (see default_config in /api/catalog)",
        )
        .with_kind(parlor_core::ErrorKind::Malformed));
    }
    let time_control =
        crate::clocks::time_control(req.time_control, req.turn_seconds, req.absent_seconds)?;
    let name = check_name(req.name)?;
    let take_seat = req.take_seat.map(|s| (s, name, player));
    let created = hub
        .create(NewGameSpec {
            game: req.game,
            config: req.config,
            seed: req.seed,
            public: req.public.unwrap_or(true),
            seats: None,
            bots,
            open_seats: req.open_seats,
            take_seat: take_seat.clone(),
            rematch_of: None,
            start: None,
            time_control,
            rated: req.rated,
            account,
            client: Some(client.0),
        })
        .await?;
    let seats: Vec<Value> = created
        .tokens
        .iter()
        .map(|(seat, token)| {
            json!({"seat": seat, "token": token, "invite": format!("/play/{}#{token}", created.id)})
        })
        .collect();
    let you = take_seat.and_then(|(seat, _, _)| {
        created
            .tokens
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(s, t)| json!({"seat": s, "token": t}))
    });
    Ok((
        StatusCode::CREATED,
        Json(json!({"game": created.summary, "seats": seats, "you": you})),
    )
        .into_response())
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    limit: Option<usize>,
}

async fn list_games(
    State(hub): State<Hub>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let filter = match q.status.as_deref() {
        None | Some("") | Some("unfinished") => ListFilter::Unfinished,
        Some("open") => ListFilter::Open,
        Some("live") => ListFilter::Live,
        Some("over") => ListFilter::Over,
        Some(other) => {
            return Err(ApiError::bad_json(format!(
                "status {other:?}: use open, live or over"
            )))
        }
    };
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    let listed = hub.store().read(move |s| s.list(filter, limit)).await?;
    let games: Vec<Value> = listed
        .iter()
        .map(|l| crate::summary::listed(&l.row, &l.seats, &title(&hub, &l.row.game)))
        .collect();
    Ok(Json(json!({ "games": games })))
}

pub(crate) fn title(hub: &Hub, game: &str) -> String {
    hub.registry()
        .get(game)
        .map(|e| e.info().title.to_string())
        .unwrap_or_else(|_| game.to_string())
}

async fn get_game(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Box<RawValue>>, ApiError> {
    let stub = hub.stub(&id).await?;
    Ok(Json(stub.summary().await?))
}

#[derive(Deserialize)]
struct JoinReq {
    token: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    player: Option<String>,
}

async fn join(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<JoinReq>,
) -> Result<Json<Value>, ApiError> {
    let player = check_player(req.player)?;
    let name = check_name(req.name)?;
    let account = crate::accounts::current(hub.store(), &headers).await?;
    let stub = hub.stub(&id).await?;
    let (seat, token, game) = stub.join(req.token, name, player, account).await?;
    Ok(Json(json!({"seat": seat, "token": token, "game": game})))
}

/// A seat's token as a request shows it, with the account logged in
/// where the request was sent (a seat that belongs to an account acts
/// only for it). Without a session cookie, no database read.
pub(crate) async fn holder(
    hub: &Hub,
    headers: &HeaderMap,
    token: String,
) -> Result<Holder, ApiError> {
    let account = crate::accounts::current(hub.store(), headers).await?;
    Ok(Holder::new(token, account))
}

/// As [`holder`], for a request whose token is optional (a spectator's
/// without one).
async fn maybe_holder(
    hub: &Hub,
    headers: &HeaderMap,
    token: Option<String>,
) -> Result<Option<Holder>, ApiError> {
    match token.filter(|t| !t.is_empty()) {
        Some(t) => holder(hub, headers, t).await.map(Some),
        None => Ok(None),
    }
}

#[derive(Deserialize)]
struct ClaimReq {
    seat: usize,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    player: Option<String>,
}

async fn claim(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<ClaimReq>,
) -> Result<Json<Value>, ApiError> {
    let player = check_player(req.player)?;
    let name = check_name(req.name)?;
    let account = crate::accounts::current(hub.store(), &headers).await?;
    let stub = hub.stub(&id).await?;
    let (seat, token, game) = stub.claim(req.seat, name, player, account).await?;
    Ok(Json(json!({"seat": seat, "token": token, "game": game})))
}

async fn my_games(State(hub): State<Hub>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let key = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|s| s.trim().to_string())
        .filter(|k| valid_player(k))
        .ok_or_else(|| {
            ApiError::new(
                Code::BadToken,
                "send your player key as the header Authorization: Bearer <key>",
            )
        })?;
    let k2 = key.clone();
    let listed = hub.store().read(move |s| s.by_player(&k2, 200)).await?;
    let mut games = Vec::new();
    for l in &listed {
        let summary = crate::summary::listed(&l.row, &l.seats, &title(&hub, &l.row.game));
        for s in l.seats.iter().filter(|s| s.player.as_deref() == Some(&key)) {
            games.push(json!({"seat": s.seat, "token": s.token, "game": summary}));
        }
    }
    Ok(Json(json!({ "games": games })))
}

#[derive(Deserialize)]
struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
}

async fn state(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    let holder = maybe_holder(&hub, &headers, q.token).await?;
    Ok(Json(stub.state(holder).await?))
}

#[derive(Deserialize)]
struct MovesQuery {
    #[serde(default)]
    token: Option<String>,
    /// Moves after this many (default 0: all of them).
    #[serde(default)]
    from: usize,
}

async fn moves(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<MovesQuery>,
) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    let holder = maybe_holder(&hub, &headers, q.token).await?;
    Ok(Json(stub.moves(holder, q.from).await?))
}

#[derive(Deserialize)]
struct ActReq {
    token: String,
    action: Value,
}

async fn act(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<ActReq>,
) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    let who = Who::Token(holder(&hub, &headers, req.token).await?);
    let (seq, events) = stub.act(who, req.action).await?;
    Ok(Json(json!({"seq": seq, "events": events})))
}

#[derive(Deserialize)]
struct RematchReq {
    token: String,
}

async fn rematch(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<RematchReq>,
) -> Result<Json<Box<RawValue>>, ApiError> {
    let stub = hub.stub(&id).await?;
    let who = Who::Token(holder(&hub, &headers, req.token).await?);
    let made = stub.rematch(who).await?;
    Ok(Json(made.answer(None)))
}

/// Claims the win from a player who left: `{"token": ...}` (see
/// docs/api.md); answered like an action.
async fn claim_win(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<RematchReq>,
) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    let who = Who::Token(holder(&hub, &headers, req.token).await?);
    let (seq, events) = stub.claim_win(who).await?;
    Ok(Json(json!({"seq": seq, "events": events})))
}

async fn abort(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<RematchReq>,
) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    let who = Who::Token(holder(&hub, &headers, req.token).await?);
    let game = stub.abort(who).await?;
    Ok(Json(json!({ "game": game })))
}

async fn record(State(hub): State<Hub>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let stub = hub.stub(&id).await?;
    Ok(Json(stub.record().await?))
}

#[derive(Deserialize)]
struct AssistReq {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    request: Value,
}

/// The game's helper: `{"token": ..., "request": {...}}`, both optional
/// (without a token, a spectator asks).
async fn assist(
    State(hub): State<Hub>,
    client: crate::limits::Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(req): Body<AssistReq>,
) -> Result<Response, ApiError> {
    let stub = hub.stub(&id).await?;
    let who = match maybe_holder(&hub, &headers, req.token).await? {
        Some(h) => Who::Token(h),
        None => Who::Nobody,
    };
    let answer = crate::assist::assist(hub.helpers(), &stub, who, req.request, client.0).await?;
    Ok(json_text(format!("{{\"answer\":{answer}}}")))
}

/// A 200 answer whose JSON was written already (off the async workers,
/// where it may be large).
pub(crate) fn json_text(text: String) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        text,
    )
        .into_response()
}

/// How long an upload's body may take to arrive.
const UPLOAD_TIME: std::time::Duration = std::time::Duration::from_secs(30);

#[derive(Deserialize)]
struct UploadQuery {
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/word-lists?name=...`: the list is the body, one word a line.
async fn upload_word_list(
    State(hub): State<Hub>,
    Query(q): Query<UploadQuery>,
    req: Request,
) -> Result<Response, ApiError> {
    let lists = hub.word_lists();
    // Before reading the body: at most a few uploads are held in memory.
    let _permit = lists.upload_permit()?;
    let max = lists.limits().max_bytes;
    // A client trickling its body must not hold a permit for long.
    let body = tokio::time::timeout(UPLOAD_TIME, axum::body::to_bytes(req.into_body(), max))
        .await
        .map_err(|_| {
            ApiError::new(
                Code::TooSlow,
                format!(
                    "the word list did not arrive within {} s",
                    UPLOAD_TIME.as_secs()
                ),
            )
        })?
        .map_err(|_| {
            ApiError::new(
                Code::TooLarge,
                format!(
                    "the word list is over {}, this server's limit",
                    human_bytes(max as u64)
                ),
            )
        })?;
    let up = lists.upload(hub.store(), q.name, body).await?;
    // What this upload held (the stored list's `skipped` is its first
    // upload's), and whether it was stored now.
    let mut v = crate::wordlists::meta_json(&up.row);
    v["skipped"] = json!(up.report.skipped);
    v["first_skipped"] = json!(up.report.first_skipped);
    v["capitalised"] = json!(up.report.capitalised);
    v["first_capitalised"] = json!(up.report.first_capitalised);
    v["duplicates"] = json!(up.report.duplicates);
    v["new"] = json!(up.new);
    let status = if up.new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(v)).into_response())
}

/// `GET /api/word-lists/{id}`: an uploaded list's facts (not its words).
async fn get_word_list(
    State(hub): State<Hub>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let row = hub.word_lists().meta(hub.store(), &id).await?;
    Ok(Json(crate::wordlists::meta_json(&row)))
}

/// A byte count as people read it: `8 MiB`, `64 KiB`, `900 bytes`.
pub(crate) fn human_bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * KIB;
    if n >= MIB {
        format!("{} MiB", trim(n as f64 / MIB as f64))
    } else if n >= KIB {
        format!("{} KiB", trim(n as f64 / KIB as f64))
    } else {
        format!("{n} bytes")
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// The client's address of a request that did not pass the `meter`
/// middleware (which reads it once for the request).
impl axum::extract::FromRequestParts<Hub> for crate::limits::Client {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        hub: &Hub,
    ) -> Result<Self, ApiError> {
        // The `meter` middleware has read it for this request already.
        if let Some(&client) = parts.extensions.get::<crate::limits::Client>() {
            return Ok(client);
        }
        Ok(crate::limits::Client(
            crate::limits::client_address(
                &parts.headers,
                &parts.extensions,
                &hub.settings().connections.trusted_proxies,
            )
            .ip,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::human_bytes;

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(human_bytes(8 * 1024 * 1024), "8 MiB");
        assert_eq!(human_bytes(64 * 1024), "64 KiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(900), "900 bytes");
        assert_eq!(human_bytes(512 * 1024 * 1024), "512 MiB");
    }
}
