//! [`Storage`] on an SQLite file (the default: no set-up).
//!
//! The file is in WAL mode with `synchronous = FULL`: a commit returns after
//! the write-ahead log is flushed to disk, so an acknowledged action survives
//! a crash of the process or of the machine. Two connections (writer and
//! reader) share the file; WAL lets the reader run during a write.

use super::migrations::{self, Schema, MIGRATIONS, SCHEMA_VERSION};
use super::writes::{self, Dialect, Param, Stmt};
use super::{
    json_text, parse_json, username_skeleton, AccountRow, ActionRow, DeadlineRow, GameRow,
    JsonText, ListFilter, Listed, RatingChangeRow, RatingRow, SeatKind, SeatRow, StatusRow,
    Storage, StorageError, StoredGame, WordListRow, Write, GAME_COLUMNS,
};
use super::{ms, SLOW_STORAGE};
use crate::ratings::Rating;
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::path::Path;
use std::time::Instant;

/// Games in an SQLite file.
pub struct SqliteStorage {
    conn: Connection,
    /// Live games' rows as this connection last wrote or read them.
    /// Frames in the log past which `maintain` restarts it
    /// ([`WAL_RESTART_FRAMES`]; tests lower it).
    restart_frames: i64,
}

fn err(e: rusqlite::Error) -> StorageError {
    StorageError::from(e)
}

impl SqliteStorage {
    /// Opens (creating if needed) the database file and its tables.
    pub fn open(path: &Path) -> Result<Self, StorageError> {
        Self::open_with(path, true)
    }

    /// The same connection, restarting the log past `frames` frames
    /// instead of 16,384 (64 MiB) when it does the maintenance: a
    /// crash test makes checkpoints frequent with it.
    pub fn with_restart_frames(mut self, frames: i64) -> Self {
        self.restart_frames = frames.max(1);
        self
    }

    /// As [`SqliteStorage::open`]; `full_sync: false` sets `synchronous =
    /// NORMAL` (durable against a process crash, not a power loss).
    pub fn open_with(path: &Path, full_sync: bool) -> Result<Self, StorageError> {
        Self::open_tuned(path, full_sync, true)
    }

    /// As [`SqliteStorage::open`], as plain SQLite: SQLite's own VFS
    /// instead of the log-writes one (`super::tuning`). What the tuning
    /// buys is measured against it (`sqlite://FILE?tuning=off`, see
    /// `docs/performance.md`).
    pub fn open_plain(path: &Path) -> Result<Self, StorageError> {
        Self::open_tuned(path, true, false)
    }

    fn open_tuned(path: &Path, full_sync: bool, tuned: bool) -> Result<Self, StorageError> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StorageError::unavailable(format!(
                        "cannot create folder {}: {e}",
                        dir.display()
                    ))
                    .with_source(e)
                })?;
            }
        }
        // Through the VFS that writes a commit's log frames at once (see
        // `log_writes`); SQLite's own if it could not be made.
        let opened = if tuned && super::tuning::log_writes::register() {
            let vfs = super::tuning::log_writes::NAME.to_str().unwrap_or_default();
            Connection::open_with_flags_and_vfs(path, rusqlite::OpenFlags::default(), vfs)
        } else {
            Connection::open(path)
        };
        let conn = opened.map_err(|e| {
            StorageError::unavailable(format!("cannot open {}: {e}", path.display()))
        })?;
        // Waits for a lock in short steps (SQLite's own timeout sleeps
        // 1, 2, 5, 10 ... ms): the writer waits out the moment the
        // maintenance connection restarts the log (see `maintenance`).
        conn.busy_handler(Some(wait_briefly)).map_err(err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(
            None,
            "synchronous",
            if full_sync { "FULL" } else { "NORMAL" },
        )
        .map_err(err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(err)?;
        // Checkpoints happen on the maintenance connection, not in the
        // writer's commits (see `maintenance`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(err)?;
        migrate(&conn)?;
        // Room for every statement a commit may run (rusqlite keeps 16 by
        // default): one evicted would be parsed again at its next use.
        conn.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
        Ok(SqliteStorage {
            conn,
            restart_frames: WAL_RESTART_FRAMES,
        })
    }
}

/// A checkpoint's kind (see `maintenance`).
#[derive(Clone, Copy, Debug)]
enum Checkpoint {
    /// Copies what it can without waiting for the writer.
    Passive,
    /// Copies every frame left, holding the writer off, so that the next
    /// commit writes the log from its beginning; `after`: the frames in
    /// the log at the passive pass before it.
    Restart { after: i64 },
}

/// What a checkpoint saw (SQLite's `wal_checkpoint` answer).
#[derive(Clone, Copy, Debug)]
struct Pass {
    /// Frames in the log.
    log: i64,
}

/// Passive passes, past the first, a restart may take to catch up with
/// the writer before it holds the writer off.
const CATCH_UP_PASSES: usize = 4;

/// Frames a passive pass may have copied (the writer's since the pass
/// before) for the restart to follow at once: that pass was short, so
/// what the restart copies while the writer waits (the frames written
/// during it) is fewer still.
const RESTART_LEFT_FRAMES: i64 = 256;

/// What one round of `maintain` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Maintained {
    /// Passive passes run.
    passes: usize,
    /// Frames the restarting checkpoint found left to copy while it held
    /// the writer off (None: no restart).
    restart_left: Option<i64>,
}

/// What `maintain` does after a passive pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The log is short (or started again by itself): nothing to restart.
    Done,
    /// Another passive pass first: the writer added many frames during
    /// the last one.
    Again,
    /// Restart the log now: the last pass was short.
    Restart,
}

/// The step after a passive pass that found `now` frames in the log, the
/// pass before it `before`, for a log restarted past `limit` frames. Each
/// pass copies what the writer added during the one before, so the passes
/// get shorter; once one had little to copy (it was short, and so is what
/// the writer added during it), the restart that holds the writer off
/// copies that little and syncs it.
fn next_step(before: i64, now: i64, limit: i64) -> Step {
    if now <= limit {
        return Step::Done;
    }
    // A log shorter than before started again from its beginning.
    let added = if now >= before { now - before } else { now };
    if added <= RESTART_LEFT_FRAMES {
        Step::Restart
    } else {
        Step::Again
    }
}

impl SqliteStorage {
    /// Checkpoints the log (see [`Storage::maintenance`]).
    fn maintain(&mut self) -> Maintained {
        let mut done = Maintained::default();
        // PASSIVE: copies what it can without waiting for the writer.
        let Some(first) = self.checkpoint(Checkpoint::Passive) else {
            return done;
        };
        done.passes = 1;
        if first.log <= self.restart_frames {
            return done;
        }
        // Under steady writes a passive checkpoint never catches up with
        // the writer, and the log only starts again from its beginning
        // once every frame is copied: it grew without bound (1.2 GB in a
        // 40 s benchmark), and every commit appended to a growing file.
        // So past a size the log is restarted, and a restart holds the
        // writer off while it copies what the passive passes left and
        // syncs the database file: every ack waits meanwhile. Right after
        // a long pass that was hundreds of frames and an `fsync` of them
        // (0.1 to 0.4 s on a loaded disk: the stalls of nim's benchmark).
        // More passive passes first (see `next_step`).
        let mut last = first.log;
        for _ in 0..CATCH_UP_PASSES {
            let Some(pass) = self.checkpoint(Checkpoint::Passive) else {
                return done;
            };
            done.passes += 1;
            let step = next_step(last, pass.log, self.restart_frames);
            last = pass.log;
            match step {
                Step::Done => return done,
                Step::Again => {}
                Step::Restart => break,
            }
        }
        // If the writer outran every pass the log is restarted anyway,
        // holding it off longer: a log that never restarts is worse.
        if let Some(restart) = self.checkpoint(Checkpoint::Restart { after: last }) {
            done.restart_left = Some(restart.log - last);
        }
        done
    }

    /// Runs one checkpoint, logging one that took long; None if it failed.
    fn checkpoint(&mut self, kind: Checkpoint) -> Option<Pass> {
        let started = Instant::now();
        let sql = match kind {
            Checkpoint::Passive => "PRAGMA wal_checkpoint(PASSIVE)",
            Checkpoint::Restart { .. } => "PRAGMA wal_checkpoint(RESTART)",
        };
        let (log, copied) = self
            .conn
            .query_row(sql, [], |r| Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)))
            .ok()?;
        let took = started.elapsed();
        if took >= SLOW_STORAGE {
            match kind {
                Checkpoint::Passive => tracing::warn!(
                    "sqlite: a passive checkpoint took {} ms ({log} frames in the log, {copied} \
                     copied to the database)",
                    ms(took)
                ),
                Checkpoint::Restart { after } => tracing::warn!(
                    "sqlite: a restarting checkpoint took {} ms, holding the writer off \
                     ({} frames left to copy after the passive pass)",
                    ms(took),
                    log - after
                ),
            }
        }
        Some(Pass { log })
    }
}

/// The writer's page cache in KiB (SQLite's default, every other
/// connection's, is 2,000 KiB); see `set_role`.
const WRITER_CACHE_KIB: i64 = 8_192;

/// Prepared statements kept per connection.
const STATEMENTS_KEPT: usize = 64;

/// Pause between two tries of a locked database.
const BUSY_PAUSE: std::time::Duration = std::time::Duration::from_micros(200);
/// Tries before a locked database is an error (10 s of pauses).
const BUSY_TRIES: i32 = 50_000;

/// The busy handler: pause briefly and try again, for up to 10 s.
fn wait_briefly(tries: i32) -> bool {
    if tries >= BUSY_TRIES {
        return false;
    }
    std::thread::sleep(BUSY_PAUSE);
    true
}

/// Frames in the write-ahead log past which the maintenance connection
/// makes the next commit start the log again from its beginning (16,384
/// frames of 4 KiB: 64 MiB).
const WAL_RESTART_FRAMES: i64 = 16_384;

/// The schema's version recorded in the file (0: none recorded).
fn schema_version(conn: &Connection) -> Result<i64, StorageError> {
    let has_table: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
            [],
            |r| r.get(0),
        )
        .map_err(err)?;
    if has_table == 0 {
        return Ok(0);
    }
    conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )
    .map_err(err)
}

/// Brings the file's schema up to date (see [`migrations`]), each
/// migration applied once and recorded in `schema_migrations`. SQLite has
/// one writer at a time: `BEGIN IMMEDIATE` takes the write lock before
/// looking, so two connections opening a new file together do not both
/// migrate it.
fn migrate(conn: &Connection) -> Result<(), StorageError> {
    if schema_version(conn)? == SCHEMA_VERSION {
        return Ok(());
    }
    conn.execute_batch("BEGIN IMMEDIATE").map_err(err)?;
    let result = (|| {
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_migrations (\
                 version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL, name TEXT)",
        )
        .map_err(err)?;
        // Files recorded before versions had names.
        add_missing_columns(conn, "schema_migrations", &[("name", "TEXT")])?;
        let done = schema_version(conn)?;
        if done > SCHEMA_VERSION {
            return Err(migrations::too_new(done));
        }
        for m in MIGRATIONS.iter().filter(|m| m.version > done) {
            match &m.sqlite {
                migrations::Step::Sql(sql) => conn.execute_batch(sql).map_err(err)?,
                migrations::Step::Sqlite(step) => step(conn)?,
                migrations::Step::Both(step) => step(&mut Schemaed(conn))?,
                migrations::Step::Nothing(why) => {
                    tracing::debug!(
                        "schema version {} on SQLite: nothing to do ({why})",
                        m.version
                    )
                }
            }
            conn.execute(
                "INSERT INTO schema_migrations (version, applied_ms, name) VALUES (?1, ?2, ?3)",
                params![m.version, crate::now_ms(), m.name],
            )
            .map_err(err)?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("COMMIT").map_err(err),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// An SQLite connection as a migration step sees it.
struct Schemaed<'a>(&'a Connection);

impl Schema for Schemaed<'_> {
    fn batch(&mut self, sql: &str) -> Result<(), StorageError> {
        self.0.execute_batch(sql).map_err(err)
    }
    fn add_missing_columns(
        &mut self,
        table: &str,
        columns: &[(&str, &str)],
    ) -> Result<(), StorageError> {
        add_missing_columns(self.0, table, columns)
    }
    fn text_pairs(&mut self, sql: &str) -> Result<Vec<(String, String)>, StorageError> {
        self.0
            .prepare(sql)
            .map_err(err)?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)
    }
    fn execute(&mut self, sql: &str, params: &[&str]) -> Result<u64, StorageError> {
        self.0
            .execute(sql, rusqlite::params_from_iter(params))
            .map(|n| n as u64)
            .map_err(err)
    }
}

fn rating_change_row(r: &Row<'_>) -> rusqlite::Result<RatingChangeRow> {
    Ok(RatingChangeRow {
        game_id: r.get(0)?,
        username: r.get(1)?,
        before: r.get(2)?,
        after: r.get(3)?,
    })
}

fn rating_row(r: &Row<'_>) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        username: r.get(0)?,
        game: r.get(1)?,
        rating: Rating {
            rating: r.get(2)?,
            rd: r.get(3)?,
            volatility: r.get(4)?,
        },
        games: r.get(5)?,
        updated_ms: r.get(6)?,
    })
}

/// Adds to `table` each of `columns` (name, declaration) it lacks.
pub(super) fn add_missing_columns(
    conn: &Connection,
    table: &str,
    columns: &[(&str, &str)],
) -> Result<(), StorageError> {
    for (column, decl) in columns {
        let has: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
                [table, column],
                |r| r.get(0),
            )
            .map_err(err)?;
        if has == 0 {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"))
                .map_err(err)?;
        }
    }
    Ok(())
}

/// The status of a game with `row` as stored: its row's, unless a newer
/// action carries a newer one (see `migrations::sqlite_2`).
fn newest_status(c: &Connection, row: &mut GameRow) -> Result<(), StorageError> {
    let newest = c
        .prepare_cached(
            "SELECT idx, to_act, outcome, updated_ms FROM actions \
             WHERE game_id = ?1 ORDER BY idx DESC LIMIT 1",
        )
        .map_err(err)?
        .query_row([&row.id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<i64>>(3)?,
            ))
        })
        .optional()
        .map_err(err)?;
    if let Some((idx, to_act, outcome, updated_ms)) = newest {
        overlay(&mut row.status, idx, to_act, outcome, updated_ms)?;
    }
    Ok(())
}

/// Puts the status carried by action `idx` over `status` if it is newer.
fn overlay(
    status: &mut StatusRow,
    idx: i64,
    to_act: Option<String>,
    outcome: Option<String>,
    updated_ms: Option<i64>,
) -> Result<(), StorageError> {
    let (Some(to_act), Some(updated_ms)) = (to_act, updated_ms) else {
        return Ok(());
    };
    let seq = idx as usize + 1;
    if seq > status.seq {
        status.seq = seq;
        status.to_act = JsonText::parse(to_act)?;
        status.outcome = outcome.map(JsonText::parse).transpose()?;
        status.updated_ms = updated_ms;
    }
    Ok(())
}

fn seats(c: &Connection, id: &str) -> Result<Vec<SeatRow>, StorageError> {
    let mut st = c
        .prepare_cached(
            "SELECT seat, kind, level, token, name, player, joined, account FROM seats \
                 WHERE game_id = ?1 ORDER BY seat",
        )
        .map_err(err)?;
    let rows = st
        .query_map([id], |r| {
            Ok(SeatRow {
                seat: r.get::<_, i64>(0)? as usize,
                kind: SeatKind::parse(&r.get::<_, String>(1)?),
                level: r.get(2)?,
                token: r.get(3)?,
                name: r.get(4)?,
                player: r.get(5)?,
                joined: r.get(6)?,
                account: r.get(7)?,
            })
        })
        .map_err(err)?;
    rows.collect::<Result<_, _>>().map_err(err)
}

impl SqliteStorage {
    fn listed(
        &self,
        sql: &str,
        params: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<Listed>, StorageError> {
        let mut st = self.conn.prepare_cached(sql).map_err(err)?;
        let rows: Vec<RawGame> = st
            .query_map(params, raw_game)
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        drop(st);
        rows.into_iter()
            .map(|raw| {
                let mut row = raw.parse()?;
                newest_status(&self.conn, &mut row)?;
                let seats = seats(&self.conn, &row.id)?;
                Ok(Listed { row, seats })
            })
            .collect()
    }
}

/// What a games row holds that an action may change.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RowFlags {
    /// The game was aborted: no action goes into it.
    aborted: bool,
    /// The game is over.
    over: bool,
    /// The running clock's key, if one runs.
    deadline_key: Option<String>,
    /// When that clock started.
    deadline_started_ms: Option<i64>,
}

impl RowFlags {
    /// Whether storing `status` changes what listings and restarts select
    /// by: the game ended, or its clock started, stopped or is another.
    fn changed_by(&self, status: &StatusRow) -> bool {
        let deadline = status.deadline.as_ref();
        self.over != status.over
            || self.deadline_key.as_deref() != deadline.map(|d| d.key.as_str())
            || self.deadline_started_ms != deadline.map(|d| d.started_ms)
    }
}

/// Writes an action (the other writes are [`writes::apply`]'s, the same as
/// PostgreSQL's); returns whether it was taken (see [`Storage::commit`]).
fn action(c: &Connection, w: &Write) -> Result<bool, StorageError> {
    let Write::Action {
        game_id,
        action,
        status,
    } = w
    else {
        return Err(StorageError::unavailable("not an action"));
    };
    // What the games row holds that an action may change (one read of a
    // page the writer's cache holds for a live game).
    let stored = row_flags(c, game_id)?;
    // The games row is written only when what listings and restarts
    // select by changes: the game ended, or its clock started or stopped.
    let changes_row = stored.changed_by(status);
    // No action goes into an aborted game.
    if stored.aborted {
        return Ok(false);
    }
    // One process writes an SQLite file, so the index is never taken in
    // practice; the same outcome as PostgreSQL anyway. The row carries the
    // status after it (see `migrations::sqlite_2`).
    let n = c
        .prepare_cached(
            "INSERT INTO actions (game_id, idx, actor, action, at_ms, to_act, outcome, updated_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT (game_id, idx) DO NOTHING",
        )
        .map_err(err)?
        .execute(params![
            game_id,
            action.idx as i64,
            json_text(&action.actor),
            json_text(&action.action),
            action.at_ms,
            status.to_act.as_str(),
            status.outcome.as_ref().map(JsonText::as_str),
            status.updated_ms,
        ])
        .map_err(err)?;
    if n == 0 {
        return Ok(false);
    }
    if changes_row && status_update(c, game_id, status)? != 1 {
        return Err(StorageError::conflict(format!("no game {game_id}")));
    }
    Ok(true)
}

/// A transaction of the writer, for [`writes::apply`].
struct SqliteTx<'a> {
    c: &'a Connection,
}

impl SqliteTx<'_> {
    fn statement(&self, st: Stmt) -> Result<rusqlite::CachedStatement<'_>, StorageError> {
        self.c.prepare_cached(&st.sql(Dialect::Sqlite)).map_err(err)
    }
}

fn sqlite_params<'a>(
    params: &'a [Param<'_>],
) -> rusqlite::ParamsFromIter<impl Iterator<Item = &'a dyn rusqlite::ToSql>> {
    rusqlite::params_from_iter(params.iter().map(Param::sqlite))
}

impl writes::Tx for SqliteTx<'_> {
    /// One at a time (see [`action`]).
    fn action(
        &mut self,
        writes: &[Write],
        i: usize,
        taken: &mut [bool],
    ) -> Result<(), StorageError> {
        taken[i] = action(self.c, &writes[i])?;
        Ok(())
    }

    fn exec(&mut self, st: Stmt, params: &[Param<'_>]) -> Result<u64, StorageError> {
        self.statement(st)?
            .execute(sqlite_params(params))
            .map(|n| n as u64)
            .map_err(err)
    }

    fn texts(
        &mut self,
        st: Stmt,
        params: &[Param<'_>],
    ) -> Result<Vec<Vec<Option<String>>>, StorageError> {
        let mut s = self.statement(st)?;
        let columns = s.column_count();
        let rows = s
            .query_map(sqlite_params(params), |r| {
                (0..columns).map(|i| r.get(i)).collect()
            })
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn reals(&mut self, st: Stmt, params: &[Param<'_>]) -> Result<Vec<Vec<f64>>, StorageError> {
        let mut s = self.statement(st)?;
        let columns = s.column_count();
        let rows = s
            .query_map(sqlite_params(params), |r| {
                (0..columns).map(|i| r.get(i)).collect()
            })
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }
}

/// Reads what `game_id`'s row holds that an action may change.
fn row_flags(c: &Connection, game_id: &str) -> Result<RowFlags, StorageError> {
    c.prepare_cached(
        "SELECT aborted, over, deadline_key, deadline_started_ms FROM games WHERE id = ?1",
    )
    .map_err(err)?
    .query_row([game_id], |r| {
        Ok(RowFlags {
            aborted: r.get(0)?,
            over: r.get(1)?,
            deadline_key: r.get(2)?,
            deadline_started_ms: r.get(3)?,
        })
    })
    .optional()
    .map_err(err)?
    .ok_or_else(|| StorageError::conflict(format!("no game {game_id}")))
}

/// Writes the status an action leaves in its game's row (when the game
/// ended or its clock moved). Returns the number of rows changed.
fn status_update(c: &Connection, game_id: &str, s: &StatusRow) -> Result<usize, StorageError> {
    c.prepare_cached(
        "UPDATE games SET seq = ?2, to_act = ?3, outcome = ?4, over = ?5, deadline_key = ?6, \
             deadline_started_ms = ?7, updated_ms = ?8 WHERE id = ?1",
    )
    .map_err(err)?
    .execute(params![
        game_id,
        s.seq as i64,
        s.to_act.as_str(),
        s.outcome.as_ref().map(JsonText::as_str),
        s.over,
        s.deadline.as_ref().map(|d| d.key.clone()),
        s.deadline.as_ref().map(|d| d.started_ms),
        s.updated_ms,
    ])
    .map_err(err)
}

/// A games row as read, before its JSON columns are parsed.
struct RawGame {
    id: String,
    game: String,
    config: String,
    seed: i64,
    lexicons: String,
    public: bool,
    created_ms: i64,
    seq: i64,
    to_act: String,
    outcome: Option<String>,
    over: bool,
    deadline_key: Option<String>,
    deadline_started_ms: Option<i64>,
    updated_ms: i64,
    rematch_of: Option<String>,
    rematch: Option<String>,
    turn_seconds: Option<f64>,
    aborted: bool,
    absent_seconds: Option<f64>,
    time_control: Option<String>,
    rated: bool,
}

fn raw_game(r: &Row<'_>) -> rusqlite::Result<RawGame> {
    Ok(RawGame {
        id: r.get(0)?,
        game: r.get(1)?,
        config: r.get(2)?,
        seed: r.get(3)?,
        lexicons: r.get(4)?,
        public: r.get(5)?,
        created_ms: r.get(6)?,
        seq: r.get(7)?,
        to_act: r.get(8)?,
        outcome: r.get(9)?,
        over: r.get(10)?,
        deadline_key: r.get(11)?,
        deadline_started_ms: r.get(12)?,
        updated_ms: r.get(13)?,
        rematch_of: r.get(14)?,
        rematch: r.get(15)?,
        turn_seconds: r.get(16)?,
        aborted: r.get(17)?,
        absent_seconds: r.get(18)?,
        time_control: r.get(19)?,
        rated: r.get(20)?,
    })
}

impl RawGame {
    fn parse(self) -> Result<GameRow, StorageError> {
        Ok(GameRow {
            id: self.id,
            game: self.game,
            config: JsonText::parse(self.config)?,
            seed: self.seed as u64,
            lexicons: JsonText::parse(self.lexicons)?,
            public: self.public,
            created_ms: self.created_ms,
            status: StatusRow {
                seq: self.seq as usize,
                to_act: JsonText::parse(self.to_act)?,
                outcome: self.outcome.map(JsonText::parse).transpose()?,
                over: self.over,
                deadline: match (self.deadline_key, self.deadline_started_ms) {
                    (Some(key), Some(started_ms)) => Some(DeadlineRow { key, started_ms }),
                    _ => None,
                },
                updated_ms: self.updated_ms,
            },
            rematch_of: self.rematch_of,
            rematch: self.rematch,
            time_control: super::time_control_of(
                self.time_control.as_deref(),
                self.turn_seconds,
                self.absent_seconds,
            )?,
            aborted: self.aborted,
            rated: self.rated,
        })
    }
}

impl Storage for SqliteStorage {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn set_role(&mut self, role: &'static str) {
        // The writer's inserts land on pages spread over the actions
        // index; a page missing from its cache is read back from the file
        // (a `pread`: 0.8 per nim action with the default cache, 0.06
        // with this one) before it is changed. Readers keep SQLite's
        // default: each connection's cache is memory of its own.
        if role == "writer" {
            // A cache that cannot grow only costs speed: no error.
            let _ = self
                .conn
                .pragma_update(None, "cache_size", -WRITER_CACHE_KIB);
            // The writer checks itself that a game exists before it writes
            // an action (its read of the games row: "no game"), and writes a game's seats with the game; games are
            // never deleted. SQLite's check of the same reference was one
            // more search of the games' index for every action and seat.
            let _ = self.conn.pragma_update(None, "foreign_keys", "OFF");
        }
    }

    fn commit(&mut self, writes: &[Write]) -> Result<Vec<bool>, StorageError> {
        // IMMEDIATE: the write lock is taken at the start, waiting (the
        // busy handler) while the maintenance connection restarts the
        // log. A deferred transaction whose first statement reads would
        // have to upgrade its read to a write, and SQLite refuses that
        // upgrade at once, without waiting ("database is locked").
        // The statements that begin and end it are prepared once
        // (rusqlite's `Transaction` parses them at every commit).
        let c = &self.conn;
        let started = Instant::now();
        c.prepare_cached("BEGIN IMMEDIATE")
            .and_then(|mut s| s.execute([]))
            .map_err(err)?;
        let locked = Instant::now();
        let mut applied = locked;
        let result = (|| {
            let taken = writes::apply(&mut SqliteTx { c }, writes)?;
            applied = Instant::now();
            c.prepare_cached("COMMIT")
                .and_then(|mut s| s.execute([]))
                .map_err(err)?;
            Ok(taken)
        })();
        let took = started.elapsed();
        if took >= SLOW_STORAGE {
            // Which part: the lock (a checkpoint holding the writer off),
            // the statements, or `COMMIT` (the log's frames and `fsync`).
            tracing::warn!(
                "sqlite: a commit of {} writes took {} ms (waiting for the write lock {} ms, \
                 statements {} ms, COMMIT with its fsync {} ms)",
                writes.len(),
                ms(took),
                ms(locked - started),
                ms(applied.saturating_duration_since(locked)),
                ms(applied.elapsed())
            );
        }
        match result {
            Ok(_) => {}
            Err(_) => {
                // A failed statement, or a commit that did not happen:
                // nothing of the group stays.
                if !c.is_autocommit() {
                    let _ = c.execute_batch("ROLLBACK");
                }
            }
        }
        result
    }

    fn load(&mut self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        let raw = self
            .conn
            .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))
            .map_err(err)?
            .query_row([id], raw_game)
            .optional()
            .map_err(err)?;
        let Some(raw) = raw else { return Ok(None) };
        let mut row = raw.parse()?;
        let seats = seats(&self.conn, id)?;
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT idx, actor, action, at_ms FROM actions WHERE game_id = ?1 ORDER BY idx",
            )
            .map_err(err)?;
        let raw_actions: Vec<(i64, String, String, i64)> = st
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?;
        drop(st);
        newest_status(&self.conn, &mut row)?;
        let actions = raw_actions
            .into_iter()
            .map(|(idx, actor, action, at_ms)| {
                Ok(ActionRow {
                    idx: idx as usize,
                    actor: parse_json(&actor)?,
                    action: parse_json(&action)?,
                    at_ms,
                })
            })
            .collect::<Result<_, StorageError>>()?;
        Ok(Some(StoredGame {
            row,
            seats,
            actions,
        }))
    }

    fn word_list(&mut self, id: &str, text: bool) -> Result<Option<WordListRow>, StorageError> {
        self.conn
            .prepare_cached(
                "SELECT id, fingerprint, name, words, skipped, bytes, created_ms, \
                 CASE WHEN ?2 THEN text END FROM word_lists WHERE id = ?1",
            )
            .map_err(err)?
            .query_row(params![id, text], |r| {
                Ok(WordListRow {
                    id: r.get(0)?,
                    fingerprint: r.get(1)?,
                    name: r.get(2)?,
                    words: r.get::<_, i64>(3)? as usize,
                    skipped: r.get::<_, i64>(4)? as usize,
                    bytes: r.get::<_, i64>(5)? as usize,
                    created_ms: r.get(6)?,
                    text: r.get(7)?,
                })
            })
            .optional()
            .map_err(err)
    }

    fn list(&mut self, filter: ListFilter, limit: usize) -> Result<Vec<Listed>, StorageError> {
        self.listed(&list_sql(filter), &[&(limit as i64)])
    }

    fn by_player(&mut self, player: &str, limit: usize) -> Result<Vec<Listed>, StorageError> {
        self.listed(&by_player_sql(), &[&player, &(limit as i64)])
    }

    fn account(&mut self, username: &str) -> Result<Option<AccountRow>, StorageError> {
        self.conn
            .prepare_cached(
                "SELECT username, password_hash, created_ms FROM accounts WHERE username_key = ?1",
            )
            .map_err(err)?
            .query_row([username.to_lowercase()], |r| {
                Ok(AccountRow {
                    username: r.get(0)?,
                    password_hash: r.get(1)?,
                    created_ms: r.get(2)?,
                })
            })
            .optional()
            .map_err(err)
    }

    fn account_like(&mut self, username: &str) -> Result<Option<String>, StorageError> {
        self.conn
            .prepare_cached("SELECT username FROM accounts WHERE skeleton = ?1")
            .map_err(err)?
            .query_row([username_skeleton(username)], |r| r.get(0))
            .optional()
            .map_err(err)
    }

    fn session(&mut self, token_hash: &str, now_ms: i64) -> Result<Option<String>, StorageError> {
        self.conn
            .prepare_cached(
                "SELECT username FROM sessions WHERE token_hash = ?1 AND expires_ms > ?2",
            )
            .map_err(err)?
            .query_row(params![token_hash, now_ms], |r| r.get(0))
            .optional()
            .map_err(err)
    }

    fn ratings(&mut self, username: &str) -> Result<Vec<RatingRow>, StorageError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT username, game, rating, rd, volatility, games, updated_ms FROM ratings \
                 WHERE username = ?1 ORDER BY game",
            )
            .map_err(err)?;
        let rows = st.query_map([username], rating_row).map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn leaderboard(&mut self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StorageError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT username, game, rating, rd, volatility, games, updated_ms FROM ratings \
                 WHERE game = ?1 ORDER BY rating DESC, username LIMIT ?2",
            )
            .map_err(err)?;
        let rows = st
            .query_map(params![game, limit as i64], rating_row)
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn rating_changes(
        &mut self,
        username: &str,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StorageError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT game_id, username, before, after FROM rating_changes \
                 WHERE username = ?1 ORDER BY at_ms DESC LIMIT ?2",
            )
            .map_err(err)?;
        let rows = st
            .query_map(params![username, limit as i64], rating_change_row)
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn puzzle_plays(
        &mut self,
        query: &super::PlaysQuery,
        game_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<super::PuzzlePlayRow>, StorageError> {
        let sql = super::plays_sql(|p, _| p.to_string());
        let mut st = self.conn.prepare_cached(&sql).map_err(err)?;
        let rows = st
            .query_map(
                params![
                    query.puzzle_id,
                    query.day,
                    query.challenge,
                    query.who,
                    game_id,
                    limit.min(i64::MAX as usize) as i64
                ],
                |r| {
                    let before: Option<f64> = r.get(10)?;
                    let after: Option<f64> = r.get(11)?;
                    Ok(super::PuzzlePlayRow {
                        game_id: r.get(0)?,
                        puzzle_id: r.get(1)?,
                        day: r.get(2)?,
                        challenge: r.get(3)?,
                        who: r.get(4)?,
                        name: r.get(5)?,
                        created_ms: r.get(6)?,
                        solved: r.get(7)?,
                        complete: r.get(8)?,
                        why: r.get(9)?,
                        rating: before.zip(after),
                        score: r.get(12)?,
                    })
                },
            )
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn challenge(&mut self, id: &str) -> Result<Option<super::ChallengeRow>, StorageError> {
        self.conn
            .prepare_cached(
                "SELECT id, puzzle_id, by_name, created_ms FROM puzzle_challenges WHERE id = ?1",
            )
            .map_err(err)?
            .query_row([id], |r| {
                Ok(super::ChallengeRow {
                    id: r.get(0)?,
                    puzzle_id: r.get(1)?,
                    by_name: r.get(2)?,
                    created_ms: r.get(3)?,
                })
            })
            .optional()
            .map_err(err)
    }

    fn puzzle_rating(&mut self, subject: &str) -> Result<Option<(Rating, i64)>, StorageError> {
        self.conn
            .prepare_cached(
                "SELECT rating, rd, volatility, tries FROM puzzle_ratings WHERE subject = ?1",
            )
            .map_err(err)?
            .query_row([subject], |r| {
                Ok((
                    Rating {
                        rating: r.get(0)?,
                        rd: r.get(1)?,
                        volatility: r.get(2)?,
                    },
                    r.get(3)?,
                ))
            })
            .optional()
            .map_err(err)
    }

    fn game_rating_changes(&mut self, game_id: &str) -> Result<Vec<RatingChangeRow>, StorageError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT game_id, username, before, after FROM rating_changes WHERE game_id = ?1",
            )
            .map_err(err)?;
        let rows = st.query_map([game_id], rating_change_row).map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn by_account(
        &mut self,
        username: &str,
        over: bool,
        limit: usize,
    ) -> Result<Vec<Listed>, StorageError> {
        self.listed(&by_account_sql(over), &[&username, &(limit as i64)])
    }

    fn wants_maintenance(&mut self) -> bool {
        true
    }

    fn maintenance(&mut self) {
        self.maintain();
    }

    fn unfinished(&mut self) -> Result<Vec<Listed>, StorageError> {
        self.listed(&unfinished_sql(), &[])
    }
}

// The queries that find games by something other than their id. Each has
// an index that holds just the rows it looks for (see version 5 in
// `migrations`): a
// partial index serves a query only if the query's own terms imply the
// index's condition (`public = 1` written as such, `player = ?` implying
// `player IS NOT NULL`), which `the_listings_use_their_indexes` checks.

/// Public games by [`ListFilter`], newest first (`?1`: the limit).
fn list_sql(filter: ListFilter) -> String {
    // A seat anyone may claim: human, free, and not invited (no token).
    let free = "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id \
                AND s.kind = 'human' AND s.joined = 0 AND s.token IS NULL)";
    let cond = match filter {
        ListFilter::Open => format!("over = 0 AND {free}"),
        ListFilter::Live => format!("over = 0 AND NOT {free}"),
        ListFilter::Unfinished => "over = 0".to_string(),
        ListFilter::Over => "over = 1".to_string(),
    };
    format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE public = 1 AND {cond} \
         ORDER BY created_ms DESC, id LIMIT ?1"
    )
}

/// A player key's games, newest first (`?1`: the key, `?2`: the limit).
fn by_player_sql() -> String {
    format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE id IN \
         (SELECT game_id FROM seats WHERE player = ?1) \
         ORDER BY created_ms DESC, id LIMIT ?2"
    )
}

/// An account's games (finished and not aborted, or all), newest first
/// (`?1`: the username, `?2`: the limit).
fn by_account_sql(over: bool) -> String {
    let cond = if over {
        "over = 1 AND aborted = 0"
    } else {
        "1 = 1"
    };
    format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE {cond} AND id IN \
         (SELECT game_id FROM seats WHERE account = ?1) \
         ORDER BY created_ms DESC, id LIMIT ?2"
    )
}

/// Every unfinished game, oldest first.
fn unfinished_sql() -> String {
    format!("SELECT {GAME_COLUMNS} FROM games WHERE over = 0 ORDER BY created_ms, id")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::ScratchDir;

    fn cache_size(s: &SqliteStorage) -> i64 {
        s.conn
            .query_row("PRAGMA cache_size", [], |r| r.get(0))
            .unwrap()
    }

    /// A nim game's row as these tests store it.
    fn nim_row(id: &str, public: bool, created_ms: i64, status: StatusRow) -> GameRow {
        GameRow {
            id: id.into(),
            game: "nim".into(),
            config: serde_json::json!({"pile": 5}).into(),
            seed: 7,
            lexicons: serde_json::json!([]).into(),
            public,
            created_ms,
            status,
            rematch_of: None,
            rematch: None,
            time_control: Default::default(),
            aborted: false,
            rated: false,
        }
    }

    /// Seat 0, a human's who has joined with token `t`.
    fn human_seat(player: Option<&str>, account: Option<&str>) -> crate::storage::SeatRow {
        crate::storage::SeatRow {
            seat: 0,
            kind: crate::storage::SeatKind::Human,
            level: None,
            token: Some("t".into()),
            name: None,
            player: player.map(Into::into),
            joined: true,
            account: account.map(Into::into),
        }
    }

    /// The writer, which leaves SQLite's reference checks to its own,
    /// still refuses an action of a game that is not there, and stores
    /// nothing of its group.
    #[test]
    fn the_writer_refuses_an_action_of_no_game() {
        use crate::storage::ActionRow;
        use serde_json::json;
        let dir = ScratchDir::new("no-game");
        let mut writer = SqliteStorage::open(&dir.0.join("parlor.db")).unwrap();
        writer.set_role("writer");
        let action = Write::Action {
            game_id: "nowhere".into(),
            action: ActionRow {
                idx: 0,
                actor: json!({"seat": 0}),
                action: json!(1),
                at_ms: 1,
            },
            status: StatusRow {
                seq: 1,
                to_act: json!({"one": 1}).into(),
                outcome: None,
                over: false,
                deadline: None,
                updated_ms: 1,
            },
        };
        let e = writer.commit(&[action]).unwrap_err();
        assert!(e.to_string().contains("no game nowhere"), "{e}");
        let n: i64 = writer
            .conn
            .query_row("SELECT COUNT(*) FROM actions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
    }

    /// A file of version 3 (actions in a rowid table) keeps every action
    /// through migration 4, and its actions table then has no rowid.
    #[test]
    fn version_4_keeps_the_actions_of_an_older_file() {
        use crate::storage::{ActionRow, DeadlineRow};
        use serde_json::json;
        let dir = ScratchDir::new("v4");
        let path = dir.0.join("parlor.db");
        let status = |seq: usize| StatusRow {
            seq,
            to_act: json!({"one": seq % 2}).into(),
            outcome: None,
            over: false,
            deadline: Some(DeadlineRow {
                key: format!("k{seq}"),
                started_ms: 5,
            }),
            updated_ms: 10 + seq as i64,
        };
        let action = |game_id: &str, idx: usize| Write::Action {
            game_id: game_id.into(),
            action: ActionRow {
                idx,
                actor: json!({"seat": idx % 2}),
                action: json!(idx + 1),
                at_ms: 100 + idx as i64,
            },
            status: status(idx + 1),
        };
        let mut s = SqliteStorage::open(&path).unwrap();
        let mut writes = Vec::new();
        for id in ["b", "a", "c"] {
            writes.push(Write::NewGame {
                row: nim_row(id, true, 1, status(0)),
                seats: vec![human_seat(None, None)],
            });
            writes.extend((0..3).map(|i| action(id, i)));
        }
        s.commit(&writes).unwrap();
        let before: Vec<_> = ["a", "b", "c"]
            .map(|id| s.load(id).unwrap().unwrap())
            .into();
        // Back to version 3's table, rows and all, made as the older
        // migrations made it.
        s.conn
            .execute_batch("CREATE TABLE old_actions AS SELECT * FROM actions; DROP TABLE actions;")
            .unwrap();
        super::super::migrations::sqlite_1(&s.conn).unwrap();
        super::super::migrations::sqlite_2(&s.conn).unwrap();
        s.conn
            .execute_batch(
                "INSERT INTO actions SELECT * FROM old_actions;
                 DROP TABLE old_actions;
                 DELETE FROM schema_migrations WHERE version >= 4;",
            )
            .unwrap();
        let has_rowid = |c: &Connection| c.prepare("SELECT rowid FROM actions").is_ok();
        assert!(has_rowid(&s.conn));
        drop(s);
        let mut s = SqliteStorage::open(&path).unwrap();
        assert!(!has_rowid(&s.conn), "actions still has a rowid");
        assert_eq!(schema_version(&s.conn).unwrap(), SCHEMA_VERSION);
        let after: Vec<_> = ["a", "b", "c"]
            .map(|id| s.load(id).unwrap().unwrap())
            .into();
        assert_eq!(after, before);
        assert_eq!(after[0].actions.len(), 3);
        // And it takes new actions, refusing one already there.
        assert_eq!(s.commit(&[action("a", 3)]).unwrap(), vec![true]);
        assert_eq!(s.commit(&[action("a", 3)]).unwrap(), vec![false]);
        assert_eq!(s.load("a").unwrap().unwrap().actions.len(), 4);
    }

    /// What SQLite plans for a query: one line per step.
    fn plan(c: &Connection, sql: &str) -> Vec<String> {
        let mut st = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let mut rows = st.raw_query();
        let mut steps = Vec::new();
        while let Some(r) = rows.next().unwrap() {
            steps.push(r.get::<_, String>(3).unwrap());
        }
        steps
    }

    /// Each query that finds games by something other than their id is
    /// served by its own index, partial since version 5, in a new file as
    /// in one brought up from version 4's indexes; and the partial indexes
    /// find the same games.
    #[test]
    fn the_listings_use_their_indexes() {
        use crate::storage::{SeatKind, SeatRow};
        use serde_json::json;
        let dir = ScratchDir::new("plans");
        let path = dir.0.join("parlor.db");
        let game = |id: &str, public: bool, over: bool, created_ms: i64| {
            let status = StatusRow {
                seq: 0,
                to_act: if over {
                    json!("over")
                } else {
                    json!({"one": 0})
                }
                .into(),
                outcome: None,
                over,
                deadline: None,
                updated_ms: created_ms,
            };
            nim_row(id, public, created_ms, status)
        };
        let seats = |player: Option<&str>, account: Option<&str>| {
            vec![
                human_seat(player, account),
                SeatRow {
                    seat: 1,
                    kind: SeatKind::Bot,
                    level: Some("easy".into()),
                    token: None,
                    name: None,
                    player: None,
                    joined: true,
                    account: None,
                },
            ]
        };
        let mut s = SqliteStorage::open(&path).unwrap();
        s.commit(&[
            Write::NewGame {
                row: game("pub1", true, false, 1),
                seats: seats(Some("p1"), None),
            },
            Write::NewGame {
                row: game("priv", false, false, 2),
                seats: seats(Some("p1"), Some("alice")),
            },
            Write::NewGame {
                row: game("pub2", true, true, 3),
                seats: seats(None, Some("alice")),
            },
        ])
        .unwrap();
        // Version 4's indexes, as a file made before version 5 has them.
        s.conn
            .execute_batch(
                "DROP INDEX seats_player; CREATE INDEX seats_player ON seats (player);
                 DROP INDEX seats_account; CREATE INDEX seats_account ON seats (account);
                 DROP INDEX games_listing;
                 CREATE INDEX games_listing ON games (over, public, created_ms);
                 DROP INDEX games_unfinished;
                 DELETE FROM schema_migrations WHERE version >= 5;",
            )
            .unwrap();
        let ids = |v: Vec<Listed>| v.into_iter().map(|l| l.row.id).collect::<Vec<_>>();
        let answers = |s: &mut SqliteStorage| {
            (
                ids(s.list(ListFilter::Unfinished, 10).unwrap()),
                ids(s.list(ListFilter::Over, 10).unwrap()),
                ids(s.unfinished().unwrap()),
                ids(s.by_player("p1", 10).unwrap()),
                ids(s.by_account("alice", false, 10).unwrap()),
                ids(s.by_account("alice", true, 10).unwrap()),
            )
        };
        let before = answers(&mut s);
        assert_eq!(
            before,
            (
                vec!["pub1".to_string()],
                vec!["pub2".to_string()],
                vec!["pub1".to_string(), "priv".to_string()],
                vec!["priv".to_string(), "pub1".to_string()],
                vec!["pub2".to_string(), "priv".to_string()],
                vec!["pub2".to_string()],
            )
        );
        drop(s);
        for fresh in [false, true] {
            let mut s = if fresh {
                SqliteStorage::open(&dir.0.join("new.db")).unwrap()
            } else {
                SqliteStorage::open(&path).unwrap()
            };
            assert_eq!(schema_version(&s.conn).unwrap(), SCHEMA_VERSION);
            let queries = [
                (list_sql(ListFilter::Open), "games_listing"),
                (list_sql(ListFilter::Live), "games_listing"),
                (list_sql(ListFilter::Unfinished), "games_listing"),
                (list_sql(ListFilter::Over), "games_listing"),
                (unfinished_sql(), "games_unfinished"),
                (by_player_sql(), "seats_player"),
                (by_account_sql(false), "seats_account"),
                (by_account_sql(true), "seats_account"),
            ];
            for (sql, index) in queries {
                let steps = plan(&s.conn, &sql);
                assert!(
                    steps.iter().any(|d| d.contains(index)),
                    "{sql}: not through {index}: {steps:?}"
                );
                assert!(
                    !steps.iter().any(|d| d == "SCAN games" || d == "SCAN seats"),
                    "{sql}: a whole table read: {steps:?}"
                );
            }
            let partial: i64 = s
                .conn
                .query_row(
                    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' \
                     AND name IN ('seats_player', 'seats_account', 'games_listing', \
                     'games_unfinished') AND sql LIKE '% WHERE %'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(partial, 4);
            if !fresh {
                assert_eq!(answers(&mut s), before);
            }
        }
    }

    /// Only the writer's page cache is enlarged: every other connection
    /// keeps SQLite's default (memory is per connection).
    #[test]
    fn the_writer_alone_has_a_larger_page_cache() {
        let dir = ScratchDir::new("cache");
        let path = dir.0.join("parlor.db");
        let mut writer = SqliteStorage::open(&path).unwrap();
        let mut reader = SqliteStorage::open(&path).unwrap();
        let default = cache_size(&reader);
        writer.set_role("writer");
        reader.set_role("reader");
        assert_eq!(cache_size(&writer), -WRITER_CACHE_KIB);
        assert_eq!(cache_size(&reader), default);
        assert!(WRITER_CACHE_KIB > -default);
        drop((writer, reader));
    }

    /// What `tracing` wrote while a test ran.
    #[derive(Clone, Default)]
    struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Log {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Log {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }
        /// Runs `f` with this log catching the warnings of this thread.
        fn catch<T>(&self, f: impl FnOnce() -> T) -> T {
            let log = self.clone();
            let subscriber = tracing_subscriber::fmt()
                .with_writer(move || log.clone())
                .with_ansi(false)
                .finish();
            tracing::subscriber::with_default(subscriber, f)
        }
    }

    /// The number after `label` in a log line (`... label 12.5 ms ...`).
    fn figure(text: &str, label: &str) -> Option<f64> {
        let rest = &text[text.find(label)? + label.len()..];
        rest.split_whitespace().next()?.parse().ok()
    }

    /// A commit held off past `SLOW_STORAGE` is logged, and the line says
    /// which part took the time (here the write lock, held by another
    /// connection as a restarting checkpoint holds it).
    #[test]
    fn a_slow_commit_is_logged_with_the_part_that_took_long() {
        let dir = ScratchDir::new("slow-commit");
        let path = dir.0.join("parlor.db");
        let mut writer = SqliteStorage::open(&path).unwrap();
        let holder = SqliteStorage::open(&path).unwrap();
        holder.conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        // The lock is held from just before the writer asks for it, and
        // twice as long as a slow commit: a busy machine that starts the
        // writer late still leaves it waiting past SLOW_STORAGE.
        let (asking, asked) = std::sync::mpsc::channel::<()>();
        let release = std::thread::spawn(move || {
            asked.recv().unwrap();
            std::thread::sleep(SLOW_STORAGE * 2);
            holder.conn.execute_batch("COMMIT").unwrap();
        });
        let log = Log::default();
        log.catch(|| {
            asking.send(()).unwrap();
            writer.commit(&[]).unwrap()
        });
        release.join().unwrap();
        let text = log.text();
        assert!(text.contains("WARN"), "{text}");
        assert!(text.contains("sqlite: a commit of 0 writes took"), "{text}");
        let lock = figure(&text, "waiting for the write lock").unwrap();
        assert!(lock >= ms(SLOW_STORAGE), "{text}");
        // A quick commit says nothing.
        let quiet = Log::default();
        quiet.catch(|| writer.commit(&[]).unwrap());
        assert_eq!(quiet.text(), "");
        drop(writer);
    }

    /// Commits `frames` pages' worth of rows on `c` (a writer of its own).
    fn write_frames(c: &Connection, frames: usize) {
        c.execute_batch("BEGIN IMMEDIATE").unwrap();
        for _ in 0..frames {
            c.execute("INSERT INTO filler (b) VALUES (zeroblob(4000))", [])
                .unwrap();
        }
        c.execute_batch("COMMIT").unwrap();
    }

    fn log_frames(c: &Connection) -> i64 {
        c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
            .unwrap()
    }

    /// The log is restarted only once a passive pass found little new
    /// from the writer: the restart, which holds the writer off, then
    /// copies a short pass's frames, not the hundreds a long pass let the
    /// writer add (nim's 0.1 to 0.4 s stalls). The figures are a nim run's
    /// (a log restarted past 16,384 frames, ~4,000 frames a pass).
    #[test]
    fn the_log_restarts_only_after_a_short_pass() {
        let limit = WAL_RESTART_FRAMES;
        // A short log, or one that started again by itself: done.
        assert_eq!(next_step(12_000, 15_000, limit), Step::Done);
        assert_eq!(next_step(18_000, 900, limit), Step::Done);
        // A long pass let the writer add 3,900 frames: another pass.
        assert_eq!(next_step(16_900, 20_800, limit), Step::Again);
        // That one was short: 120 frames added during it. Restart.
        assert_eq!(next_step(20_800, 20_920, limit), Step::Restart);
        assert_eq!(
            next_step(20_800, 20_800 + RESTART_LEFT_FRAMES, limit),
            Step::Restart
        );
        assert_eq!(
            next_step(20_800, 20_801 + RESTART_LEFT_FRAMES, limit),
            Step::Again
        );
    }

    /// A log past the limit is restarted by the maintenance connection:
    /// the writer's next commit writes it from its beginning.
    #[test]
    fn maintenance_restarts_a_long_log() {
        let dir = ScratchDir::new("restart");
        let path = dir.0.join("parlor.db");
        let mut keeper = SqliteStorage::open(&path).unwrap();
        keeper.restart_frames = 500;
        let writer = SqliteStorage::open(&path).unwrap();
        writer
            .conn
            .execute_batch("CREATE TABLE filler (b BLOB)")
            .unwrap();
        write_frames(&writer.conn, 800);
        let done = keeper.maintain();
        // The second pass found nothing new: the restart copied nothing.
        assert_eq!(
            done,
            Maintained {
                passes: 2,
                restart_left: Some(0)
            }
        );
        write_frames(&writer.conn, 100);
        assert!(log_frames(&keeper.conn) < 150);
        // A short log: one pass, no restart.
        assert_eq!(
            keeper.maintain(),
            Maintained {
                passes: 1,
                restart_left: None
            }
        );
        drop((keeper, writer));
    }
}
