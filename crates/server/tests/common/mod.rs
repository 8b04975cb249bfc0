//! Shared by the server's integration tests: a small game with hidden
//! information and a clock, servers on temporary databases, PostgreSQL
//! discovery.
#![allow(dead_code)]

use parlor_core::{
    Actor, ConfigError, Deadline, ErrorKind, Game, GameError, GameInfo, Needs, Outcome, Registry,
    Resources, Seat, Seed, ToAct, Viewer,
};
use parlor_server::client::http;
use parlor_server::storage::{DbUrl, PgStorage, Storage};
use parlor_server::{Server, Settings, TimeSource};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// "Secret": each round both seats pick 1 to 3 at the same time, in secret;
/// picks are revealed when both are in. Most points after `rounds` wins.
/// With `seconds`, a round clock: when it runs out the referee's `timeout`
/// counts missing picks as 0. With `forfeit`, the game offers the referee
/// a `forfeit` of a seat still to pick (it loses: the game ends).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecretConfig {
    pub rounds: u32,
    pub seconds: Option<f64>,
    pub forfeit: bool,
}

impl Default for SecretConfig {
    fn default() -> Self {
        SecretConfig {
            rounds: 3,
            seconds: None,
            forfeit: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretAction {
    Pick(u32),
    Timeout,
    Forfeit(usize),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SecretView {
    pub round: u32,
    pub mine: Option<u32>,
    pub picked: [bool; 2],
    pub revealed: Vec<[u32; 2]>,
}

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("pick 1, 2 or 3")]
    Range,
    #[error("{0} has already picked this round")]
    Twice(Seat),
    #[error("the game is over")]
    Over,
    #[error("only the referee times a round out")]
    NotReferee,
    #[error("the referee does not pick")]
    RefereePick,
}

impl GameError for SecretError {
    fn kind(&self) -> ErrorKind {
        match self {
            SecretError::Range => ErrorKind::Illegal,
            SecretError::Over => ErrorKind::GameOver,
            _ => ErrorKind::NotYourTurn,
        }
    }
}

/// What happened: `{"picked": seat, "pick": n}` (the number for that seat
/// only), or `{"time": true}`.
pub type SecretEvent = Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Secret {
    config: SecretConfig,
    picks: [Option<u32>; 2],
    revealed: Vec<[u32; 2]>,
    forfeited: Option<usize>,
}

impl Secret {
    fn over(&self) -> bool {
        self.forfeited.is_some() || self.revealed.len() as u32 >= self.config.rounds
    }
    fn reveal_if_done(&mut self) {
        if let [Some(a), Some(b)] = self.picks {
            self.revealed.push([a, b]);
            self.picks = [None, None];
        }
    }
}

impl Game for Secret {
    type Config = SecretConfig;
    type Action = SecretAction;
    type View = SecretView;
    type Event = SecretEvent;
    type Error = SecretError;
    type Query = parlor_core::NoHelper;
    type Answer = parlor_core::NoHelper;
    const INFO: GameInfo = GameInfo {
        name: "secret",
        title: "Secret",
        min_seats: 2,
        max_seats: 2,
    };
    fn new(config: &SecretConfig, _: Seed, _: &Resources) -> Result<Self, ConfigError> {
        if config.rounds == 0 {
            return Err(ConfigError::new("rounds must be at least 1"));
        }
        Ok(Secret {
            config: config.clone(),
            picks: [None, None],
            revealed: Vec::new(),
            forfeited: None,
        })
    }
    fn config(&self) -> &SecretConfig {
        &self.config
    }
    fn needs(_: &SecretConfig) -> Needs {
        Needs::seats(2)
    }
    fn action_bound(&self) -> usize {
        // Two picks or a timeout a round.
        self.config.rounds as usize * 2
    }
    fn event_view(event: &Value, viewer: Viewer) -> Option<Value> {
        let mut e = event.clone();
        if e["picked"].as_u64().map(|s| Viewer::Seat(Seat(s as usize))) != Some(viewer) {
            if let Some(o) = e.as_object_mut() {
                o.remove("pick");
            }
        }
        Some(e)
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        if self.over() {
            return ToAct::Over;
        }
        ToAct::Simultaneous(
            (0..2)
                .filter(|&s| self.picks[s].is_none())
                .map(Seat)
                .collect(),
        )
    }
    fn legal_actions(&self, seat: Seat) -> Option<Vec<SecretAction>> {
        if self.over() || seat.0 > 1 || self.picks[seat.0].is_some() {
            return Some(Vec::new());
        }
        Some((1..=3).map(SecretAction::Pick).collect())
    }
    fn apply(&mut self, actor: Actor, action: SecretAction) -> Result<Vec<Value>, SecretError> {
        if self.over() {
            return Err(SecretError::Over);
        }
        match (actor, action) {
            (Actor::Seat(s), SecretAction::Pick(n)) => {
                if !(1..=3).contains(&n) {
                    return Err(SecretError::Range);
                }
                if self.picks[s.0].is_some() {
                    return Err(SecretError::Twice(s));
                }
                self.picks[s.0] = Some(n);
                self.reveal_if_done();
                Ok(vec![serde_json::json!({"picked": s.0, "pick": n})])
            }
            (Actor::Referee, SecretAction::Timeout) => {
                for p in &mut self.picks {
                    p.get_or_insert(0);
                }
                self.reveal_if_done();
                Ok(vec![serde_json::json!({"time": true})])
            }
            (Actor::Referee, SecretAction::Forfeit(s)) if s < 2 && self.config.forfeit => {
                self.forfeited = Some(s);
                Ok(vec![serde_json::json!({"forfeit": s})])
            }
            (Actor::Seat(_), SecretAction::Timeout | SecretAction::Forfeit(_)) => {
                Err(SecretError::NotReferee)
            }
            (Actor::Referee, _) => Err(SecretError::RefereePick),
        }
    }
    fn view(&self, viewer: Viewer) -> SecretView {
        SecretView {
            round: self.revealed.len() as u32,
            mine: match viewer {
                Viewer::Seat(s) if s.0 < 2 => self.picks[s.0],
                _ => None,
            },
            picked: [self.picks[0].is_some(), self.picks[1].is_some()],
            revealed: self.revealed.clone(),
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let a: u32 = self.revealed.iter().map(|r| r[0]).sum();
        let b: u32 = self.revealed.iter().map(|r| r[1]).sum();
        let mut scores = vec![a as i64, b as i64];
        if let Some(s) = self.forfeited {
            scores[s] = -1;
        }
        Some(Outcome::from_scores(scores))
    }
    fn deadline(&self) -> Option<Deadline<SecretAction>> {
        let seconds = self.config.seconds?;
        if self.over() {
            return None;
        }
        Some(Deadline {
            key: format!("round-{}", self.revealed.len()),
            seconds,
            action: SecretAction::Timeout,
        })
    }
    fn forfeit(&self, seat: Seat) -> Option<SecretAction> {
        (self.config.forfeit && !self.over() && seat.0 < 2 && self.picks[seat.0].is_none())
            .then_some(SecretAction::Forfeit(seat.0))
    }
}

/// "Blob": one seat adds numbers forever; the view carries `bytes` of
/// padding, to make large messages (flow-control tests). While
/// [`BLOB_BROKEN`] is set no Blob can be built (so no record of one can be
/// replayed: the failure tests).
pub static BLOB_BROKEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// While set, Blob's helper holds its thread until it is cleared or its
/// budget runs out: a helper that thinks for long.
pub static BLOB_HELPER_HOLDS: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlobConfig {
    pub bytes: usize,
    /// Milliseconds `new` takes (a game whose set-up is heavy).
    pub build_ms: u64,
}

impl Default for BlobConfig {
    fn default() -> Self {
        BlobConfig {
            bytes: 1000,
            build_ms: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Blob {
    config: BlobConfig,
    sum: u64,
}

#[derive(Debug, thiserror::Error)]
#[error("blob refuses {0}")]
pub struct BlobError(u32);

impl GameError for BlobError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Illegal
    }
}

/// Blob's helper takes any object and answers the sum.
#[derive(serde::Deserialize)]
pub struct BlobQuery {}

impl parlor_core::Query for BlobQuery {
    const EXAMPLE: &'static str = "{}";
}

impl Game for Blob {
    type Config = BlobConfig;
    type Action = u32;
    type View = serde_json::Value;
    type Event = u32;
    type Error = BlobError;
    type Query = BlobQuery;
    type Answer = serde_json::Value;
    const INFO: GameInfo = GameInfo {
        name: "blob",
        title: "Blob",
        min_seats: 1,
        max_seats: 1,
    };
    fn new(config: &BlobConfig, _: Seed, _: &Resources) -> Result<Self, ConfigError> {
        if BLOB_BROKEN.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ConfigError::new("broken on purpose"));
        }
        std::thread::sleep(Duration::from_millis(config.build_ms.min(5_000)));
        Ok(Blob {
            config: config.clone(),
            sum: 0,
        })
    }
    fn config(&self) -> &BlobConfig {
        &self.config
    }
    fn needs(_: &BlobConfig) -> Needs {
        Needs::seats(1)
    }
    /// Blob never ends: it exists to fill connections, never to be
    /// played through.
    fn action_bound(&self) -> usize {
        usize::MAX
    }
    fn seats(&self) -> usize {
        1
    }
    fn to_act(&self) -> ToAct {
        ToAct::One(Seat(0))
    }
    fn apply(&mut self, _: Actor, n: u32) -> Result<Vec<u32>, BlobError> {
        if n == 0 {
            return Err(BlobError(n));
        }
        self.sum += u64::from(n);
        Ok(vec![n])
    }
    fn view(&self, _: Viewer) -> serde_json::Value {
        serde_json::json!({"sum": self.sum, "pad": "x".repeat(self.config.bytes)})
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn assist(
        &self,
        _: Viewer,
        _: &BlobQuery,
        budget: &parlor_core::Budget,
    ) -> Result<serde_json::Value, parlor_core::HelpError> {
        let started = std::time::Instant::now();
        while BLOB_HELPER_HOLDS.load(std::sync::atomic::Ordering::SeqCst)
            && !budget.exhausted(started, 0)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(serde_json::json!({"sum": self.sum}))
    }
}

pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<parlor_core::doc_nim::Nim>()
        .register::<Secret>()
        .register::<Blob>()
        .register::<parlor_gobble::Gobble>()
        .register::<parlor_wordsprout::WordSprout>();
    r
}

/// A fresh temporary folder (removed by the OS's tmp cleaning; tests leave
/// their databases for post-mortems).
pub fn temp_dir(tag: &str) -> PathBuf {
    let n: u64 = rand_u64();
    let dir = std::env::temp_dir().join(format!("parlor-server-test-{tag}-{n:016x}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
    );
    h.finish()
}

/// Settings for tests: no pauses, and no rate limits (tests of other
/// defences send floods from one address on purpose; `tests/limits.rs`
/// turns the limits on).
pub fn test_settings() -> Settings {
    Settings {
        bots: parlor_server::Bots {
            bot_delay: Duration::ZERO,
            bot_delay_clocked: Duration::ZERO,
            // Whether a bot counts as quick is measured on the wall clock: a
            // busy machine would decide it differently from run to run. Never
            // quick here; the tests of quick bots say so themselves.
            quick_bot: Duration::ZERO,
            ..Default::default()
        },
        rates: parlor_server::Rates {
            rate_limits: false,
            ..Default::default()
        },
        ..Settings::default()
    }
}

/// Test settings whose game clocks stand still until the test moves them
/// (`time.advance(..)`): clocks run out in virtual time, nobody sleeps.
/// Restart a server with the same settings to keep the same time.
pub fn virtual_time() -> (Settings, TimeSource) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let time = TimeSource::manual(now);
    let settings = Settings {
        games: parlor_server::Games {
            time: time.clone(),
            ..test_settings().games
        },
        ..test_settings()
    };
    (settings, time)
}

pub async fn start(db: &DbUrl, settings: Settings) -> Server {
    Server::start(
        registry(),
        Resources::embedded(),
        db,
        "127.0.0.1:0".parse().unwrap(),
        settings,
    )
    .await
    .expect("server starts")
}

pub fn sqlite_url(tag: &str) -> DbUrl {
    DbUrl::Sqlite(temp_dir(tag).join("parlor.db"))
}

/// The PostgreSQL server to test against, from `PARLOR_PG_URL` (set by
/// `scripts/with-postgres`, which `scripts/test` uses). Without it the
/// PostgreSQL tests are skipped with a notice on a developer's machine and
/// FAIL in CI (`CI` set), so a broken set-up can never pass silently.
pub fn pg_admin_url() -> Option<String> {
    match std::env::var("PARLOR_PG_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
                panic!(
                    "PARLOR_PG_URL is not set but CI is: the PostgreSQL tests must run in CI \
                     (run them through scripts/with-postgres, as scripts/test does)"
                );
            }
            eprintln!(
                "NOTICE: PostgreSQL tests skipped: PARLOR_PG_URL is not set \
                 (run `scripts/with-postgres cargo test -p parlor-server` to include them)"
            );
            None
        }
    }
}

/// A fresh, empty database on the test PostgreSQL server.
pub fn pg_fresh_db(tag: &str) -> Option<DbUrl> {
    let admin = pg_admin_url()?;
    let name = format!("parlor_{tag}_{:016x}", rand_u64());
    let mut client = postgres::Client::connect(&admin, postgres::NoTls)
        .unwrap_or_else(|e| panic!("cannot reach the test PostgreSQL at PARLOR_PG_URL: {e}"));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .expect("create a test database");
    let (base, _) = admin
        .rsplit_once('/')
        .expect("PARLOR_PG_URL ends in /DATABASE");
    let (base, query) = match admin.split_once('?') {
        Some((_, q)) => (base.to_string(), format!("?{q}")),
        None => (base.to_string(), String::new()),
    };
    Some(DbUrl::Postgres(format!("{base}/{name}{query}")))
}

pub fn open(db: &DbUrl) -> Box<dyn Storage> {
    match db {
        DbUrl::Postgres(url) => Box::new(PgStorage::connect(url).unwrap()),
        other => other.open().unwrap(),
    }
}

/// `POST /api/games` that must succeed: the created game.
pub async fn create(addr: SocketAddr, body: Value) -> Value {
    let (status, v) = http(addr, "POST", "/api/games", Some(&body), &[])
        .await
        .unwrap();
    assert_eq!(status, 201, "{v}");
    v
}

/// The token of `seat` in a created game.
pub fn token(created: &Value, seat: usize) -> String {
    created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == seat)
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A JSON `POST`: status and body.
pub async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", path, Some(&body), &[]).await.unwrap()
}

/// A `GET`: status and body.
pub async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    http(addr, "GET", path, None, &[]).await.unwrap()
}

/// A small deterministic generator (the test must replay the same inputs).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn bytes(&mut self, max: u64) -> Vec<u8> {
        let n = self.below(max);
        (0..n).map(|_| self.next() as u8).collect()
    }
    /// Random JSON of bounded depth.
    pub fn json(&mut self, depth: u32) -> Value {
        match self.below(if depth == 0 { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.next().is_multiple_of(2)),
            2 => json!(self.next() as i64 - (1 << 30)),
            3 => json!(["play", "take", "enter", "act", "", "ü", "\u{0}"][self.below(7) as usize]),
            4 => json!(f64::from(self.next() as u32) / 7.0),
            5 => Value::Array((0..self.below(4)).map(|_| self.json(depth - 1)).collect()),
            _ => {
                let keys = ["type", "action", "ref", "token", "word", "seat", "x"];
                let mut m = serde_json::Map::new();
                for _ in 0..self.below(4) {
                    m.insert(keys[self.below(7) as usize].into(), self.json(depth - 1));
                }
                Value::Object(m)
            }
        }
    }
}

/// A new two-seat Nim game as a storage write (storage-level tests).
pub fn nim_game_write(id: &str) -> parlor_server::storage::Write {
    use parlor_server::storage::{GameRow, SeatKind, SeatRow, StatusRow, Write};
    Write::NewGame {
        row: GameRow {
            id: id.into(),
            game: "nim".into(),
            config: json!({"pile": 5, "max_take": 3}).into(),
            seed: 7,
            lexicons: json!([]).into(),
            public: true,
            created_ms: 1,
            status: StatusRow {
                seq: 0,
                to_act: json!({"one": 0}).into(),
                outcome: None,
                over: false,
                deadline: None,
                updated_ms: 1,
            },
            rematch_of: None,
            rematch: None,
            time_control: parlor_core::TimeControl::default(),
            aborted: false,
            rated: false,
        },
        seats: (0..2)
            .map(|seat| SeatRow {
                seat,
                kind: SeatKind::Human,
                level: None,
                token: Some(format!("t{seat}")),
                name: None,
                player: None,
                joined: false,
                account: None,
            })
            .collect(),
    }
}

/// Made-up words of consonants and vowels, one a line (deterministic): a
/// word list of `n` words no embedded list holds.
pub fn made_up_words(n: usize) -> String {
    let consonants = b"bcdfghklmnprstvz";
    let vowels = b"aeiouy";
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m as u64) as usize
    };
    let mut out = String::new();
    for _ in 0..n {
        let len = 4 + next(5);
        for i in 0..len {
            let c = if i % 2 == next(2) {
                vowels[next(vowels.len())]
            } else {
                consonants[next(consonants.len())]
            };
            out.push(c as char);
        }
        out.push('\n');
    }
    out
}

/// Reads until the server closes the connection (EOF or reset), at most
/// `within`; returns what was read, or None if it stayed open.
pub async fn closed_within(
    stream: &mut tokio::net::TcpStream,
    within: Duration,
) -> Option<Vec<u8>> {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let deadline = tokio::time::Instant::now() + within;
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(got),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Signs up `name` (password `{name}-password`) and answers the `Cookie`
/// header of its session.
pub async fn sign_up(addr: SocketAddr, name: &str) -> String {
    let body = json!({"username": name, "password": format!("{name}-password")});
    let (status, headers, v) = parlor_server::client::http_full(
        addr,
        "POST",
        "/api/account/register",
        Some(body.to_string().as_bytes()),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["account"]["username"], name, "{v}");
    let set = headers
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.clone())
        .expect("a session cookie");
    set.split(';').next().unwrap().to_string()
}
