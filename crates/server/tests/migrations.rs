//! The schema is migrated once, under a lock, with a versions table:
//! processes starting together on an empty PostgreSQL database all start;
//! a database made before versions were recorded keeps its rows.

mod common;

use parlor_server::storage::{DbUrl, PgStorage, SqliteStorage, Store};

/// The newest schema version: every migration, recorded.
const NEWEST: i64 = 8;

fn versions_pg(url: &str) -> Vec<i64> {
    let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
    c.query(
        "SELECT version FROM schema_migrations ORDER BY version",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect()
}

#[test]
fn processes_starting_together_on_an_empty_postgres_all_start() {
    // Several rounds: the race lost 6 times in 6 with two processes.
    for round in 0..3 {
        let Some(DbUrl::Postgres(url)) = common::pg_fresh_db("migrate_race") else {
            return;
        };
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
        let opened: Vec<_> = (0..4)
            .map(|_| {
                let (url, barrier) = (url.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    PgStorage::connect(&url).map(|_| ())
                })
            })
            .collect();
        for (i, t) in opened.into_iter().enumerate() {
            if let Err(e) = t.join().unwrap() {
                panic!("round {round}: opener {i} failed: {e}");
            }
        }
        assert_eq!(versions_pg(&url), (1..=NEWEST).collect::<Vec<i64>>());
    }
}

/// A game stored by a database without the versions table (as older
/// versions made it) is still there once the new code has opened it.
#[test]
fn a_database_from_before_versions_keeps_its_games() {
    let mut dbs = vec![common::sqlite_url("migrate_old")];
    dbs.extend(common::pg_fresh_db("migrate_old"));
    for db in dbs {
        let game = common::nim_game_write("old1");
        {
            let mut s = common::open(&db);
            s.commit(std::slice::from_ref(&game)).unwrap();
        }
        // Back to the unversioned state of the older code.
        drop_versions(&db);
        let mut s = common::open(&db);
        let g = s.load("old1").unwrap().expect("the game survived");
        assert_eq!(g.seats.len(), 2);
        assert_eq!(versions(&db), (1..=NEWEST).collect::<Vec<i64>>());
        // Opening again changes nothing.
        drop(s);
        let mut s = common::open(&db);
        assert!(s.load("old1").unwrap().is_some());
    }
}

#[test]
fn a_database_from_a_newer_version_is_refused_clearly() {
    let mut dbs = vec![common::sqlite_url("migrate_new")];
    dbs.extend(common::pg_fresh_db("migrate_new"));
    for db in dbs {
        drop(common::open(&db));
        match &db {
            DbUrl::Postgres(url) => {
                let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                c.batch_execute(
                    "INSERT INTO schema_migrations (version, applied_ms) VALUES (999, 0)",
                )
                .unwrap();
            }
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                c.execute_batch(
                    "INSERT INTO schema_migrations (version, applied_ms) VALUES (999, 0)",
                )
                .unwrap();
            }
        }
        let e = match &db {
            DbUrl::Postgres(url) => PgStorage::connect(url).err(),
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                SqliteStorage::open(path).err()
            }
        }
        .expect("a newer schema is refused");
        assert!(e.to_string().contains("version 999"), "{e}");
        assert!(Store::open(&db).is_err());
    }
}

/// Version 2 of the SQLite schema: an action's row carries the game's
/// status after it, and no longer rewrites the game's row. A file of
/// version 1 (whose games rows the older code kept up to date at every
/// action) is upgraded in place: its games read back with the same status,
/// and the next action's status is read from that action.
#[test]
fn an_sqlite_file_of_version_1_is_upgraded_to_statuses_in_the_actions() {
    use parlor_server::storage::{ActionRow, ListFilter, Write};
    use serde_json::json;
    let db = common::sqlite_url("migrate_v1");
    let DbUrl::Sqlite(path) = &db else {
        unreachable!()
    };
    {
        let mut s = common::open(&db);
        s.commit(&[common::nim_game_write("v1")]).unwrap();
    }
    // Back to version 1, with an action stored as its code stored one.
    {
        let c = rusqlite::Connection::open(path).unwrap();
        c.execute_batch(
            "ALTER TABLE actions DROP COLUMN to_act;
             ALTER TABLE actions DROP COLUMN outcome;
             ALTER TABLE actions DROP COLUMN updated_ms;
             DELETE FROM schema_migrations WHERE version >= 2;
             INSERT INTO actions (game_id, idx, actor, action, at_ms)
                 VALUES ('v1', 0, '{\"seat\":0}', '2', 10);
             UPDATE games SET seq = 1, to_act = '{\"one\":1}', updated_ms = 10 WHERE id = 'v1';",
        )
        .unwrap();
    }
    let mut s = common::open(&db);
    let g = s.load("v1").unwrap().expect("the game survived");
    assert_eq!(g.actions.len(), 1);
    assert_eq!(g.row.status.seq, 1);
    assert_eq!(g.row.status.to_act.value(), json!({"one": 1}));
    assert_eq!(g.row.status.updated_ms, 10);
    // The next action: its status is the game's, its games row untouched.
    let mut status = g.row.status.clone();
    status.seq = 2;
    status.to_act = json!({"one": 0}).into();
    status.updated_ms = 20;
    s.commit(&[Write::Action {
        game_id: "v1".into(),
        action: ActionRow {
            idx: 1,
            actor: json!({"seat": 1}),
            action: json!(1),
            at_ms: 20,
        },
        status: status.clone(),
    }])
    .unwrap();
    let g = s.load("v1").unwrap().unwrap();
    assert_eq!(g.actions.len(), 2);
    assert_eq!(g.row.status, status);
    let listed = s.list(ListFilter::Unfinished, 10).unwrap();
    assert_eq!(listed[0].row.status, status);
    let c = rusqlite::Connection::open(path).unwrap();
    let (version, row_seq): (i64, i64) = c
        .query_row(
            "SELECT (SELECT MAX(version) FROM schema_migrations), seq FROM games WHERE id = 'v1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((version, row_seq), (NEWEST, 1));
}

/// Version 3 (accounts, ratings): a database of version 2, games and
/// seats in it, is upgraded in place: its games stay, as guests' and
/// unrated, and its seats can then be claimed into accounts.
#[test]
fn a_database_of_version_2_is_upgraded_to_accounts_in_place() {
    use parlor_server::storage::{AccountRow, Write};
    let mut dbs = vec![common::sqlite_url("migrate_v2")];
    dbs.extend(common::pg_fresh_db("migrate_v2"));
    for db in dbs {
        {
            let mut s = common::open(&db);
            s.commit(&[common::nim_game_write("v2")]).unwrap();
        }
        // Back to version 2: no account columns nor tables.
        let v2 = "DROP TABLE accounts; DROP TABLE sessions; DROP TABLE ratings; \
                  DROP TABLE rating_changes; DROP INDEX seats_account; \
                  ALTER TABLE seats DROP COLUMN account; ALTER TABLE games DROP COLUMN rated; \
                  ALTER TABLE games DROP COLUMN rating_done; \
                  DELETE FROM schema_migrations WHERE version >= 3;";
        run_sql(&db, v2);
        assert_eq!(versions(&db), vec![1, 2]);
        let mut s = common::open(&db);
        let g = s.load("v2").unwrap().expect("the game survived");
        assert!(!g.row.rated);
        assert!(g.seats.iter().all(|seat| seat.account.is_none()));
        assert_eq!(g.seats.len(), 2);
        // The new tables work.
        let taken = s
            .commit(&[
                Write::NewAccount {
                    account: AccountRow {
                        username: "Ann".into(),
                        password_hash: "$argon2id$x".into(),
                        created_ms: 1,
                    },
                },
                Write::NewAccount {
                    account: AccountRow {
                        username: "ANN".into(),
                        password_hash: "$argon2id$y".into(),
                        created_ms: 2,
                    },
                },
            ])
            .unwrap();
        assert_eq!(taken, vec![true, false], "one account per name, any case");
        assert_eq!(s.account("aNN").unwrap().unwrap().username, "Ann");
        assert_eq!(versions(&db), (1..=NEWEST).collect::<Vec<i64>>());
    }
}

/// Version 6: each account's confusable skeleton,
/// unique. Accounts made before get theirs; two that already looked alike
/// both go on working (the older one holds the skeleton), and a new name
/// like them is refused.
#[test]
fn accounts_that_looked_alike_before_skeletons_keep_working() {
    use parlor_server::storage::{AccountRow, Write};
    let account = |username: &str, created_ms: i64| Write::NewAccount {
        account: AccountRow {
            username: username.into(),
            password_hash: format!("$argon2id${username}"),
            created_ms,
        },
    };
    let mut dbs = vec![common::sqlite_url("migrate_skeleton")];
    dbs.extend(common::pg_fresh_db("migrate_skeleton"));
    for db in dbs {
        {
            let mut s = common::open(&db);
            let taken = s
                .commit(&[account("Lilly0", 1), account("Bea", 2)])
                .unwrap();
            assert_eq!(taken, vec![true, true]);
        }
        // Back to the version before: no skeletons, and a look-alike made
        // as the older code let one be made.
        let before = |version: i64| {
            format!(
                "DROP INDEX accounts_skeleton; ALTER TABLE accounts DROP COLUMN skeleton; \
                 INSERT INTO accounts (username_key, username, password_hash, created_ms) \
                 VALUES ('liily0', 'LiIly0', '$argon2id$LiIly0', 3); \
                 DELETE FROM schema_migrations WHERE version >= {version};"
            )
        };
        run_sql(&db, &before(6));
        let mut s = common::open(&db);
        for u in ["Lilly0", "LiIly0", "Bea"] {
            let a = s.account(u).unwrap().expect("the account is still there");
            assert_eq!(a.username, u);
            assert_eq!(a.password_hash, format!("$argon2id${u}"));
        }
        // The older of the two holds the skeleton.
        for u in ["LiIIy0", "LilIyO", "LiIly0"] {
            assert_eq!(s.account_like(u).unwrap().as_deref(), Some("Lilly0"), "{u}");
        }
        assert_eq!(s.account_like("8ea").unwrap(), None);
        let taken = s
            .commit(&[account("LilIyO", 4), account("lilly0", 5), account("Cy", 6)])
            .unwrap();
        assert_eq!(taken, vec![false, false, true], "{db:?}");
        assert_eq!(versions(&db), (1..=NEWEST).collect::<Vec<i64>>());
    }
}

fn drop_versions(db: &DbUrl) {
    run_sql(db, "DROP TABLE schema_migrations");
}

/// Runs statements on the database behind the program's back.
fn run_sql(db: &DbUrl, sql: &str) {
    match db {
        DbUrl::Postgres(url) => {
            let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
            c.batch_execute(sql).unwrap();
        }
        DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
            let c = rusqlite::Connection::open(path).unwrap();
            c.execute_batch(sql).unwrap();
        }
    }
}

/// The versions recorded in the database, in order.
fn versions(db: &DbUrl) -> Vec<i64> {
    match db {
        DbUrl::Postgres(url) => versions_pg(url),
        DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
            let c = rusqlite::Connection::open(path).unwrap();
            let mut st = c
                .prepare("SELECT version FROM schema_migrations ORDER BY version")
                .unwrap();
            let v = st.query_map([], |r| r.get(0)).unwrap();
            v.collect::<Result<_, _>>().unwrap()
        }
    }
}

/// The schema a PostgreSQL database of PostgreSQL's former numbering had
/// at `old` (1 base with presence, 2 leases, 3 accounts, 4 partial
/// indexes, 5 skeletons), made from a database of the shared list: at 5
/// the two schemas are the same tables; below, what the later ones added
/// is taken away again.
fn back_to_old_postgres(url: &str, old: i64) {
    let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
    if old < 5 {
        c.batch_execute("DROP INDEX accounts_skeleton; ALTER TABLE accounts DROP COLUMN skeleton;")
            .unwrap();
    }
    if old < 4 {
        c.batch_execute(
            "DROP INDEX seats_player; CREATE INDEX seats_player ON seats (player);
             DROP INDEX seats_account; CREATE INDEX seats_account ON seats (account);
             DROP INDEX games_listing;
             CREATE INDEX games_listing ON games (over, public, created_ms);
             DROP INDEX games_unfinished;",
        )
        .unwrap();
    }
    if old < 3 {
        c.batch_execute(
            "DROP TABLE accounts; DROP TABLE sessions; DROP TABLE ratings; \
             DROP TABLE rating_changes; DROP INDEX seats_account; \
             ALTER TABLE seats DROP COLUMN account; ALTER TABLE games DROP COLUMN rated; \
             ALTER TABLE games DROP COLUMN rating_done;",
        )
        .unwrap();
    }
    if old < 2 {
        c.batch_execute("DROP TABLE leases").unwrap();
    }
    c.batch_execute(&format!(
        "ALTER TABLE schema_migrations DROP COLUMN name; DELETE FROM schema_migrations; \
         INSERT INTO schema_migrations (version, applied_ms) \
         SELECT v, 0 FROM generate_series(1, {old}) AS v;"
    ))
    .unwrap();
}

/// A PostgreSQL database recorded in PostgreSQL's former numbering (its
/// own list of five) at its last version, and at two earlier ones, with
/// games, accounts and ratings in it, is renumbered into the shared list
/// once and brought up to its end: every game, account and rating stays.
#[test]
fn a_postgres_database_of_the_former_numbering_keeps_everything() {
    use parlor_server::storage::{AccountRow, LeaseOp, Write};
    for old in [5, 3, 1] {
        let Some(db) = common::pg_fresh_db("migrate_former") else {
            return;
        };
        let DbUrl::Postgres(url) = &db else {
            unreachable!()
        };
        {
            let mut s = common::open(&db);
            let taken = s
                .commit(&[
                    common::nim_game_write("f1"),
                    Write::NewAccount {
                        account: AccountRow {
                            username: "Lilly0".into(),
                            password_hash: "$argon2id$x".into(),
                            created_ms: 1,
                        },
                    },
                ])
                .unwrap();
            assert_eq!(taken, vec![true, true]);
            run_sql(
                &db,
                "INSERT INTO ratings VALUES ('Lilly0', 'nim', 1600.5, 200.25, 0.06, 3, 5);
                 INSERT INTO rating_changes VALUES ('f0', 'Lilly0', 1500, 1600.5, 5);",
            );
        }
        back_to_old_postgres(url, old);
        let mut s = common::open(&db);
        assert_eq!(
            versions(&db),
            (1..=NEWEST).collect::<Vec<i64>>(),
            "from {old}"
        );
        let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
        let unnamed: i64 = c
            .query_one(
                "SELECT COUNT(*) FROM schema_migrations WHERE name IS NULL",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(unnamed, 0);
        let g = s.load("f1").unwrap().expect("the game stays");
        assert_eq!(g.seats.len(), 2);
        if old >= 3 {
            let a = s.account("lilly0").unwrap().expect("the account stays");
            assert_eq!(a.password_hash, "$argon2id$x");
            assert_eq!(s.account_like("LiIIy0").unwrap().as_deref(), Some("Lilly0"));
            let r = s.ratings("Lilly0").unwrap();
            assert_eq!(r.len(), 1);
            assert_eq!(
                (r[0].rating.rating, r[0].rating.rd, r[0].games),
                (1600.5, 200.25, 3)
            );
            assert_eq!(s.rating_changes("Lilly0", 10).unwrap().len(), 1);
        }
        // Leases work (version 7 made the table where version 1 lacked it).
        let ids = vec!["f1".to_string()];
        let taken = s
            .lease(LeaseOp::Take {
                owner: "p1",
                ids: &ids,
                ttl_ms: 10_000,
            })
            .unwrap();
        assert_eq!(taken, ids);
        // Renumbered once: opening again changes nothing.
        drop(s);
        drop(common::open(&db));
        assert_eq!(versions(&db), (1..=NEWEST).collect::<Vec<i64>>());
    }
}
