//! The live games of one server process, by id, and the shared state every
//! handler reaches through one [`Hub`]. A game's actor gets only the part it
//! needs, an [`crate::actor::Env`] (its calls back into the live games go
//! through [`crate::actor::Games`]).
//!
//! A game is loaded into memory (replayed from the database) the first time
//! something asks for it, and leaves memory when idle. Nothing here is
//! process-global: two hubs in one process (as in the tests) are
//! independent.

use crate::actor::{GameActor, GameStub};
use crate::error::ApiError;
use crate::error::Code;
pub(crate) use crate::newgame::{new_token, Created, NewGameSpec};
use crate::storage::{
    ActionRow, GameRow, JsonText, Notice, SeatKind, SeatRow, StatusRow, StorageError, Store, Write,
};
use crate::Settings;
use futures_util::future::BoxFuture;
use parlor_core::{Registry, RegistryError, Resources, ToAct};
use rand::Rng;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, watch};

/// Shared by every request. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    resources: Resources,
    word_lists: crate::wordlists::WordLists,
    store: Store,
    /// Shared with every game's actor (see `crate::actor::Env`).
    settings: Arc<Settings>,
    games: Mutex<HashMap<String, GameStub>>,
    /// This process's presence (see `crate::presence`).
    presence: Arc<crate::presence::Presence>,
    /// Per live game: the seats other processes hold, as last told to its
    /// actor (only games with some): the poll and the presence notices
    /// wake an actor only when this changes.
    remote: Mutex<HashMap<String, Vec<usize>>>,
    shutdown: watch::Receiver<bool>,
    /// The bots' pool of heavy work (on blocking threads): `bot_threads`
    /// permits, one less than the cores, so that whatever thinks, a core
    /// is left for people's actions. First come, first served.
    think_slots: Arc<tokio::sync::Semaphore>,
    /// The game's helper: its pools, budget and kept answers (see
    /// `crate::assist`).
    helpers: crate::assist::Helpers,
    /// Each client address's buckets (see `crate::limits`).
    limits: Arc<crate::limits::ClientLimits>,
    /// Login throttles and password hashing (see `crate::accounts`).
    accounts: crate::accounts::Accounts,
    /// Games being created at once.
    creations: tokio::sync::Semaphore,
    /// Rules (game and config) that name no word list and whose last
    /// build took under [`QUICK_BUILD`]: the next is built on the async
    /// worker, without the hop to a blocking thread and back, which cost
    /// more than the build itself (nim's, at every rematch).
    quick_builds: crate::quick::QuickKinds,
    /// Which rules and bot levels decide quickly, for every game's actor.
    quick_bots: Arc<crate::quick::QuickKinds>,
    /// Which games' clocks and bots this process runs (see `crate::lease`).
    leases: Arc<crate::lease::Leases>,
}

/// How long the hub gathers presence notices before reading them.
const PRESENCE_BATCH: std::time::Duration = std::time::Duration::from_millis(20);

/// A game's build that takes less is quick enough for the async worker
/// (see `Inner::quick_builds`); the same bound as [`crate::QUICK_BOT`]
/// for decisions. nim's build takes microseconds.
const QUICK_BUILD: std::time::Duration = std::time::Duration::from_micros(20);

async fn sleep_until_opt(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The owner a client's derived data is charged to (see
/// [`parlor_core::Resources::with_share`]).
pub(crate) fn client_owner(client: std::net::IpAddr) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    client.hash(&mut h);
    h.finish()
}

impl Hub {
    pub(crate) fn new(
        registry: Registry,
        resources: Resources,
        store: Store,
        settings: Settings,
        shutdown: watch::Receiver<bool>,
    ) -> Hub {
        let settings_bot_threads = settings.bots.bot_threads.max(1);
        let limits = crate::wordlists::Limits {
            max_bytes: settings.word_lists.word_list_max_bytes,
            max_words: settings.word_lists.word_list_max_words,
            max_total_bytes: settings.word_lists.word_lists_max_total_bytes,
            cache_lists: settings.word_lists.word_list_cache,
            cache_bytes: settings.word_lists.word_list_cache_bytes,
            in_memory: settings.word_lists.word_lists_in_memory,
        };
        let presence = crate::presence::Presence::start(&store, &settings, shutdown.clone());
        let leases =
            crate::lease::Leases::new(&store, presence.process(), settings.cluster.lease_ttl);
        let limits_by_client = crate::limits::ClientLimits::new(&settings);
        let helpers = crate::assist::Helpers::new(
            registry.clone(),
            settings_bot_threads,
            settings.helper.assist_think,
            settings.helper.helper_cache_bytes,
        );
        let creations = tokio::sync::Semaphore::new(settings.games.creations_at_once.max(1));
        // One bound for what every game derives, on the server's lists and
        // the uploaded ones alike (which are added to these resources).
        let resources = resources.with_derived_limit(settings.word_lists.derived_cache_bytes);
        Hub {
            inner: Arc::new(Inner {
                presence: Arc::new(presence),
                remote: Mutex::new(HashMap::new()),
                registry,
                word_lists: crate::wordlists::WordLists::new(resources.clone(), limits),
                resources,
                store,
                settings: Arc::new(settings),
                games: Mutex::new(HashMap::new()),
                shutdown,
                think_slots: Arc::new(tokio::sync::Semaphore::new(settings_bot_threads)),
                helpers,
                limits: Arc::new(limits_by_client),
                accounts: crate::accounts::Accounts::new(),
                creations,
                quick_builds: Default::default(),
                quick_bots: Default::default(),
                leases: Arc::new(leases),
            }),
        }
    }

    pub(crate) fn registry(&self) -> &Registry {
        &self.inner.registry
    }
    /// The server's own word lists (not the uploaded ones).
    pub(crate) fn resources(&self) -> Resources {
        self.inner.resources.clone()
    }
    /// The uploaded word lists.
    pub(crate) fn word_lists(&self) -> &crate::wordlists::WordLists {
        &self.inner.word_lists
    }
    pub(crate) fn store(&self) -> &Store {
        &self.inner.store
    }
    pub(crate) fn settings(&self) -> &Settings {
        &self.inner.settings
    }
    /// The game's helper, for whatever asks it.
    pub(crate) fn helpers(&self) -> &crate::assist::Helpers {
        &self.inner.helpers
    }
    /// Takes one request of `kind` from the client's bucket (always
    /// granted with rate limits off).
    pub(crate) fn meter(
        &self,
        kind: crate::limits::Kind,
        client: std::net::IpAddr,
    ) -> Result<(), ApiError> {
        self.inner.limits.meter(kind, client)
    }
    /// Login throttles and password-hashing slots.
    pub(crate) fn accounts(&self) -> &crate::accounts::Accounts {
        &self.inner.accounts
    }
    /// This process's leases.
    pub(crate) fn leases(&self) -> &crate::lease::Leases {
        &self.inner.leases
    }

    /// What a game's actor needs from this process (see
    /// [`crate::actor::Env`]).
    fn actor_env(&self) -> crate::actor::Env {
        crate::actor::Env {
            store: self.inner.store.clone(),
            settings: self.inner.settings.clone(),
            time: self.inner.settings.games.time.clone(),
            leases: self.inner.leases.clone(),
            presence: self.inner.presence.clone(),
            think_slots: self.inner.think_slots.clone(),
            quick_bots: self.inner.quick_bots.clone(),
            shutdown: self.inner.shutdown.clone(),
            games: Arc::new(self.clone()),
        }
    }

    /// What a WebSocket needs from this process (see [`crate::ws::Doors`]).
    fn ws_doors(&self) -> crate::ws::Doors {
        crate::ws::Doors {
            games: Arc::new(self.clone()),
            store: self.inner.store.clone(),
            settings: self.inner.settings.clone(),
            limits: self.inner.limits.clone(),
            helpers: self.inner.helpers.clone(),
            shutdown: self.inner.shutdown.clone(),
        }
    }

    /// Game `id`'s lease changed hands: a live game is told; a game taken
    /// over from a process that stopped is loaded, and goes on.
    pub(crate) async fn host_changed(&self, id: &str) -> Result<(), ApiError> {
        let live = self.games().get(id).filter(|s| !s.is_closed()).cloned();
        match live {
            Some(stub) => stub.hosting(),
            None if self.leases().holds(id) => self.stub(id).await.map(|_| ()),
            None => Ok(()),
        }
    }

    /// This process's presence.
    pub(crate) fn presence(&self) -> &crate::presence::Presence {
        &self.inner.presence
    }

    fn remote(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<usize>>> {
        self.inner.remote.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The seats of game `id` that other processes hold now, read from the
    /// database (shared databases only; otherwise none). Remembered as
    /// what the game's actor knows (the actor asks, and applies it).
    pub(crate) async fn remote_seats(&self, id: &str) -> Result<Vec<usize>, ApiError> {
        if !self.store().shared() {
            return Ok(Vec::new());
        }
        let ids = vec![id.to_string()];
        let process = self.presence().process().to_string();
        let rows = self
            .store()
            .read(move |s| s.presence(&ids, &process))
            .await?;
        let mut seats: Vec<usize> = rows.into_iter().map(|(_, s)| s).collect();
        seats.sort_unstable();
        seats.dedup();
        let mut remote = self.remote();
        if seats.is_empty() {
            remote.remove(id);
        } else {
            remote.insert(id.to_string(), seats.clone());
        }
        Ok(seats)
    }

    /// Reads the presence other processes hold in these live games (one
    /// query) and tells each actor whose set of seats held elsewhere
    /// changed.
    async fn refresh_presence(&self, ids: Vec<String>) {
        if ids.is_empty() {
            return;
        }
        let asked = ids.clone();
        let process = self.presence().process().to_string();
        let rows = match self.store().read(move |s| s.presence(&ids, &process)).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!("cannot read presence: {e}");
                return;
            }
        };
        let mut now: HashMap<String, Vec<usize>> = HashMap::new();
        for (id, seat) in rows {
            now.entry(id).or_default().push(seat);
        }
        for id in asked {
            let mut seats = now.remove(&id).unwrap_or_default();
            seats.sort_unstable();
            seats.dedup();
            let known = self.remote().get(&id).cloned().unwrap_or_default();
            if seats == known {
                continue;
            }
            let Some(stub) = self.games().get(&id).cloned() else {
                self.remote().remove(&id);
                continue;
            };
            // A full queue: the next poll tries again.
            if stub.presence(seats.clone()).is_ok() {
                let mut remote = self.remote();
                if seats.is_empty() {
                    remote.remove(&id);
                } else {
                    remote.insert(id, seats);
                }
            }
        }
    }

    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.clone()
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, GameStub>> {
        self.inner.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many games are in memory now.
    pub(crate) fn live_count(&self) -> usize {
        self.games().len()
    }

    /// The live game `id`, loading it from the database if needed.
    pub(crate) async fn stub(&self, id: &str) -> Result<GameStub, ApiError> {
        if let Some(s) = self.games().get(id) {
            if !s.is_closed() {
                return Ok(s.clone());
            }
        }
        if !valid_id(id) {
            return Err(ApiError::not_found(id));
        }
        let key = id.to_string();
        let mut stored = self
            .store()
            .read(move |s| s.load(&key))
            .await?
            .ok_or_else(|| ApiError::not_found(id))?;
        let entry = self
            .registry()
            .get(&stored.row.game)
            .map_err(|e| ApiError::new(Code::Internal, format!("game {id}: {e}")))?;
        let resources = self
            .word_lists()
            .for_stamps(self.store(), &stored.row.lexicons.value())
            .await
            .map_err(|e| {
                let code = match e.code {
                    Code::Storage | Code::Busy => e.code,
                    _ => Code::Internal,
                };
                ApiError::new(code, format!("game {id} cannot be replayed: {}", e.message))
            })?;
        let game_resources = resources.clone();
        let entry2 = entry.clone();
        let actions = std::mem::take(&mut stored.actions);
        let row = stored.row.clone();
        let (m, timeline) = tokio::task::spawn_blocking(move || {
            crate::clocks::replay(&*entry2, &row, &actions, &resources)
        })
        .await
        .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?
        .map_err(|e| {
            if e.busy {
                ApiError::new(Code::Busy, format!("game {id} cannot be loaded now: {e}"))
                    .retry_after(NO_ROOM_RETRY)
            } else {
                ApiError::new(Code::Internal, format!("game {id} cannot be replayed: {e}"))
            }
        })?;
        let mut games = self.games();
        if let Some(s) = games.get(id) {
            if !s.is_closed() {
                // Somebody else loaded it meanwhile: theirs wins.
                return Ok(s.clone());
            }
        }
        let stub = GameActor::spawn(
            self.actor_env(),
            entry,
            m,
            game_resources,
            stored.row,
            stored.seats,
            timeline,
        );
        games.insert(id.to_string(), stub.clone());
        Ok(stub)
    }

    /// Stores the lists this server was started with (`--word-list`) as
    /// uploaded lists are stored, once: a game played with one replays even
    /// after a restart without that option, or in another process, which
    /// finds the list by the fingerprint its record stamps. A list that
    /// cannot be stored (no room) is said in one line; the server still
    /// offers it.
    pub(crate) async fn keep_server_lists(&self) {
        let resources = self.resources();
        for name in resources.lexicon_names() {
            if parlor_lexicon::EMBEDDED.contains(&name.as_str()) {
                continue;
            }
            let Ok(lexicon) = resources.lexicon(&name) else {
                continue;
            };
            let mut text = String::new();
            for w in lexicon.words() {
                text.push_str(w);
                text.push('\n');
            }
            let stored = self
                .word_lists()
                .upload(self.store(), Some(name.clone()), text.into())
                .await;
            if let Err(e) = stored {
                tracing::warn!("word list {name} is offered but not stored: {e}");
            }
        }
    }

    /// Follows the changes other processes make to the games of a shared
    /// database (PostgreSQL): each notice goes to the game it names if it
    /// is live here (the others are read afresh when visited), and every
    /// few seconds the stored length of every live game's record is
    /// compared with the actor's, so a lost notice delays a move but never
    /// leaves a game stale.
    pub(crate) fn follow(&self, mut notices: mpsc::UnboundedReceiver<Notice>) {
        let hub = self.clone();
        tokio::spawn(async move {
            let mut shutdown = hub.shutdown_signal();
            let mut poll = tokio::time::interval(hub.settings().cluster.live_poll);
            poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            // Games whose presence another process changed, read together
            // shortly after the first notice (one query for a burst).
            let mut presence: std::collections::HashSet<String> = Default::default();
            let mut presence_at: Option<tokio::time::Instant> = None;
            loop {
                tokio::select! {
                    Some(n) = notices.recv() => match n {
                        Notice::Game { id, seq } => hub.notify(&id, seq),
                        Notice::Presence { id, process } => {
                            if process != hub.presence().process() && hub.games().contains_key(&id) {
                                presence.insert(id);
                                presence_at.get_or_insert_with(|| {
                                    tokio::time::Instant::now() + PRESENCE_BATCH
                                });
                            }
                        }
                        Notice::Resync => {
                            let ids: Vec<String> = hub.games().keys().cloned().collect();
                            for id in &ids {
                                hub.notify(id, None);
                            }
                            hub.refresh_presence(ids).await;
                        }
                    },
                    _ = sleep_until_opt(presence_at) => {
                        presence_at = None;
                        hub.refresh_presence(presence.drain().collect()).await;
                    }
                    _ = poll.tick() => hub.poll().await,
                    _ = shutdown.changed() => break,
                }
            }
        });
    }

    /// Tells the live game `id` (if any) that the database changed (for
    /// an action: only when the database is ahead of it).
    fn notify(&self, id: &str, seq: Option<usize>) {
        let stub = self.games().get(id).cloned();
        if let Some(stub) = stub.filter(|s| seq.is_none_or(|seq| s.behind(seq))) {
            // A full queue: the poll catches up later.
            let _ = stub.notified(seq);
        }
    }

    /// The safety-net poll: one query for every live game's stored seq,
    /// one for the presence other processes hold in them (lost notices,
    /// and the rows of a process that died without cleaning up, which
    /// expire without a notice).
    async fn poll(&self) {
        let ids: Vec<String> = self.games().keys().cloned().collect();
        if ids.is_empty() {
            return;
        }
        {
            let live: std::collections::HashSet<&String> = ids.iter().collect();
            self.remote().retain(|id, _| live.contains(id));
        }
        self.refresh_presence(ids.clone()).await;
        match self.store().read(move |s| s.seqs(&ids)).await {
            Ok(seqs) => {
                for (id, seq) in seqs {
                    self.notify(&id, Some(seq));
                }
            }
            Err(e) => tracing::warn!("cannot poll live games: {e}"),
        }
    }

    /// Called by an idle actor: forgets it if nothing is waiting in its
    /// queue (`idle`, asked while no stub can be handed out). Returns
    /// whether it was forgotten.
    pub(crate) fn unload(&self, id: &str, idle: &dyn Fn() -> bool) -> bool {
        let mut games = self.games();
        if !idle() {
            return false;
        }
        games.remove(id);
        drop(games);
        self.remote().remove(id);
        true
    }

    /// Forgets a live game whose actor stops because its memory may not
    /// match the database: the next visitor loads it as stored.
    pub(crate) fn forget(&self, id: &str) {
        self.games().remove(id);
        self.remote().remove(id);
    }

    /// Creates, stores and starts a game.
    pub(crate) async fn create(&self, spec: NewGameSpec) -> Result<Created, ApiError> {
        let valid = self.validate(spec).await?;
        let (m, timeline) = self.build(&valid).await?;
        self.store_new(valid, m, timeline).await
    }

    /// Checks a request to create a game against the registry, the
    /// settings and the word lists, before any work is done on it: the
    /// game's rules, the seed, and every seat.
    async fn validate(&self, spec: NewGameSpec) -> Result<Validated, ApiError> {
        let entry = self.registry().get(&spec.game).map_err(|e| match e {
            RegistryError::UnknownGame { .. } => ApiError::new(Code::UnknownGame, e.to_string()),
            e => ApiError::new(Code::Internal, e.to_string()),
        })?;
        let config = merge_config(entry.default_config(), spec.config.clone());
        // What the rules declare they need: the seat count and word lists.
        let needs = entry.needs(&config).map_err(config_error)?;
        // Whoever chose the seed of a game with hidden chance would know
        // the deal: the server draws it (its hash is in every summary, the
        // seed itself in the record once the game is over).
        if spec.seed.is_some()
            && spec.start.is_none()
            && entry.hidden_chance(&config).map_err(config_error)?
        {
            return Err(ApiError::new(
                Code::BadConfig,
                format!(
                    "seed: in {} with these rules the seed decides what the players may not see yet, so the server draws it: leave seed out",
                    entry.info().title
                ),
            )
            .with_kind(parlor_core::ErrorKind::BadSetting));
        }
        let seats = seat_rows(&spec, needs.seats)?;
        let seed = spec.seed.unwrap_or_else(|| rand::thread_rng().gen());
        // An uploaded word list the rules name, from the database.
        let resources = self
            .word_lists()
            .for_needs(self.store(), &needs)
            .await
            .map_err(|e| match e.code {
                Code::UnknownWordList => e.with_kind(parlor_core::ErrorKind::UnknownResource),
                _ => e,
            })?;
        // What this build adds to the derived-data cache counts against
        // the client's share of it, so that one client's games cannot
        // take the room of everyone else's.
        let resources = match spec.client {
            Some(client) => {
                let settings = &self.inner.settings;
                let share = settings
                    .word_lists
                    .derived_cache_per_client
                    .unwrap_or(settings.word_lists.derived_cache_bytes / 4);
                resources.with_share(client_owner(client), share)
            }
            None => resources,
        };
        Ok(Validated {
            entry,
            config,
            listless: needs.word_lists.is_empty(),
            seed,
            resources,
            seats,
            spec,
        })
    }

    /// Builds the game's match, a few builds at once (the rest wait their
    /// turn, briefly, then get `busy`).
    async fn build(
        &self,
        v: &Validated,
    ) -> Result<(Box<dyn parlor_core::DynMatch>, crate::clocks::Timeline), ApiError> {
        let wait = self.inner.settings.games.create_wait;
        let building = match tokio::time::timeout(wait, self.inner.creations.acquire()).await {
            Ok(Ok(permit)) => permit,
            _ => {
                return Err(ApiError::new(
                    Code::Busy,
                    "the server is creating other games; try again in a moment",
                )
                .retry_after(std::time::Duration::from_secs(1)))
            }
        };
        // By the rules as a whole: a game's build time depends on its
        // config (a board size). Rules with a word list are always built
        // on a blocking thread: their build is quick (Word Sprout's, 2 µs)
        // only while what it derives from the list is cached, and one
        // made again (165 ms for Word Sprout's default list) must not
        // hold up an async worker.
        let rules = format!("{}\n{}", v.spec.game, v.config);
        let quick = v.listless && self.inner.quick_builds.is_quick(&rules);
        let (entry, config, seed, resources) = (
            v.entry.clone(),
            v.config.clone(),
            v.seed,
            v.resources.clone(),
        );
        let start = v.spec.start.clone().unwrap_or_default();
        let now = self.settings().games.time.now_ms();
        let build = move || {
            let began = std::time::Instant::now();
            let m = entry
                .new_match(&config, seed, &resources)
                .and_then(|mut m| {
                    let mut timeline = crate::clocks::Timeline::new(&*m);
                    for (i, (actor, action)) in start.iter().enumerate() {
                        m.apply_json(*actor, action).map_err(|e| {
                            RegistryError::from(parlor_core::RecordError::Malformed(format!(
                                "the start's move {} does not apply: {e}",
                                i + 1
                            )))
                        })?;
                        timeline.push(&*m, *actor, now);
                    }
                    Ok((m, timeline))
                });
            (m, began.elapsed())
        };
        let (m, took) = if quick {
            build()
        } else {
            tokio::task::spawn_blocking(build)
                .await
                .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?
        };
        if v.listless {
            self.inner.quick_builds.remember(rules, took < QUICK_BUILD);
        }
        let (m, timeline) = m.map_err(config_error)?;
        // The build is what the permit bounds (CPU, memory); storing the
        // game waits in the writer's queue like any write, without
        // holding others back from building theirs.
        drop(building);
        if m.seats() != v.seats.len() {
            return Err(ApiError::new(
                Code::Internal,
                format!(
                    "the game declared {} seats for these rules but has {}",
                    v.seats.len(),
                    m.seats()
                ),
            ));
        }
        Ok((m, timeline))
    }

    /// Stores a built game (linked to the game it follows, for a
    /// rematch, in the same commit) and starts its actor.
    async fn store_new(
        &self,
        v: Validated,
        m: Box<dyn parlor_core::DynMatch>,
        timeline: crate::clocks::Timeline,
    ) -> Result<Created, ApiError> {
        let Validated {
            entry,
            seed,
            resources,
            seats,
            spec,
            ..
        } = v;
        let record = m.record_json();
        let now = self.settings().games.time.now_ms();
        let id = new_game_id(now);
        let row = GameRow {
            id: id.clone(),
            game: entry.info().name.to_string(),
            config: record.get("config").unwrap_or(&Value::Null).into(),
            seed,
            lexicons: record
                .get("lexicons")
                .map(JsonText::from)
                .unwrap_or_else(|| Value::Array(Vec::new()).into()),
            public: spec.public,
            created_ms: now,
            status: StatusRow {
                seq: spec.start.as_ref().map_or(0, Vec::len),
                to_act: JsonText::of(&m.to_act()),
                outcome: None,
                over: m.to_act() == ToAct::Over,
                deadline: None,
                updated_ms: now,
            },
            rematch_of: spec.rematch_of,
            rematch: None,
            time_control: spec.time_control,
            aborted: false,
            rated: spec.rated,
        };
        let mut writes = vec![Write::NewGame {
            row: row.clone(),
            seats: seats.clone(),
        }];
        // The start's moves, each with the status the game has after all
        // of them: stored in the same commit, none of them is seen alone.
        for (idx, (actor, action)) in spec.start.iter().flatten().enumerate() {
            writes.push(Write::Action {
                game_id: id.clone(),
                action: ActionRow {
                    idx,
                    actor: serde_json::to_value(actor).unwrap_or(Value::Null),
                    action: action.clone(),
                    at_ms: now,
                },
                status: StatusRow {
                    seq: idx + 1,
                    ..row.status.clone()
                },
            });
        }
        // A rematch is linked to the game it follows in the same commit:
        // one wait for the disk (and one request to the writer) instead
        // of two for every rematch.
        if let Some(from) = &row.rematch_of {
            writes.push(Write::Rematch {
                from: from.clone(),
                to: id.clone(),
            });
        }
        let taken = self.store().commit(writes).await?;
        if taken.first() != Some(&true) {
            return Err(StorageError::conflict(format!(
                "game {id}: another writer got there first (the change was not made)"
            ))
            .into());
        }
        let linked = row.rematch_of.is_some() && taken.last() == Some(&true);
        let tokens = seats
            .iter()
            .filter_map(|s| s.token.clone().map(|t| (s.seat, t)))
            .collect();
        let stub = GameActor::spawn(self.actor_env(), entry, m, resources, row, seats, timeline);
        self.games().insert(id.clone(), stub.clone());
        let summary = stub.summary().await?;
        Ok(Created {
            id,
            summary,
            tokens,
            linked,
        })
    }

    /// Expires abandoned games (see [`crate::Games::abandon_after`]):
    /// every so often (a tenth of the limit, between 1 s and 10 min), the
    /// unfinished games whose stored status and creation are older than
    /// the limit are loaded and their actors asked to expire; each checks
    /// again itself (a move or a player may have come meanwhile). On a
    /// shared database every process sweeps; the abort is a conditional
    /// write, so a game is aborted once.
    pub(crate) fn expire_abandoned(&self) {
        let Some(limit) = self.settings().games.abandon_after else {
            return;
        };
        let every = (limit / 10).clamp(
            std::time::Duration::from_secs(1),
            std::time::Duration::from_secs(600),
        );
        let hub = self.clone();
        let mut stop = self.shutdown_signal();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = stop.changed() => return,
                }
                let cutoff = hub.settings().games.time.now_ms() - limit.as_millis() as i64;
                let games = match hub.store().read(|s| s.unfinished()).await {
                    Ok(g) => g,
                    Err(e) => {
                        tracing::warn!("cannot look for abandoned games: {e}");
                        continue;
                    }
                };
                for g in games.iter().filter(|g| {
                    !g.row.aborted
                        && g.row.created_ms <= cutoff
                        && g.row.status.updated_ms <= cutoff
                }) {
                    match hub.stub(&g.row.id).await {
                        Ok(stub) => {
                            let _ = stub.expire(cutoff).await;
                        }
                        Err(e) => tracing::warn!("cannot expire game {}: {e}", g.row.id),
                    }
                }
            }
        });
    }

    /// Starts the unfinished games that go on by themselves — a clock is
    /// running or a bot is to act — so that they do after a restart. Other
    /// games wait in the database until someone visits them. Returns how
    /// many were started.
    pub(crate) async fn resume_all(&self) -> Result<usize, ApiError> {
        let games = self.store().read(|s| s.unfinished()).await?;
        let mut n = 0;
        for g in games.iter().filter(|g| needs_host(g)) {
            match self.stub(&g.row.id).await {
                Ok(_) => n += 1,
                Err(e) => tracing::warn!("cannot resume game {}: {e}", g.row.id),
            }
        }
        Ok(n)
    }
}

/// The calls an actor makes back into the live games.
impl axum::extract::FromRef<Hub> for crate::ws::Doors {
    fn from_ref(hub: &Hub) -> crate::ws::Doors {
        hub.ws_doors()
    }
}

impl crate::actor::Games for Hub {
    fn unload(&self, id: &str, idle: &dyn Fn() -> bool) -> bool {
        Hub::unload(self, id, idle)
    }
    fn forget(&self, id: &str) {
        Hub::forget(self, id)
    }
    fn remote_seats<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<usize>, ApiError>> {
        Box::pin(Hub::remote_seats(self, id))
    }
    fn create(&self, spec: NewGameSpec) -> BoxFuture<'_, Result<Created, ApiError>> {
        Box::pin(Hub::create(self, spec))
    }
}

impl crate::actor::Rooms for Hub {
    fn stub<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<GameStub, ApiError>> {
        Box::pin(Hub::stub(self, id))
    }
}

/// Whether a stored game would change without anyone visiting it.
fn needs_host(g: &crate::storage::Listed) -> bool {
    if g.seats.iter().all(|s| s.kind == SeatKind::Bot) {
        // Bots play bots only while somebody watches.
        return false;
    }
    if g.row.status.deadline.is_some() || !g.row.time_control.is_untimed() {
        return true;
    }
    let t = g.row.status.to_act.value();
    let acting: Vec<u64> = match (t.get("one"), t.get("simultaneous")) {
        (Some(one), _) => one.as_u64().into_iter().collect(),
        (None, Some(Value::Array(v))) => v.iter().filter_map(Value::as_u64).collect(),
        _ => Vec::new(),
    };
    g.seats
        .iter()
        .any(|s| s.kind == SeatKind::Bot && acting.contains(&(s.seat as u64)))
}

/// The 32 characters of game ids, in the order their bytes sort (no `0`,
/// `1`, `l` or `o`, which read alike).
const ID_DIGITS: &[u8; 32] = b"23456789abcdefghijkmnpqrstuvwxyz";

/// A new game's id: the second it was made, then chance.
///
/// The first seven characters are the Unix second of `created_ms` in base
/// 32 (digits in byte order, so ids sort as they were made, until the year
/// 3058): the live games' rows lie together at the end of every table and
/// index keyed by game, where the writer finds their pages in its cache,
/// instead of one page a game spread over the whole history, read back
/// from the file at each action (nim's load: bytes read per action
/// 5.0 -> 2.2 KB, the checkpointer's CPU down a third). The last ten characters are random (50 bits): a
/// private game's id is as hard to guess as before, and the primary key
/// refuses the astronomically unlikely collision anyway.
pub(crate) fn new_game_id(created_ms: i64) -> String {
    let second = (created_ms.max(0) / 1000) as u64;
    let mut rng = rand::thread_rng();
    let time = (0..7)
        .rev()
        .map(|digit| ID_DIGITS[((second >> (5 * digit)) & 31) as usize]);
    let chance = (0..10).map(|_| ID_DIGITS[rng.gen_range(0..ID_DIGITS.len())]);
    time.chain(chance).map(char::from).collect()
}

pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 40 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// When to ask again after a refusal for want of room for shared data:
/// games end on their own time, so a guess.
const NO_ROOM_RETRY: std::time::Duration = std::time::Duration::from_secs(30);

/// A refusal of a game's rules at creation: `bad_config` with the game's
/// kind of refusal (`bad_setting`, `malformed`, `unknown_resource`).
fn config_error(e: RegistryError) -> ApiError {
    match e {
        // Rules that fit, but not beside what live games hold now.
        RegistryError::BadConfig {
            kind: parlor_core::ErrorKind::Busy,
            message,
            ..
        } => ApiError::new(Code::Busy, message)
            .with_kind(parlor_core::ErrorKind::Busy)
            .retry_after(NO_ROOM_RETRY),
        RegistryError::BadConfig { kind, .. } => {
            ApiError::new(Code::BadConfig, e.to_string()).with_kind(kind)
        }
        e => ApiError::new(Code::Internal, e.to_string()),
    }
}

/// The default rules with the given fields laid over them, so a client can
/// send only what it changes.
fn merge_config(default: Value, given: Value) -> Value {
    match (default, given) {
        (Value::Object(mut d), Value::Object(g)) => {
            for (k, v) in g {
                d.insert(k, v);
            }
            Value::Object(d)
        }
        (d, Value::Null) => d,
        (_, g) => g,
    }
}

impl Hub {
    /// The lease task of a process on a shared database: renews, takes over
    /// lapsed games and loads them, and tells live games they lost theirs.
    pub(crate) fn follow_leases(&self) {
        let hub = self.clone();
        if !hub.store().shared() {
            return;
        }
        let every = hub
            .settings()
            .cluster
            .lease_refresh
            .max(std::time::Duration::from_millis(10));
        let mut shutdown = hub.shutdown_signal();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut failing = false;
            loop {
                tokio::select! {
                    biased;
                    _ = shutdown.changed() => break,
                    _ = tick.tick() => {}
                }
                match hub.leases().round(hub.store()).await {
                    Ok((taken, lost)) => {
                        if failing {
                            tracing::info!("leases renewed again");
                        }
                        failing = false;
                        for id in lost.iter().chain(&taken) {
                            // A live game hears of the change; a game taken
                            // over is loaded and goes on by itself.
                            if let Err(e) = hub.host_changed(id).await {
                                tracing::warn!("game {id}: cannot take it over: {e}");
                            }
                        }
                    }
                    Err(e) => {
                        if !failing {
                            tracing::warn!("cannot renew leases ({e}); retrying");
                        }
                        failing = true;
                    }
                }
            }
        });
    }
}

/// A creation request checked ([`Hub::create`]'s first step).
struct Validated {
    entry: Arc<dyn parlor_core::GameEntry>,
    config: Value,
    /// Whether the rules use no word list (their build time is
    /// remembered, see `Inner::quick_builds`).
    listless: bool,
    seed: u64,
    resources: Resources,
    seats: Vec<SeatRow>,
    spec: NewGameSpec,
}

/// The seats of a new game of `n` seats as `spec` asks: given whole (a
/// rematch), or made here with bots, open seats, the creator's seat and a
/// token for every other human seat; every seat number checked.
fn seat_rows(spec: &NewGameSpec, n: usize) -> Result<Vec<SeatRow>, ApiError> {
    let mut seats: Vec<SeatRow> = match spec.seats.clone() {
        Some(s) if s.len() == n => s,
        Some(s) => {
            return Err(ApiError::new(
                Code::Internal,
                format!("{} seats given for a game of {n}", s.len()),
            ))
        }
        None => (0..n)
            .map(|seat| SeatRow {
                seat,
                kind: SeatKind::Human,
                level: None,
                token: None,
                name: None,
                player: None,
                joined: false,
                account: None,
            })
            .collect(),
    };
    for &(seat, level) in &spec.bots {
        let s = seats.get_mut(seat).ok_or_else(|| {
            ApiError::bad_json(format!(
                "bots: seat {seat} does not exist: this game has seats 0 to {}",
                n - 1
            ))
        })?;
        s.kind = SeatKind::Bot;
        s.level = Some(level.to_string());
    }
    for s in &mut seats {
        match s.kind {
            SeatKind::Bot => {
                s.token = None;
                s.joined = true;
                if s.name.is_none() {
                    s.name = Some(format!("bot ({})", s.level.as_deref().unwrap_or("easy")));
                }
            }
            SeatKind::Human => s.token = Some(new_token()),
        }
    }
    if !spec.open_seats.is_empty() && !spec.public {
        return Err(ApiError::bad_json(
            "open_seats: a private game has no open seats (nobody could find them): make it public, or send invite links",
        ));
    }
    for &seat in &spec.open_seats {
        let s = seats.get_mut(seat).ok_or_else(|| {
            ApiError::bad_json(format!(
                "open_seats: seat {seat} does not exist: this game has seats 0 to {}",
                n - 1
            ))
        })?;
        if s.kind == SeatKind::Bot {
            return Err(ApiError::bad_json(format!(
                "open_seats: seat {seat} is a bot's"
            )));
        }
        if spec.take_seat.as_ref().is_some_and(|t| t.0 == seat) {
            return Err(ApiError::bad_json(format!(
                "open_seats: seat {seat} is the one you take (take_seat)"
            )));
        }
        // Claimed later, with a token minted then.
        s.token = None;
    }
    if let Some((seat, name, player)) = spec.take_seat.clone() {
        let s = seats.get_mut(seat).ok_or_else(|| {
            ApiError::bad_json(format!(
                "take_seat: seat {seat} does not exist: this game has seats 0 to {}",
                n - 1
            ))
        })?;
        if s.kind == SeatKind::Bot {
            return Err(ApiError::bad_json(format!(
                "take_seat: seat {seat} is a bot's"
            )));
        }
        s.joined = true;
        s.name = name.map(|n| n.trim().chars().take(40).collect());
        s.player = player;
        s.account = spec.account.clone();
    }
    if spec.rated && seats.iter().any(|s| s.kind == SeatKind::Bot) {
        return Err(ApiError::bad_json(
            "rated: a game with a bot is never rated; leave out bots or rated",
        ));
    }
    Ok(seats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_core::Level;

    fn spec() -> NewGameSpec {
        NewGameSpec {
            game: "nim".into(),
            config: Value::Null,
            seed: None,
            public: true,
            seats: None,
            bots: Vec::new(),
            open_seats: Vec::new(),
            take_seat: None,
            rematch_of: None,
            start: None,
            time_control: Default::default(),
            rated: false,
            account: None,
            client: None,
        }
    }

    #[test]
    fn the_seats_of_a_new_game_are_checked_before_it_is_built() {
        // A bot, an open seat and the creator's seat: tokens for the
        // humans that are invited or taken, none for the open seat.
        let s = NewGameSpec {
            bots: vec![(2, Level::Hard)],
            open_seats: vec![1],
            take_seat: Some((0, Some("  Ann ".into()), None)),
            ..spec()
        };
        let seats = seat_rows(&s, 3).unwrap();
        assert!(seats[0].token.is_some() && seats[0].joined);
        assert_eq!(seats[0].name.as_deref(), Some("Ann"));
        assert!(seats[1].token.is_none() && !seats[1].joined);
        assert_eq!(seats[2].kind, SeatKind::Bot);
        assert!(seats[2].token.is_none() && seats[2].joined);
        // Every refusal names the field and what is accepted.
        let refused = |s: NewGameSpec| seat_rows(&s, 2).unwrap_err().message;
        assert!(refused(NewGameSpec {
            bots: vec![(5, Level::Easy)],
            ..spec()
        })
        .contains("seats 0 to 1"));
        assert!(refused(NewGameSpec {
            open_seats: vec![0],
            public: false,
            ..spec()
        })
        .contains("private"));
        assert!(refused(NewGameSpec {
            bots: vec![(0, Level::Easy)],
            take_seat: Some((0, None, None)),
            ..spec()
        })
        .contains("is a bot's"));
        assert!(refused(NewGameSpec {
            open_seats: vec![1],
            take_seat: Some((1, None, None)),
            ..spec()
        })
        .contains("the one you take"));
        assert!(refused(NewGameSpec {
            bots: vec![(1, Level::Easy)],
            rated: true,
            ..spec()
        })
        .contains("never rated"));
    }

    #[test]
    fn game_ids_sort_as_they_were_made_and_keep_fifty_random_bits() {
        // Seconds whose digits differ in every place: ids of different
        // seconds sort by time however far apart; within one second, by
        // chance.
        let times = [
            0,
            999,
            1_000,
            31_000,
            32_000,
            1_795_810_067_700,
            34_359_738_367_000,
        ];
        let ids: Vec<String> = times.iter().map(|&t| new_game_id(t)).collect();
        for (pair, t) in ids.windows(2).zip(times.windows(2)) {
            if t[0] / 1000 < t[1] / 1000 {
                assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
            }
        }
        assert_eq!(&ids[0][..7], "2222222");
        assert_eq!(ids[0][..7], ids[1][..7], "the same second");
        assert_eq!(&ids[2][..7], "2222223");
        assert_eq!(&ids[6][..7], "zzzzzzz", "the last second of the year 3058");
        for id in &ids {
            assert_eq!(id.len(), 17);
            assert!(valid_id(id), "{id}");
            assert!(id.bytes().all(|b| ID_DIGITS.contains(&b)), "{id}");
        }
        // The random part: ten characters that vary from id to id.
        let same_second: std::collections::HashSet<String> = (0..1000)
            .map(|_| new_game_id(5_000)[7..].to_string())
            .collect();
        assert_eq!(same_second.len(), 1000);
        let used: std::collections::HashSet<u8> =
            same_second.iter().flat_map(|r| r.bytes()).collect();
        assert_eq!(used.len(), 32, "every digit appears in 10,000 draws");
    }
}
