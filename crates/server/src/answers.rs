//! The helper answers of games that are over, kept.
//!
//! A finished game's record never changes, so its helper's answer to one
//! request, for one viewer, on one step of the game, is the same every
//! time: the first asker pays for the run (Sprouts' solver can take
//! seconds on a big game), and everyone after reads the kept JSON. Several
//! askers of an answer not yet known wait for one run rather than each
//! starting its own.
//!
//! Bounded by bytes ([`crate::Helper::helper_cache_bytes`]: answers and
//! keys together), least recently asked out. An answer whose run was cut
//! short for a reason of the moment (cancelled, the helper's queue full,
//! the game could not be rebuilt) is not kept; an answer the helper gave
//! within its budget is kept even when the budget ran out first (it says
//! so itself): asking again would only spend the budget again.

use crate::error::ApiError;
use hashlink::LinkedHashMap;
use parlor_core::Viewer;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// A helper's answer as JSON text, or its refusal.
pub(crate) type Answer = Result<Arc<str>, ApiError>;

/// What one run of a helper gave.
pub(crate) enum Ran {
    /// The answer to this request for good.
    Keep(Answer),
    /// Refused for a reason of the moment: tell this asker, keep nothing.
    Drop(ApiError),
}

/// One question about one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    /// The game's id.
    pub game: String,
    /// The game after its first `step` actions.
    pub step: usize,
    pub viewer: Viewer,
    /// The request as JSON text (objects' keys sorted by `serde_json`).
    pub request: String,
}

/// Most entries kept, whatever their bytes: each holds its key at least.
const MAX_ENTRIES: usize = 16 * 1024;

/// Bytes an entry costs beyond its key's and its answer's text.
const ENTRY_OVERHEAD: usize = 128;

struct Entry {
    cell: Arc<OnceCell<Answer>>,
    /// Bytes counted for it in [`Inner::bytes`].
    bytes: usize,
}

struct Inner {
    map: LinkedHashMap<Key, Entry>,
    bytes: usize,
}

/// Helper runs one client address may have under way at once: with the
/// per-run budget, what bounds the cores one client can keep busy however
/// many the server has.
pub(crate) const RUNS_PER_CLIENT: usize = 2;

/// The kept answers of one server.
pub(crate) struct Answers {
    inner: Mutex<Inner>,
    /// Helper runs under way, by client address (only addresses with some).
    running: Arc<Mutex<HashMap<IpAddr, usize>>>,
    limit: usize,
    /// Helper runs started (kept answers served are not runs).
    runs: AtomicU64,
    /// Answers served from what was kept.
    hits: AtomicU64,
}

impl Answers {
    pub(crate) fn new(limit: usize) -> Answers {
        Answers {
            inner: Mutex::new(Inner {
                map: LinkedHashMap::new(),
                bytes: 0,
            }),
            running: Default::default(),
            limit,
            runs: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// A place for one helper run of `client`, held until dropped; `None`
    /// if it has [`RUNS_PER_CLIENT`] under way.
    pub(crate) fn start(&self, client: IpAddr) -> Option<Running> {
        let mut g = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let n = g.entry(client).or_insert(0);
        if *n >= RUNS_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(Running {
            running: self.running.clone(),
            client,
        })
    }

    /// Counts one run of a game's helper (cached or not).
    pub(crate) fn count_run(&self) {
        self.runs.fetch_add(1, Ordering::Relaxed);
    }

    /// Helper runs so far.
    pub(crate) fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Answers served from what was kept so far.
    pub(crate) fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// The kept answer to `key`, or `run`'s (kept if it says so).
    pub(crate) async fn get_or_run<F, Fut>(&self, key: Key, run: F) -> Answer
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Ran>,
    {
        let cell = self.slot(&key);
        if let Some(answer) = cell.get() {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return answer.clone();
        }
        let r = cell
            .get_or_try_init(|| async {
                match run().await {
                    Ran::Keep(answer) => Ok(answer),
                    Ran::Drop(e) => Err(e),
                }
            })
            .await;
        match r {
            Ok(answer) => {
                let answer = answer.clone();
                self.account(&key, &cell, &answer);
                answer
            }
            Err(e) => Err(e),
        }
    }

    /// The entry of `key`, made the most recently asked (added empty if
    /// absent).
    fn slot(&self, key: &Key) -> Arc<OnceCell<Answer>> {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = g.map.to_back(key) {
            return e.cell.clone();
        }
        let cell = Arc::new(OnceCell::new());
        let bytes = key_bytes(key);
        g.map.insert(
            key.clone(),
            Entry {
                cell: cell.clone(),
                bytes,
            },
        );
        g.bytes += bytes;
        self.evict(&mut g);
        cell
    }

    /// Adds a new answer's bytes to its entry's (if it is still there).
    fn account(&self, key: &Key, cell: &Arc<OnceCell<Answer>>, answer: &Answer) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let full = key_bytes(key) + answer_bytes(answer);
        let Some(e) = g.map.get_mut(key) else {
            return;
        };
        if !Arc::ptr_eq(&e.cell, cell) || e.bytes >= full {
            return;
        }
        let added = full - e.bytes;
        e.bytes = full;
        g.bytes += added;
        self.evict(&mut g);
    }

    fn evict(&self, g: &mut Inner) {
        while g.bytes > self.limit || g.map.len() > MAX_ENTRIES {
            match g.map.pop_front() {
                Some((_, e)) => g.bytes -= e.bytes,
                None => break,
            }
        }
    }

    /// Entries and bytes kept now.
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        let g = self.inner.lock().unwrap();
        (g.map.len(), g.bytes)
    }
}

/// One helper run of a client under way (see [`Answers::start`]).
pub(crate) struct Running {
    running: Arc<Mutex<HashMap<IpAddr, usize>>>,
    client: IpAddr,
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut g = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = g.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                g.remove(&self.client);
            }
        }
    }
}

fn key_bytes(k: &Key) -> usize {
    ENTRY_OVERHEAD + k.game.len() + k.request.len()
}

fn answer_bytes(a: &Answer) -> usize {
    match a {
        Ok(text) => text.len(),
        Err(e) => e.message.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(game: &str, step: usize) -> Key {
        Key {
            game: game.into(),
            step,
            viewer: Viewer::Spectator,
            request: "{}".into(),
        }
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    #[test]
    fn an_answer_runs_once_then_is_read() {
        rt().block_on(async {
            let a = Answers::new(1 << 20);
            for _ in 0..5 {
                let r = a
                    .get_or_run(key("g", 3), || async {
                        a.count_run();
                        Ran::Keep(Ok(Arc::from("{\"x\":1}")))
                    })
                    .await;
                assert_eq!(&*r.unwrap(), "{\"x\":1}");
            }
            assert_eq!((a.runs(), a.hits()), (1, 4));
            // Another step is another question.
            let _ = a
                .get_or_run(key("g", 2), || async {
                    a.count_run();
                    Ran::Keep(Ok(Arc::from("2")))
                })
                .await;
            assert_eq!(a.runs(), 2);
        });
    }

    #[test]
    fn a_client_has_a_few_runs_under_way_at_most() {
        let a = Answers::new(1 << 20);
        let (one, two) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let held: Vec<Running> = (0..RUNS_PER_CLIENT)
            .map(|_| a.start(one).unwrap())
            .collect();
        assert!(a.start(one).is_none());
        assert!(a.start(two).is_some(), "another client is not affected");
        drop(held);
        assert!(a.start(one).is_some());
        assert!(a.running.lock().unwrap().is_empty(), "no address kept");
    }

    #[test]
    fn a_refusal_of_the_moment_is_not_kept() {
        rt().block_on(async {
            let a = Answers::new(1 << 20);
            for _ in 0..3 {
                let r = a
                    .get_or_run(key("g", 0), || async {
                        a.count_run();
                        Ran::Drop(ApiError::new(crate::Code::Busy, "later"))
                    })
                    .await;
                assert_eq!(r.unwrap_err().code, crate::Code::Busy);
            }
            assert_eq!((a.runs(), a.hits()), (3, 0));
        });
    }

    #[test]
    fn the_bytes_kept_stay_under_the_bound() {
        rt().block_on(async {
            let limit = 10_000;
            let a = Answers::new(limit);
            let big: Arc<str> = Arc::from("x".repeat(1000));
            for i in 0..100 {
                let big = big.clone();
                let _ = a
                    .get_or_run(key(&format!("g{i}"), 0), || async { Ran::Keep(Ok(big)) })
                    .await;
                assert!(a.held().1 <= limit, "{:?}", a.held());
            }
            let (entries, bytes) = a.held();
            assert!(entries >= 5, "{entries} entries, {bytes} bytes");
            // The most recent is kept; the first is long gone.
            let ran = std::sync::atomic::AtomicBool::new(false);
            let _ = a
                .get_or_run(key("g99", 0), || async {
                    ran.store(true, Ordering::Relaxed);
                    Ran::Keep(Ok(Arc::from("")))
                })
                .await;
            assert!(!ran.load(Ordering::Relaxed));
            let _ = a
                .get_or_run(key("g0", 0), || async {
                    ran.store(true, Ordering::Relaxed);
                    Ran::Keep(Ok(Arc::from("")))
                })
                .await;
            assert!(ran.load(Ordering::Relaxed));
        });
    }
}
