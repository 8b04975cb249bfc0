//! The SQLite writer's group commit with the storage's tuning
//! (`storage::tuning`) and as plain SQLite (`?tuning=off`): what the
//! tuning buys where it acts, without the rest of the server around it.
//!
//! Each iteration is one group commit of 32 nim actions spread over 32 of
//! 512 live games (the shape the server's writer sees under load), each
//! action with its game's new status, with `synchronous = FULL` as the
//! server runs.
//!
//! `scripts/bench-sqlite-tuning` runs it a few times and gathers each
//! configuration's medians (figures in `docs/performance.md`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use parlor_server::storage::{
    ActionRow, DbUrl, GameRow, SeatKind, SeatRow, StatusRow, Storage, Write,
};
use serde_json::json;

const GAMES: usize = 512;
const GROUP: usize = 32;

fn game(id: usize) -> GameRow {
    GameRow {
        id: format!("g{id:05}"),
        game: "nim".into(),
        config: json!({"pile": 1_000_000, "max_take": 3}).into(),
        seed: id as u64,
        lexicons: json!([]).into(),
        public: true,
        created_ms: id as i64,
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
        to_act: json!({"one": seq % 2}).into(),
        outcome: None,
        over: false,
        deadline: None,
        updated_ms: seq as i64,
    }
}

fn seats() -> Vec<SeatRow> {
    (0..2)
        .map(|seat| SeatRow {
            seat,
            kind: SeatKind::Human,
            level: None,
            token: Some(format!("t{seat}")),
            name: None,
            player: None,
            joined: true,
            account: None,
        })
        .collect()
}

/// A store with `GAMES` live games, and the next action of each.
struct Table {
    store: Box<dyn Storage>,
    next: Vec<usize>,
    turn: usize,
    path: std::path::PathBuf,
}

impl Table {
    fn new(tuned: bool) -> Table {
        let path = std::env::temp_dir().join(format!(
            "parlor-bench-writer-{}-{}.db",
            std::process::id(),
            if tuned { "tuned" } else { "plain" }
        ));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        let url = if tuned {
            DbUrl::Sqlite(path.clone())
        } else {
            DbUrl::SqlitePlain(path.clone())
        };
        let mut store = url.open().expect("a fresh SQLite file opens");
        let creates: Vec<Write> = (0..GAMES)
            .map(|id| Write::NewGame {
                row: game(id),
                seats: seats(),
            })
            .collect();
        store.commit(&creates).expect("the games are stored");
        Table {
            store,
            next: vec![0; GAMES],
            turn: 0,
            path,
        }
    }

    /// One group commit of `GROUP` actions, each in another game.
    fn group(&mut self) {
        let writes: Vec<Write> = (0..GROUP)
            .map(|k| {
                let id = (self.turn * GROUP + k * 7) % GAMES;
                let idx = self.next[id];
                self.next[id] += 1;
                Write::Action {
                    game_id: format!("g{id:05}"),
                    action: ActionRow {
                        idx,
                        actor: json!({"seat": idx % 2}),
                        action: json!(1),
                        at_ms: idx as i64,
                    },
                    status: status(idx + 1),
                }
            })
            .collect();
        self.turn += 1;
        let stored = self.store.commit(&writes).expect("the group is stored");
        assert!(stored.iter().all(|&s| s));
        if self.store.wants_maintenance() {
            self.store.maintenance();
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.path.display()));
        }
    }
}

/// This thread's CPU time: the writer's own work, without the waits for
/// the disk's sync (which the wall time holds).
fn thread_cpu() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The storage as the server opens it, and plain SQLite.
fn configurations() -> Vec<(&'static str, bool)> {
    vec![("tuned", true), ("plain", false)]
}

fn bench(c: &mut Criterion) {
    let mut wall = c.benchmark_group("sqlite writer, a group commit of 32 actions, wall time");
    for (name, tuned) in configurations() {
        let mut table = Table::new(tuned);
        wall.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| table.group())
        });
    }
    wall.finish();
    let mut cpu = c.benchmark_group("sqlite writer, a group commit of 32 actions, CPU time");
    for (name, tuned) in configurations() {
        let mut table = Table::new(tuned);
        cpu.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|n| {
                let start = thread_cpu();
                for _ in 0..n {
                    table.group();
                }
                thread_cpu() - start
            })
        });
    }
    cpu.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
