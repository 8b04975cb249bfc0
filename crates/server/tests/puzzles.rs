//! Puzzles and the daily challenge over HTTP: the day's choice is the
//! same in every process and after a restart, a puzzle is played as a game
//! against the best computer player, and its moves are judged by the
//! game's solver (a wrong answer with its refutation).

mod common;

use common::*;
use parlor_core::{Extras, Puzzle, Registry};
use parlor_server::puzzles::{day_of, puzzle_id, read_puzzles, Puzzles};
use parlor_server::storage::DbUrl;
use parlor_server::{Server, Settings, TimeSource};
use serde_json::{json, Value};

/// The test games, and the three whose puzzles are played here with
/// their puzzle books.
fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<parlor_core::doc_nim::Nim>()
        .register_with::<parlor_gobble::Gobble>(Extras {
            puzzles: Some(parlor_gobble::puzzle::BOOK),
            ..Extras::default()
        })
        .register_with::<parlor_wordsprout::WordSprout>(Extras {
            puzzles: Some(parlor_wordsprout::puzzle::BOOK),
            ..Extras::default()
        })
        .register_with::<parlor_sprouts::Sprouts>(Extras {
            puzzles: Some(parlor_sprouts::puzzle::BOOK),
            ..Extras::default()
        });
    r
}

/// A set shipped under `data/puzzles/`.
fn shipped(name: &str) -> Vec<Puzzle> {
    let path = format!(
        "{}/../../data/puzzles/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    read_puzzles(&std::fs::read_to_string(&path).expect("the shipped set")).expect("puzzles")
}

fn puzzles() -> Puzzles {
    let mut all = shipped("sprouts-normal-5");
    all.extend(shipped("gobble-longest-4x4"));
    all.extend(shipped("wordsprout-keep-the-win"));
    Puzzles::new(&registry(), all).expect("the sets")
}

/// Noon (UTC) of a date, in ms.
fn noon(date: &str) -> i64 {
    day_of(date).unwrap() * 86_400_000 + 43_200_000
}

async fn serve(db: &DbUrl, time: &TimeSource, puzzles: Puzzles) -> Server {
    let settings = Settings {
        games: parlor_server::Games {
            time: time.clone(),
            ..test_settings().games
        },
        puzzles,
        ..test_settings()
    };
    Server::start(
        registry(),
        parlor_core::Resources::embedded(),
        db,
        "127.0.0.1:0".parse().unwrap(),
        settings,
    )
    .await
    .expect("server starts")
}

fn challenge_ids(daily: &Value) -> Vec<(String, String)> {
    daily["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["set"].as_str().unwrap().to_string(),
                c["id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_day_s_challenges_are_the_same_in_two_processes_and_after_a_restart() {
    let db = sqlite_url("puzzles-daily");
    let time = TimeSource::manual(noon("2026-11-29"));
    let a = serve(&db, &time, puzzles()).await;
    let b = serve(&db, &time, puzzles()).await;
    let (status, from_a) = get(a.addr(), "/api/daily").await;
    assert_eq!(status, 200, "{from_a}");
    let (_, from_b) = get(b.addr(), "/api/daily").await;
    assert_eq!(from_a["date"], "2026-11-29");
    let chosen = challenge_ids(&from_a);
    assert_eq!(chosen, challenge_ids(&from_b));
    // One per daily set given: Gobble's 4x4, Word Sprout's and Sprouts'.
    let sets: Vec<&str> = chosen.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        sets,
        [
            "sprouts/normal-5",
            "gobble/longest-4x4",
            "wordsprout/keep-the-win"
        ]
    );
    // Each is its set's puzzle that the day draws, from the date alone.
    let set = shipped("sprouts-normal-5");
    let place = parlor_core::of_the_day(
        day_of("2026-11-29").unwrap(),
        "sprouts",
        "normal-5",
        set.len(),
    )
    .unwrap();
    assert_eq!(chosen[0].1, puzzle_id(&set[place]));
    a.stop().await;
    // A restart, with the sets read again: the same challenges.
    let a = serve(&db, &time, puzzles()).await;
    let (_, again) = get(a.addr(), "/api/daily").await;
    assert_eq!(challenge_ids(&again), chosen);
    // The sets' first page says the same.
    let (_, listed) = get(a.addr(), "/api/puzzles").await;
    assert_eq!(challenge_ids(&listed["daily"]), chosen);
    // The next day, another Sprouts puzzle (a set is dealt in rounds).
    time.advance(std::time::Duration::from_secs(86_400));
    let (_, next_day) = get(a.addr(), "/api/daily").await;
    assert_eq!(next_day["date"], "2026-11-30");
    assert_ne!(challenge_ids(&next_day)[0], chosen[0]);
    // An earlier day is there to look back on; a day to come is not.
    let (status, before) = get(a.addr(), "/api/daily?date=2026-11-29").await;
    assert_eq!(status, 200, "{before}");
    assert_eq!(challenge_ids(&before), chosen);
    let (status, later) = get(a.addr(), "/api/daily?date=2026-12-01").await;
    assert_eq!(status, 400, "{later}");
    assert!(
        later["error"]["message"]
            .as_str()
            .unwrap()
            .contains("has not come yet"),
        "{later}"
    );
    for bad in ["2026-11-31", "yesterday", "2026-1-1"] {
        let (status, e) = get(a.addr(), &format!("/api/daily?date={bad}")).await;
        assert_eq!(status, 400, "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("YYYY-MM-DD"),
            "{e}"
        );
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn the_operator_replaces_a_day_s_choice() {
    let db = sqlite_url("puzzles-replace");
    let time = TimeSource::manual(noon("2026-11-29"));
    let set = shipped("sprouts-normal-5");
    let drawn = parlor_core::of_the_day(
        day_of("2026-11-29").unwrap(),
        "sprouts",
        "normal-5",
        set.len(),
    )
    .unwrap();
    let other = puzzle_id(&set[(drawn + 1) % set.len()]);
    let mut chosen = puzzles();
    chosen
        .replace_day("2026-11-29", "sprouts/normal-5", &other)
        .unwrap();
    // What the operator may not choose, said in one line.
    let mut p = puzzles();
    for (date, set, id, says) in [
        (
            "2026-13-01",
            "sprouts/normal-5",
            other.as_str(),
            "YYYY-MM-DD",
        ),
        (
            "2026-11-29",
            "sprouts/normal-9",
            other.as_str(),
            "the sets are",
        ),
        (
            "2026-11-29",
            "gobble/longest-4x4",
            other.as_str(),
            "no puzzle",
        ),
    ] {
        let e = p.replace_day(date, set, id).unwrap_err();
        assert!(e.contains(says), "{e}");
    }
    let server = serve(&db, &time, chosen).await;
    let (_, daily) = get(server.addr(), "/api/daily").await;
    let sprouts = &daily["challenges"][0];
    assert_eq!(sprouts["id"], other.as_str());
    assert_eq!(sprouts["replaced"], true);
    assert_eq!(daily["challenges"][1]["replaced"], false);
    server.stop().await;
}

/// The solving move, and a move the proof refutes, of a Sprouts puzzle.
fn right_and_wrong(p: &Puzzle) -> (String, String, String) {
    let wrong = p.proof["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["wins"] == false && m["refutation"].is_string())
        .expect("a refuted move");
    (
        p.answers[0].clone(),
        wrong["mv"].as_str().unwrap().to_string(),
        wrong["refutation"].as_str().unwrap().to_string(),
    )
}

async fn play(addr: std::net::SocketAddr, id: &str) -> (String, String) {
    let (status, made) = post(
        addr,
        &format!("/api/puzzles/{id}/play"),
        json!({"name": "Ann"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    (
        made["game"]["id"].as_str().unwrap().to_string(),
        made["you"]["token"].as_str().unwrap().to_string(),
    )
}

async fn verdict(addr: std::net::SocketAddr, id: &str, game: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/puzzles/{id}/verdict?game={game}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

#[tokio::test]
async fn a_puzzle_is_played_as_a_game_and_its_answer_judged_by_the_solver() {
    let db = sqlite_url("puzzles-play");
    let time = TimeSource::manual(noon("2026-11-29"));
    let server = serve(&db, &time, puzzles()).await;
    let addr = server.addr();
    let set = shipped("sprouts-normal-5");
    let p = set
        .iter()
        .find(|p| !p.record["actions"].as_array().unwrap().is_empty())
        .expect("a puzzle after a few moves");
    let id = puzzle_id(p);
    let (status, about) = get(addr, &format!("/api/puzzles/{id}")).await;
    assert_eq!(status, 200, "{about}");
    assert_eq!(about["answer"], "first_move_then_win");
    assert_eq!(about["difficulty"]["from"], "proof", "{about}");
    assert!(
        about.get("answers").is_none(),
        "the answer is not given away: {about}"
    );
    let (right, wrong, refutation) = right_and_wrong(p);

    // A wrong answer: refuted in the game's words, the answer shown.
    let (game, token) = play(addr, &id).await;
    let v = verdict(addr, &id, &game).await;
    assert_eq!(
        (v["answered"].as_bool(), v["tries"].as_u64()),
        (Some(false), Some(0)),
        "{v}"
    );
    assert!(v["answers"].is_null(), "{v}");
    let (status, moved) = post(
        addr,
        &format!("/api/games/{game}/actions"),
        json!({"token": token, "action": wrong}),
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    let v = verdict(addr, &id, &game).await;
    assert_eq!(v["answered"], true, "{v}");
    assert_eq!(v["solved"], false, "{v}");
    let why = v["why"].as_str().unwrap();
    assert!(why.contains(&wrong) && why.contains(&refutation), "{why}");
    assert_eq!(v["answers"], json!(p.answers));

    // The right answer, in a game of its own.
    let (game, token) = play(addr, &id).await;
    let (status, moved) = post(
        addr,
        &format!("/api/games/{game}/actions"),
        json!({"token": token, "action": right}),
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    let v = verdict(addr, &id, &game).await;
    assert_eq!(
        (v["solved"].as_bool(), v["complete"].as_bool()),
        (Some(true), Some(false)),
        "{v}"
    );
    assert!(v["why"].as_str().unwrap().contains("keeps the win"), "{v}");

    // Bad requests change nothing and say what was wrong.
    let (status, e) = get(
        addr,
        &format!("/api/puzzles/{id}/verdict?game=0000000000000000"),
    )
    .await;
    assert_eq!(status, 404, "{e}");
    let other = puzzle_id(&shipped("gobble-longest-4x4")[0]);
    let (status, e) = get(addr, &format!("/api/puzzles/{other}/verdict?game={game}")).await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("was not made from puzzle"),
        "{e}"
    );
    let (status, e) = get(addr, "/api/puzzles/nope").await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (404, Some("unknown_puzzle"))
    );
    let (status, e) = post(addr, &format!("/api/puzzles/{id}/play"), json!({"seat": 0})).await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = get(addr, "/api/puzzles/next?set=chess/mate-in-2").await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (404, Some("unknown_puzzle"))
    );
    let (status, n) = get(
        addr,
        &format!("/api/puzzles/next?set=sprouts/normal-5&not={id}"),
    )
    .await;
    assert_eq!(status, 200, "{n}");
    assert_eq!(n["set"], "sprouts/normal-5");
    assert_ne!(n["id"], id.as_str());
    server.stop().await;
}

async fn as_account(
    addr: std::net::SocketAddr,
    cookie: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let origin = format!("http://{addr}");
    parlor_server::client::http(
        addr,
        method,
        path,
        body.as_ref(),
        &[("Cookie", cookie), ("Origin", &origin)],
    )
    .await
    .unwrap()
}

/// The day's Sprouts challenge, its answer and a refuted move.
fn todays_sprouts() -> (Puzzle, String, String) {
    let set = shipped("sprouts-normal-5");
    let place = parlor_core::of_the_day(
        day_of("2026-11-29").unwrap(),
        "sprouts",
        "normal-5",
        set.len(),
    )
    .unwrap();
    let p = set[place].clone();
    let (right, wrong, _) = right_and_wrong(&p);
    (p, right, wrong)
}

async fn daily_tries_ratings_and_challenges(db: DbUrl) {
    let time = TimeSource::manual(noon("2026-11-29"));
    let server = serve(&db, &time, puzzles()).await;
    let addr = server.addr();
    let (p, right, wrong) = todays_sprouts();
    let id = puzzle_id(&p);
    let key_a = "guest-a-0123456789abcdef";
    let key_b = "guest-b-0123456789abcdef";

    // One try of the day's challenge each: asked again, the same game.
    let daily = |key: &str| json!({"name": "Ann", "player": key, "daily": true});
    let (status, first) = post(addr, &format!("/api/puzzles/{id}/play"), daily(key_a)).await;
    assert_eq!(status, 201, "{first}");
    let game_a = first["game"]["id"].as_str().unwrap().to_string();
    let token_a = first["you"]["token"].as_str().unwrap().to_string();
    let (status, again) = post(addr, &format!("/api/puzzles/{id}/play"), daily(key_a)).await;
    assert_eq!(
        (status, again["again"].as_bool()),
        (200, Some(true)),
        "{again}"
    );
    assert_eq!(again["game"]["id"], game_a.as_str());
    assert_eq!(again["you"]["token"], token_a.as_str());
    // Another player has a try of their own; a puzzle that is not today's
    // is not a daily try; a guest without a key has no daily try.
    let (status, other) = post(addr, &format!("/api/puzzles/{id}/play"), daily(key_b)).await;
    assert_eq!(status, 201, "{other}");
    let game_b = other["game"]["id"].as_str().unwrap().to_string();
    let token_b = other["you"]["token"].as_str().unwrap().to_string();
    assert_ne!(game_a, game_b);
    let not_today = shipped("sprouts-normal-5")
        .iter()
        .map(puzzle_id)
        .find(|x| *x != id)
        .unwrap();
    let (status, e) = post(
        addr,
        &format!("/api/puzzles/{not_today}/play"),
        daily(key_a),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not one of today's challenges"),
        "{e}"
    );
    let (status, e) = post(
        addr,
        &format!("/api/puzzles/{id}/play"),
        json!({"daily": true}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("player key"),
        "{e}"
    );

    // A answers wrongly, B rightly: the day's results count both.
    for (game, token, mv) in [(&game_a, &token_a, &wrong), (&game_b, &token_b, &right)] {
        let (status, moved) = post(
            addr,
            &format!("/api/games/{game}/actions"),
            json!({"token": token, "action": mv}),
        )
        .await;
        assert_eq!(status, 200, "{moved}");
        let v = verdict(addr, &id, game).await;
        assert_eq!(v["daily"], "2026-11-29", "{v}");
        assert_eq!(v["solved"], mv == &right, "{v}");
        assert!(v["rating"].is_null(), "guests play unrated: {v}");
    }
    let (status, results) = get(addr, &format!("/api/puzzles/{id}/results")).await;
    assert_eq!(status, 200, "{results}");
    assert_eq!(
        (
            results["played"].as_u64(),
            results["answered"].as_u64(),
            results["solved"].as_u64()
        ),
        (Some(2), Some(2), Some(1)),
        "{results}"
    );
    assert!(
        results.get("plays").is_none(),
        "a day's results name nobody: {results}"
    );

    // An account's first try moves its puzzle rating (down, for a wrong
    // answer), and the puzzle's; a second try of that puzzle does not.
    let cookie = sign_up(addr, "puzzler").await;
    let play_url = format!("/api/puzzles/{id}/play");
    let mut ratings = Vec::new();
    for mv in [&wrong, &right] {
        let (status, made) = as_account(addr, &cookie, "POST", &play_url, Some(json!({}))).await;
        assert_eq!(status, 201, "{made}");
        let game = made["game"]["id"].as_str().unwrap().to_string();
        let token = made["you"]["token"].as_str().unwrap().to_string();
        let (status, moved) = as_account(
            addr,
            &cookie,
            "POST",
            &format!("/api/games/{game}/actions"),
            Some(json!({"token": token, "action": mv})),
        )
        .await;
        assert_eq!(status, 200, "{moved}");
        ratings.push(verdict(addr, &id, &game).await["rating"].clone());
    }
    assert_eq!(ratings[0]["before"], 1500, "{ratings:?}");
    assert!(ratings[0]["after"].as_i64().unwrap() < 1500, "{ratings:?}");
    assert!(ratings[1].is_null(), "a second try is unrated: {ratings:?}");
    // The puzzle's difficulty is now the players' (it gained on a miss).
    let (_, about) = get(addr, &format!("/api/puzzles/{id}")).await;
    assert_eq!(about["difficulty"]["from"], "players", "{about}");
    assert_eq!(about["difficulty"]["tries"], 1, "{about}");

    // The account solves the day's challenge: its streak, its history and
    // the day's leaderboard (accounts only: the guest who solved it is not
    // listed).
    let (status, made) = as_account(
        addr,
        &cookie,
        "POST",
        &play_url,
        Some(json!({"daily": true})),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let game = made["game"]["id"].as_str().unwrap().to_string();
    let token = made["you"]["token"].as_str().unwrap().to_string();
    as_account(
        addr,
        &cookie,
        "POST",
        &format!("/api/games/{game}/actions"),
        Some(json!({"token": token, "action": right})),
    )
    .await;
    assert_eq!(verdict(addr, &id, &game).await["solved"], true);
    let (status, profile) = get(addr, "/api/accounts/puzzler").await;
    assert_eq!(status, 200, "{profile}");
    let puzzles = &profile["puzzles"];
    assert_eq!(puzzles["streak"], 1, "{puzzles}");
    assert_eq!(puzzles["rating"]["tries"], 1, "{puzzles}");
    assert_eq!(puzzles["latest"].as_array().unwrap().len(), 3, "{puzzles}");
    let dailies: Vec<&Value> = puzzles["latest"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["daily"] == "2026-11-29")
        .collect();
    assert_eq!(dailies.len(), 1, "{puzzles}");
    assert_eq!(dailies[0]["solved"], true, "{puzzles}");
    let (status, board) = get(addr, "/api/daily/leaderboard").await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(
        board["leaders"],
        json!([{"username": "puzzler", "solved": 1}]),
        "{board}"
    );

    // A friend's challenge: a link anyone plays; one page compares them.
    let (status, made) = post(
        addr,
        &format!("/api/puzzles/{id}/challenge"),
        json!({"name": "Ann"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let cid = made["challenge"].as_str().unwrap().to_string();
    for (key, mv, name) in [(key_a, &right, "Ann"), (key_b, &wrong, "Bea")] {
        let (status, made) = post(
            addr,
            &play_url,
            json!({"name": name, "player": key, "challenge": cid}),
        )
        .await;
        assert_eq!(status, 201, "{made}");
        let game = made["game"]["id"].as_str().unwrap();
        let token = made["you"]["token"].as_str().unwrap();
        post(
            addr,
            &format!("/api/games/{game}/actions"),
            json!({"token": token, "action": mv}),
        )
        .await;
        assert_eq!(verdict(addr, &id, game).await["challenge"], cid.as_str());
    }
    let (status, compared) = get(addr, &format!("/api/challenges/{cid}")).await;
    assert_eq!(status, 200, "{compared}");
    assert_eq!(compared["challenge"]["by"], "Ann");
    assert_eq!(compared["puzzle"]["id"], id.as_str());
    let mut who: Vec<(String, bool)> = compared["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["solved"].as_bool().unwrap(),
            )
        })
        .collect();
    who.sort();
    assert_eq!(who, [("Ann".to_string(), true), ("Bea".to_string(), false)]);
    // A challenge of another puzzle, or none, is refused.
    let (status, e) = post(
        addr,
        &format!("/api/puzzles/{not_today}/play"),
        json!({"player": key_a, "challenge": cid}),
    )
    .await;
    assert_eq!(status, 400, "{e}");
    let (status, e) = get(addr, "/api/challenges/nope").await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (404, Some("unknown_puzzle"))
    );
    server.stop().await;
}

#[tokio::test]
async fn the_day_s_challenge_is_one_try_each_rated_for_accounts_and_challenges_compare_on_sqlite() {
    daily_tries_ratings_and_challenges(sqlite_url("puzzles-tries")).await;
}

#[tokio::test]
async fn the_day_s_challenge_is_one_try_each_rated_for_accounts_and_challenges_compare_on_postgres()
{
    let fresh = tokio::task::spawn_blocking(|| pg_fresh_db("puzzles_tries"));
    let Some(db) = fresh.await.unwrap() else {
        eprintln!("no PostgreSQL: skipped");
        return;
    };
    daily_tries_ratings_and_challenges(db).await;
}
