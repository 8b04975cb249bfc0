//! The async face of a [`Storage`]: a writer thread with group commit and a
//! few reader threads.

use super::{DbUrl, Storage, StorageError, Write};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// How many write requests may wait for the writer before senders wait.
const WRITE_QUEUE: usize = 65_536;
/// The most writes committed in one transaction.
const MAX_GROUP: usize = 2_048;
/// How many reads may wait for the readers.
const READ_QUEUE: usize = 1_024;
/// The pause between two rounds of [`Storage::maintenance`]. SQLite
/// copies the log into the database file then: the shorter the pause, the
/// fewer pages each round writes and syncs (a long sync of the database
/// file also slows the writer's own `fsync` of the log on the same disk),
/// but the more often a page written again and again (an index page of
/// the live games' actions) is copied and synced: under nim's load, 1.0
/// page copied per action every 100 ms, 0.64 every 500 ms, and half the
/// checkpointer's CPU (`parlor serve-bench --game nim`).
const MAINTENANCE_PAUSE: std::time::Duration = std::time::Duration::from_millis(500);
/// Reader connections (each on a thread of its own): a slow read (a
/// catch-up of a long game, a lobby listing) does not hold up the others.
const READERS: usize = 3;

type Reply = oneshot::Sender<Result<Vec<bool>, StorageError>>;
type ReadJob = Box<dyn FnOnce(&mut dyn Storage) + Send>;

/// A handle to the database, cheap to clone. Writes are committed by one
/// thread in groups: every write that arrives while a commit is running goes
/// into the next transaction, so many games share one disk flush. A write's
/// future resolves only once its transaction is durable.
///
/// When the last handle is dropped the threads finish the queued work and
/// close their connections.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    kind: &'static str,
    /// The database, when opened by URL (the change listener connects to it).
    url: Option<DbUrl>,
    writes: mpsc::Sender<(Vec<Write>, Reply)>,
    reads: mpsc::Sender<ReadJob>,
    /// Reads asked for so far.
    reads_asked: std::sync::atomic::AtomicU64,
    /// Write requests (commits asked for) so far.
    writes_asked: std::sync::atomic::AtomicU64,
    /// The writer's pace in microseconds (see [`Store::set_commit_pace`]).
    pace_us: Arc<std::sync::atomic::AtomicU64>,
}

impl Store {
    /// Opens the connections to `url` (the writer, then `READERS`
    /// readers) and starts their threads. This blocks: from async code call it through
    /// `spawn_blocking` (the PostgreSQL client refuses to connect on an async
    /// worker thread).
    pub fn open(url: &DbUrl) -> Result<Store, StorageError> {
        let mut writer = url.open()?;
        writer.set_role("writer");
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let mut reader = url.open()?;
            reader.set_role("reader");
            readers.push(reader);
        }
        let wants = writer.wants_maintenance();
        let mut store = Store::from_storages(writer, readers);
        if let Some(inner) = Arc::get_mut(&mut store.inner) {
            inner.url = Some(url.clone());
        }
        if wants {
            let mut keeper = url.open()?;
            let alive = Arc::downgrade(&store.inner);
            std::thread::Builder::new()
                .name("parlor-db-maintenance".into())
                .spawn(move || {
                    // Runs while the store lives.
                    while alive.strong_count() > 0 {
                        std::thread::sleep(MAINTENANCE_PAUSE);
                        keeper.maintenance();
                    }
                })
                .map_err(|e| StorageError::unavailable(format!("cannot start a thread: {e}")))?;
        }
        Ok(store)
    }

    /// Runs the given connections (they must reach the same database): one
    /// writer and at least one reader; each reader takes the next waiting
    /// read when it is free.
    pub fn from_storages(mut writer: Box<dyn Storage>, readers: Vec<Box<dyn Storage>>) -> Store {
        let kind = writer.kind();
        let (wtx, mut wrx) = mpsc::channel::<(Vec<Write>, Reply)>(WRITE_QUEUE);
        let pace_us = Arc::new(std::sync::atomic::AtomicU64::new(
            DEFAULT_COMMIT_PACE.as_micros() as u64,
        ));
        let pace = pace_us.clone();
        let (rtx, rrx) = mpsc::channel::<ReadJob>(READ_QUEUE);
        let rrx = Arc::new(std::sync::Mutex::new(rrx));
        std::thread::Builder::new()
            .name("parlor-db-writer".into())
            .spawn(move || {
                while let Some(first) = wrx.blocking_recv() {
                    let mut group = vec![first];
                    let mut n = group[0].0.len();
                    while n < MAX_GROUP {
                        match wrx.try_recv() {
                            Ok(next) => {
                                n += next.0.len();
                                group.push(next);
                            }
                            Err(_) => break,
                        }
                    }
                    let (requests, writes) = (group.len(), n);
                    let started = std::time::Instant::now();
                    commit_group(writer.as_mut(), group);
                    let took = started.elapsed();
                    // Paced: the next group gathers until the pace after
                    // this one began (see `DEFAULT_COMMIT_PACE`).
                    let pace = std::time::Duration::from_micros(
                        pace.load(std::sync::atomic::Ordering::Relaxed),
                    );
                    if let Some(rest) = pace.checked_sub(took).filter(|r| !r.is_zero()) {
                        std::thread::sleep(rest);
                    }
                    if took >= super::SLOW_STORAGE {
                        tracing::warn!(
                            "database writer: a group commit of {writes} writes ({requests} \
                             requests) took {} ms",
                            super::ms(took)
                        );
                    }
                }
            })
            .expect("spawn the database writer thread");
        for mut reader in readers {
            let rrx = rrx.clone();
            std::thread::Builder::new()
                .name("parlor-db-reader".into())
                .spawn(move || loop {
                    // The lock is held only while waiting for a job.
                    let job = rrx
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .blocking_recv();
                    match job {
                        Some(job) => job(reader.as_mut()),
                        None => break,
                    }
                })
                .expect("spawn a database reader thread");
        }
        Store {
            inner: Arc::new(Inner {
                kind,
                url: None,
                writes: wtx,
                reads: rtx,
                reads_asked: std::sync::atomic::AtomicU64::new(0),
                writes_asked: std::sync::atomic::AtomicU64::new(0),
                pace_us,
            }),
        }
    }

    /// Sets the least time from one group commit's start to the next's
    /// (at most [`MAX_COMMIT_PACE`]; zero: commits run back to back).
    /// Only a busy writer waits: a write that finds it idle is committed
    /// at once.
    pub fn set_commit_pace(&self, pace: std::time::Duration) {
        let us = pace.min(MAX_COMMIT_PACE).as_micros() as u64;
        self.inner
            .pace_us
            .store(us, std::sync::atomic::Ordering::Relaxed);
    }

    /// The writer's pace (see [`Store::set_commit_pace`]).
    pub fn commit_pace(&self) -> std::time::Duration {
        std::time::Duration::from_micros(
            self.inner
                .pace_us
                .load(std::sync::atomic::Ordering::Relaxed),
        )
    }

    /// How many reads were asked of the readers so far (what a client's
    /// requests cost the database, for tests and the benchmark).
    pub fn reads_asked(&self) -> u64 {
        self.inner
            .reads_asked
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many write requests were sent to the writer so far (each one
    /// commit, all or nothing; several share a transaction when they
    /// arrive together), for tests and the benchmark.
    pub fn writes_asked(&self) -> u64 {
        self.inner
            .writes_asked
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn kind(&self) -> &'static str {
        self.inner.kind
    }

    /// Whether other processes may write the same games (PostgreSQL):
    /// live games then catch up with the database (see `actor/replication.rs`).
    pub fn shared(&self) -> bool {
        self.inner.kind == "postgres"
    }

    /// Starts the change listener (PostgreSQL opened by URL; otherwise
    /// None): a thread of its own on a connection of its own, `LISTEN`ing
    /// for the games other processes change. It reconnects when its
    /// connection drops (and then sends [`Notice::Resync`]), and ends soon
    /// after the receiver is dropped.
    pub fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        let Some(DbUrl::Postgres(url)) = &self.inner.url else {
            return None;
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let url = url.clone();
        std::thread::Builder::new()
            .name("parlor-db-listener".into())
            .spawn(move || super::postgres::listen(&url, &tx))
            .ok()?;
        Some(rx)
    }

    /// Commits `writes` together (all or none), returning once durable,
    /// with whether each was taken (see [`super::Storage::commit`]).
    pub async fn commit(&self, writes: Vec<Write>) -> Result<Vec<bool>, StorageError> {
        self.inner
            .writes_asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.inner
            .writes
            .send((writes, tx))
            .await
            .map_err(|_| StorageError::unavailable("the database writer has stopped"))?;
        rx.await
            .map_err(|_| StorageError::unavailable("the database writer has stopped"))?
    }

    /// Commits `writes` together (all or none), returning once durable. A
    /// write that is not taken is an error.
    pub async fn write_all(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        let ids: Vec<String> = writes.iter().map(|w| w.game_id().to_string()).collect();
        let taken = self.commit(writes).await?;
        match taken.iter().position(|t| !t) {
            Some(i) => Err(StorageError::conflict(format!(
                "game {}: another writer got there first (the change was not made)",
                ids[i]
            ))),
            None => Ok(()),
        }
    }

    /// Commits one write, returning once durable. A write that is not
    /// taken is an error.
    pub async fn write(&self, write: Write) -> Result<(), StorageError> {
        self.write_all(vec![write]).await
    }

    /// Commits one write, returning once durable, with whether it was taken.
    pub async fn try_write(&self, write: Write) -> Result<bool, StorageError> {
        Ok(self
            .commit(vec![write])
            .await?
            .first()
            .copied()
            .unwrap_or(false))
    }

    /// Runs a read on the next free reader.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        self.inner
            .reads_asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let job: ReadJob = Box::new(move |s| {
            let _ = tx.send(f(s));
        });
        self.inner
            .reads
            .send(job)
            .await
            .map_err(|_| StorageError::unavailable("the database reader has stopped"))?;
        rx.await
            .map_err(|_| StorageError::unavailable("the database reader has stopped"))?
    }
}

/// The least time from one group commit's start to the next's by
/// default. Every commit costs about the same whatever its size (its
/// sync, the log's frames, SQLite's per-transaction work: ~76 µs of the
/// writer's CPU on nim), and each wakes the async workers with its acks;
/// on a quiet machine commits ran back to back with ~3 actions each. A
/// writer that waits this long since its last commit began gathers ~12
/// (nim, 4,000 actions/s): server CPU per action −30%, and p99 no worse
/// (`parlor serve-bench --game nim`). A write that finds the writer idle is
/// committed at once: only a busy writer waits.
pub const DEFAULT_COMMIT_PACE: std::time::Duration = std::time::Duration::from_millis(3);
/// The longest pace [`Store::set_commit_pace`] takes.
pub const MAX_COMMIT_PACE: std::time::Duration = std::time::Duration::from_millis(100);

/// Commits a group in one transaction; if that fails, commits each request
/// alone so one bad write cannot sink the others.
///
/// A failed commit does not always mean nothing was stored: the
/// connection may have dropped after the database committed, before it
/// answered. So after a failure (of the group, or of the request alone) a
/// write that fails or is not taken is looked up before it is reported: if the database holds exactly what it carries (the same
/// action at the same index, the same game, the same rematch ...), it was
/// stored, by this very request, and it is reported taken. Without this a
/// move committed with a failed group came back `illegal_action` on its
/// retry (its index was taken, by itself), and a game created in one came
/// back as a failed creation, leaving an orphan game.
fn commit_group(storage: &mut dyn Storage, group: Vec<(Vec<Write>, Reply)>) {
    // Several requests are first tried in one commit; one alone goes
    // straight to its own. Past a failed group commit, any of the group's
    // writes may be in the database already.
    let several = group.len() > 1;
    // The writes in one list (moved, not copied: a copy of every action's
    // JSON was made and dropped at every commit), each request's at its
    // range of it.
    let mut all: Vec<Write> = Vec::with_capacity(group.iter().map(|(w, _)| w.len()).sum());
    let mut requests = Vec::with_capacity(group.len());
    for (writes, reply) in group {
        let start = all.len();
        all.extend(writes);
        requests.push((start..all.len(), reply));
    }
    if several {
        if let Ok(taken) = storage.commit(&all) {
            let mut taken = taken.into_iter();
            for (range, reply) in requests {
                let mine: Vec<bool> = taken.by_ref().take(range.len()).collect();
                let _ = reply.send(Ok(mine));
            }
            return;
        }
    }
    for (range, reply) in requests {
        let writes = &all[range];
        let result = match storage.commit(writes) {
            // Reached only after the group's commit failed.
            Ok(taken) if several => Ok(taken
                .into_iter()
                .zip(writes)
                .map(|(t, w)| t || already_stored(storage, w))
                .collect()),
            Ok(taken) => Ok(taken),
            Err(e) => {
                if !writes.is_empty() && writes.iter().all(|w| already_stored(storage, w)) {
                    Ok(vec![true; writes.len()])
                } else {
                    Err(e)
                }
            }
        };
        let _ = reply.send(result);
    }
}

/// Whether the database holds exactly what `w` carries, so that `w` (or
/// an earlier attempt of the same request) was stored. Only writes that
/// cannot be told apart from another's answer yes: an action (same index,
/// actor, action and time), a new game (same id, seed and creation time),
/// a rematch (same pair), a claim (the seat holds the token it minted), an
/// abort. A failed look-up answers no.
fn already_stored(storage: &mut dyn Storage, w: &Write) -> bool {
    match w {
        Write::Action {
            game_id, action, ..
        } => matches!(
            storage.load_since(game_id, action.idx),
            Ok(Some(g)) if g.actions.first().is_some_and(|a| a == action)
        ),
        Write::NewGame { row, .. } => matches!(
            storage.load_since(&row.id, usize::MAX),
            Ok(Some(g)) if g.row.seed == row.seed && g.row.created_ms == row.created_ms
                && g.row.game == row.game
        ),
        Write::Rematch { from, to } => matches!(
            storage.load_since(from, usize::MAX),
            Ok(Some(g)) if g.row.rematch.as_deref() == Some(to.as_str())
        ),
        // The claim minted a secret of its own: stored if the seat holds it.
        Write::Claim {
            game_id,
            seat,
            token,
            ..
        } => matches!(
            storage.load_since(game_id, usize::MAX),
            Ok(Some(g)) if g.seats.iter().any(|s| s.seat == *seat && s.joined
                && s.token.as_deref() == Some(token.as_str()))
        ),
        Write::Abort { game_id, status } => matches!(
            storage.load_since(game_id, usize::MAX),
            Ok(Some(g)) if g.row.aborted && g.row.status.seq == status.seq
        ),
        _ => false,
    }
}

/// A change another process (or this one) made to a game, from
/// PostgreSQL's `NOTIFY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` changed: with `seq`, an action made its record that long;
    /// without, something else changed (a seat, a rematch, the clock).
    Game {
        /// The game.
        id: String,
        /// Its number of actions after the change, for actions.
        seq: Option<usize>,
    },
    /// Process `process` took or let go a seat of game `id` (presence,
    /// see `crate::presence`): read the game's presence again.
    Presence {
        /// The game.
        id: String,
        /// The process that changed it (a process ignores its own).
        process: String,
    },
    /// The listener (re)connected: notices may have been missed, every
    /// live game should look at the database.
    Resync,
}

impl Notice {
    /// Parses a payload: notices separated by commas (a group commit
    /// announces its games together); anything unreadable is skipped.
    pub(crate) fn parse_all(payload: &str) -> impl Iterator<Item = Notice> + '_ {
        payload.split(',').filter_map(Notice::parse)
    }

    /// Parses one notice: `ID:SEQ`, `ID:*` or `ID:p:PROCESS`.
    pub(crate) fn parse(payload: &str) -> Option<Notice> {
        let (id, seq) = payload.split_once(':')?;
        if let Some(process) = seq.strip_prefix("p:") {
            return Some(Notice::Presence {
                id: id.to_string(),
                process: process.to_string(),
            });
        }
        let seq = match seq {
            "*" => None,
            n => Some(n.parse().ok()?),
        };
        Some(Notice::Game {
            id: id.to_string(),
            seq,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The pace is the default until set, bounded, and zero turns it off.
    #[test]
    fn the_commit_pace_is_bounded() {
        let dir = crate::storage::ScratchDir::new("pace");
        let store = Store::open(&DbUrl::Sqlite(dir.0.join("parlor.db"))).unwrap();
        assert_eq!(store.commit_pace(), DEFAULT_COMMIT_PACE);
        store.set_commit_pace(Duration::ZERO);
        assert_eq!(store.commit_pace(), Duration::ZERO);
        store.set_commit_pace(Duration::from_micros(1500));
        assert_eq!(store.commit_pace(), Duration::from_micros(1500));
        store.set_commit_pace(Duration::from_secs(3600));
        assert_eq!(store.commit_pace(), MAX_COMMIT_PACE);
    }
}
