//! Storage that fails on purpose: a commit whose answer is lost after the
//! database committed (a retried write must not count twice), and a
//! failed write whose rollback cannot be replayed (memory must not keep
//! the unstored action).

mod common;

use parlor_core::{Registry, Resources};
use parlor_server::client::{http, Ws};
use parlor_server::storage::{
    AccountRow, ActionRow, ListFilter, Listed, RatingChangeRow, RatingRow, StatusRow, Storage,
    StorageError, Store, StoredGame, WordListRow, Write,
};
use parlor_server::{Server, Settings};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A storage around a real one. `slow`: the next commit waits a moment
/// first (so that requests queue up into a group behind it). `lose_ack`:
/// the next commit of several writes is made, then reported failed (the
/// connection broke before the answer came). `fail`: every commit fails
/// without storing anything.
struct Flaky {
    inner: Box<dyn Storage>,
    slow: Arc<AtomicBool>,
    lose_ack: Arc<AtomicBool>,
    fail: Arc<AtomicBool>,
}

impl Storage for Flaky {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
    fn commit(&mut self, writes: &[Write]) -> Result<Vec<bool>, StorageError> {
        if self.fail.load(Ordering::SeqCst) {
            return Err(StorageError::unavailable(
                "the disk is on fire (on purpose)",
            ));
        }
        if self.slow.swap(false, Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(300));
        }
        let r = self.inner.commit(writes)?;
        if writes.len() > 1 && self.lose_ack.swap(false, Ordering::SeqCst) {
            return Err(StorageError::unavailable(
                "connection lost after the commit (on purpose)",
            ));
        }
        Ok(r)
    }
    fn load(&mut self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        self.inner.load(id)
    }
    fn word_list(&mut self, id: &str, text: bool) -> Result<Option<WordListRow>, StorageError> {
        self.inner.word_list(id, text)
    }
    fn list(&mut self, filter: ListFilter, limit: usize) -> Result<Vec<Listed>, StorageError> {
        self.inner.list(filter, limit)
    }
    fn by_player(&mut self, player: &str, limit: usize) -> Result<Vec<Listed>, StorageError> {
        self.inner.by_player(player, limit)
    }
    fn unfinished(&mut self) -> Result<Vec<Listed>, StorageError> {
        self.inner.unfinished()
    }
    fn account(&mut self, username: &str) -> Result<Option<AccountRow>, StorageError> {
        self.inner.account(username)
    }
    fn account_like(&mut self, username: &str) -> Result<Option<String>, StorageError> {
        self.inner.account_like(username)
    }
    fn session(&mut self, token_hash: &str, now_ms: i64) -> Result<Option<String>, StorageError> {
        self.inner.session(token_hash, now_ms)
    }
    fn ratings(&mut self, username: &str) -> Result<Vec<RatingRow>, StorageError> {
        self.inner.ratings(username)
    }
    fn leaderboard(&mut self, game: &str, limit: usize) -> Result<Vec<RatingRow>, StorageError> {
        self.inner.leaderboard(game, limit)
    }
    fn rating_changes(
        &mut self,
        username: &str,
        limit: usize,
    ) -> Result<Vec<RatingChangeRow>, StorageError> {
        self.inner.rating_changes(username, limit)
    }
    fn game_rating_changes(&mut self, game_id: &str) -> Result<Vec<RatingChangeRow>, StorageError> {
        self.inner.game_rating_changes(game_id)
    }
    fn puzzle_plays(
        &mut self,
        query: &parlor_server::storage::PlaysQuery,
        game_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<parlor_server::storage::PuzzlePlayRow>, StorageError> {
        self.inner.puzzle_plays(query, game_id, limit)
    }
    fn challenge(
        &mut self,
        id: &str,
    ) -> Result<Option<parlor_server::storage::ChallengeRow>, StorageError> {
        self.inner.challenge(id)
    }
    fn puzzle_rating(
        &mut self,
        subject: &str,
    ) -> Result<Option<(parlor_server::ratings::Rating, i64)>, StorageError> {
        self.inner.puzzle_rating(subject)
    }
    fn by_account(
        &mut self,
        username: &str,
        over: bool,
        limit: usize,
    ) -> Result<Vec<Listed>, StorageError> {
        self.inner.by_account(username, over, limit)
    }
}

struct Flags {
    slow: Arc<AtomicBool>,
    lose_ack: Arc<AtomicBool>,
    fail: Arc<AtomicBool>,
}

/// A server on `store` that does not resume stored games at start.
async fn start_on(store: Store, registry: Registry) -> Server {
    start_on_with(store, registry, common::test_settings()).await
}

async fn start_on_with(store: Store, registry: Registry, settings: Settings) -> Server {
    Server::start_with_store(
        registry,
        Resources::embedded(),
        store,
        "127.0.0.1:0".parse().unwrap(),
        Settings {
            games: parlor_server::Games {
                resume: false,
                ..settings.games
            },
            ..settings
        },
    )
    .await
    .unwrap()
}

fn flaky_store(tag: &str) -> (Store, Flags) {
    let db = common::sqlite_url(tag);
    let flags = Flags {
        slow: Arc::default(),
        lose_ack: Arc::default(),
        fail: Arc::default(),
    };
    let writer = Flaky {
        inner: db.open().unwrap(),
        slow: flags.slow.clone(),
        lose_ack: flags.lose_ack.clone(),
        fail: flags.fail.clone(),
    };
    (
        Store::from_storages(Box::new(writer), vec![db.open().unwrap()]),
        flags,
    )
}

fn status(seq: usize) -> StatusRow {
    StatusRow {
        seq,
        to_act: json!({"one": seq % 2}).into(),
        outcome: None,
        over: false,
        deadline: None,
        updated_ms: 1,
    }
}

fn act(id: &str, idx: usize) -> Write {
    Write::Action {
        game_id: id.into(),
        action: ActionRow {
            idx,
            actor: json!({"seat": idx % 2}),
            action: json!(1),
            at_ms: 1000 + idx as i64,
        },
        status: status(idx + 1),
    }
}

/// A group committed but reported failed: each of its requests is tried
/// again alone, and must then report the write it finds stored as its
/// own, not as `another writer got there first` (an action) or a
/// duplicate key (a new game, left behind as an orphan).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_write_after_a_lost_group_ack_counts_once() {
    let (store, flags) = flaky_store("lost_ack");
    store.write(common::nim_game_write("g1")).await.unwrap();
    store.write(common::nim_game_write("g2")).await.unwrap();
    // The first commit is slow: the next two requests queue into a group,
    // which is committed and then reported failed.
    flags.slow.store(true, Ordering::SeqCst);
    flags.lose_ack.store(true, Ordering::SeqCst);
    let first = {
        let store = store.clone();
        tokio::spawn(async move { store.write(act("g1", 0)).await })
    };
    // Wait until the slow commit has begun (it takes the flag), rather
    // than guess how long a busy machine takes to get there.
    while flags.slow.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let a = {
        let store = store.clone();
        tokio::spawn(async move { store.write(act("g2", 0)).await })
    };
    let b = {
        let store = store.clone();
        tokio::spawn(async move { store.write(common::nim_game_write("g3")).await })
    };
    first.await.unwrap().unwrap();
    a.await
        .unwrap()
        .expect("the action stored by the lost group is reported stored");
    b.await
        .unwrap()
        .expect("the game stored by the lost group is reported created");
    assert!(
        !flags.lose_ack.load(Ordering::SeqCst),
        "the test did not form a group"
    );
    let g2 = store.read(|s| s.load("g2")).await.unwrap().unwrap();
    assert_eq!(g2.actions.len(), 1);
    assert!(store.read(|s| s.load("g3")).await.unwrap().is_some());
    // A different action at a taken index is still refused.
    let mut other = act("g2", 0);
    if let Write::Action { action, .. } = &mut other {
        action.at_ms += 1;
    }
    assert!(store.write(other).await.is_err());
}

/// A write fails and the state cannot be rebuilt without it: the game
/// must not go on with the unstored action in memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_rollback_leaves_no_unstored_action_in_memory() {
    let (store, flags) = flaky_store("rollback");
    let mut registry = Registry::new();
    registry.register::<common::Blob>();
    let server = start_on(store, registry).await;
    let addr = server.addr();
    let (st, created) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "blob", "take_seat": 0})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = created["you"]["token"].as_str().unwrap().to_string();
    let act = |n: u32| {
        let (id, token) = (id.clone(), token.clone());
        async move {
            http(
                addr,
                "POST",
                &format!("/api/games/{id}/actions"),
                Some(&json!({"token": token, "action": n})),
                &[],
            )
            .await
            .unwrap()
        }
    };
    let (st, v) = act(1).await;
    assert_eq!(st, 200, "{v}");

    // The next write fails, and so does every replay.
    flags.fail.store(true, Ordering::SeqCst);
    common::BLOB_BROKEN.store(true, Ordering::SeqCst);
    let (st, v) = act(2).await;
    assert_eq!(v["error"]["code"], "storage", "{st} {v}");
    flags.fail.store(false, Ordering::SeqCst);
    common::BLOB_BROKEN.store(false, Ordering::SeqCst);

    // What the server shows and builds on is what is stored: one action.
    let (st, s) = common::get(addr, &format!("/api/games/{id}/state?token={token}")).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["seq"], 1, "{s}");
    assert_eq!(s["view"]["sum"], 1, "{s}");
    let (st, v) = act(5).await;
    assert_eq!(st, 200, "{v}");
    let (_, s) = common::get(addr, &format!("/api/games/{id}/state?token={token}")).await;
    assert_eq!(
        (s["seq"].clone(), s["view"]["sum"].clone()),
        (json!(2), json!(6)),
        "{s}"
    );
    server.stop().await;
}

/// A person's action that a quick bot answers in the same commit (nim's
/// bot, see `a_quick_bot_answers_in_the_same_commit`), and the commit
/// fails: neither move is shown nor kept in memory, the sender gets
/// `storage`, and the game goes on from what is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_commit_undoes_the_quick_bots_answer_too() {
    let (store, flags) = flaky_store("quick-bot-fails");
    // Every decision counts as quick: after its first, the bot answers in
    // the person's commit, however busy the machine.
    let settings = Settings {
        bots: parlor_server::Bots {
            quick_bot: std::time::Duration::MAX,
            ..common::test_settings().bots
        },
        ..common::test_settings()
    };
    let server = start_on_with(store, common::registry(), settings).await;
    let addr = server.addr();
    let created = common::create(
        addr,
        json!({"game": "nim", "config": {"pile": 60},
               "bots": [{"seat": 1, "level": "easy"}], "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = common::token(&created, 0);
    let mut ws = Ws::connect(addr, &id, Some(&token)).await.unwrap();
    let mut spec = Ws::connect(addr, &id, None).await.unwrap();
    // The bot moves after each of the person's actions; from the second
    // round on, in the same commit.
    let mut seq = 0;
    for r in 1..=4u64 {
        let writes = server.store().writes_asked();
        ws.send(&json!({"type": "act", "ref": r, "action": 1}))
            .await
            .unwrap();
        ws.recv_until("ack", |v| v["ref"] == r).await.unwrap();
        let s = ws
            .recv_until("state", |v| v["to_act"] == json!({"one": 0}))
            .await
            .unwrap();
        seq = s["seq"].as_u64().unwrap();
        let writes = server.store().writes_asked() - writes;
        assert_eq!(writes, if r == 1 { 2 } else { 1 }, "round {r}");
    }
    assert_eq!(seq, 8);

    flags.fail.store(true, Ordering::SeqCst);
    ws.send(&json!({"type": "act", "ref": 5, "action": 1}))
        .await
        .unwrap();
    let e = ws.recv_until("error", |v| v["ref"] == 5).await.unwrap();
    assert_eq!(e["code"], "storage", "{e}");
    flags.fail.store(false, Ordering::SeqCst);

    // Nothing of the failed round is shown or kept.
    let (st, s) = common::get(addr, &format!("/api/games/{id}/state?token={token}")).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["seq"], seq, "{s}");
    assert_eq!(s["to_act"], json!({"one": 0}), "{s}");
    // The game goes on from there, and the spectator saw no state of the
    // failed round: its next state is the next stored move.
    ws.send(&json!({"type": "act", "ref": 6, "action": 1}))
        .await
        .unwrap();
    let ack = ws.recv_until("ack", |v| v["ref"] == 6).await.unwrap();
    assert_eq!(ack["seq"], seq + 1);
    let mut n = 0;
    while n <= seq {
        let s = spec.recv_until("state", |_| true).await.unwrap();
        n = s["seq"].as_u64().unwrap();
        assert!(n <= seq + 2, "{s}");
    }
    assert_eq!(n, seq + 1, "the spectator's next state after the failure");
    let s = ws
        .recv_until("state", |v| {
            v["to_act"] == json!({"one": 0}) || v["to_act"] == "over"
        })
        .await
        .unwrap();
    assert_eq!(s["seq"], seq + 2, "{s}");
    server.stop().await;
}
