//! `kill -9` of the SQLite store while it commits groups of actions and
//! checkpoints its log, again and again: after each kill the database
//! passes `PRAGMA integrity_check` and holds every action whose commit was
//! acknowledged, in order, with nothing after a gap.
//!
//! The child (this test binary started again with
//! `PARLOR_STORE_CRASH_CHILD` set; it runs only `child_store`) opens the
//! store as the server does (its own log-writes VFS and known
//! rows), with a maintenance connection that checkpoints every few
//! milliseconds and restarts the log past 64 frames, so kills land in
//! group commits, passive checkpoints and restarts alike. Several writers
//! commit one action at a time each, so commits group. It prints each
//! acknowledged action; the parent kills it after a number of
//! acknowledgements drawn from a seeded generator (not after a time: the
//! test does not depend on the machine's speed) and checks the file.
//! `PARLOR_STORE_CRASHES` sets how many kills (200 by default).

mod common;

use parlor_server::storage::{
    ActionRow, DbUrl, GameRow, SeatKind, SeatRow, SqliteStorage, StatusRow, Storage, Store, Write,
};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write as _};
use std::process::{Command, Stdio};

/// Games written at once in the child, each by a writer of its own.
const WRITERS: usize = 6;

fn game_row(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        game: "blob".into(),
        config: json!({}).into(),
        seed: 1,
        lexicons: json!([]).into(),
        public: false,
        created_ms: 0,
        status: status(0),
        rematch_of: None,
        rematch: None,
        time_control: Default::default(),
        aborted: false,
        rated: false,
    }
}

fn status(seq: usize) -> StatusRow {
    StatusRow {
        seq,
        to_act: json!({"one": 0}).into(),
        outcome: None,
        over: false,
        deadline: None,
        updated_ms: seq as i64,
    }
}

fn seat() -> SeatRow {
    SeatRow {
        seat: 0,
        kind: SeatKind::Human,
        level: None,
        token: Some("t".into()),
        name: None,
        player: None,
        joined: true,
        account: None,
    }
}

/// An action of a few pages, so the log grows quickly.
fn action(idx: usize) -> ActionRow {
    ActionRow {
        idx,
        actor: json!({"seat": 0}),
        action: json!({"n": idx, "pad": "x".repeat(3000 + idx % 5000)}),
        at_ms: idx as i64,
    }
}

/// In the child: write until killed (or 120 s at most).
#[test]
fn child_store() {
    let Ok(spec) = std::env::var("PARLOR_STORE_CRASH_CHILD") else {
        return; // an ordinary test run: nothing to do
    };
    let (path, round) = spec.split_once('|').unwrap();
    let path = std::path::PathBuf::from(path);
    let writer = SqliteStorage::open(&path).unwrap();
    let reader = SqliteStorage::open(&path).unwrap();
    let mut keeper = SqliteStorage::open(&path).unwrap().with_restart_frames(64);
    let store = Store::from_storages(Box::new(writer), vec![Box::new(reader)]);
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(3));
        keeper.maintenance();
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut tasks = Vec::new();
        for w in 0..WRITERS {
            let store = store.clone();
            let id = format!("r{round}w{w}");
            tasks.push(tokio::spawn(async move {
                let made = store
                    .commit(vec![Write::NewGame {
                        row: game_row(&id),
                        seats: vec![seat()],
                    }])
                    .await
                    .unwrap();
                assert_eq!(made, [true]);
                for idx in 0.. {
                    let taken = store
                        .commit(vec![Write::Action {
                            game_id: id.clone(),
                            action: action(idx),
                            status: status(idx + 1),
                        }])
                        .await
                        .unwrap();
                    assert_eq!(taken, [true]);
                    let mut out = std::io::stdout().lock();
                    writeln!(out, "ACK {id} {idx}").unwrap();
                    out.flush().unwrap();
                }
            }));
        }
        tokio::time::sleep(std::time::Duration::from_secs(120)).await;
    });
}

/// A small seeded generator (SplitMix64): the kill points of every run are
/// the same.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn kill_9_during_commits_and_checkpoints_loses_nothing_acknowledged() {
    if std::env::var("PARLOR_STORE_CRASH_CHILD").is_ok() {
        return;
    }
    let crashes: usize = std::env::var("PARLOR_STORE_CRASHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let DbUrl::Sqlite(path) = common::sqlite_url("store_crash") else {
        unreachable!("a SQLite file")
    };
    let mut rng = 0x5EED_u64;
    // Every action acknowledged so far, by game: the highest index.
    let mut acked: BTreeMap<String, usize> = BTreeMap::new();
    for round in 0..crashes {
        let kill_after = 1 + (next(&mut rng) % 120) as usize;
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "child_store",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(
                "PARLOR_STORE_CRASH_CHILD",
                format!("{}|{round}", path.display()),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut seen = 0;
        for line in lines {
            let line = line.unwrap();
            // libtest may print "test child_store ... " before it on a line.
            let Some((_, ack)) = line.split_once("ACK ") else {
                continue;
            };
            let (id, idx) = ack.trim().split_once(' ').unwrap();
            let idx: usize = idx.parse().unwrap();
            let best = acked.entry(id.to_string()).or_insert(idx);
            *best = (*best).max(idx);
            seen += 1;
            if seen == kill_after {
                break;
            }
        }
        assert_eq!(seen, kill_after, "round {round}: the child stopped writing");
        // SIGKILL: no shutdown code runs, whatever it was doing.
        child.kill().unwrap();
        child.wait().unwrap();

        let conn = rusqlite::Connection::open(&path).unwrap();
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok", "round {round}");
        drop(conn);
    }
    // Every acknowledged action is there, in order, through the store.
    let mut storage = DbUrl::Sqlite(path.clone()).open().unwrap();
    assert!(acked.len() >= crashes, "every round acknowledged writes");
    for (id, &last) in &acked {
        let game = storage.load(id).unwrap().expect("an acknowledged game");
        assert!(
            game.actions.len() > last,
            "{id}: action {last} was acknowledged, {} stored",
            game.actions.len()
        );
        for (i, a) in game.actions.iter().enumerate() {
            assert_eq!(a, &action(i), "{id}: action {i}");
        }
    }
}
