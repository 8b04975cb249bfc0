//! The load generator behind `parlor serve-bench`: many simultaneous games,
//! each with one seat played over a real WebSocket by this process and the
//! other seats by the server's bots.
//!
//! Every game's client waits for its seat's turn, "thinks" for a random
//! time around `think`, sends a random legal action and measures the time
//! from sending to the `ack` (which the server sends only once the action is
//! stored). A finished game is followed by its rematch, asked for over the
//! game's own WebSocket, which then moves to the new game (or, as clients
//! did before the server offered that, on a new WebSocket, or over HTTP),
//! so the number of games held stays constant. The run is bounded: it stops after `duration`
//! (plus set-up and `warmup`), and it only ever talks to the address it is given, which
//! the caller keeps on loopback.

use crate::client::{http, Ws};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Semaphore};

/// Chooses actions for a game that does not list its legal actions (Gobble:
/// any word on the board): given the seat's view from a state message, a
/// few actions to pick from (None or empty: nothing to do).
pub type Chooser = Arc<dyn Fn(&Value) -> Option<Vec<Value>> + Send + Sync>;

/// What to run.
#[derive(Clone)]
pub struct LoadOptions {
    /// The server (loopback).
    pub addr: SocketAddr,
    /// The game to play.
    pub game: String,
    /// Its rules.
    pub config: Value,
    /// The bot seats and levels (the client plays seat 0).
    pub bots: Vec<(usize, String)>,
    /// Games held at once.
    pub games: usize,
    /// How long to measure, once every game is connected and `warmup` has
    /// passed.
    pub duration: Duration,
    /// How long the games play before the measurement starts. Every game
    /// starts at once, so for about one game's life no game ends and none
    /// is followed by its rematch: a window that starts at once sees less
    /// of that turnover than a server whose games are of every age (nim,
    /// think 5 s: a game lives ~26 s).
    pub warmup: Duration,
    /// Mean pause before each of the client's actions (uniform in 0..2×).
    pub think: Duration,
    /// Games created and connected at once during set-up.
    pub setup_concurrency: usize,
    /// Where the game lists no legal actions for the seat to act: what
    /// to send instead. Without one, such a game is reported as an error
    /// (`cannot choose an action`), never measured as zero actions.
    pub choose: Option<Chooser>,
    /// How each rematch is asked for and joined.
    pub rematch: RematchWay,
}

/// How a client asks for the rematch of its finished game and joins it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RematchWay {
    /// `rematch` with `move` over the game's WebSocket, which then
    /// belongs to the new game (no new connection).
    #[default]
    Move,
    /// `rematch` over the game's WebSocket, then a new WebSocket to the
    /// new game (servers older than `move`).
    NewSocket,
    /// `POST /api/games/{id}/rematch` on a new connection, then a new
    /// WebSocket (servers older than the WebSocket's `rematch`).
    Http,
}

impl std::fmt::Debug for LoadOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadOptions")
            .field("addr", &self.addr)
            .field("game", &self.game)
            .field("config", &self.config)
            .field("bots", &self.bots)
            .field("games", &self.games)
            .field("duration", &self.duration)
            .field("warmup", &self.warmup)
            .field("think", &self.think)
            .field("setup_concurrency", &self.setup_concurrency)
            .field("choose", &self.choose.is_some())
            .field("rematch", &self.rematch)
            .finish()
    }
}

/// What was measured.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct LoadReport {
    /// Games created and connected.
    pub games_held: usize,
    /// Seconds spent creating and connecting them.
    pub setup_seconds: f64,
    /// Seconds played after set-up before the measurement started.
    pub warmup_seconds: f64,
    /// Seconds measured.
    pub seconds: f64,
    /// Acknowledged client actions in the measured time.
    pub client_actions: u64,
    /// All actions the games accepted in the measured time (client and bots),
    /// from the `seq` of the states received.
    pub total_actions: u64,
    /// `total_actions` per second.
    pub actions_per_second: f64,
    /// Send → ack latency percentiles, milliseconds.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Worst.
    pub max_ms: f64,
    /// When the worst ack's action was sent (milliseconds since the Unix
    /// epoch; 0 if nothing was measured), to find it in the server's log.
    pub max_sent_unix_ms: u64,
    /// Games that ended (and were followed by a rematch) in the measured
    /// time.
    pub games_finished: u64,
    /// Refused actions, failed connections and other errors.
    pub errors: u64,
    /// The first few error messages.
    pub error_samples: Vec<String>,
}

struct Shared {
    latencies_us: Mutex<Vec<u32>>,
    /// The slowest measured ack: its latency and when its action was sent.
    slowest: Mutex<Option<(u32, Instant)>>,
    /// Set once the warm-up is over: acks from then on are measured.
    measuring: AtomicBool,
    client_actions: AtomicU64,
    total_actions: AtomicU64,
    finished: AtomicU64,
    errors: AtomicU64,
    samples: Mutex<Vec<String>>,
    connected: AtomicUsize,
}

impl Shared {
    fn error(&self, e: impl std::fmt::Display) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut s = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        if s.len() < 5 {
            s.push(e.to_string());
        }
    }
}

/// Runs the load and reports. Blocks until done (set-up + `duration` +
/// a few seconds at most for stragglers).
///
/// Only loopback addresses are load-tested: any other address is refused
/// (the report says so in `error_samples`).
pub async fn run(opts: LoadOptions) -> LoadReport {
    if !opts.addr.ip().is_loopback() {
        return LoadReport {
            errors: 1,
            error_samples: vec![format!(
                "{} is not a loopback address: the load generator only targets this machine",
                opts.addr
            )],
            ..LoadReport::default()
        };
    }
    let shared = Arc::new(Shared {
        latencies_us: Mutex::new(Vec::new()),
        slowest: Mutex::new(None),
        measuring: AtomicBool::new(false),
        client_actions: AtomicU64::new(0),
        total_actions: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        samples: Mutex::new(Vec::new()),
        connected: AtomicUsize::new(0),
    });
    let (go_tx, go_rx) = watch::channel(false);
    let (stop_tx, stop_rx) = watch::channel(false);
    let setup = Arc::new(Semaphore::new(opts.setup_concurrency.max(1)));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    for _ in 0..opts.games {
        let opts = opts.clone();
        let shared = shared.clone();
        let (go, stop) = (go_rx.clone(), stop_rx.clone());
        let setup = setup.clone();
        let ready = ready_tx.clone();
        tasks.spawn(async move {
            let permit = setup.acquire_owned().await;
            let first = open_game(&opts).await;
            drop(permit);
            let _ = ready.send(());
            match first {
                Ok((id, token, ws)) => {
                    shared.connected.fetch_add(1, Ordering::Relaxed);
                    play(opts, shared, id, token, ws, go, stop).await;
                }
                Err(e) => shared.error(e),
            }
        });
    }
    drop(ready_tx);
    for _ in 0..opts.games {
        if ready_rx.recv().await.is_none() {
            break;
        }
    }
    let setup_seconds = started.elapsed().as_secs_f64();
    let _ = go_tx.send(true);
    let warmup_started = Instant::now();
    if !opts.warmup.is_zero() {
        tokio::time::sleep(opts.warmup).await;
    }
    let warmup_seconds = warmup_started.elapsed().as_secs_f64();
    let base_actions = shared.total_actions.load(Ordering::Relaxed);
    let base_finished = shared.finished.load(Ordering::Relaxed);
    shared.measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    tokio::time::sleep(opts.duration).await;
    let _ = stop_tx.send(true);
    let seconds = t0.elapsed().as_secs_f64();
    let total = shared.total_actions.load(Ordering::Relaxed) - base_actions;
    let finished = shared.finished.load(Ordering::Relaxed) - base_finished;
    let client_actions = shared.client_actions.load(Ordering::Relaxed);
    // Let the clients close; do not wait long for stragglers.
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();
    let mut lat = std::mem::take(
        &mut *shared
            .latencies_us
            .lock()
            .unwrap_or_else(|e| e.into_inner()),
    );
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return 0.0;
        }
        let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
        f64::from(lat[i]) / 1000.0
    };
    let samples = shared
        .samples
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let slowest = *shared.slowest.lock().unwrap_or_else(|e| e.into_inner());
    let max_sent_unix_ms = slowest
        .and_then(|(_, sent)| std::time::SystemTime::now().checked_sub(sent.elapsed()))
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64);
    LoadReport {
        games_held: shared.connected.load(Ordering::Relaxed),
        setup_seconds,
        warmup_seconds,
        seconds,
        client_actions,
        total_actions: total,
        actions_per_second: total as f64 / seconds.max(1e-9),
        p50_ms: pct(0.5),
        p90_ms: pct(0.9),
        p99_ms: pct(0.99),
        p999_ms: pct(0.999),
        max_ms: lat.last().map(|&v| f64::from(v) / 1000.0).unwrap_or(0.0),
        max_sent_unix_ms,
        games_finished: finished,
        errors: shared.errors.load(Ordering::Relaxed),
        error_samples: samples,
    }
}

async fn open_game(opts: &LoadOptions) -> Result<(String, String, Ws), String> {
    let bots: Vec<Value> = opts
        .bots
        .iter()
        .map(|(seat, level)| json!({"seat": seat, "level": level}))
        .collect();
    let body = json!({"game": opts.game, "config": opts.config, "bots": bots,
                      "take_seat": 0, "public": false});
    let (status, v) = http(opts.addr, "POST", "/api/games", Some(&body), &[])
        .await
        .map_err(|e| e.to_string())?;
    if status != 201 {
        return Err(format!("create: {status} {v}"));
    }
    let id = v["game"]["id"].as_str().unwrap_or_default().to_string();
    let token = v["you"]["token"].as_str().unwrap_or_default().to_string();
    let ws = Ws::connect_opts(opts.addr, &id, Some(&token), true)
        .await
        .map_err(|e| e.to_string())?;
    Ok((id, token, ws))
}

async fn play(
    opts: LoadOptions,
    shared: Arc<Shared>,
    mut id: String,
    mut token: String,
    mut ws: Ws,
    mut go: watch::Receiver<bool>,
    stop: watch::Receiver<bool>,
) {
    let mut rng = rand::rngs::StdRng::from_entropy();
    let mut latencies = Vec::new();
    let mut slowest: Option<(u32, Instant)> = None;
    let mut pending: Option<(u64, Instant)> = None;
    let mut next_ref = 0u64;
    let mut last_seq = 0u64;
    let mut act_at: Option<tokio::time::Instant> = None;
    let mut chosen: Option<Value> = None;
    let mut my_seat = json!(0);
    let _ = go.wait_for(|g| *g).await;
    loop {
        if *stop.borrow() {
            break;
        }
        let wait = match act_at {
            Some(at) => at.saturating_duration_since(tokio::time::Instant::now()),
            None => Duration::from_millis(500),
        };
        let msg = tokio::time::timeout(wait, ws.recv_timeout(Duration::from_secs(3600))).await;
        match msg {
            Err(_) => {
                // Time to act (or a quiet half second).
                if let (Some(action), None) = (chosen.take(), pending) {
                    next_ref += 1;
                    let sent = ws
                        .send(&json!({"type": "act", "ref": next_ref, "action": action}))
                        .await;
                    if let Err(e) = sent {
                        shared.error(e);
                        break;
                    }
                    pending = Some((next_ref, Instant::now()));
                }
                act_at = None;
            }
            Ok(Err(e)) => {
                shared.error(format!("game {id}: {e}"));
                break;
            }
            Ok(Ok(v)) => match v["type"].as_str() {
                Some("welcome") => my_seat = v["you"]["seat"].clone(),
                Some("ack") => {
                    if let Some((r, t)) = pending {
                        if v["ref"] == r {
                            // During the warm-up an ack is not measured.
                            if shared.measuring.load(Ordering::Relaxed) {
                                let us = t.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                                latencies.push(us);
                                if slowest.is_none_or(|(worst, _)| us > worst) {
                                    slowest = Some((us, t));
                                }
                                shared.client_actions.fetch_add(1, Ordering::Relaxed);
                            }
                            pending = None;
                        }
                    }
                }
                Some("error") => {
                    shared.error(format!("game {id}: {}", v["message"]));
                    pending = None;
                    let _ = ws.send(&json!({"type": "sync"})).await;
                }
                Some("state") => {
                    let seq = v["seq"].as_u64().unwrap_or(0);
                    if seq > last_seq {
                        shared
                            .total_actions
                            .fetch_add(seq - last_seq, Ordering::Relaxed);
                        last_seq = seq;
                    }
                    if v["to_act"] == "over" {
                        shared.finished.fetch_add(1, Ordering::Relaxed);
                        next_ref += 1;
                        let made = match opts.rematch {
                            RematchWay::Http => rematch_over_http(&opts, &id, &token).await,
                            way => rematch(&opts, &mut ws, next_ref, way).await,
                        };
                        match made {
                            Ok((nid, ntoken, nws)) => {
                                if let Some(nws) = nws {
                                    ws.close().await;
                                    ws = nws;
                                }
                                (id, token) = (nid, ntoken);
                                last_seq = 0;
                                pending = None;
                                chosen = None;
                                act_at = None;
                            }
                            Err(e) => {
                                shared.error(e);
                                break;
                            }
                        }
                        continue;
                    }
                    let mine = v["to_act"]["one"] == my_seat
                        || v["to_act"]["simultaneous"]
                            .as_array()
                            .is_some_and(|s| s.contains(&my_seat));
                    let listed = v["legal"].as_array().filter(|l| !l.is_empty()).cloned();
                    let legal = match (mine, pending, listed) {
                        (true, None, None) => match &opts.choose {
                            Some(choose) => choose(&v["view"]).filter(|l| !l.is_empty()),
                            None => {
                                shared.error(format!(
                                    "game {id}: cannot choose an action: {} lists no legal \
                                     actions and the load generator knows no other way to play it",
                                    opts.game
                                ));
                                break;
                            }
                        },
                        (_, _, listed) => listed,
                    };
                    if let (true, Some(legal), None) = (mine, legal, pending) {
                        chosen = legal.choose(&mut rng).cloned();
                        let think = opts.think.as_secs_f64() * 2.0 * rng.gen::<f64>();
                        act_at = Some(tokio::time::Instant::now() + Duration::from_secs_f64(think));
                    } else {
                        chosen = None;
                        act_at = None;
                    }
                }
                _ => {}
            },
        }
    }
    ws.close().await;
    if let Some((us, sent)) = slowest {
        let mut s = shared.slowest.lock().unwrap_or_else(|e| e.into_inner());
        if s.is_none_or(|(worst, _)| us > worst) {
            *s = Some((us, sent));
        }
    }
    shared
        .latencies_us
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .extend(latencies);
}

/// A rematch joined: its id, the seat's token, and the new WebSocket
/// (None: the game's own moved to it).
type Joined = (String, String, Option<Ws>);

/// Asks for the rematch over the game's own WebSocket (`rematch`, answered
/// with `rematch_seat`); with [`RematchWay::Move`] the socket moves to the
/// new game, otherwise (or if the server did not move it) a new one
/// connects.
async fn rematch(
    opts: &LoadOptions,
    ws: &mut Ws,
    reference: u64,
    way: RematchWay,
) -> Result<Joined, String> {
    let ask = if way == RematchWay::Move {
        json!({"type": "rematch", "ref": reference, "move": true})
    } else {
        json!({"type": "rematch", "ref": reference})
    };
    ws.send(&ask).await.map_err(|e| format!("rematch: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(30);
    let v = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("rematch: no answer within 30 s".to_string());
        }
        let v = ws
            .recv_timeout(left)
            .await
            .map_err(|e| format!("rematch: {e}"))?;
        match v["type"].as_str() {
            Some("rematch_seat") if v["ref"] == reference => break v,
            Some("error") if v["ref"] == reference => {
                return Err(format!("rematch: {}", v["message"]))
            }
            // The rematch's notice, a last state: nothing to do now.
            _ => {}
        }
    };
    if v["moved"] == true {
        let (nid, ntoken) = rematch_seat(&v);
        return Ok((nid, ntoken, None));
    }
    join_rematch(opts, &v).await
}

/// The new game's id and the seat's token in a rematch answer (over
/// either way).
fn rematch_seat(v: &Value) -> (String, String) {
    let nid = v["game"]["id"].as_str().unwrap_or_default().to_string();
    let ntoken = v["token"].as_str().unwrap_or_default().to_string();
    (nid, ntoken)
}

/// Connects to the new game that a rematch answer (over either way)
/// names, with its seat's token.
async fn join_rematch(opts: &LoadOptions, v: &Value) -> Result<Joined, String> {
    let (nid, ntoken) = rematch_seat(v);
    let ws = Ws::connect_opts(opts.addr, &nid, Some(&ntoken), true)
        .await
        .map_err(|e| e.to_string())?;
    Ok((nid, ntoken, Some(ws)))
}

/// Asks for the rematch with `POST .../rematch` on a new connection, then
/// connects to the new game.
async fn rematch_over_http(opts: &LoadOptions, id: &str, token: &str) -> Result<Joined, String> {
    let (status, v) = http(
        opts.addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(&json!({"token": token})),
        &[],
    )
    .await
    .map_err(|e| e.to_string())?;
    if status != 200 {
        return Err(format!("rematch: {status} {v}"));
    }
    join_rematch(opts, &v).await
}
