//! The game's own helper (`Game::assist`: Word Sprout's "what could have
//! been played?", Sprouts' solver verdicts), for a seat or a spectator.
//!
//! The helper may be heavy (its first use builds a word-list index; a
//! solved answer needs the game's solution; Sprouts' verdicts solve every
//! position of the game), so it never runs on the game's actor nor on an
//! async worker: the actor only hands out a [`Snapshot`] (the viewer and
//! the record), and the game is rebuilt and asked on a blocking thread,
//! within the server's `assist_think` budget and cancelled if its client
//! goes away. Helpers have a pool of their own (`bot_threads` permits, as
//! the bots have), so a bot's move never waits behind what anybody may
//! ask, and run on threads of the lowest priority, so that bots and
//! people's actions come first for the cores ([`on_helper_thread`]);
//! [`ASSIST_QUEUE`] requests are admitted
//! (running or waiting), beyond that the answer is `busy`. Clients are
//! metered on their own bucket for helper requests (`Kind::Helper`), and
//! one client address has at most [`RUNS_PER_CLIENT`] runs under way: at
//! most that many cores, each run within its budget, whatever the rate.
//!
//! The answer is serialised on the blocking thread too, and refused when
//! its JSON is over [`ANSWER_MAX_BYTES`] (a game's helper pages its long
//! lists; this bound catches any that does not). Answers on games that
//! are over are kept ([`crate::answers`]).

pub(crate) use crate::actor::Snapshot;
use crate::actor::{GameStub, Who};
use crate::answers::{Answer, Answers, Key, Ran, RUNS_PER_CLIENT};
use crate::error::ApiError;
use crate::error::Code;
use parlor_core::{Registry, Viewer};
use serde_json::{json, Value};
use std::net::IpAddr;
use std::sync::Arc;

/// Largest helper answer sent, in bytes of JSON: a replay carries two
/// (the position's and the game's), and stays about a megabyte.
pub(crate) const ANSWER_MAX_BYTES: usize = 512 * 1024;

/// Helper requests running or waiting at once, server-wide.
pub(crate) const ASSIST_QUEUE: usize = 64;

/// What the helper needs from its process: the registry to rebuild games
/// with, its pools, its budget and the kept answers. The hub makes one and
/// hands it to whatever asks the helper (HTTP, the WebSockets). Cheap to
/// clone.
#[derive(Clone)]
pub(crate) struct Helpers {
    inner: Arc<HelpersInner>,
}

struct HelpersInner {
    registry: Registry,
    /// The helpers' pool (replays, verdicts, "what could I have
    /// played?"): apart from the bots', so that what anybody may ask
    /// never queues a bot's move behind it, and run on threads of the
    /// lowest priority ([`on_helper_thread`]).
    slots: Arc<tokio::sync::Semaphore>,
    /// Helper requests admitted (running or waiting): beyond, `busy`.
    queue: Arc<tokio::sync::Semaphore>,
    /// One run's budget (`assist_think`).
    think: std::time::Duration,
    /// Finished games' helper answers (see `crate::answers`).
    answers: Answers,
}

impl Helpers {
    /// `threads` helpers run at once, each within `think`; `cache_bytes`
    /// of finished games' answers are kept.
    pub(crate) fn new(
        registry: Registry,
        threads: usize,
        think: std::time::Duration,
        cache_bytes: usize,
    ) -> Helpers {
        Helpers {
            inner: Arc::new(HelpersInner {
                registry,
                slots: Arc::new(tokio::sync::Semaphore::new(threads.max(1))),
                queue: Arc::new(tokio::sync::Semaphore::new(ASSIST_QUEUE)),
                think,
                answers: Answers::new(cache_bytes),
            }),
        }
    }

    /// Finished games' helper answers.
    pub(crate) fn answers(&self) -> &Answers {
        &self.inner.answers
    }
}

/// Asks the game's helper as `who`, on the game as it is now; the answer
/// is the game's own JSON, as text.
pub(crate) async fn assist(
    helpers: &Helpers,
    stub: &GameStub,
    who: Who,
    request: Value,
    client: IpAddr,
) -> Result<Arc<str>, ApiError> {
    let request = match request {
        Value::Null => json!({}),
        Value::Object(_) => request,
        _ => {
            return Err(ApiError::bad_json(
                "request: the helper request is a JSON object (Word Sprout: {\"string\": \"omat\", \"solve\": false})",
            ))
        }
    };
    let snapshot = stub.assist(who).await?;
    let step = snapshot.steps();
    helper(helpers, &snapshot, snapshot.viewer, step, request, client).await
}

/// The helper's answer for `viewer` on the game after its first `step`
/// actions: kept for a game that is over, asked each time otherwise.
pub(crate) async fn helper(
    helpers: &Helpers,
    snapshot: &Snapshot,
    viewer: Viewer,
    step: usize,
    request: Value,
    client: IpAddr,
) -> Answer {
    if !snapshot.over {
        return match run(helpers, snapshot, viewer, step, request, client).await {
            Ran::Keep(answer) => answer,
            Ran::Drop(e) => Err(e),
        };
    }
    let key = Key {
        game: snapshot.id.clone(),
        step,
        viewer,
        request: request.to_string(),
    };
    helpers
        .answers()
        .get_or_run(key, || {
            run(helpers, snapshot, viewer, step, request, client)
        })
        .await
}

/// One run of the helper on a blocking thread, for `client`.
async fn run(
    helpers: &Helpers,
    snapshot: &Snapshot,
    viewer: Viewer,
    step: usize,
    request: Value,
    client: IpAddr,
) -> Ran {
    let Some(running) = helpers.answers().start(client) else {
        return Ran::Drop(ApiError::new(
            Code::Busy,
            format!(
                "your address has {RUNS_PER_CLIENT} helper requests under way; ask again once one is answered"
            ),
        ));
    };
    let Ok(admitted) = helpers.inner.queue.clone().try_acquire_owned() else {
        return Ran::Drop(ApiError::new(
            Code::Busy,
            format!("the helper is answering {ASSIST_QUEUE} requests; try again in a moment"),
        ));
    };
    let helpers2 = helpers.clone();
    // Dropped with this future (the client went away, the server stops):
    // the helper is told to stop, so an abandoned request frees its slot.
    let cancel = parlor_core::Cancel::new();
    let _stop = CancelOnDrop(cancel.clone());
    let budget = parlor_core::Budget::time(helpers.inner.think).with_cancel(cancel.clone());
    let mut record = snapshot.record.clone();
    let resources = snapshot.resources.clone();
    let job = move || -> Ran {
        helpers2.answers().count_run();
        if let Some(a) = record["actions"].as_array_mut() {
            a.truncate(step);
        }
        let m = match helpers2.inner.registry.replay(&record, &resources) {
            Ok(m) => m,
            Err(e) => {
                return Ran::Drop(ApiError::new(
                    Code::Internal,
                    format!("the game cannot be rebuilt: {e}"),
                ))
            }
        };
        let answer = match m.assist_json(viewer, &request, &budget) {
            Err(parlor_core::HelpError::NoHelper) => Err(ApiError::new(
                Code::NoHelper,
                format!("{} has no helper", m.info().title),
            )),
            Err(e) => Err(ApiError::new(Code::HelperRefused, e.to_string())),
            Ok(answer) => bounded(&answer),
        };
        if budget.cancelled() {
            return Ran::Drop(ApiError::new(
                Code::Busy,
                "the helper request was cancelled",
            ));
        }
        Ran::Keep(answer)
    };
    let r = on_helper_thread(helpers, job).await;
    drop(admitted);
    drop(running);
    match r {
        Ok(Ok(ran)) => ran,
        Ok(Err(())) => Ran::Drop(ApiError::new(Code::Internal, "the game's helper panicked")),
        Err(e) => Ran::Drop(e),
    }
}

/// Runs `job` within the helpers' pool (`HelpersInner::slots`), on a thread
/// of its own at the lowest priority (nice 19 on Linux), and answers its
/// result (`Err(())` if it panicked). A thread of its own because a
/// thread's priority cannot be raised again without privileges: the
/// runtime's blocking threads, which bots use too, keep theirs.
pub(crate) async fn on_helper_thread<T: Send + 'static>(
    helpers: &Helpers,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<Result<T, ()>, ApiError> {
    let Ok(permit) = helpers.inner.slots.clone().acquire_owned().await else {
        return Err(ApiError::gone());
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("parlor-helper".into())
        .spawn(move || {
            lowest_priority();
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).map_err(|_| ());
            drop(permit);
            let _ = tx.send(r);
        })
        .map_err(|e| ApiError::new(Code::Busy, format!("no thread for the helper: {e}")))?;
    rx.await.map_err(|_| ApiError::gone())
}

/// This thread yields the cores to every other: on Linux a thread's nice
/// value is its own (`setpriority` on the calling thread's id).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread, no memory shared.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

/// `answer` as JSON text, or a refusal if it is over [`ANSWER_MAX_BYTES`].
fn bounded(answer: &Value) -> Answer {
    let text = serde_json::to_string(answer)
        .map_err(|e| ApiError::new(Code::Internal, format!("the helper's answer: {e}")))?;
    if text.len() > ANSWER_MAX_BYTES {
        return Err(ApiError::new(
            Code::HelperRefused,
            format!(
                "the answer would be {} KiB, over the {} KiB an answer may hold: ask for less (a smaller page)",
                text.len() / 1024,
                ANSWER_MAX_BYTES / 1024
            ),
        ));
    }
    Ok(text.into())
}

/// Raises its flag when dropped.
struct CancelOnDrop(parlor_core::Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}
