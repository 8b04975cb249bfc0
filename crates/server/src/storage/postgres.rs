//! [`Storage`] on PostgreSQL, for a deployment that outgrows one machine.
//!
//! The same tables as the SQLite file. A commit returns once PostgreSQL has
//! made the transaction durable (with the server's default
//! `synchronous_commit = on`). The statements are prepared once per
//! connection.

use super::{
    json_text, parse_json, ActionRow, DeadlineRow, GameRow, ListFilter, Listed, SeatKind, SeatRow,
    StatusRow, Storage, StorageError, StoredGame, Write, GAME_COLUMNS,
};
use postgres::{Client, NoTls, Row, Statement};

const SCHEMA: &str = "
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
    absent_seconds DOUBLE PRECISION
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS turn_seconds DOUBLE PRECISION;
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
";

struct Prepared {
    insert_game: Statement,
    insert_seat: Statement,
    update_status: Statement,
    join: Statement,
    rematch: Statement,
    load_game: Statement,
    load_seats: Statement,
    load_actions: Statement,
    insert_actions: Statement,
    update_statuses: Statement,
    actions_only: Statement,
}

/// Games in a PostgreSQL database.
pub struct PgStorage {
    client: Client,
    st: Prepared,
}

fn err(e: postgres::Error) -> StorageError {
    // The database's own message (constraint, connection) is the useful part.
    match e.as_db_error() {
        Some(db) => StorageError(format!("postgres: {}", db.message())),
        None => StorageError(format!("postgres: {e}")),
    }
}

impl PgStorage {
    /// Connects (without TLS: use a loopback address or a local socket) and
    /// creates the tables if needed.
    pub fn connect(url: &str) -> Result<Self, StorageError> {
        let mut client = Client::connect(url, NoTls).map_err(|e| {
            StorageError(format!(
                "cannot connect to PostgreSQL at {}: {e}",
                super::DbUrl::Postgres(url.to_string())
            ))
        })?;
        client.batch_execute(SCHEMA).map_err(err)?;
        let mut p = |sql: &str| client.prepare(sql).map_err(err);
        let st = Prepared {
            insert_game: p(&format!(
                "INSERT INTO games ({GAME_COLUMNS}) VALUES \
                 ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
            ))?,
            insert_seat: p("INSERT INTO seats (game_id, seat, kind, level, token, name, player, joined) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")?,
            update_status: p(
                "UPDATE games SET seq = $2, to_act = $3, outcome = $4, over = $5, deadline_key = $6, \
                 deadline_started_ms = $7, updated_ms = $8 WHERE id = $1",
            )?,
            join: p("UPDATE seats SET joined = TRUE, name = COALESCE($3, name), player = COALESCE($4, player) \
                 WHERE game_id = $1 AND seat = $2")?,
            rematch: p("UPDATE games SET rematch = $2 WHERE id = $1")?,
            load_game: p(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))?,
            load_seats: p(
                "SELECT seat, kind, level, token, name, player, joined FROM seats \
                 WHERE game_id = $1 ORDER BY seat",
            )?,
            load_actions: p(
                "SELECT idx, actor, action, at_ms FROM actions WHERE game_id = $1 ORDER BY idx",
            )?,
            insert_actions: p(
                "INSERT INTO actions (game_id, idx, actor, action, at_ms) \
                 SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[])",
            )?,
            // The usual group (only actions, one per game) in one
            // statement: atomic on its own, one round trip.
            actions_only: p(
                "WITH ins AS (INSERT INTO actions (game_id, idx, actor, action, at_ms) \
                 SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[]) \
                 RETURNING 1) \
                 UPDATE games AS g SET seq = v.seq, to_act = v.to_act, outcome = v.outcome, \
                 over = v.over, deadline_key = v.dk, deadline_started_ms = v.ds, updated_ms = v.um \
                 FROM UNNEST($1::text[], $6::bigint[], $7::text[], $8::text[], $9::bool[], \
                 $10::text[], $11::bigint[], $12::bigint[]) AS v(id, seq, to_act, outcome, over, dk, ds, um) \
                 WHERE g.id = v.id",
            )?,
            update_statuses: p(
                "UPDATE games AS g SET seq = v.seq, to_act = v.to_act, outcome = v.outcome, \
                 over = v.over, deadline_key = v.dk, deadline_started_ms = v.ds, updated_ms = v.um \
                 FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bool[], \
                 $6::text[], $7::bigint[], $8::bigint[]) AS v(id, seq, to_act, outcome, over, dk, ds, um) \
                 WHERE g.id = v.id",
            )?,
        };
        Ok(PgStorage { client, st })
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

fn game_row(r: &Row) -> Result<GameRow, StorageError> {
    let text = |i: usize| -> Result<serde_json::Value, StorageError> {
        parse_json(r.try_get::<_, &str>(i).map_err(err)?)
    };
    let key: Option<String> = r.try_get(11).map_err(err)?;
    let started: Option<i64> = r.try_get(12).map_err(err)?;
    let outcome: Option<&str> = r.try_get(9).map_err(err)?;
    Ok(GameRow {
        id: r.try_get(0).map_err(err)?,
        game: r.try_get(1).map_err(err)?,
        config: text(2)?,
        seed: r.try_get::<_, i64>(3).map_err(err)? as u64,
        lexicons: text(4)?,
        public: r.try_get(5).map_err(err)?,
        created_ms: r.try_get(6).map_err(err)?,
        status: StatusRow {
            seq: r.try_get::<_, i64>(7).map_err(err)? as usize,
            to_act: text(8)?,
            outcome: outcome.map(parse_json).transpose()?,
            over: r.try_get(10).map_err(err)?,
            deadline: match (key, started) {
                (Some(key), Some(started_ms)) => Some(DeadlineRow { key, started_ms }),
                _ => None,
            },
            updated_ms: r.try_get(13).map_err(err)?,
        },
        rematch_of: r.try_get(14).map_err(err)?,
        rematch: r.try_get(15).map_err(err)?,
        turn_seconds: r.try_get(16).map_err(err)?,
        aborted: r.try_get(17).map_err(err)?,
        absent_seconds: r.try_get(18).map_err(err)?,
    })
}

impl Storage for PgStorage {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn commit(&mut self, writes: &[Write]) -> Result<(), StorageError> {
        if !writes.is_empty() && writes.iter().all(|w| matches!(w, Write::Action { .. })) {
            let mut seen = std::collections::HashSet::new();
            if writes.iter().all(|w| seen.insert(w.game_id())) {
                let c = ActionColumns::of(writes);
                let updated = self
                    .client
                    .execute(
                        &self.st.actions_only,
                        &[
                            &c.ids, &c.idx, &c.actors, &c.actions, &c.at, &c.seq, &c.to_act,
                            &c.outcome, &c.over, &c.dk, &c.ds, &c.um,
                        ],
                    )
                    .map_err(err)?;
                // A missing game fails the insert (foreign key) before this.
                return c.check(updated);
            }
        }
        let st = &self.st;
        let mut tx = self.client.transaction().map_err(err)?;
        let mut batch: Vec<&Write> = Vec::new();
        for w in writes {
            if !matches!(w, Write::Action { .. }) {
                flush_actions(&mut tx, st, &mut batch)?;
            }
            match w {
                Write::NewGame { row, seats } => {
                    let s = &row.status;
                    tx.execute(
                        &st.insert_game,
                        &[
                            &row.id,
                            &row.game,
                            &json_text(&row.config),
                            &(row.seed as i64),
                            &json_text(&row.lexicons),
                            &row.public,
                            &row.created_ms,
                            &(s.seq as i64),
                            &json_text(&s.to_act),
                            &s.outcome.as_ref().map(json_text),
                            &s.over,
                            &s.deadline.as_ref().map(|d| d.key.clone()),
                            &s.deadline.as_ref().map(|d| d.started_ms),
                            &s.updated_ms,
                            &row.rematch_of,
                            &row.rematch,
                            &row.turn_seconds,
                            &row.aborted,
                            &row.absent_seconds,
                        ],
                    )
                    .map_err(err)?;
                    for seat in seats {
                        tx.execute(
                            &st.insert_seat,
                            &[
                                &row.id,
                                &(seat.seat as i64),
                                &seat.kind.as_str(),
                                &seat.level,
                                &seat.token,
                                &seat.name,
                                &seat.player,
                                &seat.joined,
                            ],
                        )
                        .map_err(err)?;
                    }
                }
                Write::Action { game_id, .. } => {
                    // Actions of many games go in as two statements (the
                    // group commit's batch), not two round trips each.
                    if batch.iter().any(|b| b.game_id() == game_id.as_str()) {
                        flush_actions(&mut tx, st, &mut batch)?;
                    }
                    batch.push(w);
                    continue;
                }
                Write::Status { game_id, status } => {
                    status_update(&mut tx, &st.update_status, game_id, status)?
                }
                Write::Abort { game_id, status } => {
                    status_update(&mut tx, &st.update_status, game_id, status)?;
                    tx.execute("UPDATE games SET aborted = TRUE WHERE id = $1", &[game_id])
                        .map_err(err)?;
                }
                Write::Join {
                    game_id,
                    seat,
                    name,
                    player,
                } => {
                    let n = tx
                        .execute(&st.join, &[game_id, &(*seat as i64), name, player])
                        .map_err(err)?;
                    if n != 1 {
                        return Err(StorageError(format!("no seat {seat} in game {game_id}")));
                    }
                }
                Write::Rematch { from, to } => {
                    tx.execute(&st.rematch, &[from, to]).map_err(err)?;
                }
            }
        }
        flush_actions(&mut tx, st, &mut batch)?;
        tx.commit().map_err(err)
    }

    fn load(&mut self, id: &str) -> Result<Option<StoredGame>, StorageError> {
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
            .query(&self.st.load_actions, &[&id])
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
        let free = "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id \
                    AND s.kind = 'human' AND NOT s.joined)";
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

fn status_update(
    tx: &mut postgres::Transaction<'_>,
    st: &Statement,
    game_id: &String,
    s: &StatusRow,
) -> Result<(), StorageError> {
    let n = tx
        .execute(
            st,
            &[
                game_id,
                &(s.seq as i64),
                &json_text(&s.to_act),
                &s.outcome.as_ref().map(json_text),
                &s.over,
                &s.deadline.as_ref().map(|d| d.key.clone()),
                &s.deadline.as_ref().map(|d| d.started_ms),
                &s.updated_ms,
            ],
        )
        .map_err(err)?;
    if n != 1 {
        return Err(StorageError(format!("no game {game_id}")));
    }
    Ok(())
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
                c.to_act.push(json_text(&status.to_act));
                c.outcome.push(status.outcome.as_ref().map(json_text));
                c.over.push(status.over);
                c.dk.push(status.deadline.as_ref().map(|d| d.key.clone()));
                c.ds.push(status.deadline.as_ref().map(|d| d.started_ms));
                c.um.push(status.updated_ms);
            }
        }
        c
    }

    fn check(&self, updated: u64) -> Result<(), StorageError> {
        if updated as usize != self.ids.len() {
            return Err(StorageError(format!(
                "{} of {} games to update are missing",
                self.ids.len().saturating_sub(updated as usize),
                self.ids.len()
            )));
        }
        Ok(())
    }
}

/// Inserts a batch of actions (at most one per game) and their statuses.
fn flush_actions(
    tx: &mut postgres::Transaction<'_>,
    st: &Prepared,
    batch: &mut Vec<&Write>,
) -> Result<(), StorageError> {
    if batch.is_empty() {
        return Ok(());
    }
    let c = ActionColumns::of(batch.drain(..));
    tx.execute(
        &st.insert_actions,
        &[&c.ids, &c.idx, &c.actors, &c.actions, &c.at],
    )
    .map_err(err)?;
    let updated = tx
        .execute(
            &st.update_statuses,
            &[
                &c.ids, &c.seq, &c.to_act, &c.outcome, &c.over, &c.dk, &c.ds, &c.um,
            ],
        )
        .map_err(err)?;
    c.check(updated)
}
