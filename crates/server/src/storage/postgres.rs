//! [`Storage`] on PostgreSQL, for a deployment that outgrows one machine.
//!
//! The same tables as the SQLite file. A commit returns once PostgreSQL has
//! made the transaction durable (with the server's default
//! `synchronous_commit = on`). The statements are prepared once per
//! connection.
//!
//! Several server processes may share the database: writes are
//! conditional where two processes could race (an action's index, a seat
//! claim, a rematch, a status), each reports whether it was taken, and
//! every change is announced with `pg_notify('parlor_games', 'ID:SEQ' (a
//! group's actions: several, comma-separated) or
//! 'ID:*')` in its own transaction, for the other processes' [`listen`]ers.
//!
//! The schema is created and changed by the numbered migrations both
//! databases share (see [`migrations`]), applied once each under an
//! advisory lock and recorded in `schema_migrations`, so processes
//! starting together on an empty database do not race to create it.
//!
//! A connection that PostgreSQL ends (a restart, `pg_terminate_backend`, a
//! network cut) is opened again: the operation that found it dead fails
//! (a write is never sent twice: it may have committed), a read is tried
//! once more on a new connection, and later operations reconnect, at most
//! every [`BACKOFF_MAX`] while the database stays away. A connection
//! unused for [`IDLE_CHECK`] is checked with one empty query before a
//! write (a busy writer never pays for it), so a database that restarted
//! or ended the connection before a write costs that write nothing: only
//! writes sent within that moment (in flight) fail.

use super::migrations::{self, Schema, Step, MIGRATIONS, SCHEMA_VERSION};
use super::store::Notice;
use super::username_skeleton;
use super::writes::{self, Dialect, Param, Stmt};
use super::{
    json_text, parse_json, AccountRow, ActionRow, DeadlineRow, GameRow, JsonText, LeaseOp,
    ListFilter, Listed, RatingChangeRow, RatingRow, SeatKind, SeatRow, StatusRow, Storage,
    StorageError, StoredGame, WordListRow, Write, GAME_COLUMNS,
};
use crate::ratings::Rating;
use postgres::{Client, NoTls, Row, Statement};
use std::time::{Duration, Instant};

/// A connection unused this long is checked before use.
pub const IDLE_CHECK: Duration = Duration::from_millis(100);
/// First pause between reconnection attempts; it doubles up to [`BACKOFF_MAX`].
const BACKOFF_MIN: Duration = Duration::from_millis(100);
/// Longest pause between reconnection attempts.
pub const BACKOFF_MAX: Duration = Duration::from_secs(2);
/// How long a liveness check or a connection attempt may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// The key of the advisory lock under which the schema is migrated, so
/// that processes started together on an empty database do not create the
/// same tables at once (`duplicate key ... pg_type_typname_nsp_index`).
/// Any fixed number; this one spells "parlor" in ASCII.
const MIGRATION_LOCK: i64 = 0x7061_726c_6f72;

struct Prepared {
    notify: Statement,
    load_game: Statement,
    load_seats: Statement,
    load_actions: Statement,
    seqs: Statement,
    insert_actions: Statement,
    load_word_list: Statement,
    presence_hold: Statement,
    presence_release: Statement,
    presence_refresh: Statement,
    presence: Statement,
    lease_take: Statement,
    lease_renew: Statement,
    lease_take_lapsed: Statement,
    lease_release: Statement,
    /// [`writes::Stmt`]'s, in the order of [`Stmt::ALL`].
    writes: Vec<Statement>,
}

/// Games in a PostgreSQL database, over one connection that is opened
/// again when PostgreSQL drops it (see the module's documentation).
pub struct PgStorage {
    url: String,
    /// `writer`, `reader`: for log lines.
    role: &'static str,
    /// None while the database is away.
    conn: Option<PgConn>,
    last_used: Instant,
    /// No reconnection attempt before this.
    retry_at: Option<Instant>,
    backoff: Duration,
    /// The loss was logged; the recovery will be.
    down: bool,
}

/// One open connection and its prepared statements.
struct PgConn {
    client: Client,
    st: Prepared,
}

fn err(e: postgres::Error) -> StorageError {
    // The database's own message (constraint, connection) is the useful part.
    match e.as_db_error() {
        Some(db) => StorageError::unavailable(format!("postgres: {}", db.message())),
        None => StorageError::unavailable(format!("postgres: {e}")),
    }
    .with_source(e)
}

impl PgStorage {
    /// Connects (without TLS: use a loopback address or a local socket) and
    /// creates the tables if needed.
    pub fn connect(url: &str) -> Result<Self, StorageError> {
        Ok(PgStorage {
            url: url.to_string(),
            role: "database",
            conn: Some(PgConn::connect(url)?),
            last_used: Instant::now(),
            retry_at: None,
            backoff: BACKOFF_MIN,
            down: false,
        })
    }

    /// The open connection: checked first if idle, opened again if lost
    /// (at most once per backoff period while the database is away).
    fn conn(&mut self, check_idle: bool) -> Result<&mut PgConn, StorageError> {
        if let Some(c) = &mut self.conn {
            let dead = c.client.is_closed()
                || (check_idle
                    && self.last_used.elapsed() >= IDLE_CHECK
                    && c.client.is_valid(CHECK_TIMEOUT).is_err());
            if dead {
                self.lost("it was closed or did not answer a check");
            }
        }
        if self.conn.is_none() {
            if self.retry_at.is_some_and(|at| Instant::now() < at) {
                return Err(StorageError::unavailable(format!(
                    "postgres: the {} connection was lost; reconnecting",
                    self.role
                )));
            }
            match PgConn::connect(&self.url) {
                Ok(c) => {
                    if self.down {
                        tracing::info!(
                            "PostgreSQL {} connection restored to {}",
                            self.role,
                            super::DbUrl::Postgres(self.url.clone())
                        );
                    }
                    self.down = false;
                    self.retry_at = None;
                    self.backoff = BACKOFF_MIN;
                    self.conn = Some(c);
                }
                Err(e) => {
                    self.retry_at = Some(Instant::now() + self.backoff);
                    self.backoff = (self.backoff * 2).min(BACKOFF_MAX);
                    return Err(e);
                }
            }
        }
        self.last_used = Instant::now();
        self.conn
            .as_mut()
            .ok_or_else(|| StorageError::unavailable("postgres: no connection"))
    }

    /// Forgets a dead connection (the next operation opens a new one).
    fn lost(&mut self, why: &str) {
        if self.conn.take().is_some() && !self.down {
            tracing::warn!(
                "PostgreSQL {} connection lost ({why}); reconnecting",
                self.role
            );
            self.down = true;
        }
    }

    /// After a failed operation: was it the connection?
    fn after_error(&mut self, e: &StorageError) {
        if let Some(c) = &mut self.conn {
            if c.client.is_closed() || c.client.is_valid(CHECK_TIMEOUT).is_err() {
                self.lost(e.message());
            }
        }
    }

    /// Runs a read; if the connection turns out dead, once more on a new one.
    fn read<T>(
        &mut self,
        f: impl Fn(&mut PgConn) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let r = f(self.conn(false)?);
            match r {
                Ok(v) => return Ok(v),
                Err(e) => {
                    self.after_error(&e);
                    if self.conn.is_some() || tries == 2 {
                        return Err(e);
                    }
                }
            }
        }
    }
}

/// Brings the schema up to date (see [`migrations`]): under a
/// transaction-scoped advisory lock, so that of several processes (or
/// connections) starting together one migrates and the others wait, then
/// find nothing left to do.
fn migrate(client: &mut Client) -> Result<(), StorageError> {
    let mut tx = client.transaction().map_err(err)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(err)?;
    // A versions table without names holds PostgreSQL's former numbering
    // (its own list, before the two databases shared one): names came
    // with the shared list, so a table without them has not been
    // renumbered yet, whatever its versions, and one with them has.
    let named: bool = tx
        .query_one(
            "SELECT COUNT(*) > 0 FROM information_schema.columns WHERE table_schema = \
             current_schema() AND table_name = 'schema_migrations' AND column_name = 'name'",
            &[],
        )
        .map_err(err)?
        .get(0);
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (\
             version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL, name TEXT)",
    )
    .map_err(err)?;
    let recorded = |tx: &mut postgres::Transaction| -> Result<i64, StorageError> {
        Ok(tx
            .query_one(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
                &[],
            )
            .map_err(err)?
            .get(0))
    };
    if !named {
        let old = recorded(&mut tx)?;
        let Some(done) = migrations::old_postgres_version(old) else {
            return Err(migrations::too_new(old));
        };
        tx.batch_execute(
            "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS name TEXT; \
             DELETE FROM schema_migrations",
        )
        .map_err(err)?;
        for version in 1..=done {
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_ms, name) VALUES ($1, $2, $3)",
                &[&version, &crate::now_ms(), &migrations::name(version)],
            )
            .map_err(err)?;
        }
    }
    let done = recorded(&mut tx)?;
    if done > SCHEMA_VERSION {
        return Err(migrations::too_new(done));
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > done) {
        let version = m.version;
        let failed = |e: StorageError| {
            StorageError::unavailable(format!("schema migration {version}: {}", e.message()))
        };
        match &m.postgres {
            Step::Sql(sql) => tx.batch_execute(sql).map_err(|e| failed(err(e)))?,
            Step::Both(step) => step(&mut Schemaed(&mut tx)).map_err(failed)?,
            Step::Nothing(why) => {
                tracing::debug!("schema version {version} on PostgreSQL: nothing to do ({why})")
            }
            Step::Sqlite(_) => {
                return Err(StorageError::misconfigured(format!(
                    "schema migration {version} is SQLite's alone"
                )))
            }
        }
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_ms, name) VALUES ($1, $2, $3)",
            &[&version, &crate::now_ms(), &m.name],
        )
        .map_err(err)?;
    }
    tx.commit().map_err(err)
}

/// A PostgreSQL transaction as a migration step sees it.
struct Schemaed<'a, 'b>(&'a mut postgres::Transaction<'b>);

impl Schema for Schemaed<'_, '_> {
    fn batch(&mut self, sql: &str) -> Result<(), StorageError> {
        self.0.batch_execute(sql).map_err(err)
    }
    fn add_missing_columns(
        &mut self,
        table: &str,
        columns: &[(&str, &str)],
    ) -> Result<(), StorageError> {
        for (column, decl) in columns {
            self.batch(&format!(
                "ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {decl}"
            ))?;
        }
        Ok(())
    }
    fn text_pairs(&mut self, sql: &str) -> Result<Vec<(String, String)>, StorageError> {
        self.0
            .query(sql, &[])
            .map_err(err)?
            .iter()
            .map(|r| Ok((r.try_get(0).map_err(err)?, r.try_get(1).map_err(err)?)))
            .collect()
    }
    fn execute(&mut self, sql: &str, params: &[&str]) -> Result<u64, StorageError> {
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> = params
            .iter()
            .map(|p| p as &(dyn postgres::types::ToSql + Sync))
            .collect();
        self.0
            .execute(migrations::dollar_params(sql).as_str(), &params)
            .map_err(err)
    }
}

impl PgConn {
    fn connect(url: &str) -> Result<Self, StorageError> {
        let shown = super::DbUrl::Postgres(url.to_string());
        let mut config: postgres::Config = url.parse().map_err(|e| {
            StorageError::misconfigured(format!("bad PostgreSQL address {shown}: {e}"))
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CHECK_TIMEOUT);
        }
        let mut client = config.connect(NoTls).map_err(|e| {
            StorageError::unavailable(format!("cannot connect to PostgreSQL at {shown}: {e}"))
                .with_source(e)
        })?;
        migrate(&mut client)?;
        let mut p = |sql: &str| client.prepare(sql).map_err(err);
        let st = Prepared {
            notify: p("SELECT pg_notify('parlor_games', $1)")?,
            load_game: p(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))?,
            load_seats: p(
                "SELECT seat, kind, level, token, name, player, joined, account FROM seats \
                 WHERE game_id = $1 ORDER BY seat",
            )?,
            load_actions: p(
                "SELECT idx, actor, action, at_ms FROM actions WHERE game_id = $1 AND idx >= $2 \
                 ORDER BY idx",
            )?,
            seqs: p("SELECT id, seq FROM games WHERE id = ANY($1)")?,
            // A group of actions (at most one per game) in one statement:
            // an action whose index is already stored (another process got
            // there first), or whose game was aborted (the game's row is
            // locked, so an abort committing meanwhile is seen), is skipped
            // with its status, the others go in;
            // each game that took one is announced to the other processes
            // (delivered at commit), up to 200 games a notice: one
            // notice per game made PostgreSQL's notification queue and the
            // listeners' wake-ups a fifth of the commit's cost. Returns the
            // ids that took theirs.
            insert_actions: p(
                "WITH v AS (SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], \
                 $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::bool[], $10::text[], \
                 $11::bigint[], $12::bigint[]) AS v(id, idx, actor, action, at_ms, seq, to_act, \
                 outcome, over, dk, ds, um)), \
                 ins AS (INSERT INTO actions (game_id, idx, actor, action, at_ms) \
                 SELECT v.id, v.idx, v.actor, v.action, v.at_ms FROM v JOIN games g ON g.id = v.id \
                 WHERE NOT g.aborted ORDER BY v.id FOR UPDATE OF g \
                 ON CONFLICT DO NOTHING RETURNING game_id), \
                 upd AS (UPDATE games AS g SET seq = v.seq, to_act = v.to_act, outcome = v.outcome, \
                 over = v.over, deadline_key = v.dk, deadline_started_ms = v.ds, updated_ms = v.um \
                 FROM v WHERE g.id = v.id AND v.id IN (SELECT game_id FROM ins) RETURNING g.id, g.seq), \
                 note AS (SELECT pg_notify('parlor_games', string_agg(id || ':' || seq, ',')) \
                 FROM (SELECT id, seq, (row_number() OVER ()) / 200 AS chunk FROM upd) c GROUP BY chunk) \
                 SELECT id, (SELECT count(*) FROM note)::text FROM upd",
            )?,
            load_word_list: p(
                "SELECT id, fingerprint, name, words, skipped, bytes, created_ms, \
                 CASE WHEN $2::bool THEN text END FROM word_lists WHERE id = $1",
            )?,
            // Expiry by the database's clock: processes on several
            // machines need not agree on the time.
            presence_hold: p(
                "INSERT INTO presence (process, game_id, seat, expires_at) \
                 VALUES ($1, $2, $3, now() + $4::bigint * interval '1 millisecond') \
                 ON CONFLICT (game_id, seat, process) DO UPDATE SET expires_at = EXCLUDED.expires_at",
            )?,
            presence_release: p(
                "DELETE FROM presence WHERE process = $1 AND game_id = $2 AND seat = $3",
            )?,
            // The refresh, one statement: this process's seats extended
            // (made again if missing), its other rows deleted, and rows of
            // any other process expired a minute ago deleted (a crashed
            // process's; they count for nothing once expired anyway).
            presence_refresh: p(
                "WITH v AS (SELECT * FROM UNNEST($2::text[], $3::bigint[]) AS v(game_id, seat)), \
                 up AS (INSERT INTO presence (process, game_id, seat, expires_at) \
                 SELECT $1, game_id, seat, now() + $4::bigint * interval '1 millisecond' FROM v \
                 ON CONFLICT (game_id, seat, process) DO UPDATE SET expires_at = EXCLUDED.expires_at \
                 RETURNING 1), \
                 mine AS (DELETE FROM presence p WHERE p.process = $1 AND NOT EXISTS \
                 (SELECT 1 FROM v WHERE v.game_id = p.game_id AND v.seat = p.seat) RETURNING 1), \
                 gone AS (DELETE FROM presence WHERE process <> $1 \
                 AND expires_at < now() - interval '1 minute' RETURNING 1) \
                 SELECT (SELECT count(*) FROM up), (SELECT count(*) FROM mine), (SELECT count(*) FROM gone)",
            )?,
            presence: p(
                "SELECT DISTINCT game_id, seat FROM presence \
                 WHERE game_id = ANY($1) AND process <> $2 AND expires_at > now()",
            )?,
            // Leases (see `crate::lease`), by the database's clock too.
            // Taken where free, lapsed or already ours.
            lease_take: p(
                "INSERT INTO leases (game_id, owner, expires_at) \
                 SELECT id, $1, now() + $3::bigint * interval '1 millisecond' \
                 FROM UNNEST($2::text[]) AS id \
                 ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, \
                 expires_at = EXCLUDED.expires_at \
                 WHERE leases.owner = EXCLUDED.owner OR leases.expires_at < now() \
                 RETURNING game_id",
            )?,
            lease_renew: p(
                "UPDATE leases SET expires_at = now() + $2::bigint * interval '1 millisecond' \
                 WHERE owner = $1 RETURNING game_id",
            )?,
            // Oldest lapsed first; rows another process is taking at the
            // same moment are skipped, not waited for.
            lease_take_lapsed: p(
                "UPDATE leases SET owner = $1, \
                 expires_at = now() + $2::bigint * interval '1 millisecond' \
                 WHERE game_id IN (SELECT game_id FROM leases WHERE expires_at < now() \
                 ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED) \
                 RETURNING game_id",
            )?,
            lease_release: p("DELETE FROM leases WHERE owner = $1 AND game_id = ANY($2)")?,
            writes: Stmt::ALL
                .iter()
                .map(|w| p(&migrations::dollar_params(&w.sql(Dialect::Postgres))))
                .collect::<Result<_, _>>()?,
        };
        Ok(PgConn { client, st })
    }

    fn seats(&mut self, id: &str) -> Result<Vec<SeatRow>, StorageError> {
        let rows = self
            .client
            .query(&self.st.load_seats, &[&id])
            .map_err(err)?;
        rows.iter()
            .map(|r| {
                Ok(SeatRow {
                    seat: r.try_get::<_, i64>(0).map_err(err)? as usize,
                    kind: SeatKind::parse(r.try_get::<_, &str>(1).map_err(err)?),
                    level: r.try_get(2).map_err(err)?,
                    token: r.try_get(3).map_err(err)?,
                    name: r.try_get(4).map_err(err)?,
                    player: r.try_get(5).map_err(err)?,
                    joined: r.try_get(6).map_err(err)?,
                    account: r.try_get(7).map_err(err)?,
                })
            })
            .collect()
    }

    fn listed(
        &mut self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<Listed>, StorageError> {
        let rows = self.client.query(sql, params).map_err(err)?;
        rows.iter()
            .map(|r| {
                let row = game_row(r)?;
                let seats = self.seats(&row.id)?;
                Ok(Listed { row, seats })
            })
            .collect()
    }
}

fn rating_change_row(r: &Row) -> Result<RatingChangeRow, StorageError> {
    Ok(RatingChangeRow {
        game_id: r.try_get(0).map_err(err)?,
        username: r.try_get(1).map_err(err)?,
        before: r.try_get(2).map_err(err)?,
        after: r.try_get(3).map_err(err)?,
    })
}

fn game_row(r: &Row) -> Result<GameRow, StorageError> {
    let kept_as_text = |i: usize| JsonText::parse(r.try_get::<_, String>(i).map_err(err)?);
    let key: Option<String> = r.try_get(11).map_err(err)?;
    let started: Option<i64> = r.try_get(12).map_err(err)?;
    let outcome: Option<String> = r.try_get(9).map_err(err)?;
    Ok(GameRow {
        id: r.try_get(0).map_err(err)?,
        game: r.try_get(1).map_err(err)?,
        config: kept_as_text(2)?,
        seed: r.try_get::<_, i64>(3).map_err(err)? as u64,
        lexicons: kept_as_text(4)?,
        public: r.try_get(5).map_err(err)?,
        created_ms: r.try_get(6).map_err(err)?,
        status: StatusRow {
            seq: r.try_get::<_, i64>(7).map_err(err)? as usize,
            to_act: kept_as_text(8)?,
            outcome: outcome.map(JsonText::parse).transpose()?,
            over: r.try_get(10).map_err(err)?,
            deadline: match (key, started) {
                (Some(key), Some(started_ms)) => Some(DeadlineRow { key, started_ms }),
                _ => None,
            },
            updated_ms: r.try_get(13).map_err(err)?,
        },
        rematch_of: r.try_get(14).map_err(err)?,
        rematch: r.try_get(15).map_err(err)?,
        time_control: super::time_control_of(
            r.try_get::<_, Option<&str>>(19).map_err(err)?,
            r.try_get(16).map_err(err)?,
            r.try_get(18).map_err(err)?,
        )?,
        aborted: r.try_get(17).map_err(err)?,
        rated: r.try_get(20).map_err(err)?,
    })
}

impl Storage for PgStorage {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn set_role(&mut self, role: &'static str) {
        self.role = role;
    }

    fn commit(&mut self, writes: &[Write]) -> Result<Vec<bool>, StorageError> {
        // Never tried twice: a write that failed with its connection may
        // have committed. The actor rebuilds from the database.
        let r = self.conn(true)?.commit(writes);
        if let Err(e) = &r {
            self.after_error(e);
        }
        r
    }

    fn load(&mut self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        self.read(|c| c.load_since(id, 0))
    }

    fn presence(
        &mut self,
        ids: &[String],
        process: &str,
    ) -> Result<Vec<(String, usize)>, StorageError> {
        self.read(|c| {
            let rows = c
                .client
                .query(&c.st.presence, &[&ids, &process])
                .map_err(err)?;
            ids_and_numbers(&rows)
        })
    }

    fn load_since(&mut self, id: &str, from: usize) -> Result<Option<StoredGame>, StorageError> {
        self.read(|c| c.load_since(id, from))
    }

    fn lease(&mut self, op: LeaseOp<'_>) -> Result<Vec<String>, StorageError> {
        let ids = |rows: Vec<Row>| -> Result<Vec<String>, StorageError> {
            rows.iter().map(|r| r.try_get(0).map_err(err)).collect()
        };
        self.read(|c| match op {
            LeaseOp::Take {
                owner,
                ids: games,
                ttl_ms,
            } => ids(c
                .client
                .query(&c.st.lease_take, &[&owner, &games, &ttl_ms])
                .map_err(err)?),
            LeaseOp::Renew { owner, ttl_ms } => ids(c
                .client
                .query(&c.st.lease_renew, &[&owner, &ttl_ms])
                .map_err(err)?),
            LeaseOp::TakeLapsed {
                owner,
                ttl_ms,
                limit,
            } => ids(c
                .client
                .query(&c.st.lease_take_lapsed, &[&owner, &ttl_ms, &limit])
                .map_err(err)?),
            LeaseOp::Release { owner, ids: games } => {
                c.client
                    .execute(&c.st.lease_release, &[&owner, &games])
                    .map_err(err)?;
                Ok(Vec::new())
            }
        })
    }

    fn seqs(&mut self, ids: &[String]) -> Result<Vec<(String, usize)>, StorageError> {
        self.read(|c| c.seqs(ids))
    }

    fn word_list(&mut self, id: &str, text: bool) -> Result<Option<WordListRow>, StorageError> {
        self.read(|c| c.word_list(id, text))
    }

    fn list(&mut self, filter: ListFilter, limit: usize) -> Result<Vec<Listed>, StorageError> {
        self.read(|c| c.list(filter, limit))
    }

    fn by_player(&mut self, player: &str, limit: usize) -> Result<Vec<Listed>, StorageError> {
        self.read(|c| c.by_player(player, limit))
    }

    fn unfinished(&mut self) -> Result<Vec<Listed>, StorageError> {
        self.read(|c| c.unfinished())
    }

    fn account(&mut self, username: &str) -> Result<Option<AccountRow>, StorageError> {
        self.read(|c| c.account(username))
    }

    fn account_like(&mut self, username: &str) -> Result<Option<String>, StorageError> {
        self.read(|c| c.account_like(username))
    }

    fn session(&mut self, token_hash: &str, now_ms: i64) -> Result<Option<String>, StorageError> {
        self.read(|c| c.session(token_hash, now_ms))
    }

    fn ratings(&mut self, username: &str) -> Result<Vec<RatingRow>, StorageError> {
        self.read(|c| {
            c.rating_rows(
                "SELECT username, game, rating, rd, volatility, games, updated_ms FROM ratings \
                 WHERE username = $1 ORDER BY game",
                &[&username],
            )
        })
    }

    fn leaderboard(&mut self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StorageError> {
        self.read(|c| {
            c.rating_rows(
                "SELECT username, game, rating, rd, volatility, games, updated_ms FROM ratings \
                 WHERE game = $1 ORDER BY rating DESC, username LIMIT $2",
                &[&game, &(limit as i64)],
            )
        })
    }

    fn rating_changes(
        &mut self,
        username: &str,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StorageError> {
        self.read(|c| c.rating_changes(username, limit))
    }

    fn game_rating_changes(&mut self, game_id: &str) -> Result<Vec<RatingChangeRow>, StorageError> {
        self.read(|c| c.game_rating_changes(game_id))
    }

    fn puzzle_plays(
        &mut self,
        query: &super::PlaysQuery,
        game_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<super::PuzzlePlayRow>, StorageError> {
        self.read(|c| c.puzzle_plays(query, game_id, limit))
    }

    fn challenge(&mut self, id: &str) -> Result<Option<super::ChallengeRow>, StorageError> {
        self.read(|c| c.challenge(id))
    }

    fn puzzle_rating(&mut self, subject: &str) -> Result<Option<(Rating, i64)>, StorageError> {
        self.read(|c| c.puzzle_rating(subject))
    }

    fn by_account(
        &mut self,
        username: &str,
        over: bool,
        limit: usize,
    ) -> Result<Vec<Listed>, StorageError> {
        let cond = if over { "over AND NOT aborted" } else { "TRUE" };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE {cond} AND id IN \
             (SELECT game_id FROM seats WHERE account = $1) \
             ORDER BY created_ms DESC, id LIMIT $2"
        );
        self.read(|c| c.listed(&sql, &[&username, &(limit as i64)]))
    }
}

impl PgConn {
    fn commit(&mut self, writes: &[Write]) -> Result<Vec<bool>, StorageError> {
        if !writes.is_empty() && writes.iter().all(|w| matches!(w, Write::Action { .. })) {
            let mut seen = std::collections::HashSet::new();
            if writes.iter().all(|w| seen.insert(w.game_id())) {
                // The usual group (only actions, one per game): one
                // statement, atomic on its own, one round trip.
                let refs: Vec<&Write> = writes.iter().collect();
                return insert_actions(&mut self.client, &self.st, &refs);
            }
        }
        let st = &self.st;
        let mut tx = self.client.transaction().map_err(err)?;
        let mut pg = PgTx {
            tx: &mut tx,
            st,
            batch: Vec::new(),
            notify: Vec::new(),
            presence: Vec::new(),
        };
        let taken = writes::apply(&mut pg, writes)?;
        let PgTx {
            notify, presence, ..
        } = pg;
        for id in notify {
            tx.execute(&st.notify, &[&format!("{id}:*")]).map_err(err)?;
        }
        for note in presence {
            tx.execute(&st.notify, &[&note]).map_err(err)?;
        }
        tx.commit().map_err(err)?;
        Ok(taken)
    }

    fn account(&mut self, username: &str) -> Result<Option<AccountRow>, StorageError> {
        let Some(r) = self
            .client
            .query_opt(
                "SELECT username, password_hash, created_ms FROM accounts WHERE username_key = $1",
                &[&username.to_lowercase()],
            )
            .map_err(err)?
        else {
            return Ok(None);
        };
        Ok(Some(AccountRow {
            username: r.try_get(0).map_err(err)?,
            password_hash: r.try_get(1).map_err(err)?,
            created_ms: r.try_get(2).map_err(err)?,
        }))
    }

    fn account_like(&mut self, username: &str) -> Result<Option<String>, StorageError> {
        self.client
            .query_opt(
                "SELECT username FROM accounts WHERE skeleton = $1",
                &[&username_skeleton(username)],
            )
            .map_err(err)?
            .map(|r| r.try_get(0).map_err(err))
            .transpose()
    }

    fn session(&mut self, token_hash: &str, now_ms: i64) -> Result<Option<String>, StorageError> {
        let r = self
            .client
            .query_opt(
                "SELECT username FROM sessions WHERE token_hash = $1 AND expires_ms > $2",
                &[&token_hash, &now_ms],
            )
            .map_err(err)?;
        r.map(|r| r.try_get(0).map_err(err)).transpose()
    }

    fn rating_rows(
        &mut self,
        sql: &str,
        params: &[&(dyn postgres::types::ToSql + Sync)],
    ) -> Result<Vec<RatingRow>, StorageError> {
        let rows = self.client.query(sql, params).map_err(err)?;
        rows.iter()
            .map(|r| {
                Ok(RatingRow {
                    username: r.try_get(0).map_err(err)?,
                    game: r.try_get(1).map_err(err)?,
                    rating: Rating {
                        rating: r.try_get(2).map_err(err)?,
                        rd: r.try_get(3).map_err(err)?,
                        volatility: r.try_get(4).map_err(err)?,
                    },
                    games: r.try_get(5).map_err(err)?,
                    updated_ms: r.try_get(6).map_err(err)?,
                })
            })
            .collect()
    }

    fn rating_changes(
        &mut self,
        username: &str,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StorageError> {
        let rows = self
            .client
            .query(
                "SELECT game_id, username, before, after FROM rating_changes \
                 WHERE username = $1 ORDER BY at_ms DESC LIMIT $2",
                &[&username, &(limit as i64)],
            )
            .map_err(err)?;
        rows.iter().map(rating_change_row).collect()
    }

    fn puzzle_plays(
        &mut self,
        query: &super::PlaysQuery,
        game_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<super::PuzzlePlayRow>, StorageError> {
        // PostgreSQL must know a NULL parameter's type.
        let sql = super::plays_sql(|p, t| format!("CAST({p} AS {t})"));
        let sql = migrations::dollar_params(&sql);
        let limit = limit.min(i64::MAX as usize) as i64;
        let rows = self
            .client
            .query(
                sql.as_str(),
                &[
                    &query.puzzle_id,
                    &query.day,
                    &query.challenge,
                    &query.who,
                    &game_id,
                    &limit,
                ],
            )
            .map_err(err)?;
        rows.iter()
            .map(|r| {
                let before: Option<f64> = r.try_get(10).map_err(err)?;
                let after: Option<f64> = r.try_get(11).map_err(err)?;
                Ok(super::PuzzlePlayRow {
                    game_id: r.try_get(0).map_err(err)?,
                    puzzle_id: r.try_get(1).map_err(err)?,
                    day: r.try_get(2).map_err(err)?,
                    challenge: r.try_get(3).map_err(err)?,
                    who: r.try_get(4).map_err(err)?,
                    name: r.try_get(5).map_err(err)?,
                    created_ms: r.try_get(6).map_err(err)?,
                    solved: r.try_get(7).map_err(err)?,
                    complete: r.try_get(8).map_err(err)?,
                    why: r.try_get(9).map_err(err)?,
                    rating: before.zip(after),
                    score: r.try_get(12).map_err(err)?,
                })
            })
            .collect()
    }

    fn challenge(&mut self, id: &str) -> Result<Option<super::ChallengeRow>, StorageError> {
        let rows = self
            .client
            .query(
                "SELECT id, puzzle_id, by_name, created_ms FROM puzzle_challenges WHERE id = $1",
                &[&id],
            )
            .map_err(err)?;
        rows.first()
            .map(|r| {
                Ok(super::ChallengeRow {
                    id: r.try_get(0).map_err(err)?,
                    puzzle_id: r.try_get(1).map_err(err)?,
                    by_name: r.try_get(2).map_err(err)?,
                    created_ms: r.try_get(3).map_err(err)?,
                })
            })
            .transpose()
    }

    fn puzzle_rating(&mut self, subject: &str) -> Result<Option<(Rating, i64)>, StorageError> {
        let rows = self
            .client
            .query(
                "SELECT rating, rd, volatility, tries FROM puzzle_ratings WHERE subject = $1",
                &[&subject],
            )
            .map_err(err)?;
        rows.first()
            .map(|r| {
                Ok((
                    Rating {
                        rating: r.try_get(0).map_err(err)?,
                        rd: r.try_get(1).map_err(err)?,
                        volatility: r.try_get(2).map_err(err)?,
                    },
                    r.try_get(3).map_err(err)?,
                ))
            })
            .transpose()
    }

    fn game_rating_changes(&mut self, game_id: &str) -> Result<Vec<RatingChangeRow>, StorageError> {
        let rows = self
            .client
            .query(
                "SELECT game_id, username, before, after FROM rating_changes WHERE game_id = $1",
                &[&game_id],
            )
            .map_err(err)?;
        rows.iter().map(rating_change_row).collect()
    }

    fn word_list(&mut self, id: &str, text: bool) -> Result<Option<WordListRow>, StorageError> {
        let Some(r) = self
            .client
            .query_opt(&self.st.load_word_list, &[&id, &text])
            .map_err(err)?
        else {
            return Ok(None);
        };
        Ok(Some(WordListRow {
            id: r.try_get(0).map_err(err)?,
            fingerprint: r.try_get(1).map_err(err)?,
            name: r.try_get(2).map_err(err)?,
            words: r.try_get::<_, i64>(3).map_err(err)? as usize,
            skipped: r.try_get::<_, i64>(4).map_err(err)? as usize,
            bytes: r.try_get::<_, i64>(5).map_err(err)? as usize,
            created_ms: r.try_get(6).map_err(err)?,
            text: r.try_get(7).map_err(err)?,
        }))
    }

    fn seqs(&mut self, ids: &[String]) -> Result<Vec<(String, usize)>, StorageError> {
        let rows = self.client.query(&self.st.seqs, &[&ids]).map_err(err)?;
        ids_and_numbers(&rows)
    }

    fn load_since(&mut self, id: &str, from: usize) -> Result<Option<StoredGame>, StorageError> {
        let Some(r) = self
            .client
            .query_opt(&self.st.load_game, &[&id])
            .map_err(err)?
        else {
            return Ok(None);
        };
        let row = game_row(&r)?;
        let seats = self.seats(id)?;
        let actions = self
            .client
            .query(&self.st.load_actions, &[&id, &(from as i64)])
            .map_err(err)?
            .iter()
            .map(|r| {
                Ok(ActionRow {
                    idx: r.try_get::<_, i64>(0).map_err(err)? as usize,
                    actor: parse_json(r.try_get::<_, &str>(1).map_err(err)?)?,
                    action: parse_json(r.try_get::<_, &str>(2).map_err(err)?)?,
                    at_ms: r.try_get(3).map_err(err)?,
                })
            })
            .collect::<Result<_, StorageError>>()?;
        Ok(Some(StoredGame {
            row,
            seats,
            actions,
        }))
    }

    fn list(&mut self, filter: ListFilter, limit: usize) -> Result<Vec<Listed>, StorageError> {
        // A seat anyone may claim: human, free, and not invited (no token).
        let free = "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id \
                    AND s.kind = 'human' AND NOT s.joined AND s.token IS NULL)";
        let cond = match filter {
            ListFilter::Open => format!("NOT over AND {free}"),
            ListFilter::Live => format!("NOT over AND NOT {free}"),
            ListFilter::Unfinished => "NOT over".to_string(),
            ListFilter::Over => "over".to_string(),
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE public AND {cond} \
             ORDER BY created_ms DESC, id LIMIT $1"
        );
        self.listed(&sql, &[&(limit as i64)])
    }

    fn by_player(&mut self, player: &str, limit: usize) -> Result<Vec<Listed>, StorageError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE id IN \
             (SELECT game_id FROM seats WHERE player = $1) \
             ORDER BY created_ms DESC, id LIMIT $2"
        );
        self.listed(&sql, &[&player, &(limit as i64)])
    }

    fn unfinished(&mut self) -> Result<Vec<Listed>, StorageError> {
        let sql =
            format!("SELECT {GAME_COLUMNS} FROM games WHERE NOT over ORDER BY created_ms, id");
        self.listed(&sql, &[])
    }
}

/// A transaction of the writer, for [`writes::apply`].
struct PgTx<'a, 'b> {
    tx: &'a mut postgres::Transaction<'b>,
    st: &'a Prepared,
    /// Actions of many games go in as one statement (the group commit's
    /// batch), not a round trip each: their positions in the group.
    batch: Vec<usize>,
    /// Games whose other processes are told to catch up (`ID:*`).
    notify: Vec<String>,
    /// Presence changes to announce (`ID:p:PROCESS`).
    presence: Vec<String>,
}

fn pg_params<'a>(params: &'a [Param<'_>]) -> Vec<&'a (dyn postgres::types::ToSql + Sync)> {
    params.iter().map(Param::postgres).collect()
}

impl writes::Tx for PgTx<'_, '_> {
    /// Held back for one statement with the others of the group, at most
    /// one per game in a statement.
    fn action(
        &mut self,
        writes: &[Write],
        i: usize,
        taken: &mut [bool],
    ) -> Result<(), StorageError> {
        let game_id = writes[i].game_id();
        if self.batch.iter().any(|&j| writes[j].game_id() == game_id) {
            self.flush_actions(writes, taken)?;
        }
        self.batch.push(i);
        Ok(())
    }

    fn flush_actions(&mut self, writes: &[Write], taken: &mut [bool]) -> Result<(), StorageError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let group: Vec<&Write> = self.batch.iter().map(|&j| &writes[j]).collect();
        let won = insert_actions(self.tx, self.st, &group)?;
        for (j, t) in self.batch.drain(..).zip(won) {
            taken[j] = t;
        }
        Ok(())
    }

    fn applied(&mut self, w: &Write, taken: bool) {
        match w {
            Write::Presence {
                process, game_id, ..
            } => {
                // The other processes holding the game read its presence
                // again (the sender ignores its own).
                let note = format!("{game_id}:p:{process}");
                if !self.presence.contains(&note) {
                    self.presence.push(note);
                }
            }
            // Other processes holding the game live catch up on commit.
            Write::Status { .. }
            | Write::Abort { .. }
            | Write::Claim { .. }
            | Write::Join { .. }
            | Write::Rematch { .. }
            | Write::SeatAccount { .. }
            | Write::Rate { .. }
                if taken =>
            {
                let id = w.game_id();
                if !self.notify.iter().any(|n| n == id) {
                    self.notify.push(id.to_owned());
                }
            }
            _ => {}
        }
    }

    fn exec(&mut self, st: Stmt, params: &[Param<'_>]) -> Result<u64, StorageError> {
        self.tx
            .execute(&self.st.writes[st as usize], &pg_params(params))
            .map_err(err)
    }

    fn texts(
        &mut self,
        st: Stmt,
        params: &[Param<'_>],
    ) -> Result<Vec<Vec<Option<String>>>, StorageError> {
        let rows = self
            .tx
            .query(&self.st.writes[st as usize], &pg_params(params))
            .map_err(err)?;
        rows.iter()
            .map(|r| (0..r.len()).map(|i| r.try_get(i).map_err(err)).collect())
            .collect()
    }

    fn reals(&mut self, st: Stmt, params: &[Param<'_>]) -> Result<Vec<Vec<f64>>, StorageError> {
        let rows = self
            .tx
            .query(&self.st.writes[st as usize], &pg_params(params))
            .map_err(err)?;
        rows.iter()
            .map(|r| (0..r.len()).map(|i| r.try_get(i).map_err(err)).collect())
            .collect()
    }

    fn lock_game(&mut self, game_id: &str) -> Result<(), StorageError> {
        self.tx
            .query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&game_id])
            .map_err(err)
            .map(drop)
    }

    /// Held seats are rows that expire by the database's clock; the
    /// commit announces them (`ID:p:PROCESS`). Reported not taken: nobody
    /// waits on a presence write.
    fn presence(&mut self, w: &Write) -> Result<bool, StorageError> {
        match w {
            Write::Presence {
                process,
                game_id,
                seat,
                held: true,
                ttl_ms,
            } => {
                self.tx
                    .execute(
                        &self.st.presence_hold,
                        &[process, game_id, &(*seat as i64), ttl_ms],
                    )
                    .map_err(err)?;
            }
            Write::Presence {
                process,
                game_id,
                seat,
                held: false,
                ..
            } => {
                self.tx
                    .execute(
                        &self.st.presence_release,
                        &[process, game_id, &(*seat as i64)],
                    )
                    .map_err(err)?;
            }
            Write::PresenceRefresh {
                process,
                held,
                ttl_ms,
            } => {
                let games: Vec<&str> = held.iter().map(|(g, _)| g.as_str()).collect();
                let seats: Vec<i64> = held.iter().map(|(_, s)| *s as i64).collect();
                self.tx
                    .query(
                        &self.st.presence_refresh,
                        &[process, &games, &seats, ttl_ms],
                    )
                    .map_err(err)?;
            }
            _ => {}
        }
        Ok(false)
    }
}

/// A batch of actions (at most one per game) as column arrays for `UNNEST`.
#[derive(Default)]
struct ActionColumns {
    ids: Vec<String>,
    idx: Vec<i64>,
    actors: Vec<String>,
    actions: Vec<String>,
    at: Vec<i64>,
    seq: Vec<i64>,
    to_act: Vec<String>,
    outcome: Vec<Option<String>>,
    over: Vec<bool>,
    dk: Vec<Option<String>>,
    ds: Vec<Option<i64>>,
    um: Vec<i64>,
}

impl ActionColumns {
    fn of<'a>(batch: impl IntoIterator<Item = &'a Write>) -> Self {
        let mut c = ActionColumns::default();
        for w in batch {
            if let Write::Action {
                game_id,
                action,
                status,
            } = w
            {
                c.ids.push(game_id.clone());
                c.idx.push(action.idx as i64);
                c.actors.push(json_text(&action.actor));
                c.actions.push(json_text(&action.action));
                c.at.push(action.at_ms);
                c.seq.push(status.seq as i64);
                c.to_act.push(status.to_act.as_str().to_owned());
                c.outcome
                    .push(status.outcome.as_ref().map(|o| o.as_str().to_owned()));
                c.over.push(status.over);
                c.dk.push(status.deadline.as_ref().map(|d| d.key.clone()));
                c.ds.push(status.deadline.as_ref().map(|d| d.started_ms));
                c.um.push(status.updated_ms);
            }
        }
        c
    }
}

/// Inserts a batch of actions (at most one per game) and their statuses;
/// returns whether each was taken.
fn insert_actions(
    client: &mut impl postgres::GenericClient,
    st: &Prepared,
    batch: &[&Write],
) -> Result<Vec<bool>, StorageError> {
    // In game order: two processes' groups then lock their rows in the
    // same order and do not deadlock each other.
    let mut sorted = batch.to_vec();
    sorted.sort_by(|a, b| a.game_id().cmp(b.game_id()));
    let c = ActionColumns::of(sorted);
    let rows = client
        .query(
            &st.insert_actions,
            &[
                &c.ids, &c.idx, &c.actors, &c.actions, &c.at, &c.seq, &c.to_act, &c.outcome,
                &c.over, &c.dk, &c.ds, &c.um,
            ],
        )
        .map_err(err)?;
    let mut won = std::collections::HashSet::new();
    for r in &rows {
        won.insert(r.try_get::<_, String>(0).map_err(err)?);
    }
    Ok(batch.iter().map(|w| won.contains(w.game_id())).collect())
}

/// Rows of (game id, number): a game's seq, or a seat held elsewhere.
fn ids_and_numbers(rows: &[postgres::Row]) -> Result<Vec<(String, usize)>, StorageError> {
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get(0).map_err(err)?,
                r.try_get::<_, i64>(1).map_err(err)? as usize,
            ))
        })
        .collect()
}

/// The change listener's loop (its own thread, its own connection): every
/// `NOTIFY parlor_games` becomes a [`Notice`]. Reconnects when the
/// connection drops; ends within a second of `tx`'s receiver going away.
pub(crate) fn listen(url: &str, tx: &tokio::sync::mpsc::UnboundedSender<Notice>) {
    use postgres::fallible_iterator::FallibleIterator;
    let where_ = super::DbUrl::Postgres(url.to_string());
    let mut failing = false;
    while !tx.is_closed() {
        // Bounded like the other connections: a black-holed network must
        // not hang the listener for the system's TCP timeout.
        let config = url.parse::<postgres::Config>().map(|mut config| {
            if config.get_connect_timeout().is_none() {
                config.connect_timeout(CHECK_TIMEOUT);
            }
            config
        });
        let mut client = match config
            .and_then(|config| config.connect(NoTls))
            .and_then(|mut c| c.batch_execute("LISTEN parlor_games").map(|()| c))
        {
            Ok(c) => c,
            Err(e) => {
                if !failing {
                    tracing::warn!(
                        "change listener cannot reach PostgreSQL at {where_}: {} (retrying)",
                        err(e).message().to_owned()
                    );
                    failing = true;
                }
                std::thread::sleep(std::time::Duration::from_secs(1));
                continue;
            }
        };
        if failing {
            tracing::info!("change listener reconnected to {where_}");
            failing = false;
        }
        // Anything may have changed while not listening.
        if tx.send(Notice::Resync).is_err() {
            return;
        }
        let mut quiet_seconds = 0;
        loop {
            let next = client
                .notifications()
                .timeout_iter(std::time::Duration::from_secs(1))
                .next();
            quiet_seconds = if matches!(next, Ok(None)) {
                quiet_seconds + 1
            } else {
                0
            };
            match next {
                Ok(Some(n)) => {
                    for notice in Notice::parse_all(n.payload()) {
                        if tx.send(notice).is_err() {
                            return;
                        }
                    }
                }
                Ok(None) => {
                    if tx.is_closed() {
                        return;
                    }
                    if client.is_closed() {
                        break;
                    }
                    // A connection that died without a word (a cut network)
                    // only shows when used: ask it now and then.
                    if quiet_seconds % 30 == 0 && client.is_valid(CHECK_TIMEOUT).is_err() {
                        tracing::warn!(
                            "change listener's PostgreSQL connection stopped answering (reconnecting)"
                        );
                        failing = true;
                        break;
                    }
                }
                Err(e) => {
                    tracing::warn!(
                        "change listener lost its PostgreSQL connection: {} (reconnecting)",
                        err(e).message().to_owned()
                    );
                    failing = true;
                    break;
                }
            }
        }
    }
}
