//! The schema's history: one numbered list of migrations for both
//! databases, and every step of it, in either dialect.
//!
//! Each [`Migration`] has a version, a name and what it does on each
//! dialect. Most steps are the same change written in each dialect's types
//! (`INTEGER`/`BIGINT`, `REAL`/`DOUBLE PRECISION`, `0`/`FALSE`); where the
//! two differ in substance the step says why: a change that only one
//! database's layout needs is [`Step::Nothing`] on the other, with the
//! reason. A step that SQL cannot do is Rust, written once over
//! [`Schema`] when both need it.
//!
//! Each database records the versions it has in `schema_migrations`
//! (version, when, name) and applies the missing ones in order, in one
//! transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: under an advisory
//! lock). A database at a version newer than [`SCHEMA_VERSION`] is
//! refused.
//!
//! To change the schema, add a migration at the end of [`MIGRATIONS`]
//! (never edit one that shipped), written so that a database at the
//! previous version keeps its rows, and a test in `tests/migrations.rs`
//! that upgrades one.
//!
//! PostgreSQL once numbered its own list (five versions; see
//! [`old_postgres_version`]); a database recorded in that numbering is
//! renumbered once, the first time this list opens it.

use super::{username_skeleton, StorageError};
use rusqlite::Connection;

/// A database as a migration step sees it.
pub(super) trait Schema {
    /// Runs statements (no parameters, no rows).
    fn batch(&mut self, sql: &str) -> Result<(), StorageError>;
    /// Adds to `table` each of `columns` (name, declaration) it lacks.
    fn add_missing_columns(
        &mut self,
        table: &str,
        columns: &[(&str, &str)],
    ) -> Result<(), StorageError>;
    /// The rows of a query of two text columns.
    fn text_pairs(&mut self, sql: &str) -> Result<Vec<(String, String)>, StorageError>;
    /// Runs one statement with text parameters (written `?1`, `?2`...);
    /// answers the rows it changed.
    fn execute(&mut self, sql: &str, params: &[&str]) -> Result<u64, StorageError>;
}

/// What one migration does on one dialect.
pub(super) enum Step {
    /// These statements.
    Sql(&'static str),
    /// Rust over the SQLite connection (a change SQL alone cannot make
    /// safely, such as a column added only where missing).
    Sqlite(fn(&rusqlite::Connection) -> Result<(), StorageError>),
    /// Rust, the same on both.
    Both(fn(&mut dyn Schema) -> Result<(), StorageError>),
    /// Nothing on this dialect, and why.
    Nothing(&'static str),
}

/// One version of the schema.
pub(super) struct Migration {
    /// Its number, from 1, the same on both databases.
    pub version: i64,
    /// A short name, recorded in `schema_migrations`.
    pub name: &'static str,
    /// On an SQLite file.
    pub sqlite: Step,
    /// On PostgreSQL.
    pub postgres: Step,
}

/// The newest schema version this program knows.
pub(super) const SCHEMA_VERSION: i64 = 8;

/// The schema's migrations, oldest first.
pub(super) const MIGRATIONS: &[Migration] = &[
    // The schema as it stood before versions were recorded, written so
    // that it also brings a database made by that older code up to date
    // without touching its rows. PostgreSQL's already had the presence
    // table (seats held by processes sharing the database); an SQLite file
    // has one process, which keeps presence in memory.
    Migration {
        version: 1,
        name: "base",
        sqlite: Step::Sqlite(sqlite_1),
        postgres: Step::Sql(PG_BASE),
    },
    // Each action row carries the status after it, so that an action no
    // longer rewrites its game's row (see [`sqlite_2`]).
    Migration {
        version: 2,
        name: "action statuses",
        sqlite: Step::Sqlite(sqlite_2),
        postgres: Step::Nothing(
            "PostgreSQL's writer updates the games row with each group of actions in the same \
             statement (other processes read it), so its actions carry no status",
        ),
    },
    // Accounts, their sessions and ratings (see `crate::accounts` and
    // `crate::ratings`); a seat's account; a game's `rated` flag and
    // whether its rating was applied. Games and seats stored before are
    // guests' and unrated.
    Migration {
        version: 3,
        name: "accounts",
        sqlite: Step::Sqlite(sqlite_3),
        postgres: Step::Sql(PG_ACCOUNTS),
    },
    // `actions` kept in the order of its key (see [`sqlite_4`]).
    Migration {
        version: 4,
        name: "actions without rowid",
        sqlite: Step::Sqlite(sqlite_4),
        postgres: Step::Nothing(
            "a PostgreSQL table has no rowid: its rows and its primary key were never two \
             B-trees of one kind",
        ),
    },
    // Indexes that hold only the rows their queries look for: seats by a
    // given player or account (a guest's and a bot's are NULL), public
    // games for the listing, and the unfinished games (what a start
    // reloads and expiry sweeps). Every game made wrote entries no query
    // read. SQLite spells the conditions as its queries do (`public = 1`):
    // it uses a partial index only for a query whose terms imply them.
    Migration {
        version: 5,
        name: "partial indexes",
        sqlite: Step::Sql(
            "DROP INDEX IF EXISTS seats_player;
             CREATE INDEX seats_player ON seats (player) WHERE player IS NOT NULL;
             DROP INDEX IF EXISTS seats_account;
             CREATE INDEX seats_account ON seats (account) WHERE account IS NOT NULL;
             DROP INDEX IF EXISTS games_listing;
             CREATE INDEX games_listing ON games (over, created_ms) WHERE public = 1;
             CREATE INDEX IF NOT EXISTS games_unfinished ON games (created_ms) WHERE over = 0;",
        ),
        postgres: Step::Sql(
            "DROP INDEX IF EXISTS seats_player;
             CREATE INDEX seats_player ON seats (player) WHERE player IS NOT NULL;
             DROP INDEX IF EXISTS seats_account;
             CREATE INDEX seats_account ON seats (account) WHERE account IS NOT NULL;
             DROP INDEX IF EXISTS games_listing;
             CREATE INDEX games_listing ON games (over, created_ms) WHERE public;
             CREATE INDEX IF NOT EXISTS games_unfinished ON games (created_ms) WHERE NOT over;",
        ),
    },
    Migration {
        version: 6,
        name: "username skeletons",
        sqlite: Step::Both(skeletons),
        postgres: Step::Both(skeletons),
    },
    // Which process runs each game's clocks and bots (see `crate::lease`).
    // PostgreSQL databases have had it since their second version (see
    // `old_postgres_version`): hence `IF NOT EXISTS`.
    Migration {
        version: 7,
        name: "leases",
        sqlite: Step::Nothing(
            "leases share out games between processes on one database; one process writes an \
             SQLite file and hosts all its games",
        ),
        postgres: Step::Sql(
            "CREATE TABLE IF NOT EXISTS leases (
                 game_id TEXT PRIMARY KEY,
                 owner TEXT NOT NULL,
                 expires_at TIMESTAMPTZ NOT NULL
             );
             CREATE INDEX IF NOT EXISTS leases_owner ON leases (owner);",
        ),
    },
    // Puzzles (see `crate::puzzles`): each game made for a puzzle, who
    // played it, its verdict and its score (a scoring game's points) (one try of a day's challenge each, by the
    // unique index), friends' challenges, and puzzle ratings of accounts
    // (`a:NAME`) and of puzzles (`p:ID`). The same tables on both, in each
    // dialect's types; `IF NOT EXISTS`, as every step, so that a database
    // whose recorded versions were lost is brought up to date again.
    Migration {
        version: 8,
        name: "puzzles",
        sqlite: Step::Sql(
            "CREATE TABLE IF NOT EXISTS puzzle_plays (
                 game_id TEXT PRIMARY KEY,
                 puzzle_id TEXT NOT NULL,
                 day INTEGER,
                 challenge TEXT,
                 who TEXT NOT NULL,
                 name TEXT,
                 created_ms INTEGER NOT NULL,
                 solved BOOLEAN,
                 complete BOOLEAN NOT NULL DEFAULT FALSE,
                 why TEXT,
                 rating_before REAL,
                 rating_after REAL,
                 score INTEGER
             );
             CREATE UNIQUE INDEX IF NOT EXISTS puzzle_plays_one_daily_try ON puzzle_plays (puzzle_id, day, who)
                 WHERE day IS NOT NULL;
             CREATE INDEX IF NOT EXISTS puzzle_plays_of_puzzle ON puzzle_plays (puzzle_id, created_ms);
             CREATE INDEX IF NOT EXISTS puzzle_plays_of_challenge ON puzzle_plays (challenge, created_ms)
                 WHERE challenge IS NOT NULL;
             CREATE INDEX IF NOT EXISTS puzzle_plays_of_player ON puzzle_plays (who, created_ms);
             CREATE TABLE IF NOT EXISTS puzzle_challenges (
                 id TEXT PRIMARY KEY,
                 puzzle_id TEXT NOT NULL,
                 by_name TEXT,
                 created_ms INTEGER NOT NULL
             );
             CREATE TABLE IF NOT EXISTS puzzle_ratings (
                 subject TEXT PRIMARY KEY,
                 rating REAL NOT NULL,
                 rd REAL NOT NULL,
                 volatility REAL NOT NULL,
                 tries INTEGER NOT NULL,
                 updated_ms INTEGER NOT NULL
             );",
        ),
        postgres: Step::Sql(
            "CREATE TABLE IF NOT EXISTS puzzle_plays (
                 game_id TEXT PRIMARY KEY,
                 puzzle_id TEXT NOT NULL,
                 day BIGINT,
                 challenge TEXT,
                 who TEXT NOT NULL,
                 name TEXT,
                 created_ms BIGINT NOT NULL,
                 solved BOOLEAN,
                 complete BOOLEAN NOT NULL DEFAULT FALSE,
                 why TEXT,
                 rating_before DOUBLE PRECISION,
                 rating_after DOUBLE PRECISION,
                 score BIGINT
             );
             CREATE UNIQUE INDEX IF NOT EXISTS puzzle_plays_one_daily_try ON puzzle_plays (puzzle_id, day, who)
                 WHERE day IS NOT NULL;
             CREATE INDEX IF NOT EXISTS puzzle_plays_of_puzzle ON puzzle_plays (puzzle_id, created_ms);
             CREATE INDEX IF NOT EXISTS puzzle_plays_of_challenge ON puzzle_plays (challenge, created_ms)
                 WHERE challenge IS NOT NULL;
             CREATE INDEX IF NOT EXISTS puzzle_plays_of_player ON puzzle_plays (who, created_ms);
             CREATE TABLE IF NOT EXISTS puzzle_challenges (
                 id TEXT PRIMARY KEY,
                 puzzle_id TEXT NOT NULL,
                 by_name TEXT,
                 created_ms BIGINT NOT NULL
             );
             CREATE TABLE IF NOT EXISTS puzzle_ratings (
                 subject TEXT PRIMARY KEY,
                 rating DOUBLE PRECISION NOT NULL,
                 rd DOUBLE PRECISION NOT NULL,
                 volatility DOUBLE PRECISION NOT NULL,
                 tries BIGINT NOT NULL,
                 updated_ms BIGINT NOT NULL
             );",
        ),
    },
];

/// The version of this list that a PostgreSQL database recorded as `old`
/// in PostgreSQL's former numbering holds. That list was: 1 base (with
/// presence), 2 leases, 3 accounts, 4 partial indexes, 5 skeletons; it had
/// nothing to do for 2 and 4 of this list, and its leases are this list's
/// 7, which is written to find the table already there. So a database at
/// old 1 is at 2 here, old 2 at 2 (with its leases: 7 changes nothing),
/// old 3 at 3, old 4 at 5 and old 5 at 6. `None`: a version that list
/// never had.
pub(super) fn old_postgres_version(old: i64) -> Option<i64> {
    match old {
        0 => Some(0),
        1 | 2 => Some(2),
        3 => Some(3),
        4 => Some(5),
        5 => Some(6),
        _ => None,
    }
}

/// The name of a version, for `schema_migrations`.
pub(super) fn name(version: i64) -> &'static str {
    MIGRATIONS
        .iter()
        .find(|m| m.version == version)
        .map_or("", |m| m.name)
}

/// The error for a database newer than this program.
pub(super) fn too_new(done: i64) -> StorageError {
    StorageError::misconfigured(format!(
        "the database's schema is at version {done}, newer than this program's \
         {SCHEMA_VERSION}: run a newer parlor on it"
    ))
}

/// Version 6: each account's confusable skeleton
/// ([`super::username_skeleton`]), unique, so that a new
/// username that looks like an existing one (`LiIly0` beside `Lilly0`) is
/// refused. The accounts made before get theirs here, oldest first; of
/// those that already look alike only the oldest holds the skeleton (the
/// others keep theirs NULL: they go on working, and a new name like them
/// is still refused, by the oldest's).
fn skeletons(db: &mut dyn Schema) -> Result<(), StorageError> {
    db.add_missing_columns("accounts", &[("skeleton", "TEXT")])?;
    let accounts = db.text_pairs(
        "SELECT username_key, username FROM accounts WHERE skeleton IS NULL \
         ORDER BY created_ms, username_key",
    )?;
    for (key, username) in accounts {
        db.execute(
            "UPDATE accounts SET skeleton = ?2 WHERE username_key = ?1 \
             AND NOT EXISTS (SELECT 1 FROM accounts WHERE skeleton = ?2)",
            &[&key, &username_skeleton(&username)],
        )?;
    }
    db.batch("CREATE UNIQUE INDEX IF NOT EXISTS accounts_skeleton ON accounts (skeleton)")
}

/// `sql` with SQLite's numbered parameters (`?1`) as PostgreSQL's (`$1`).
/// Statements are written once, in SQLite's form; PostgreSQL's text has
/// no other `?`.
pub(super) fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

/// SQLite's version 1: the tables, and the columns files made by earlier
/// versions lack.
pub(super) fn sqlite_1(conn: &Connection) -> Result<(), StorageError> {
    conn.execute_batch(SQLITE_BASE)
        .map_err(StorageError::from)?;
    // Files made by earlier versions lack the newer columns.
    for (column, decl) in [
        ("turn_seconds", "REAL"),
        ("aborted", "INTEGER NOT NULL DEFAULT 0"),
        ("absent_seconds", "REAL"),
        ("time_control", "TEXT"),
    ] {
        let has: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = ?1",
                [column],
                |r| r.get(0),
            )
            .map_err(StorageError::from)?;
        if has == 0 {
            conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} {decl}"))
                .map_err(StorageError::from)?;
        }
    }
    Ok(())
}

/// Version 2: each action row carries the status after it (`to_act`,
/// `outcome`, `updated_ms`), so that an action no longer rewrites its
/// game's row: the `games` row's status is written only when `over` or
/// the clock's start change (and by status writes), and a game's status
/// is its row's, or its newest action's when that is newer (see
/// `sqlite::newest_status`). Each action was two pages of the write-ahead log
/// (the actions index and the games row, 4 KiB each) and is now one.
/// Rows from before keep these columns NULL; their games rows are up to
/// date, since the code that wrote them rewrote the row at every action.
///
/// A file whose versions table was lost may have the columns already:
/// each is added only if missing.
pub(super) fn sqlite_2(conn: &Connection) -> Result<(), StorageError> {
    super::sqlite::add_missing_columns(
        conn,
        "actions",
        &[
            ("to_act", "TEXT"),
            ("outcome", "TEXT"),
            ("updated_ms", "INTEGER"),
        ],
    )
}

/// Version 3: accounts, their sessions and ratings (see `crate::accounts`
/// and `crate::ratings`); a seat's account; a game's `rated` flag and
/// whether its rating was applied (`rating_done`). Games and seats stored
/// before are guests' and unrated.
pub(super) fn sqlite_3(conn: &Connection) -> Result<(), StorageError> {
    super::sqlite::add_missing_columns(
        conn,
        "games",
        &[
            ("rated", "INTEGER NOT NULL DEFAULT 0"),
            ("rating_done", "INTEGER NOT NULL DEFAULT 0"),
        ],
    )?;
    super::sqlite::add_missing_columns(conn, "seats", &[("account", "TEXT")])?;
    conn.execute_batch(
        "CREATE INDEX IF NOT EXISTS seats_account ON seats (account);
         CREATE TABLE IF NOT EXISTS accounts (
             username_key TEXT PRIMARY KEY,
             username TEXT NOT NULL,
             password_hash TEXT NOT NULL,
             created_ms INTEGER NOT NULL
         );
         CREATE TABLE IF NOT EXISTS sessions (
             token_hash TEXT PRIMARY KEY,
             username TEXT NOT NULL,
             expires_ms INTEGER NOT NULL
         );
         CREATE TABLE IF NOT EXISTS ratings (
             username TEXT NOT NULL,
             game TEXT NOT NULL,
             rating REAL NOT NULL,
             rd REAL NOT NULL,
             volatility REAL NOT NULL,
             games INTEGER NOT NULL,
             updated_ms INTEGER NOT NULL,
             PRIMARY KEY (username, game)
         );
         CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, rating);
         CREATE TABLE IF NOT EXISTS rating_changes (
             game_id TEXT NOT NULL,
             username TEXT NOT NULL,
             before REAL NOT NULL,
             after REAL NOT NULL,
             at_ms INTEGER NOT NULL,
             PRIMARY KEY (game_id, username)
         );
         CREATE INDEX IF NOT EXISTS rating_changes_user ON rating_changes (username, at_ms);",
    )
    .map_err(StorageError::from)
}

/// Version 4: `actions` is a table `WITHOUT ROWID`, its rows kept in the
/// order of their key `(game_id, idx)`. As a rowid table it was two
/// B-trees, the rows (appended by rowid) and the key's index (where each
/// live game's next action lands at a random place): every action was
/// inserted into both. Now it goes into one, and a game's actions are
/// read from one place (issue 16: the writer's work per action). The rows
/// are copied as they are; a file whose versions table was lost may have
/// the new table already.
pub(super) fn sqlite_4(conn: &Connection) -> Result<(), StorageError> {
    let without_rowid: bool = conn
        .query_row(
            "SELECT COUNT(*) FROM pragma_table_list WHERE name = 'actions' AND wr = 1",
            [],
            |r| r.get(0),
        )
        .map_err(StorageError::from)?;
    if without_rowid {
        return Ok(());
    }
    conn.execute_batch(
        "CREATE TABLE actions_by_key (
             game_id TEXT NOT NULL REFERENCES games (id),
             idx INTEGER NOT NULL,
             actor TEXT NOT NULL,
             action TEXT NOT NULL,
             at_ms INTEGER NOT NULL,
             to_act TEXT,
             outcome TEXT,
             updated_ms INTEGER,
             PRIMARY KEY (game_id, idx)
         ) WITHOUT ROWID;
         INSERT INTO actions_by_key
             (game_id, idx, actor, action, at_ms, to_act, outcome, updated_ms)
             SELECT game_id, idx, actor, action, at_ms, to_act, outcome, updated_ms
             FROM actions;
         DROP TABLE actions;
         ALTER TABLE actions_by_key RENAME TO actions;",
    )
    .map_err(StorageError::from)
}

/// SQLite's version 1: the tables as they stood before versions were
/// recorded.
const SQLITE_BASE: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    lexicons TEXT NOT NULL,
    public INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    to_act TEXT NOT NULL,
    outcome TEXT,
    over INTEGER NOT NULL,
    deadline_key TEXT,
    deadline_started_ms INTEGER,
    updated_ms INTEGER NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    turn_seconds REAL,
    aborted INTEGER NOT NULL DEFAULT 0,
    absent_seconds REAL,
    time_control TEXT
);
CREATE INDEX IF NOT EXISTS games_listing ON games (over, public, created_ms);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    token TEXT,
    name TEXT,
    player TEXT,
    joined INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_player ON seats (player);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    idx INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS word_lists (
    id TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    name TEXT NOT NULL,
    words INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    text TEXT NOT NULL
);
";

/// PostgreSQL's version 1: the tables as they stood before versions were
/// recorded (`IF NOT EXISTS` throughout, and the columns older databases
/// lack).
const PG_BASE: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed BIGINT NOT NULL,
    lexicons TEXT NOT NULL,
    public BOOLEAN NOT NULL,
    created_ms BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    to_act TEXT NOT NULL,
    outcome TEXT,
    over BOOLEAN NOT NULL,
    deadline_key TEXT,
    deadline_started_ms BIGINT,
    updated_ms BIGINT NOT NULL,
    rematch_of TEXT,
    rematch TEXT,
    turn_seconds DOUBLE PRECISION,
    aborted BOOLEAN NOT NULL DEFAULT FALSE,
    absent_seconds DOUBLE PRECISION,
    time_control TEXT
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS turn_seconds DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN IF NOT EXISTS time_control TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS aborted BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN IF NOT EXISTS absent_seconds DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS games_listing ON games (over, public, created_ms);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat BIGINT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    token TEXT,
    name TEXT,
    player TEXT,
    joined BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_player ON seats (player);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    idx BIGINT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS word_lists (
    id TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    name TEXT NOT NULL,
    words BIGINT NOT NULL,
    skipped BIGINT NOT NULL,
    bytes BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS presence (
    process TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seat, process)
);
CREATE INDEX IF NOT EXISTS presence_process ON presence (process);
";

/// PostgreSQL's version 3 (SQLite's is [`sqlite_3`]: the same
/// tables in its types, each column added only where missing).
const PG_ACCOUNTS: &str = "
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rating_done BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seats ADD COLUMN IF NOT EXISTS account TEXT;
CREATE INDEX IF NOT EXISTS seats_account ON seats (account);
CREATE TABLE IF NOT EXISTS accounts (
    username_key TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    username TEXT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (username, game)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, rating);
CREATE TABLE IF NOT EXISTS rating_changes (
    game_id TEXT NOT NULL,
    username TEXT NOT NULL,
    before DOUBLE PRECISION NOT NULL,
    after DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, username)
);
CREATE INDEX IF NOT EXISTS rating_changes_user ON rating_changes (username, at_ms);
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_numbered_from_one_without_gaps() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.name);
            assert!(!matches!(m.postgres, Step::Sqlite(_)), "{}", m.name);
        }
        assert_eq!(MIGRATIONS.last().map(|m| m.version), Some(SCHEMA_VERSION));
    }

    #[test]
    fn parameters_are_renamed_for_postgres() {
        assert_eq!(
            dollar_params("UPDATE t SET a = ?12 WHERE b = ?1 AND c IS NOT NULL"),
            "UPDATE t SET a = $12 WHERE b = $1 AND c IS NOT NULL"
        );
    }
}
