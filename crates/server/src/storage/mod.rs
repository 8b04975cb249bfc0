//! Where games live between actions: one [`Storage`] trait, two databases.
//!
//! The database holds each game's *record* — game name, rules, seed and
//! every accepted action in order — plus its seats and a few facts kept up to
//! date for listings (who is to act, the outcome, the clock's start). A game's
//! state is never stored: it is rebuilt by replaying the record, which the
//! core crate guarantees to be exact.
//!
//! [`Storage`] is synchronous and owned by one thread at a time: the
//! [`Store`] handle runs one writer thread that commits writes in groups (all
//! writes waiting when the previous commit ends go into one transaction, one
//! disk flush), and one reader thread for the rare reads. Async code only
//! ever sees the [`Store`].

/// The columns of the `games` table in the order both back ends read and
/// write them (row decoding depends on this order).
const GAME_COLUMNS: &str = "id, game, config, seed, lexicons, public, created_ms, seq, to_act, \
     outcome, over, deadline_key, deadline_started_ms, updated_ms, rematch_of, rematch, turn_seconds, aborted, absent_seconds, time_control, rated";

mod migrations;
mod postgres;
mod sqlite;
mod store;
mod tuning;
mod writes;

pub use self::postgres::PgStorage;
pub use self::sqlite::SqliteStorage;
pub use store::{Notice, Store, DEFAULT_COMMIT_PACE, MAX_COMMIT_PACE};

use serde_json::value::RawValue;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// A commit or checkpoint that takes longer than this is logged (a warning
/// saying what it was and how long each part took). Every action's ack
/// waits for its commit, so whatever holds the writer this long shows in
/// every ack of that moment.
pub(crate) const SLOW_STORAGE: Duration = Duration::from_millis(100);

/// Milliseconds, for the slow-storage warnings.
pub(crate) fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 10_000.0).round() / 10.0
}

/// The error a backend keeps as the cause of a [`StorageError`].
pub type Source = std::sync::Arc<dyn std::error::Error + Send + Sync>;

/// A database operation failed, by kind; the backend's own error, where
/// there is one, is kept as the source.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StorageError {
    /// The database cannot be reached or did not do the work (connection,
    /// IO, a stopped thread): asking again later can succeed.
    #[error("storage: {what}")]
    Unavailable {
        /// What failed.
        what: String,
        /// The backend's error.
        #[source]
        source: Option<Source>,
    },
    /// Another writer changed what the write depended on; nothing was made.
    #[error("storage: {what}")]
    Conflict {
        /// What was in the way.
        what: String,
    },
    /// A stored row cannot be read back (bad JSON, a value out of range).
    #[error("storage: {what}")]
    Corrupt {
        /// What was wrong with the row.
        what: String,
        /// The parser's error.
        #[source]
        source: Option<Source>,
    },
    /// The database asked for cannot be used by this program (an unknown
    /// address, a schema newer than this program's).
    #[error("storage: {what}")]
    Misconfigured {
        /// What was wrong.
        what: String,
    },
}

impl StorageError {
    pub(crate) fn from(e: impl std::fmt::Display) -> Self {
        Self::unavailable(e.to_string())
    }
    /// The database did not do the work.
    pub fn unavailable(what: impl Into<String>) -> Self {
        StorageError::Unavailable {
            what: what.into(),
            source: None,
        }
    }
    /// Another writer got there first.
    pub fn conflict(what: impl Into<String>) -> Self {
        StorageError::Conflict { what: what.into() }
    }
    /// A stored row that cannot be read back.
    pub fn corrupt(what: impl Into<String>) -> Self {
        StorageError::Corrupt {
            what: what.into(),
            source: None,
        }
    }
    /// A database this program cannot use.
    pub fn misconfigured(what: impl Into<String>) -> Self {
        StorageError::Misconfigured { what: what.into() }
    }
    /// This error with the backend's error as its source (kinds without a
    /// source are returned as they are).
    pub fn with_source(mut self, e: impl std::error::Error + Send + Sync + 'static) -> Self {
        if let StorageError::Unavailable { source, .. } | StorageError::Corrupt { source, .. } =
            &mut self
        {
            *source = Some(std::sync::Arc::new(e));
        }
        self
    }
    /// The message, without the `storage:` prefix.
    pub fn message(&self) -> &str {
        match self {
            StorageError::Unavailable { what, .. }
            | StorageError::Conflict { what }
            | StorageError::Corrupt { what, .. }
            | StorageError::Misconfigured { what } => what,
        }
    }
}

/// Whether a human or a computer plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person holding the seat's token.
    Human,
    /// The game's own computer player.
    Bot,
}

impl SeatKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Bot => "bot",
        }
    }
    pub(crate) fn parse(s: &str) -> SeatKind {
        if s == "bot" {
            SeatKind::Bot
        } else {
            SeatKind::Human
        }
    }
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat number, from 0.
    pub seat: usize,
    /// Human or bot.
    pub kind: SeatKind,
    /// A bot's level (`easy` ... `best`).
    pub level: Option<String>,
    /// A human seat's secret token. `None` for a bot, and for an *open*
    /// seat nobody has claimed yet (`claim` mints its token); an invited
    /// seat has its token from the start.
    pub token: Option<String>,
    /// The display name.
    pub name: Option<String>,
    /// The player key that joined the seat, for "my games".
    pub player: Option<String>,
    /// Whether a human has taken the seat (bots always have).
    pub joined: bool,
    /// The account (its username) the seat belongs to: taken while logged
    /// in, or claimed into the account later (see `crate::accounts`).
    pub account: Option<String>,
}

/// A clock's identity and start, kept so a restart resumes it. Since the
/// clocks became one model (`crate::clocks`), the key is
/// [`crate::clocks::START_KEY`] and `started_ms` the start of play; a row
/// written before holds the game's round key and that round's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlineRow {
    /// The game's [`parlor_core::Deadline::key`].
    pub key: String,
    /// When a state with this key was first reached (ms since the epoch).
    pub started_ms: i64,
}

/// The facts kept up to date after every action, for listings and restarts.
///
/// Who is to act and the outcome are held as their JSON text: the database
/// stores that text and summaries write it as it is, and a status is made,
/// cloned for its write and dropped at every action (as trees of values,
/// a map and its keys each time).
#[derive(Clone, Debug, PartialEq)]
pub struct StatusRow {
    /// Number of accepted actions.
    pub seq: usize,
    /// [`parlor_core::ToAct`] as JSON.
    pub to_act: JsonText,
    /// [`parlor_core::Outcome`] as JSON, once over.
    pub outcome: Option<JsonText>,
    /// Whether the game is over.
    pub over: bool,
    /// The running clock, if any.
    pub deadline: Option<DeadlineRow>,
    /// When this status was written (ms since the epoch).
    pub updated_ms: i64,
}

/// One game's fixed facts plus its current status.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's public id.
    pub id: String,
    /// The registered game name.
    pub game: String,
    /// The rules, as the game normalised them (from its record).
    pub config: JsonText,
    /// The game's seed.
    pub seed: u64,
    /// The record's lexicon stamps, checked on replay.
    pub lexicons: JsonText,
    /// Listed in the lobby, free seats claimable.
    pub public: bool,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// The current status.
    pub status: StatusRow,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once made.
    pub rematch: Option<String>,
    /// The time controls the host keeps for the seats (banks, turn clock,
    /// absent countdown; see [`parlor_core::clock`]). Stored as JSON in the
    /// `time_control` column, and its turn and absent seconds also in the
    /// older `turn_seconds` / `absent_seconds` columns; a row stored before
    /// `time_control` existed reads those two into it.
    pub time_control: parlor_core::TimeControl,
    /// Stopped before anyone moved (`POST .../abort`): over, no outcome.
    pub aborted: bool,
    /// Made rated: its end changes its players' ratings (see
    /// `crate::ratings`), provided every seat then belongs to a distinct
    /// account.
    pub rated: bool,
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRow {
    /// Its position in the record, from 0.
    pub idx: usize,
    /// [`parlor_core::Actor`] as JSON.
    pub actor: Value,
    /// The action as JSON.
    pub action: Value,
    /// When it was accepted (ms since the epoch).
    pub at_ms: i64,
}

/// A game with its seats and every action: enough to replay it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// The game's row.
    pub row: GameRow,
    /// Its seats, by seat number.
    pub seats: Vec<SeatRow>,
    /// Its actions, in order.
    pub actions: Vec<ActionRow>,
}

/// A game as listed: the row and the seats, without the actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The game's row.
    pub row: GameRow,
    /// Its seats.
    pub seats: Vec<SeatRow>,
}

/// An uploaded word list as stored (`POST /api/word-lists`): the list's
/// canonical text (its distinct words, ascending, one per line), so that
/// loading it again gives the same [`parlor_lexicon::Lexicon`] and the same
/// fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordListRow {
    /// `upload-` and the fingerprint in 16 hexadecimal digits.
    pub id: String,
    /// [`parlor_lexicon::Lexicon::fingerprint`], 16 hexadecimal digits.
    pub fingerprint: String,
    /// The display name given at upload.
    pub name: String,
    /// Distinct words.
    pub words: usize,
    /// Lines skipped at the first upload (not words of a-z).
    pub skipped: usize,
    /// Bytes of `text`.
    pub bytes: usize,
    /// When it was first stored (ms since the epoch).
    pub created_ms: i64,
    /// The canonical text; `None` when read without it.
    pub text: Option<String>,
}

/// The key under which usernames that look alike collide: the name's
/// confusable skeleton (Unicode TR39, through the `unicode-security`
/// crate: `I`, `1` and `l` all become `l`, `0` becomes `O`, `rn` stands
/// for `m`), in lower case, and the skeleton of that again (lowering can
/// make a letter that has a skeleton of its own: `M` to `m`). Names are
/// already unique ignoring case; with this, `Lilly0`, `LiIly0`, `LiIIy0`
/// and `LilIyO` are one name too. The store keeps the key with each account and refuses a new account
/// whose key an existing account has (see `docs/api.md`, "Names").
pub fn username_skeleton(u: &str) -> String {
    let first: String = unicode_security::skeleton(u).collect();
    unicode_security::skeleton(&first.to_lowercase()).collect()
}

/// An account as stored (see `crate::accounts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// The username as its owner spelled it.
    pub username: String,
    /// The PHC string of its password's Argon2 hash.
    pub password_hash: String,
    /// When it was made (ms since the epoch).
    pub created_ms: i64,
}

/// One account's rating at one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The account's username.
    pub username: String,
    /// The registered game name.
    pub game: String,
    /// The rating, its deviation and volatility.
    pub rating: crate::ratings::Rating,
    /// Rated games played.
    pub games: i64,
    /// When it last changed (ms since the epoch).
    pub updated_ms: i64,
}

/// What one rated game did to one account's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChangeRow {
    /// The game's id.
    pub game_id: String,
    /// The account's username.
    pub username: String,
    /// Rating before and after.
    pub before: f64,
    /// Rating after.
    pub after: f64,
}

/// A puzzle played: the game made for it, who played it (as the day's
/// challenge or through a friend's challenge), and its verdict once the
/// server has judged it (see `crate::puzzles`).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzlePlayRow {
    /// The game made for the puzzle.
    pub game_id: String,
    /// The puzzle's id.
    pub puzzle_id: String,
    /// The day (since 1970-01-01, UTC) whose challenge it was played as.
    pub day: Option<i64>,
    /// The friend's challenge it was played through.
    pub challenge: Option<String>,
    /// Who played it: `a:` and an account's username, or `g:` and a
    /// guest's player key.
    pub who: String,
    /// The name shown for them.
    pub name: Option<String>,
    /// When the game was made (ms since the epoch).
    pub created_ms: i64,
    /// Whether the answer solved it; `None` until it was judged.
    pub solved: Option<bool>,
    /// Solved, and for a puzzle won out, won.
    pub complete: bool,
    /// Why, in the game's words.
    pub why: Option<String>,
    /// An account's puzzle rating before and after the try (its first try
    /// of this puzzle only).
    pub rating: Option<(f64, f64)>,
    /// The player's points at the end, in a game that scores (Gobble).
    pub score: Option<i64>,
}

/// Which puzzle plays to list (each given condition must hold).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaysQuery {
    /// Of this puzzle.
    pub puzzle_id: Option<String>,
    /// As this day's challenge.
    pub day: Option<i64>,
    /// Through this friend's challenge.
    pub challenge: Option<String>,
    /// By this player (`a:NAME` or `g:KEY`).
    pub who: Option<String>,
}

/// A friend's challenge: a link that gives one puzzle to anyone.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its id (in its link).
    pub id: String,
    /// The puzzle.
    pub puzzle_id: String,
    /// The name of who made it.
    pub by_name: Option<String>,
    /// When (ms since the epoch).
    pub created_ms: i64,
}

/// The columns of a puzzle play, in [`PuzzlePlayRow`]'s order.
pub(crate) const PLAY_COLUMNS: &str = "game_id, puzzle_id, day, challenge, who, name, created_ms, \
     solved, complete, why, rating_before, rating_after, score";

/// The puzzle plays of [`Storage::puzzle_plays`], with SQLite's numbered
/// parameters: ?1 puzzle, ?2 day, ?3 challenge, ?4 who, ?5 game, ?6 limit;
/// each condition holds where its parameter is NULL.
pub(crate) fn plays_sql(cast: fn(&str, &str) -> String) -> String {
    format!(
        "SELECT {PLAY_COLUMNS} FROM puzzle_plays WHERE ({} IS NULL OR puzzle_id = ?1) \
         AND ({} IS NULL OR day = ?2) AND ({} IS NULL OR challenge = ?3) \
         AND ({} IS NULL OR who = ?4) AND ({} IS NULL OR game_id = ?5) \
         ORDER BY created_ms DESC, game_id LIMIT ?6",
        cast("?1", "TEXT"),
        cast("?2", "BIGINT"),
        cast("?3", "TEXT"),
        cast("?4", "TEXT"),
        cast("?5", "TEXT"),
    )
}

/// A change to the database. A batch of writes commits in one transaction.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// A new game and its seats.
    NewGame {
        /// The game.
        row: GameRow,
        /// Its seats.
        seats: Vec<SeatRow>,
    },
    /// An accepted action and the status after it. Not taken (and the
    /// status left alone) if an action with the same index is already
    /// stored: another process got there first.
    Action {
        /// The game.
        game_id: String,
        /// The action.
        action: ActionRow,
        /// The status after it.
        status: StatusRow,
    },
    /// A status change without an action (a clock that started on load).
    /// Taken only if the stored status is at the same `seq` (a process that
    /// has not caught up cannot overwrite a newer status) and names another
    /// clock (a clock's start is stored once, by whichever process is first).
    Status {
        /// The game.
        game_id: String,
        /// The new status.
        status: StatusRow,
    },
    /// A human took a seat nobody has joined: an open seat (`claim`),
    /// which has no token until then, or an invited seat (`join` with its
    /// invite), whose invite is retired. Either way the seat gets `token`,
    /// minted for the one who took it. Taken only if the seat is a
    /// human's, nobody has joined it and its token is still `invite`
    /// (none for an open seat), so two takers through two processes
    /// cannot both win and a seat has one holder.
    Claim {
        /// The game.
        game_id: String,
        /// The seat.
        seat: usize,
        /// The seat's new token: the taker's secret.
        token: String,
        /// The invite's token the seat must hold now; `None`: an open seat.
        invite: Option<String>,
        /// The display name.
        name: Option<String>,
        /// The player key.
        player: Option<String>,
    },
    /// A human took a seat (with its token).
    Join {
        /// The game.
        game_id: String,
        /// The seat.
        seat: usize,
        /// The display name.
        name: Option<String>,
        /// The player key.
        player: Option<String>,
    },
    /// The game was aborted; `status` marks it over. Taken only if the
    /// stored status is at the same `seq` (nobody moved meanwhile).
    Abort {
        /// The game.
        game_id: String,
        /// The status after it.
        status: StatusRow,
    },
    /// `to` is the rematch of `from`. Taken only if `from` has no rematch
    /// yet.
    Rematch {
        /// The finished game.
        from: String,
        /// The new game.
        to: String,
    },
    /// Presence (see `crate::presence`): process `process` holds `seat` of
    /// `game_id` (`held`: a row that expires `ttl_ms` from the database's
    /// clock, made or extended) or no longer does (`!held`: its row
    /// deleted). Announced to the other processes. Always taken. Only
    /// databases shared between processes keep it (SQLite: nothing).
    Presence {
        /// The process's random id.
        process: String,
        /// The game.
        game_id: String,
        /// The seat.
        seat: usize,
        /// Held (row made or extended) or let go (row deleted).
        held: bool,
        /// How long the row lives without a refresh.
        ttl_ms: i64,
    },
    /// Presence refresh: every (game, seat) `process` holds now, in one
    /// statement: their rows' expiry extended by `ttl_ms` (made again if
    /// missing), the process's other rows deleted, and every process's
    /// rows long expired deleted. Not announced. Always taken.
    PresenceRefresh {
        /// The process's random id.
        process: String,
        /// The seats it holds.
        held: Vec<(String, usize)>,
        /// How long the rows live without a refresh.
        ttl_ms: i64,
    },
    /// A new account. Taken only if no account has the same username
    /// (compared in lower case) nor the same skeleton
    /// ([`username_skeleton`], stored with it).
    NewAccount {
        /// The account.
        account: AccountRow,
    },
    /// A login: the session whose token hashes to `token_hash` acts for
    /// `username` until `expires_ms`. Always taken.
    NewSession {
        /// SHA-256 of the session token, in hex (the token itself is never
        /// stored).
        token_hash: String,
        /// The account.
        username: String,
        /// When it ends (ms since the epoch).
        expires_ms: i64,
    },
    /// A logout: the session is deleted. Always taken.
    EndSession {
        /// SHA-256 of the session token, in hex.
        token_hash: String,
    },
    /// A seat becomes the account's. Taken only if the seat is a joined
    /// human's belonging to no account or already to this one, and, in a
    /// rated game, the account holds no other seat of it.
    SeatAccount {
        /// The game.
        game_id: String,
        /// The seat.
        seat: usize,
        /// The account's username.
        username: String,
    },
    /// Rates a finished game: each seat's account's rating at the game
    /// changes (see `crate::ratings`), read and written in this one
    /// transaction. Taken only once per game, and only if it is rated,
    /// over with an outcome, not aborted, and every seat belongs to a
    /// distinct account.
    Rate {
        /// The game.
        game_id: String,
    },
    /// A puzzle's game was made for a player. Not taken if the player has
    /// played that day's challenge already (one try each).
    PuzzlePlay {
        /// The play (unjudged).
        row: PuzzlePlayRow,
    },
    /// The verdict on a puzzle's game. Taken only the first time (the
    /// answer stands), or when a solved puzzle becomes complete (won out).
    PuzzleJudged {
        /// The game.
        game_id: String,
        /// Whether the answer solved it.
        solved: bool,
        /// Solved and, for a puzzle won out, won.
        complete: bool,
        /// Why.
        why: String,
    },
    /// The player's points at the end of a puzzle's game. Taken once.
    PuzzleScore {
        /// The game.
        game_id: String,
        /// The points.
        score: i64,
    },
    /// Rates a judged try of an account: its puzzle rating and the
    /// puzzle's change as after a game between the two (see
    /// `crate::puzzles::after_try`). Taken only once per play, only for
    /// the account's first judged try of that puzzle.
    PuzzleRate {
        /// The game.
        game_id: String,
        /// The account's username.
        account: String,
        /// The puzzle.
        puzzle_id: String,
        /// The puzzle's rating before anyone played it.
        puzzle_first: crate::ratings::Rating,
        /// When.
        at_ms: i64,
    },
    /// A friend's challenge. Taken unless its id is taken.
    NewChallenge {
        /// The challenge.
        row: ChallengeRow,
    },
    /// An uploaded word list (with its text). Taken only if no list with
    /// its id is stored yet and the stored lists' bytes plus its own stay
    /// within `max_total_bytes`.
    WordList {
        /// The list.
        list: WordListRow,
        /// The most bytes of text all uploaded lists may hold together.
        max_total_bytes: u64,
    },
}

impl Write {
    /// The game this write is about (for a word list, the list's id).
    pub fn game_id(&self) -> &str {
        match self {
            Write::NewGame { row, .. } => &row.id,
            Write::Action { game_id, .. }
            | Write::Status { game_id, .. }
            | Write::Abort { game_id, .. }
            | Write::Join { game_id, .. }
            | Write::Claim { game_id, .. } => game_id,
            Write::Rematch { from, .. } => from,
            Write::SeatAccount { game_id, .. } | Write::Rate { game_id } => game_id,
            Write::PuzzlePlay { row } => &row.game_id,
            Write::PuzzleJudged { game_id, .. }
            | Write::PuzzleScore { game_id, .. }
            | Write::PuzzleRate { game_id, .. } => game_id,
            Write::NewChallenge { row } => &row.id,
            Write::NewAccount { account } => &account.username,
            Write::NewSession { username, .. } => username,
            Write::EndSession { token_hash } => token_hash,
            Write::WordList { list, .. } => &list.id,
            Write::Presence { game_id, .. } => game_id,
            Write::PresenceRefresh { process, .. } => process,
        }
    }
}

/// Which public games to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFilter {
    /// Not over, with a human seat anyone may claim (free, not invited).
    Open,
    /// Not over, and no seat anyone may claim (all taken, or the free ones
    /// kept for invited players).
    Live,
    /// Not over.
    Unfinished,
    /// Over.
    Over,
}

/// A database holding games. Each value is used by one thread at a time;
/// [`Store`] opens two (a writer and a reader).
pub trait Storage: Send {
    /// `"sqlite"` or `"postgres"`.
    fn kind(&self) -> &'static str;
    /// Applies every write in one transaction: all or none. Returns, per
    /// write, whether it was *taken*: a conditional write (an action whose
    /// index is already stored, a claim of a joined seat, a stale status,
    /// a second rematch) that finds its condition false changes nothing and
    /// does not fail the others.
    fn commit(&mut self, writes: &[Write]) -> Result<Vec<bool>, StorageError>;
    /// A game with its seats and actions.
    fn load(&mut self, id: &str) -> Result<Option<StoredGame>, StorageError>;
    /// A game with its seats and the actions from index `from` on (a live
    /// game catching up with another process's writes).
    fn load_since(&mut self, id: &str, from: usize) -> Result<Option<StoredGame>, StorageError> {
        Ok(self.load(id)?.map(|mut g| {
            g.actions.retain(|a| a.idx >= from);
            g
        }))
    }
    /// The stored `seq` of each of these games (the safety-net poll of
    /// live games; only databases shared between processes answer).
    fn seqs(&mut self, _ids: &[String]) -> Result<Vec<(String, usize)>, StorageError> {
        Ok(Vec::new())
    }
    /// The seats of these games that processes other than `process` hold
    /// now (unexpired presence rows; see `crate::presence`), as (game,
    /// seat) pairs. Only databases shared between processes answer.
    fn presence(
        &mut self,
        _ids: &[String],
        _process: &str,
    ) -> Result<Vec<(String, usize)>, StorageError> {
        Ok(Vec::new())
    }
    /// The uploaded word list `id`, with its text if `text`.
    fn word_list(&mut self, id: &str, text: bool) -> Result<Option<WordListRow>, StorageError>;
    /// Public games, newest first.
    fn list(&mut self, filter: ListFilter, limit: usize) -> Result<Vec<Listed>, StorageError>;
    /// Games where `player` joined a seat, newest first.
    fn by_player(&mut self, player: &str, limit: usize) -> Result<Vec<Listed>, StorageError>;
    /// The account with this username (compared in lower case).
    fn account(&mut self, username: &str) -> Result<Option<AccountRow>, StorageError>;
    /// The username of the account that `username` looks too much like:
    /// the one holding its skeleton ([`username_skeleton`]).
    fn account_like(&mut self, username: &str) -> Result<Option<String>, StorageError>;
    /// The username of the session whose token hashes to `token_hash`, if
    /// it has not ended by `now_ms`.
    fn session(&mut self, token_hash: &str, now_ms: i64) -> Result<Option<String>, StorageError>;
    /// An account's ratings, one per game it played rated.
    fn ratings(&mut self, username: &str) -> Result<Vec<RatingRow>, StorageError>;
    /// The best ratings at `game`, highest first.
    fn leaderboard(&mut self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StorageError>;
    /// What rated games did to an account's rating, newest first.
    fn rating_changes(
        &mut self,
        username: &str,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StorageError>;
    /// What a rated game did to its players' ratings (none until it is
    /// rated), in no particular order.
    fn game_rating_changes(&mut self, game_id: &str) -> Result<Vec<RatingChangeRow>, StorageError>;
    /// The puzzle play of a game, if it was made for a puzzle.
    fn puzzle_play(&mut self, game_id: &str) -> Result<Option<PuzzlePlayRow>, StorageError> {
        Ok(self
            .puzzle_plays(&PlaysQuery::default(), Some(game_id), 1)?
            .pop())
    }
    /// Puzzle plays as `query` asks (and of `game_id` where given), newest
    /// first, at most `limit`.
    fn puzzle_plays(
        &mut self,
        query: &PlaysQuery,
        game_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<PuzzlePlayRow>, StorageError>;
    /// A friend's challenge.
    fn challenge(&mut self, id: &str) -> Result<Option<ChallengeRow>, StorageError>;
    /// A puzzle rating (`a:NAME` an account's, `p:ID` a puzzle's) and the
    /// tries it counts.
    fn puzzle_rating(
        &mut self,
        subject: &str,
    ) -> Result<Option<(crate::ratings::Rating, i64)>, StorageError>;
    /// Games with a seat of the account, newest first (`over`: finished
    /// ones only, aborted ones left out).
    fn by_account(
        &mut self,
        username: &str,
        over: bool,
        limit: usize,
    ) -> Result<Vec<Listed>, StorageError>;
    /// Every unfinished game (public or not), oldest first, for resuming
    /// clocks and bots.
    fn unfinished(&mut self) -> Result<Vec<Listed>, StorageError>;
    /// The lease of games' clocks and bots between processes sharing the
    /// database (see `crate::lease`): the games the operation leaves with
    /// `owner`. Only databases shared between processes keep leases; on
    /// others every process hosts its games and this is never asked.
    fn lease(&mut self, _op: LeaseOp<'_>) -> Result<Vec<String>, StorageError> {
        Ok(Vec::new())
    }
    /// Names the connection in log lines (`writer`, `reader`); SQLite
    /// gives its writer a larger page cache.
    fn set_role(&mut self, _role: &'static str) {}
    /// Housekeeping, called about ten times a second on a connection of its
    /// own (SQLite: copy the write-ahead log into the database file, so
    /// the writer never stalls doing it).
    fn maintenance(&mut self) {}
    /// Prepares a connection for [`Storage::maintenance`] and tells whether
    /// this database needs any.
    fn wants_maintenance(&mut self) -> bool {
        false
    }
}

/// One step of the lease protocol ([`Storage::lease`]); expiries are
/// `ttl_ms` from the database's clock.
#[derive(Clone, Copy, Debug)]
pub enum LeaseOp<'a> {
    /// Take these games where nobody holds them, their lease has lapsed,
    /// or `owner` holds them already: answers the games taken.
    Take {
        /// The taking process.
        owner: &'a str,
        /// The games.
        ids: &'a [String],
        /// How long the lease lasts unrenewed.
        ttl_ms: i64,
    },
    /// Extend every lease `owner` holds: answers them.
    Renew {
        /// The holding process.
        owner: &'a str,
        /// How long from now.
        ttl_ms: i64,
    },
    /// Take up to `limit` lapsed leases (of a process that stopped
    /// renewing): answers the games taken.
    TakeLapsed {
        /// The taking process.
        owner: &'a str,
        /// How long the lease lasts unrenewed.
        ttl_ms: i64,
        /// Most games taken at once.
        limit: i64,
    },
    /// Let go of these games (answers nothing).
    Release {
        /// The holding process.
        owner: &'a str,
        /// The games.
        ids: &'a [String],
    },
}

/// Where the games are kept, from `--db`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbUrl {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// An SQLite file with `synchronous = NORMAL` (`sqlite://FILE?synchronous=normal`):
    /// commits survive a crash of the process (`kill -9`) but not of the
    /// machine (power loss). Faster; not the default.
    SqliteNormal(PathBuf),
    /// An SQLite file opened as plain SQLite (`sqlite://FILE?tuning=off`):
    /// none of the storage's own tuning (see [`SqliteStorage::open_plain`]).
    /// For measuring what the tuning buys; not for serving.
    SqlitePlain(PathBuf),
    /// A PostgreSQL connection string (`postgres://user@host:port/db`).
    Postgres(String),
}

impl DbUrl {
    /// Parses `sqlite://FILE`, `sqlite:FILE`, `postgres://...` or
    /// `postgresql://...`.
    pub fn parse(url: &str) -> Result<DbUrl, StorageError> {
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            let (path, query) = path.split_once('?').unwrap_or((path, ""));
            if path.is_empty() {
                return Err(StorageError::misconfigured(
                    "sqlite:// needs a file name, as in sqlite://parlor.db",
                ));
            }
            return match query {
                "" | "synchronous=full" => Ok(DbUrl::Sqlite(PathBuf::from(path))),
                "synchronous=normal" => Ok(DbUrl::SqliteNormal(PathBuf::from(path))),
                "tuning=off" => Ok(DbUrl::SqlitePlain(PathBuf::from(path))),
                other => Err(StorageError::misconfigured(format!(
                    "unknown SQLite option {other:?}: the options are synchronous=normal and tuning=off"
                ))),
            };
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DbUrl::Postgres(url.to_string()));
        }
        Err(StorageError::misconfigured(format!(
            "unknown database {url:?}: use sqlite://FILE or postgres://USER@HOST:PORT/DB"
        )))
    }

    /// Opens one connection.
    pub fn open(&self) -> Result<Box<dyn Storage>, StorageError> {
        Ok(match self {
            DbUrl::Sqlite(path) => Box::new(SqliteStorage::open(path)?),
            DbUrl::SqliteNormal(path) => Box::new(SqliteStorage::open_with(path, false)?),
            DbUrl::SqlitePlain(path) => Box::new(SqliteStorage::open_plain(path)?),
            DbUrl::Postgres(url) => Box::new(PgStorage::connect(url)?),
        })
    }
}

impl std::fmt::Display for DbUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbUrl::Sqlite(p) => write!(f, "sqlite://{}", p.display()),
            DbUrl::SqliteNormal(p) => write!(f, "sqlite://{}?synchronous=normal", p.display()),
            DbUrl::SqlitePlain(p) => write!(f, "sqlite://{}?tuning=off", p.display()),
            // Never print a password.
            DbUrl::Postgres(url) => match url.split_once('@') {
                Some((_, host)) => write!(f, "postgres://…@{host}"),
                None => f.write_str(url),
            },
        }
    }
}

/// Whether a finished game rates, and how: every seat's account (all
/// distinct, compared in lower case; at least two) and each seat's place
/// from the outcome. `None`: the game is not rated (a seat without an
/// account, one account in two seats, no ranking).
pub(crate) fn rating_plan(
    accounts: &[Option<String>],
    outcome: &Value,
) -> Option<(Vec<String>, Vec<usize>)> {
    let names: Vec<String> = accounts.iter().cloned().collect::<Option<_>>()?;
    let mut keys: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    keys.sort();
    keys.dedup();
    if names.len() < 2 || keys.len() != names.len() {
        return None;
    }
    let places = crate::ratings::places(outcome, names.len())?;
    Some((names, places))
}

/// A JSON value that a live game keeps but seldom reads (its rules, its
/// lexicon stamps), held as its text: as a tree of values (a map per
/// object, a string per key) Word Sprout's rules cost every game in memory
/// more than a kilobyte; they are read only for a summary, which writes
/// the text as it is (`Serialize`).
#[derive(Clone, Debug)]
pub struct JsonText(Box<RawValue>);

impl JsonText {
    /// The value, parsed again.
    pub fn value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }

    /// The compact JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// Text read from the database, checked to be JSON.
    pub(crate) fn parse(text: String) -> Result<Self, StorageError> {
        RawValue::from_string(text)
            .map(JsonText)
            .map_err(|e| StorageError::corrupt(format!("bad JSON in database: {e}")).with_source(e))
    }
}

impl PartialEq for JsonText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl serde::Serialize for JsonText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl From<&Value> for JsonText {
    fn from(v: &Value) -> Self {
        // A value always has a text (`Value`'s keys are strings).
        JsonText::of(v)
    }
}

impl From<Value> for JsonText {
    fn from(v: Value) -> Self {
        JsonText::from(&v)
    }
}

impl JsonText {
    /// `t` written as JSON, with no tree of values in between.
    pub(crate) fn of<T: serde::Serialize + ?Sized>(t: &T) -> Self {
        JsonText(crate::raw_json(t))
    }
}

pub(crate) fn json_text(v: &Value) -> String {
    v.to_string()
}

pub(crate) fn parse_json(s: &str) -> Result<Value, StorageError> {
    serde_json::from_str(s)
        .map_err(|e| StorageError::corrupt(format!("bad JSON in database: {e}")).with_source(e))
}

/// The `time_control` column's text: the control's JSON, or none when no
/// clock is kept for the seats.
pub(crate) fn time_control_text(tc: &parlor_core::TimeControl) -> Option<String> {
    (!tc.is_untimed()).then(|| serde_json::to_string(tc).unwrap_or_default())
}

/// A row's time control: the `time_control` column, or (rows stored before
/// it existed) the older `turn_seconds` and `absent_seconds` columns.
pub(crate) fn time_control_of(
    text: Option<&str>,
    turn_seconds: Option<f64>,
    absent_seconds: Option<f64>,
) -> Result<parlor_core::TimeControl, StorageError> {
    match text {
        Some(t) => serde_json::from_str(t)
            .map_err(|e| StorageError::corrupt(format!("a stored time_control is not valid: {e}"))),
        None => Ok(parlor_core::TimeControl {
            turn_seconds,
            absent_seconds,
            ..Default::default()
        }),
    }
}

/// A fresh folder for a test's database files, removed when dropped.
#[cfg(test)]
pub(super) struct ScratchDir(pub(super) std::path::PathBuf);

#[cfg(test)]
impl ScratchDir {
    pub(super) fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("parlor-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

#[cfg(test)]
impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
