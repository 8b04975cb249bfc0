//! How a [`Write`] changes the database, written once for both.
//!
//! [`apply`] takes a group of writes over a [`Tx`]: a transaction of
//! either database, which runs the statements of [`Stmt`] and names what
//! the two do differently. Each statement's text is here, once, in SQLite's
//! form (`?1` parameters; PostgreSQL's connection renames them to `$1` when
//! it prepares its statements at connection): where the dialects differ,
//! [`Stmt::sql`] says so by its [`Dialect`] argument.
//!
//! The differences, named:
//! - *Where a game's seq is.* SQLite's actions carry the status after them
//!   (its writer rewrites the games row only when the game ends or its
//!   clock moves, see `migrations::sqlite_2`): the seq a status write must
//!   find is its row's or its newest action's. PostgreSQL's games row is
//!   always current.
//! - *Locks.* PostgreSQL may be shared by processes: a rating and a seat's
//!   account lock the rows they read (`FOR UPDATE`); an SQLite file has one
//!   writer, whose transaction holds the whole file.
//! - *Actions* are not here: each database writes a group of them its own
//!   way (SQLite one at a time, reading what its game's row holds;
//!   PostgreSQL a whole group in one statement that also announces them
//!   to the other processes).
//! - *Presence* is kept only where processes share the database
//!   ([`Tx::presence`]).

use super::{
    username_skeleton, AccountRow, GameRow, SeatRow, StatusRow, StorageError, Write, GAME_COLUMNS,
};
use crate::ratings::Rating;
use std::borrow::Cow;

/// Which database a statement is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// An SQLite file.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// One parameter of a statement, in the types both databases take.
#[derive(Clone, Copy, Debug)]
pub(super) enum Param<'a> {
    /// Text.
    Text(&'a str),
    /// Text or NULL.
    OptText(Option<&'a str>),
    /// An integer (`INTEGER` / `BIGINT`).
    Int(i64),
    /// An integer or NULL.
    OptInt(Option<i64>),
    /// A number (`REAL` / `DOUBLE PRECISION`).
    Real(f64),
    /// A number or NULL.
    OptReal(Option<f64>),
    /// A boolean (SQLite: 0 or 1).
    Bool(bool),
}

impl Param<'_> {
    /// As rusqlite takes it.
    pub(super) fn sqlite(&self) -> &dyn rusqlite::ToSql {
        match self {
            Param::Text(v) => v,
            Param::OptText(v) => v,
            Param::Int(v) => v,
            Param::OptInt(v) => v,
            Param::Real(v) => v,
            Param::OptReal(v) => v,
            Param::Bool(v) => v,
        }
    }

    /// As the postgres crate takes it.
    pub(super) fn postgres(&self) -> &(dyn postgres::types::ToSql + Sync) {
        match self {
            Param::Text(v) => v,
            Param::OptText(v) => v,
            Param::Int(v) => v,
            Param::OptInt(v) => v,
            Param::Real(v) => v,
            Param::OptReal(v) => v,
            Param::Bool(v) => v,
        }
    }
}

/// The statements of [`apply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stmt {
    InsertGame,
    InsertSeat,
    Status,
    Abort,
    Claim,
    Join,
    Rematch,
    WordList,
    NewAccount,
    DropEndedSessions,
    NewSession,
    EndSession,
    SeatAccount,
    GameToRate,
    SeatAccounts,
    FirstRating,
    RatingOf,
    SetRating,
    RatingChange,
    Rated,
    PuzzlePlay,
    PuzzleJudged,
    PlayToRate,
    FirstPuzzleRating,
    PuzzleRatingOf,
    SetPuzzleRating,
    PlayRated,
    NewChallenge,
    PuzzleScore,
}

impl Stmt {
    /// Every statement (PostgreSQL prepares them all at connection).
    pub(super) const ALL: [Stmt; 29] = [
        Stmt::InsertGame,
        Stmt::InsertSeat,
        Stmt::Status,
        Stmt::Abort,
        Stmt::Claim,
        Stmt::Join,
        Stmt::Rematch,
        Stmt::WordList,
        Stmt::NewAccount,
        Stmt::DropEndedSessions,
        Stmt::NewSession,
        Stmt::EndSession,
        Stmt::SeatAccount,
        Stmt::GameToRate,
        Stmt::SeatAccounts,
        Stmt::FirstRating,
        Stmt::RatingOf,
        Stmt::SetRating,
        Stmt::RatingChange,
        Stmt::Rated,
        Stmt::PuzzlePlay,
        Stmt::PuzzleJudged,
        Stmt::PlayToRate,
        Stmt::FirstPuzzleRating,
        Stmt::PuzzleRatingOf,
        Stmt::SetPuzzleRating,
        Stmt::PlayRated,
        Stmt::NewChallenge,
        Stmt::PuzzleScore,
    ];

    /// The statement's text for `d`, with SQLite's numbered parameters.
    pub(super) fn sql(self, d: Dialect) -> Cow<'static, str> {
        use Dialect::{Postgres, Sqlite};
        Cow::Borrowed(match (self, d) {
            (Stmt::InsertGame, _) => {
                return Cow::Owned(format!(
                    "INSERT INTO games ({GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, \
                     ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)"
                ))
            }
            (Stmt::InsertSeat, _) => {
                "INSERT INTO seats (game_id, seat, kind, level, token, name, player, joined, account) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            }
            // Taken over a stored status at the same seq only, and only if
            // it names another clock (a clock's start is stored once).
            (Stmt::Status, Sqlite) => {
                "UPDATE games SET seq = ?2, to_act = ?3, outcome = ?4, over = ?5, deadline_key = ?6, \
                 deadline_started_ms = ?7, updated_ms = ?8 WHERE id = ?1 \
                 AND MAX(seq, COALESCE((SELECT MAX(idx) + 1 FROM actions WHERE game_id = ?1), 0)) = ?2 \
                 AND deadline_key IS DISTINCT FROM ?6"
            }
            (Stmt::Status, Postgres) => {
                "UPDATE games SET seq = ?2, to_act = ?3, outcome = ?4, over = ?5, deadline_key = ?6, \
                 deadline_started_ms = ?7, updated_ms = ?8 WHERE id = ?1 AND seq = ?2 \
                 AND deadline_key IS DISTINCT FROM ?6"
            }
            // Taken over a stored status at the same seq only.
            (Stmt::Abort, Sqlite) => {
                "UPDATE games SET seq = ?2, to_act = ?3, outcome = ?4, over = ?5, deadline_key = ?6, \
                 deadline_started_ms = ?7, updated_ms = ?8, aborted = TRUE WHERE id = ?1 \
                 AND MAX(seq, COALESCE((SELECT MAX(idx) + 1 FROM actions WHERE game_id = ?1), 0)) = ?2"
            }
            (Stmt::Abort, Postgres) => {
                "UPDATE games SET seq = ?2, to_act = ?3, outcome = ?4, over = ?5, deadline_key = ?6, \
                 deadline_started_ms = ?7, updated_ms = ?8, aborted = TRUE WHERE id = ?1 AND seq = ?2"
            }
            (Stmt::Claim, _) => {
                "UPDATE seats SET joined = TRUE, name = COALESCE(?3, name), \
                 player = COALESCE(?4, player), token = ?5 WHERE game_id = ?1 AND seat = ?2 \
                 AND NOT joined AND token IS NOT DISTINCT FROM ?6 AND kind = 'human'"
            }
            (Stmt::Join, _) => {
                "UPDATE seats SET joined = TRUE, name = COALESCE(?3, name), \
                 player = COALESCE(?4, player) WHERE game_id = ?1 AND seat = ?2"
            }
            (Stmt::Rematch, _) => "UPDATE games SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
            (Stmt::WordList, _) => {
                "INSERT INTO word_lists (id, fingerprint, name, words, skipped, bytes, created_ms, text) \
                 SELECT CAST(?1 AS TEXT), CAST(?2 AS TEXT), CAST(?3 AS TEXT), CAST(?4 AS BIGINT), \
                 CAST(?5 AS BIGINT), CAST(?6 AS BIGINT), CAST(?7 AS BIGINT), CAST(?8 AS TEXT) \
                 WHERE NOT EXISTS (SELECT 1 FROM word_lists WHERE id = ?1) \
                 AND (SELECT COALESCE(SUM(bytes), 0) FROM word_lists) + CAST(?6 AS BIGINT) \
                 <= CAST(?9 AS BIGINT) ON CONFLICT DO NOTHING"
            }
            (Stmt::NewAccount, _) => {
                "INSERT INTO accounts (username_key, username, password_hash, created_ms, skeleton) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING"
            }
            (Stmt::DropEndedSessions, _) => "DELETE FROM sessions WHERE expires_ms < ?1",
            (Stmt::NewSession, _) => {
                "INSERT INTO sessions (token_hash, username, expires_ms) VALUES (?1, ?2, ?3)"
            }
            (Stmt::EndSession, _) => "DELETE FROM sessions WHERE token_hash = ?1",
            (Stmt::SeatAccount, _) => {
                "UPDATE seats SET account = ?3 WHERE game_id = ?1 AND seat = ?2 \
                 AND kind = 'human' AND joined AND (account IS NULL OR account = ?3) \
                 AND NOT EXISTS (SELECT 1 FROM games g, seats o WHERE g.id = ?1 AND g.rated \
                     AND o.game_id = ?1 AND o.seat <> ?2 AND o.account = ?3)"
            }
            (Stmt::GameToRate, Sqlite) => {
                "SELECT game, outcome FROM games WHERE id = ?1 AND over AND NOT aborted AND rated \
                 AND NOT rating_done"
            }
            (Stmt::GameToRate, Postgres) => {
                "SELECT game, outcome FROM games WHERE id = ?1 AND over AND NOT aborted AND rated \
                 AND NOT rating_done FOR UPDATE"
            }
            (Stmt::SeatAccounts, _) => "SELECT account FROM seats WHERE game_id = ?1 ORDER BY seat",
            (Stmt::FirstRating, _) => {
                "INSERT INTO ratings (username, game, rating, rd, volatility, games, updated_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6) ON CONFLICT DO NOTHING"
            }
            (Stmt::RatingOf, Sqlite) => {
                "SELECT rating, rd, volatility FROM ratings WHERE username = ?1 AND game = ?2"
            }
            (Stmt::RatingOf, Postgres) => {
                "SELECT rating, rd, volatility FROM ratings WHERE username = ?1 AND game = ?2 \
                 FOR UPDATE"
            }
            (Stmt::SetRating, _) => {
                "UPDATE ratings SET rating = ?3, rd = ?4, volatility = ?5, games = games + 1, \
                 updated_ms = ?6 WHERE username = ?1 AND game = ?2"
            }
            (Stmt::RatingChange, _) => {
                "INSERT INTO rating_changes (game_id, username, before, after, at_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5)"
            }
            (Stmt::Rated, _) => "UPDATE games SET rating_done = TRUE WHERE id = ?1",
            // One try of a day's challenge each: the unique index refuses a
            // second.
            (Stmt::PuzzlePlay, _) => {
                "INSERT INTO puzzle_plays (game_id, puzzle_id, day, challenge, who, name, created_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING"
            }
            // The first verdict stands; a solved puzzle may become complete.
            (Stmt::PuzzleJudged, _) => {
                "UPDATE puzzle_plays SET solved = ?2, complete = ?3, why = ?4 WHERE game_id = ?1 \
                 AND (solved IS NULL OR (solved = ?2 AND NOT complete AND ?3))"
            }
            (Stmt::PlayToRate, d) => {
                return Cow::Owned(format!(
                    "SELECT CASE WHEN solved THEN 'solved' ELSE 'failed' END FROM puzzle_plays \
                     WHERE game_id = ?1 AND who = ?2 AND puzzle_id = ?3 AND solved IS NOT NULL \
                     AND rating_after IS NULL AND NOT EXISTS (SELECT 1 FROM puzzle_plays o \
                     WHERE o.who = ?2 AND o.puzzle_id = ?3 AND o.rating_after IS NOT NULL){}",
                    if d == Postgres { " FOR UPDATE" } else { "" }
                ))
            }
            (Stmt::FirstPuzzleRating, _) => {
                "INSERT INTO puzzle_ratings (subject, rating, rd, volatility, tries, updated_ms) \
                 VALUES (?1, ?2, ?3, ?4, 0, ?5) ON CONFLICT DO NOTHING"
            }
            (Stmt::PuzzleRatingOf, Sqlite) => {
                "SELECT rating, rd, volatility FROM puzzle_ratings WHERE subject = ?1"
            }
            (Stmt::PuzzleRatingOf, Postgres) => {
                "SELECT rating, rd, volatility FROM puzzle_ratings WHERE subject = ?1 FOR UPDATE"
            }
            (Stmt::SetPuzzleRating, _) => {
                "UPDATE puzzle_ratings SET rating = ?2, rd = ?3, volatility = ?4, tries = tries + 1, \
                 updated_ms = ?5 WHERE subject = ?1"
            }
            (Stmt::PlayRated, _) => {
                "UPDATE puzzle_plays SET rating_before = ?2, rating_after = ?3 WHERE game_id = ?1"
            }
            (Stmt::PuzzleScore, _) => {
                "UPDATE puzzle_plays SET score = ?2 WHERE game_id = ?1 AND score IS NULL"
            }
            (Stmt::NewChallenge, _) => {
                "INSERT INTO puzzle_challenges (id, puzzle_id, by_name, created_ms) \
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING"
            }
        })
    }
}

/// A transaction of one database, as [`apply`] uses it.
pub(super) trait Tx {
    /// Writes the action `writes[i]` (now, or with others of its group by
    /// [`Tx::flush_actions`]), setting `taken[i]`.
    fn action(
        &mut self,
        writes: &[Write],
        i: usize,
        taken: &mut [bool],
    ) -> Result<(), StorageError>;
    /// Writes the actions held back by [`Tx::action`], if any.
    fn flush_actions(
        &mut self,
        _writes: &[Write],
        _taken: &mut [bool],
    ) -> Result<(), StorageError> {
        Ok(())
    }
    /// After a write other than an action (PostgreSQL announces it).
    fn applied(&mut self, _w: &Write, _taken: bool) {}
    /// Runs a statement; answers the rows it changed.
    fn exec(&mut self, st: Stmt, params: &[Param<'_>]) -> Result<u64, StorageError>;
    /// The rows of a query of text columns (NULL: `None`).
    fn texts(
        &mut self,
        st: Stmt,
        params: &[Param<'_>],
    ) -> Result<Vec<Vec<Option<String>>>, StorageError>;
    /// The rows of a query of number columns.
    fn reals(&mut self, st: Stmt, params: &[Param<'_>]) -> Result<Vec<Vec<f64>>, StorageError>;
    /// Locks a game's row until the commit (where processes share the
    /// database).
    fn lock_game(&mut self, _game_id: &str) -> Result<(), StorageError> {
        Ok(())
    }
    /// Applies [`Write::Presence`] or [`Write::PresenceRefresh`]: kept
    /// only where processes share the database; SQLite's one process keeps
    /// presence in its actors' memory (see `crate::presence`).
    fn presence(&mut self, _w: &Write) -> Result<bool, StorageError> {
        Ok(true)
    }
}

/// A status's parameters `?1` to `?8` (see [`Stmt::Status`]).
fn status_params<'a>(game_id: &'a str, s: &'a StatusRow) -> [Param<'a>; 8] {
    [
        Param::Text(game_id),
        Param::Int(s.seq as i64),
        Param::Text(s.to_act.as_str()),
        Param::OptText(s.outcome.as_ref().map(|o| o.as_str())),
        Param::Bool(s.over),
        Param::OptText(s.deadline.as_ref().map(|d| d.key.as_str())),
        Param::OptInt(s.deadline.as_ref().map(|d| d.started_ms)),
        Param::Int(s.updated_ms),
    ]
}

fn insert_game(tx: &mut impl Tx, row: &GameRow, seats: &[SeatRow]) -> Result<(), StorageError> {
    let s = &row.status;
    let time_control = super::time_control_text(&row.time_control);
    tx.exec(
        Stmt::InsertGame,
        &[
            Param::Text(&row.id),
            Param::Text(&row.game),
            Param::Text(row.config.as_str()),
            Param::Int(row.seed as i64),
            Param::Text(row.lexicons.as_str()),
            Param::Bool(row.public),
            Param::Int(row.created_ms),
            Param::Int(s.seq as i64),
            Param::Text(s.to_act.as_str()),
            Param::OptText(s.outcome.as_ref().map(|o| o.as_str())),
            Param::Bool(s.over),
            Param::OptText(s.deadline.as_ref().map(|d| d.key.as_str())),
            Param::OptInt(s.deadline.as_ref().map(|d| d.started_ms)),
            Param::Int(s.updated_ms),
            Param::OptText(row.rematch_of.as_deref()),
            Param::OptText(row.rematch.as_deref()),
            Param::OptReal(row.time_control.turn_seconds),
            Param::Bool(row.aborted),
            Param::OptReal(row.time_control.absent_seconds),
            Param::OptText(time_control.as_deref()),
            Param::Bool(row.rated),
        ],
    )?;
    for seat in seats {
        tx.exec(
            Stmt::InsertSeat,
            &[
                Param::Text(&row.id),
                Param::Int(seat.seat as i64),
                Param::Text(seat.kind.as_str()),
                Param::OptText(seat.level.as_deref()),
                Param::OptText(seat.token.as_deref()),
                Param::OptText(seat.name.as_deref()),
                Param::OptText(seat.player.as_deref()),
                Param::Bool(seat.joined),
                Param::OptText(seat.account.as_deref()),
            ],
        )?;
    }
    Ok(())
}

fn new_account(tx: &mut impl Tx, account: &AccountRow) -> Result<bool, StorageError> {
    let key = account.username.to_lowercase();
    let skeleton = username_skeleton(&account.username);
    Ok(tx.exec(
        Stmt::NewAccount,
        &[
            Param::Text(&key),
            Param::Text(&account.username),
            Param::Text(&account.password_hash),
            Param::Int(account.created_ms),
            Param::Text(&skeleton),
        ],
    )? == 1)
}

/// The rating row at `key` (the statements' first parameters), made with
/// `first` where there is none, then read (locked where processes share
/// the database): a game's rating ([`Stmt::FirstRating`],
/// [`Stmt::RatingOf`]) or a puzzle rating.
fn rating_at(
    tx: &mut impl Tx,
    (make, read): (Stmt, Stmt),
    key: &[Param<'_>],
    first: Rating,
    at_ms: i64,
) -> Result<Rating, StorageError> {
    tx.exec(make, &rating_params(key, first, at_ms))?;
    Ok(tx
        .reals(read, key)?
        .into_iter()
        .next()
        .and_then(|r| <[f64; 3]>::try_from(r).ok())
        .map_or(first, |[rating, rd, volatility]| Rating {
            rating,
            rd,
            volatility,
        }))
}

/// A rating statement's parameters: the row's key, then the rating, its
/// deviation, its volatility and the time.
fn rating_params<'a>(key: &[Param<'a>], r: Rating, at_ms: i64) -> Vec<Param<'a>> {
    let mut params = key.to_vec();
    params.extend([
        Param::Real(r.rating),
        Param::Real(r.rd),
        Param::Real(r.volatility),
        Param::Int(at_ms),
    ]);
    params
}

/// Applies [`Write::PuzzleRate`] (see there for when it is taken): the
/// play and both rating rows are read and written in this transaction
/// (locked where processes share the database, the account's row first).
fn rate_try(
    tx: &mut impl Tx,
    game_id: &str,
    account: &str,
    puzzle_id: &str,
    puzzle_first: Rating,
    at_ms: i64,
) -> Result<bool, StorageError> {
    let player = format!("a:{account}");
    let verdict = tx.texts(
        Stmt::PlayToRate,
        &[
            Param::Text(game_id),
            Param::Text(&player),
            Param::Text(puzzle_id),
        ],
    )?;
    let Some(Some(verdict)) = verdict.into_iter().next().and_then(|mut r| r.pop()) else {
        return Ok(false);
    };
    let puzzle = format!("p:{puzzle_id}");
    let mut before = [Rating::default(), puzzle_first];
    for (i, subject) in [&player, &puzzle].into_iter().enumerate() {
        let stmts = (Stmt::FirstPuzzleRating, Stmt::PuzzleRatingOf);
        before[i] = rating_at(tx, stmts, &[Param::Text(subject)], before[i], at_ms)?;
    }
    let (p, q) = crate::puzzles::after_try(before[0], before[1], verdict == "solved");
    for (subject, r) in [(&player, p), (&puzzle, q)] {
        tx.exec(
            Stmt::SetPuzzleRating,
            &rating_params(&[Param::Text(subject)], r, at_ms),
        )?;
    }
    tx.exec(
        Stmt::PlayRated,
        &[
            Param::Text(game_id),
            Param::Real(before[0].rating),
            Param::Real(p.rating),
        ],
    )?;
    Ok(true)
}

/// Applies [`Write::Rate`] (see there for when it is taken). Where
/// processes share the database the game's row and the players' rating
/// rows are locked as they are read: a game is rated once, and two games
/// of one player ending together through two processes each see the
/// other's change.
fn rate(tx: &mut impl Tx, game_id: &str) -> Result<bool, StorageError> {
    let row = tx.texts(Stmt::GameToRate, &[Param::Text(game_id)])?;
    let Some([Some(game), Some(outcome)]) = row
        .into_iter()
        .next()
        .map(<[_; 2]>::try_from)
        .and_then(Result::ok)
    else {
        return Ok(false);
    };
    let accounts: Vec<Option<String>> = tx
        .texts(Stmt::SeatAccounts, &[Param::Text(game_id)])?
        .into_iter()
        .map(|mut r| r.pop().flatten())
        .collect();
    let outcome = super::parse_json(&outcome)?;
    let Some((names, places)) = super::rating_plan(&accounts, &outcome) else {
        return Ok(false);
    };
    let d = Rating::default();
    let now = crate::now_ms();
    // In name order, so two transactions lock the same rows in one order.
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let mut before = vec![d; names.len()];
    for &i in &order {
        let key = [Param::Text(&names[i]), Param::Text(&game)];
        before[i] = rating_at(tx, (Stmt::FirstRating, Stmt::RatingOf), &key, d, now)?;
    }
    let players: Vec<(usize, Rating)> =
        places.iter().copied().zip(before.iter().copied()).collect();
    let after = crate::ratings::after_game(&players);
    for ((name, b), a) in names.iter().zip(&before).zip(&after) {
        tx.exec(
            Stmt::SetRating,
            &rating_params(&[Param::Text(name), Param::Text(&game)], *a, now),
        )?;
        tx.exec(
            Stmt::RatingChange,
            &[
                Param::Text(game_id),
                Param::Text(name),
                Param::Real(b.rating),
                Param::Real(a.rating),
                Param::Int(now),
            ],
        )?;
    }
    tx.exec(Stmt::Rated, &[Param::Text(game_id)])?;
    Ok(true)
}

/// Applies a group of writes in order, inside the caller's transaction;
/// returns per write whether it was taken (see [`super::Storage::commit`]).
/// Actions go to the database's own action writer, which may hold them
/// back to write several at once: it writes them before any other write,
/// so every write sees the ones before it.
pub(super) fn apply(tx: &mut impl Tx, writes: &[Write]) -> Result<Vec<bool>, StorageError> {
    let mut taken = vec![false; writes.len()];
    for (i, w) in writes.iter().enumerate() {
        if let Write::Action { .. } = w {
            tx.action(writes, i, &mut taken)?;
            continue;
        }
        tx.flush_actions(writes, &mut taken)?;
        taken[i] = apply_one(tx, w)?;
        tx.applied(w, taken[i]);
    }
    tx.flush_actions(writes, &mut taken)?;
    Ok(taken)
}

/// Applies one write other than an action; returns whether it was taken.
fn apply_one(tx: &mut impl Tx, w: &Write) -> Result<bool, StorageError> {
    Ok(match w {
        Write::NewGame { row, seats } => {
            insert_game(tx, row, seats)?;
            true
        }
        Write::Action { .. } => unreachable!("actions go to Tx::action"),
        Write::Status { game_id, status } => {
            tx.exec(Stmt::Status, &status_params(game_id, status))? == 1
        }
        Write::Abort { game_id, status } => {
            tx.exec(Stmt::Abort, &status_params(game_id, status))? == 1
        }
        Write::Claim {
            game_id,
            seat,
            token,
            invite,
            name,
            player,
        } => {
            tx.exec(
                Stmt::Claim,
                &[
                    Param::Text(game_id),
                    Param::Int(*seat as i64),
                    Param::OptText(name.as_deref()),
                    Param::OptText(player.as_deref()),
                    Param::Text(token),
                    Param::OptText(invite.as_deref()),
                ],
            )? == 1
        }
        Write::Join {
            game_id,
            seat,
            name,
            player,
        } => {
            let n = tx.exec(
                Stmt::Join,
                &[
                    Param::Text(game_id),
                    Param::Int(*seat as i64),
                    Param::OptText(name.as_deref()),
                    Param::OptText(player.as_deref()),
                ],
            )?;
            if n != 1 {
                return Err(StorageError::conflict(format!(
                    "no seat {seat} in game {game_id}"
                )));
            }
            true
        }
        Write::Rematch { from, to } => {
            tx.exec(Stmt::Rematch, &[Param::Text(from), Param::Text(to)])? == 1
        }
        Write::WordList {
            list,
            max_total_bytes,
        } => {
            tx.exec(
                Stmt::WordList,
                &[
                    Param::Text(&list.id),
                    Param::Text(&list.fingerprint),
                    Param::Text(&list.name),
                    Param::Int(list.words as i64),
                    Param::Int(list.skipped as i64),
                    Param::Int(list.bytes as i64),
                    Param::Int(list.created_ms),
                    Param::Text(list.text.as_deref().unwrap_or("")),
                    Param::Int(i64::try_from(*max_total_bytes).unwrap_or(i64::MAX)),
                ],
            )? == 1
        }
        Write::NewAccount { account } => new_account(tx, account)?,
        Write::NewSession {
            token_hash,
            username,
            expires_ms,
        } => {
            // Ended sessions go as new ones come: the table stays the size
            // of the sessions in use.
            tx.exec(Stmt::DropEndedSessions, &[Param::Int(crate::now_ms())])?;
            tx.exec(
                Stmt::NewSession,
                &[
                    Param::Text(token_hash),
                    Param::Text(username),
                    Param::Int(*expires_ms),
                ],
            )?;
            true
        }
        Write::EndSession { token_hash } => {
            tx.exec(Stmt::EndSession, &[Param::Text(token_hash)])?;
            true
        }
        Write::SeatAccount {
            game_id,
            seat,
            username,
        } => {
            // The game's row first, so two seats of one rated game bound
            // to one account at the same moment through two processes are
            // seen one after the other.
            tx.lock_game(game_id)?;
            tx.exec(
                Stmt::SeatAccount,
                &[
                    Param::Text(game_id),
                    Param::Int(*seat as i64),
                    Param::Text(username),
                ],
            )? == 1
        }
        Write::Rate { game_id } => rate(tx, game_id)?,
        Write::PuzzlePlay { row } => {
            tx.exec(
                Stmt::PuzzlePlay,
                &[
                    Param::Text(&row.game_id),
                    Param::Text(&row.puzzle_id),
                    Param::OptInt(row.day),
                    Param::OptText(row.challenge.as_deref()),
                    Param::Text(&row.who),
                    Param::OptText(row.name.as_deref()),
                    Param::Int(row.created_ms),
                ],
            )? == 1
        }
        Write::PuzzleJudged {
            game_id,
            solved,
            complete,
            why,
        } => {
            tx.exec(
                Stmt::PuzzleJudged,
                &[
                    Param::Text(game_id),
                    Param::Bool(*solved),
                    Param::Bool(*complete),
                    Param::Text(why),
                ],
            )? == 1
        }
        Write::PuzzleRate {
            game_id,
            account,
            puzzle_id,
            puzzle_first,
            at_ms,
        } => rate_try(tx, game_id, account, puzzle_id, *puzzle_first, *at_ms)?,
        Write::PuzzleScore { game_id, score } => {
            tx.exec(
                Stmt::PuzzleScore,
                &[Param::Text(game_id), Param::Int(*score)],
            )? == 1
        }
        Write::NewChallenge { row } => {
            tx.exec(
                Stmt::NewChallenge,
                &[
                    Param::Text(&row.id),
                    Param::Text(&row.puzzle_id),
                    Param::OptText(row.by_name.as_deref()),
                    Param::Int(row.created_ms),
                ],
            )? == 1
        }
        Write::Presence { .. } | Write::PresenceRefresh { .. } => tx.presence(w)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PostgreSQL finds a prepared statement at its variant's number.
    #[test]
    fn every_statement_is_listed_at_its_number() {
        for (i, st) in Stmt::ALL.iter().enumerate() {
            assert_eq!(*st as usize, i, "{st:?}");
        }
    }
}
