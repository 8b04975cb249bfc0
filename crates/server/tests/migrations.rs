//! The schema is migrated once, under a lock, with a versions table:
//! processes starting together on an empty PostgreSQL database all start;
//! a database made before versions were recorded keeps its rows.

mod common;

use parlor_server::storage::{DbUrl, PgStorage, SqliteStorage, Store};

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
        assert_eq!(versions_pg(&url), vec![1, 2, 3, 4, 5]);
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
        match &db {
            DbUrl::Postgres(url) => assert_eq!(versions_pg(url), vec![1, 2, 3, 4, 5]),
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                let v: i64 = c
                    .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
                        r.get(0)
                    })
                    .unwrap();
                // SQLite's version 4 rebuilt its actions table (PostgreSQL
                // has no rowids to drop), version 5 made its lookup
                // indexes partial and 6 is PostgreSQL's 5.
                assert_eq!(v, 6);
            }
        }
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
                c.batch_execute("INSERT INTO schema_migrations VALUES (999, 0)")
                    .unwrap();
            }
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                c.execute_batch("INSERT INTO schema_migrations VALUES (999, 0)")
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
    assert_eq!((version, row_seq), (6, 1));
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
        match &db {
            DbUrl::Postgres(url) => {
                let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                c.batch_execute(v2).unwrap();
                assert_eq!(versions_pg(url), vec![1, 2]);
            }
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                c.execute_batch(v2).unwrap();
            }
        }
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
        match &db {
            DbUrl::Postgres(url) => assert_eq!(versions_pg(url), vec![1, 2, 3, 4, 5]),
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                let v: i64 = c
                    .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
                        r.get(0)
                    })
                    .unwrap();
                // SQLite's version 4 rebuilt its actions table (PostgreSQL
                // has no rowids to drop), version 5 made its lookup
                // indexes partial and 6 is PostgreSQL's 5.
                assert_eq!(v, 6);
            }
        }
    }
}

/// SQLite's version 6, PostgreSQL's 5: each account's confusable skeleton,
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
        match &db {
            DbUrl::Postgres(url) => {
                let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                c.batch_execute(&before(5)).unwrap();
            }
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                c.execute_batch(&before(6)).unwrap();
            }
        }
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
        match &db {
            DbUrl::Postgres(url) => assert_eq!(versions_pg(url), vec![1, 2, 3, 4, 5]),
            DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
                let c = rusqlite::Connection::open(path).unwrap();
                let v: i64 = c
                    .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
                        r.get(0)
                    })
                    .unwrap();
                assert_eq!(v, 6);
            }
        }
    }
}

fn drop_versions(db: &DbUrl) {
    match db {
        DbUrl::Postgres(url) => {
            let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
            c.batch_execute("DROP TABLE schema_migrations").unwrap();
        }
        DbUrl::Sqlite(path) | DbUrl::SqliteNormal(path) | DbUrl::SqlitePlain(path) => {
            let c = rusqlite::Connection::open(path).unwrap();
            c.execute_batch("DROP TABLE schema_migrations").unwrap();
        }
    }
}
