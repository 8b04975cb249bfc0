//! The same storage tests against SQLite and PostgreSQL.

mod common;

use parlor_server::storage::{
    ActionRow, DbUrl, DeadlineRow, GameRow, ListFilter, SeatKind, SeatRow, StatusRow, Storage,
    Store, WordListRow, Write,
};
use serde_json::json;

fn row(id: &str, created_ms: i64, public: bool) -> GameRow {
    GameRow {
        id: id.into(),
        game: "nim".into(),
        config: json!({"pile": 5, "max_take": 3}).into(),
        seed: u64::MAX - 7, // above i64::MAX: must round-trip
        lexicons: json!([]).into(),
        public,
        created_ms,
        status: StatusRow {
            seq: 0,
            to_act: json!({"one": 0}).into(),
            outcome: None,
            over: false,
            deadline: None,
            updated_ms: created_ms,
        },
        rematch_of: None,
        rematch: None,
        // Both forms round-trip: the shorthand's clock alone, and a bank.
        time_control: parlor_core::TimeControl {
            turn_seconds: public.then_some(30.5),
            absent_seconds: (!public).then_some(12.0),
            bank_seconds: (!public).then_some(300.0),
            increment_seconds: if public { 0.0 } else { 2.5 },
            ..Default::default()
        },
        aborted: false,
        rated: false,
    }
}

fn seats(free: bool) -> Vec<SeatRow> {
    vec![
        SeatRow {
            seat: 0,
            kind: SeatKind::Human,
            level: None,
            token: Some("t0".into()),
            name: Some("Ann".into()),
            player: Some("player-key-ann-0001".into()),
            joined: true,
            account: None,
        },
        SeatRow {
            seat: 1,
            kind: if free { SeatKind::Human } else { SeatKind::Bot },
            level: if free { None } else { Some("easy".into()) },
            token: if free { Some("t1".into()) } else { None },
            name: None,
            player: None,
            joined: !free,
            account: None,
        },
    ]
}

fn action(idx: usize, take: u32) -> ActionRow {
    ActionRow {
        idx,
        actor: json!({"seat": idx % 2}),
        action: json!(take),
        at_ms: 1000 + idx as i64,
    }
}

fn status(seq: usize, over: bool) -> StatusRow {
    StatusRow {
        seq,
        to_act: if over {
            json!("over")
        } else {
            json!({"one": seq % 2})
        }
        .into(),
        outcome: over.then(|| json!({"ranking": [[0], [1]]}).into()),
        over,
        deadline: Some(DeadlineRow {
            key: format!("k{seq}"),
            started_ms: 5000 + seq as i64,
        }),
        updated_ms: 9000,
    }
}

fn suite(db: &DbUrl) {
    let mut s: Box<dyn Storage> = common::open(db);
    assert!(s.load("nothing").unwrap().is_none());

    // Create and read back.
    s.commit(&[Write::NewGame {
        row: row("g1", 100, true),
        seats: seats(true),
    }])
    .unwrap();
    s.commit(&[Write::NewGame {
        row: row("g2", 200, true),
        seats: seats(false),
    }])
    .unwrap();
    s.commit(&[Write::NewGame {
        row: row("g3", 300, false),
        seats: seats(true),
    }])
    .unwrap();
    let g1 = s.load("g1").unwrap().unwrap();
    assert_eq!(g1.row, row("g1", 100, true));
    assert_eq!(g1.seats, seats(true));
    assert!(g1.actions.is_empty());

    // Actions and status in one transaction.
    s.commit(&[
        Write::Action {
            game_id: "g1".into(),
            action: action(0, 2),
            status: status(1, false),
        },
        Write::Action {
            game_id: "g1".into(),
            action: action(1, 3),
            status: status(2, true),
        },
    ])
    .unwrap();
    let g1 = s.load("g1").unwrap().unwrap();
    assert_eq!(g1.actions, vec![action(0, 2), action(1, 3)]);
    assert_eq!(g1.row.status, status(2, true));

    // An action whose index is already stored (another process got there
    // first) is not taken, and does not sink the others of its batch.
    let taken = s
        .commit(&[
            Write::Action {
                game_id: "g2".into(),
                action: action(0, 1),
                status: status(1, false),
            },
            Write::Action {
                game_id: "g1".into(),
                action: action(1, 1),
                status: status(2, false),
            },
        ])
        .unwrap();
    assert_eq!(taken, vec![true, false]);
    assert_eq!(s.load("g2").unwrap().unwrap().actions, vec![action(0, 1)]);
    assert_eq!(s.load("g1").unwrap().unwrap().row.status, status(2, true));
    assert_eq!(
        s.load("g1").unwrap().unwrap().actions,
        vec![action(0, 2), action(1, 3)],
        "the stored action stays"
    );
    assert_eq!(
        s.load_since("g1", 1).unwrap().unwrap().actions,
        vec![action(1, 3)]
    );
    // Same in the general path (mixed with other writes). A status is
    // taken at the stored seq only, and a clock's start is stored once.
    let stopped = StatusRow {
        deadline: None,
        ..status(1, false)
    };
    let taken = s
        .commit(&[
            Write::Action {
                game_id: "g1".into(),
                action: action(0, 1),
                status: status(1, false),
            },
            Write::Status {
                game_id: "g2".into(),
                status: status(1, false),
            },
            Write::Status {
                game_id: "g2".into(),
                status: stopped.clone(),
            },
            Write::Status {
                game_id: "g2".into(),
                status: status(7, false),
            },
        ])
        .unwrap();
    assert_eq!(taken, vec![false, false, true, false]);
    assert_eq!(s.load("g1").unwrap().unwrap().row.status, status(2, true));
    assert_eq!(s.load("g2").unwrap().unwrap().row.status, stopped);

    // A claim takes an open seat (one without a token) once, and gives
    // it the claimant's new token; an invited seat (with a token) is
    // never claimed, joined or not.
    let mut g9 = row("g9", 400, false);
    g9.status = status(2, true); // over and private: in no listing below
    let mut open = seats(true);
    open[0].player = None;
    open[1].token = None;
    s.commit(&[Write::NewGame {
        row: g9,
        seats: open,
    }])
    .unwrap();
    let claim = |game: &str, seat, token: &str| Write::Claim {
        game_id: game.into(),
        seat,
        token: token.into(),
        invite: None,
        name: Some("Cy".into()),
        player: None,
    };
    assert_eq!(
        s.commit(&[claim("g1", 1, "stolen")]).unwrap(),
        vec![false],
        "an invited seat"
    );
    assert_eq!(s.load("g1").unwrap().unwrap().seats, seats(true));
    assert_eq!(s.commit(&[claim("g9", 1, "t9")]).unwrap(), vec![true]);
    assert_eq!(s.commit(&[claim("g9", 1, "t10")]).unwrap(), vec![false]);
    assert_eq!(
        s.commit(&[claim("g9", 0, "t11")]).unwrap(),
        vec![false],
        "Ann's already"
    );
    let seat = s.load("g9").unwrap().unwrap().seats[1].clone();
    assert_eq!(seat.name.as_deref(), Some("Cy"));
    assert_eq!(seat.token.as_deref(), Some("t9"), "the first claimant's");
    assert!(seat.joined);

    // An invite is taken once, by whoever shows it first: the seat trades
    // it for its joiner's new secret, and the invite takes nothing again.
    let mut g10 = row("g10", 400, false);
    g10.status = status(2, true);
    let mut invited = seats(true);
    invited[0].player = None;
    s.commit(&[Write::NewGame {
        row: g10,
        seats: invited,
    }])
    .unwrap();
    let accept = |invite: &str, token: &str| Write::Claim {
        game_id: "g10".into(),
        seat: 1,
        token: token.into(),
        invite: Some(invite.into()),
        name: Some("Bea".into()),
        player: None,
    };
    assert_eq!(
        s.commit(&[accept("t0", "x")]).unwrap(),
        vec![false],
        "another seat's token"
    );
    assert_eq!(s.commit(&[accept("t1", "b1")]).unwrap(), vec![true]);
    assert_eq!(
        s.commit(&[accept("t1", "b2")]).unwrap(),
        vec![false],
        "the invite is spent"
    );
    assert_eq!(
        s.commit(&[accept("b1", "b3")]).unwrap(),
        vec![false],
        "a joined seat"
    );
    let seat = s.load("g10").unwrap().unwrap().seats[1].clone();
    assert_eq!(seat.token.as_deref(), Some("b1"), "the joiner's secret");
    assert!(seat.joined);

    // A join and a rematch link.
    s.commit(&[Write::Join {
        game_id: "g3".into(),
        seat: 1,
        name: Some("Bea".into()),
        player: Some("player-key-bea-0001".into()),
    }])
    .unwrap();
    assert!(s
        .commit(&[Write::Join {
            game_id: "g3".into(),
            seat: 7,
            name: None,
            player: None,
        }])
        .is_err());
    s.commit(&[Write::Rematch {
        from: "g1".into(),
        to: "g3".into(),
    }])
    .unwrap();
    assert_eq!(
        s.commit(&[Write::Rematch {
            from: "g1".into(),
            to: "g2".into(),
        }])
        .unwrap(),
        vec![false],
        "one rematch per game"
    );
    let g3 = s.load("g3").unwrap().unwrap();
    assert!(g3.seats[1].joined);
    assert_eq!(g3.seats[1].name.as_deref(), Some("Bea"));
    assert_eq!(
        s.load("g1").unwrap().unwrap().row.rematch.as_deref(),
        Some("g3")
    );

    // Listings: public only, newest first, by status.
    let ids = |v: Vec<parlor_server::storage::Listed>| -> Vec<String> {
        v.into_iter().map(|l| l.row.id).collect()
    };
    assert_eq!(ids(s.list(ListFilter::Over, 10).unwrap()), vec!["g1"]);
    assert_eq!(ids(s.list(ListFilter::Live, 10).unwrap()), vec!["g2"]);
    assert!(s.list(ListFilter::Open, 10).unwrap().is_empty());
    assert_eq!(ids(s.list(ListFilter::Unfinished, 10).unwrap()), vec!["g2"]);
    assert_eq!(
        ids(s.list(ListFilter::Unfinished, 0).unwrap()),
        Vec::<String>::new()
    );
    assert_eq!(
        ids(s.by_player("player-key-ann-0001", 10).unwrap()),
        vec!["g3", "g2", "g1"]
    );
    assert_eq!(
        ids(s.by_player("player-key-bea-0001", 10).unwrap()),
        vec!["g3"]
    );
    assert_eq!(
        ids(s.unfinished().unwrap()),
        vec!["g2", "g3"],
        "private ones too"
    );

    // Uploaded word lists: stored once, within the room for them, read
    // with or without their words.
    let list = |id: &str, text: &str| WordListRow {
        id: id.into(),
        fingerprint: id.trim_start_matches("upload-").into(),
        name: "Zed words".into(),
        words: text.lines().count(),
        skipped: 1,
        bytes: text.len(),
        created_ms: 77,
        text: Some(text.into()),
    };
    let a = list("upload-000000000000000a", "zzxq\nzzxqj\n");
    let b = list("upload-000000000000000b", "abc\n");
    let c = list("upload-000000000000000c", "abcdefghijklmnopqrstuvwxyz\n");
    assert!(s.word_list(&a.id, true).unwrap().is_none());
    let put = |l: &WordListRow| Write::WordList {
        list: l.clone(),
        max_total_bytes: 20,
    };
    assert_eq!(s.commit(&[put(&a), put(&b)]).unwrap(), vec![true, true]);
    assert_eq!(s.commit(&[put(&a)]).unwrap(), vec![false], "stored once");
    assert_eq!(s.commit(&[put(&c)]).unwrap(), vec![false], "no room left");
    assert!(s.word_list(&c.id, false).unwrap().is_none());
    assert_eq!(s.word_list(&a.id, true).unwrap(), Some(a.clone()));
    assert_eq!(
        s.word_list(&a.id, false).unwrap(),
        Some(WordListRow {
            text: None,
            ..a.clone()
        })
    );

    // No action goes into an aborted game (another process may not have
    // seen the abort yet), and the batch's other actions still do.
    s.commit(&[Write::NewGame {
        row: row("g4", 400, true),
        seats: seats(true),
    }])
    .unwrap();
    let abort = Write::Abort {
        game_id: "g4".into(),
        status: status(0, false),
    };
    assert_eq!(s.commit(&[abort]).unwrap(), vec![true]);
    let late = s
        .commit(&[
            Write::Action {
                game_id: "g4".into(),
                action: action(0, 1),
                status: status(1, false),
            },
            Write::Action {
                game_id: "g2".into(),
                action: action(1, 2),
                status: status(2, false),
            },
        ])
        .unwrap();
    assert_eq!(late, vec![false, true]);
    let g4 = s.load("g4").unwrap().unwrap();
    assert!(g4.actions.is_empty() && g4.row.aborted, "{:?}", g4.row);
    assert_eq!(g4.row.status.seq, 0);

    // A second connection sees the same data (the reader of a Store).
    let mut other = common::open(db);
    assert_eq!(other.load("g1").unwrap(), s.load("g1").unwrap());
    assert_eq!(other.word_list(&b.id, true).unwrap(), Some(b));
}

async fn store_suite(db: &DbUrl) {
    // Many concurrent writers share group commits; every write is there.
    // Opening connects synchronously: not on an async worker's own stack.
    let store = tokio::task::block_in_place(|| Store::open(db)).unwrap();
    store
        .write(Write::NewGame {
            row: row("s1", 1, true),
            seats: seats(true),
        })
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for i in 0..50 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("c{i}");
            store
                .write(Write::NewGame {
                    row: row(&id, 10 + i, true),
                    seats: seats(false),
                })
                .await
                .unwrap();
            for k in 0..5 {
                store
                    .write(Write::Action {
                        game_id: id.clone(),
                        action: action(k, 1),
                        status: status(k + 1, false),
                    })
                    .await
                    .unwrap();
            }
        }));
    }
    // One bad write in the crowd fails alone.
    let bad = store
        .write(Write::Action {
            game_id: "s1".into(),
            action: action(3, 1),
            status: status(4, false),
        })
        .await;
    assert!(bad.is_ok(), "gaps are the actor's business, not storage's");
    let dup = store
        .write(Write::Action {
            game_id: "s1".into(),
            action: action(3, 1),
            status: status(4, false),
        })
        .await;
    assert!(dup.is_err());
    for t in tasks {
        t.await.unwrap();
    }
    for i in 0..50 {
        let id = format!("c{i}");
        let g = store.read(move |s| s.load(&id)).await.unwrap().unwrap();
        assert_eq!(g.actions.len(), 5);
    }
}

/// Two connections writing one database: what one stores (an abort, a
/// clock) holds for the other's next action, even though the SQLite writer
/// remembers live games' rows instead of reading them for every action.
fn two_writers(db: &DbUrl) {
    let mut a: Box<dyn Storage> = common::open(db);
    let mut b: Box<dyn Storage> = common::open(db);
    for id in ["w1", "w2"] {
        a.commit(&[Write::NewGame {
            row: row(id, 100, true),
            seats: seats(false),
        }])
        .unwrap();
        let first = Write::Action {
            game_id: id.into(),
            action: action(0, 1),
            status: status(1, false),
        };
        assert_eq!(a.commit(&[first]).unwrap(), vec![true]);
    }
    // Aborted through the other connection: no action goes in.
    let aborted = StatusRow {
        deadline: None,
        ..status(1, true)
    };
    let abort = Write::Abort {
        game_id: "w1".into(),
        status: aborted.clone(),
    };
    assert_eq!(b.commit(&[abort]).unwrap(), vec![true]);
    let late = Write::Action {
        game_id: "w1".into(),
        action: action(1, 1),
        status: status(2, false),
    };
    assert_eq!(a.commit(&[late]).unwrap(), vec![false]);
    let w1 = a.load("w1").unwrap().unwrap();
    assert!(w1.row.aborted);
    assert_eq!(w1.actions, vec![action(0, 1)]);
    // A clock started through the other connection: the next action's
    // clock (the one the first connection last stored) is stored again.
    let other_clock = StatusRow {
        deadline: Some(DeadlineRow {
            key: "other".into(),
            started_ms: 1,
        }),
        ..status(1, false)
    };
    let clock = Write::Status {
        game_id: "w2".into(),
        status: other_clock,
    };
    assert_eq!(b.commit(&[clock]).unwrap(), vec![true]);
    let next = StatusRow {
        seq: 2,
        ..status(1, false)
    };
    let second = Write::Action {
        game_id: "w2".into(),
        action: action(1, 1),
        status: next.clone(),
    };
    assert_eq!(a.commit(&[second]).unwrap(), vec![true]);
    assert_eq!(
        b.load("w2").unwrap().unwrap().row.status.deadline,
        next.deadline
    );
}

/// Several actions of one game in one group commit (the SQLite writer
/// reads back what the transaction itself learned of the row): the clock
/// each one moves and the end are stored as the last one left them.
fn one_group(db: &DbUrl) {
    let mut s: Box<dyn Storage> = common::open(db);
    let same_clock = |seq: usize| StatusRow {
        deadline: status(1, false).deadline,
        ..status(seq, false)
    };
    let writes = vec![
        Write::NewGame {
            row: row("g1", 100, true),
            seats: seats(false),
        },
        Write::Action {
            game_id: "g1".into(),
            action: action(0, 1),
            status: status(1, false),
        },
        Write::Action {
            game_id: "g1".into(),
            action: action(1, 1),
            status: same_clock(2),
        },
        Write::Action {
            game_id: "g1".into(),
            action: action(2, 1),
            status: status(3, false),
        },
    ];
    assert_eq!(s.commit(&writes).unwrap(), vec![true; 4]);
    let g = s.load("g1").unwrap().unwrap();
    assert_eq!(g.actions.len(), 3);
    assert_eq!(g.row.status.deadline, status(3, false).deadline);
    let end = StatusRow {
        deadline: None,
        ..status(5, true)
    };
    let writes = vec![
        Write::Action {
            game_id: "g1".into(),
            action: action(3, 1),
            status: status(4, false),
        },
        Write::Action {
            game_id: "g1".into(),
            action: action(4, 1),
            status: end.clone(),
        },
    ];
    assert_eq!(s.commit(&writes).unwrap(), vec![true, true]);
    let g = s.load("g1").unwrap().unwrap();
    assert_eq!(g.actions.len(), 5);
    assert!(g.row.status.over);
    assert_eq!(g.row.status.deadline, None);
}

/// A group commit that fails leaves the SQLite writer knowing nothing it
/// learned in it: a clock stored in the failed group is not taken for
/// the stored one (the next action's row would not be written).
#[test]
fn sqlite_a_failed_group_commit_is_not_remembered() {
    let mut s: Box<dyn Storage> = common::open(&common::sqlite_url("failed-group"));
    s.commit(&[Write::NewGame {
        row: row("f1", 100, true),
        seats: seats(false),
    }])
    .unwrap();
    let first = Write::Action {
        game_id: "f1".into(),
        action: action(0, 1),
        status: status(1, false),
    };
    assert_eq!(s.commit(&[first]).unwrap(), vec![true]);
    // The second action moves the clock to `k2`; then a write for a game
    // that does not exist fails the whole group.
    let failed = vec![
        Write::Action {
            game_id: "f1".into(),
            action: action(1, 1),
            status: status(2, false),
        },
        Write::Action {
            game_id: "no-such-game".into(),
            action: action(0, 1),
            status: status(1, false),
        },
    ];
    assert!(s.commit(&failed).is_err());
    let g = s.load("f1").unwrap().unwrap();
    assert_eq!(g.actions.len(), 1);
    assert_eq!(g.row.status.deadline, status(1, false).deadline);
    // Stored again alone: its clock `k2` is written, not taken for known.
    let again = Write::Action {
        game_id: "f1".into(),
        action: action(1, 1),
        status: status(2, false),
    };
    assert_eq!(s.commit(&[again]).unwrap(), vec![true]);
    let g = s.load("f1").unwrap().unwrap();
    assert_eq!(g.actions.len(), 2);
    assert_eq!(g.row.status.deadline, status(2, false).deadline);
}

/// Each of these bodies runs on every database: an SQLite file, plain
/// SQLite (none of the storage's tuning, which changes how fast, never what
/// is stored) and PostgreSQL when the tests have one
/// (`scripts/with-postgres`), as `sqlite::suite`, `plain_sqlite::suite`,
/// `postgres::suite`...
macro_rules! on_every_database {
    ($($body:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $body() {
                    super::$body(&crate::common::sqlite_url(concat!("sqlite-", stringify!($body))));
                }
            )*
        }
        mod plain_sqlite {
            use parlor_server::storage::DbUrl;
            $(
                #[test]
                fn $body() {
                    let DbUrl::Sqlite(path) =
                        crate::common::sqlite_url(concat!("plain-", stringify!($body)))
                    else {
                        unreachable!("an SQLite file")
                    };
                    super::$body(&DbUrl::SqlitePlain(path));
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $body() {
                    if let Some(db) = crate::common::pg_fresh_db(stringify!($body)) {
                        super::$body(&db);
                    }
                }
            )*
        }
    };
}

on_every_database!(suite, two_writers, one_group);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_group_commit() {
    store_suite(&common::sqlite_url("store")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store_group_commit() {
    if let Some(db) = tokio::task::block_in_place(|| common::pg_fresh_db("store")) {
        store_suite(&db).await;
    }
}

#[test]
fn db_urls() {
    assert_eq!(
        DbUrl::parse("sqlite://x/y.db").unwrap(),
        DbUrl::Sqlite("x/y.db".into())
    );
    let plain = DbUrl::parse("sqlite://x/y.db?tuning=off").unwrap();
    assert_eq!(plain, DbUrl::SqlitePlain("x/y.db".into()));
    assert_eq!(DbUrl::parse(&plain.to_string()).unwrap(), plain);
    let e = DbUrl::parse("sqlite://x/y.db?tuning=maybe").unwrap_err();
    assert!(e.to_string().contains("tuning=off"), "{e}");
    assert!(DbUrl::parse("sqlite://").is_err());
    assert!(DbUrl::parse("mysql://x").is_err());
    let pg = DbUrl::parse("postgres://u:secret@127.0.0.1:5432/db").unwrap();
    assert!(!pg.to_string().contains("secret"), "{pg}");
}
