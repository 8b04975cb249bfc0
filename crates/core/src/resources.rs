//! Word lists (and other heavy shared data) handed to games by name.

use parlor_lexicon::Lexicon;
use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A resource a game asked for that is not available.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    /// No word list of that name is known to this host.
    #[error("unknown word list {name:?}: known lists are {}", known.join(", "))]
    UnknownLexicon {
        /// The name asked for.
        name: String,
        /// The names available.
        known: Vec<String>,
    },
}

/// Data derived from resources and kept in the [`Resources`] cache (an
/// index, a solved table). It says about how many bytes it holds, so that
/// the cache can keep within its bound.
pub trait Derived: Any + Send + Sync {
    /// Approximate bytes held: the value and what it owns on the heap, not
    /// data it shares with others (the word list it was built from).
    fn bytes(&self) -> usize;
}

impl Derived for parlor_lexicon::CountedWords {
    fn bytes(&self) -> usize {
        self.heap_size()
    }
}

/// A derived value refused because it would not fit the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoRoom {
    /// It would take more than the whole bound, `limit` bytes: it never
    /// fits on this host, whatever else is running.
    #[error(
        "it would take more than {}, the most this host keeps for data shared by games",
        human_bytes(*.limit)
    )]
    TooBig {
        /// The cache's bound, in bytes.
        limit: usize,
    },
    /// It may fit the bound, but values that live games hold take `held`
    /// bytes of it now and it would take more than the rest: asking again
    /// once games have ended can succeed.
    #[error(
        "live games hold {} of the {} this host keeps for data shared by games, and it \
         would take more than the rest",
        human_bytes(*.held),
        human_bytes(*.limit)
    )]
    Full {
        /// The cache's bound, in bytes.
        limit: usize,
        /// Bytes of the values held by others than the cache when refused.
        held: usize,
    },
    /// It may fit the bound, but the values built for one owner (one
    /// client of a server, see [`Resources::with_share`]) that live games
    /// hold take `held` bytes of that owner's `share` now, and it would
    /// take more than the rest: asking again once the owner's games have
    /// ended can succeed. Others still find room.
    #[error(
        "games of yours hold {} of the {} that each client may use of the data shared \
         by games, and it would take more than the rest",
        human_bytes(*.held),
        human_bytes(*.share)
    )]
    Share {
        /// The most bytes one owner's values may take.
        share: usize,
        /// Bytes of the owner's values held by live games when refused.
        held: usize,
    },
}

impl NoRoom {
    /// Whether asking again later can succeed (room held by live games):
    /// a refusal for now, not for good.
    pub fn for_now(&self) -> bool {
        !matches!(self, NoRoom::TooBig { .. })
    }
}

/// A byte count as people read it: `8 MiB`, `64 KiB`, `900 bytes`.
pub fn human_bytes(n: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    const GIB: usize = 1024 * MIB;
    let trim = |x: f64| {
        let s = format!("{x:.1}");
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    };
    if n >= GIB {
        format!("{} GiB", trim(n as f64 / GIB as f64))
    } else if n >= MIB {
        format!("{} MiB", trim(n as f64 / MIB as f64))
    } else if n >= KIB {
        format!("{} KiB", trim(n as f64 / KIB as f64))
    } else {
        format!("{n} bytes")
    }
}

/// The word lists a host offers, by name, and a cache of data that games
/// derive from them (indexes, solved tables) so that many games on one
/// host share one copy.
///
/// Cloning is cheap and clones share the cache. Nothing here is global:
/// two hosts in one process (or two processes) each have their own.
///
/// # The derived-data cache
///
/// [`derived`](Resources::derived) builds a value once per key and type and
/// shares it. The cache holds at most [`derived_limit`](Resources::derived_limit)
/// bytes (by the values' own [`Derived::bytes`]; unbounded unless set with
/// [`with_derived_limit`](Resources::with_derived_limit)), counting the
/// values that live games hold as well as those only the cache holds: past
/// it the least recently used values that nobody else holds are let go
/// (letting go of a held value would free nothing, and a later request for
/// its key would build a second copy). [`try_derived`](Resources::try_derived)
/// builds only within the room that held values leave (its builder is told
/// that room and may stop early): a value larger than the whole bound is
/// refused for good ([`NoRoom::TooBig`]), one larger than the room left for
/// now ([`NoRoom::Full`]). [`derived`](Resources::derived) never refuses,
/// and does not keep a value larger than the bound.
///
/// # Shares
///
/// One client of a server must not take the whole bound from the others:
/// a copy made by [`with_share`](Resources::with_share) charges the values
/// it builds to an owner (a client), and [`try_derived`](Resources::try_derived)
/// on it also refuses ([`NoRoom::Share`]) a value that would take the
/// owner's values held by live games past the owner's share (an owner
/// that holds nothing may build one value of any size the bound allows).
/// A value already there is shared by all, whoever asks: only building
/// counts.
#[derive(Clone, Default)]
pub struct Resources {
    inner: Arc<Inner>,
    /// Who the values built through this copy are charged to.
    share: Option<Share>,
}

/// An owner and the most bytes of held values it may be charged for.
#[derive(Clone, Copy, Debug)]
struct Share {
    owner: u64,
    bytes: usize,
}

/// A value as the cache holds it, or its refusal.
type Built = Result<Arc<dyn Any + Send + Sync>, NoRoom>;

/// One per key: the map's lock is held only to find or add the cell, and
/// the first caller builds inside the cell while later ones wait for it,
/// so a value is built once however many ask.
type DerivedCell = std::sync::OnceLock<Built>;

/// (scope, key, type): each [`Inner`] has its own scope in a shared cache.
type Id = (u64, String, TypeId);

/// Why [`Resources::lookup`] gave no value.
enum Refused<F> {
    /// This call's build refused.
    NoRoom(NoRoom),
    /// Another caller's build refused (or a refusal was remembered): this
    /// call's build, unused, and the refusal.
    Build(F, NoRoom),
}

/// What a refusal is counted as in the cache.
const REFUSAL_BYTES: usize = 256;

struct Inner {
    added: BTreeMap<String, Arc<Lexicon>>,
    embedded: Mutex<HashMap<String, Arc<Lexicon>>>,
    /// This set of lists' part of the cache.
    scope: u64,
    cache: Arc<DerivedCache>,
}

impl Default for Inner {
    fn default() -> Self {
        Inner::new(BTreeMap::new(), Arc::new(DerivedCache::new(usize::MAX)))
    }
}

impl Inner {
    fn new(added: BTreeMap<String, Arc<Lexicon>>, cache: Arc<DerivedCache>) -> Inner {
        Inner {
            added,
            embedded: Mutex::default(),
            scope: cache.next_scope.fetch_add(1, Ordering::Relaxed),
            cache,
        }
    }
}

impl Drop for Inner {
    /// What was derived for these lists goes with them.
    fn drop(&mut self) {
        self.cache.forget(self.scope);
    }
}

/// The derived values of every [`Resources`] made from one another, within
/// one byte bound.
struct DerivedCache {
    limit: usize,
    next_scope: AtomicU64,
    state: Mutex<CacheState>,
}

#[derive(Default)]
struct CacheState {
    slots: HashMap<Id, Slot>,
    /// Built slots by last use, least recent first.
    order: BTreeMap<u64, Id>,
    /// A clock for `order`.
    tick: u64,
    /// Bytes of the built slots.
    bytes: usize,
}

impl CacheState {
    /// Bytes of the built values that someone besides the cache holds (a
    /// live game): the part of the bound that letting go cannot free.
    fn held(&self) -> usize {
        self.slots
            .values()
            .filter(|s| s.held())
            .filter_map(|s| s.bytes)
            .sum()
    }

    /// The part of [`held`](CacheState::held) charged to `owner`.
    fn held_by(&self, owner: u64) -> usize {
        self.slots
            .values()
            .filter(|s| s.owner == Some(owner) && s.held())
            .filter_map(|s| s.bytes)
            .sum()
    }
}

struct Slot {
    cell: Arc<DerivedCell>,
    /// Last use (its key in `order` once built).
    used: u64,
    /// Bytes once built; `None` while building.
    bytes: Option<usize>,
    /// Who it is charged to: the owner of the copy that built it.
    owner: Option<u64>,
}

impl Slot {
    /// Whether a built value of this slot is held outside the cache.
    fn held(&self) -> bool {
        matches!(self.cell.get(), Some(Ok(v)) if Arc::strong_count(v) > 1)
    }
}

impl DerivedCache {
    fn new(limit: usize) -> DerivedCache {
        DerivedCache {
            limit,
            next_scope: AtomicU64::new(0),
            state: Mutex::default(),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, CacheState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The room a new value may take: the bound less what others than the
    /// cache hold. Asked only when a value is to be built (it walks every
    /// slot), not on every look-up.
    fn room(&self) -> usize {
        self.limit.saturating_sub(self.state().held())
    }

    /// The room left in `share`: its bytes less what live games hold of
    /// the values charged to its owner. An owner that holds nothing is
    /// bound by the cache's bound only: a value larger than a share (a
    /// large list's data, on a host whose shares are small) can still be
    /// built, one at a time.
    /// Also answers what the owner holds.
    fn share_room(&self, share: Share) -> (usize, usize) {
        match self.state().held_by(share.owner) {
            0 => (usize::MAX, 0),
            held => (share.bytes.saturating_sub(held), held),
        }
    }

    /// The cell for `id`, marked as used now; a new one is charged to
    /// `owner`.
    fn cell(&self, id: &Id, owner: Option<u64>) -> Arc<DerivedCell> {
        let mut st = self.state();
        st.tick += 1;
        let tick = st.tick;
        if let Some(slot) = st.slots.get_mut(id) {
            let (old, built) = (slot.used, slot.bytes.is_some());
            slot.used = tick;
            let cell = slot.cell.clone();
            if built {
                st.order.remove(&old);
                st.order.insert(tick, id.clone());
            }
            return cell;
        }
        let cell = Arc::new(DerivedCell::new());
        st.slots.insert(
            id.clone(),
            Slot {
                cell: cell.clone(),
                used: tick,
                bytes: None,
                owner,
            },
        );
        cell
    }

    /// Drops the slot of `id` if it is still `cell` (a refusal for now is
    /// not remembered: the next request tries again).
    fn drop_slot(&self, id: &Id, cell: &Arc<DerivedCell>) {
        let mut st = self.state();
        if st.slots.get(id).is_some_and(|s| Arc::ptr_eq(&s.cell, cell)) {
            st.slots.remove(id);
        }
    }

    /// Records that `cell`, the slot of `id`, was built with `bytes`: kept
    /// within the bound (least recently used others let go), or dropped
    /// from the cache when it is a value larger than the bound.
    fn settle(&self, id: &Id, cell: &Arc<DerivedCell>, bytes: usize) {
        let mut guard = self.state();
        let st = &mut *guard;
        st.tick += 1;
        let tick = st.tick;
        let Some(slot) = st.slots.get_mut(id).filter(|s| Arc::ptr_eq(&s.cell, cell)) else {
            // Forgotten with its scope meanwhile.
            return;
        };
        if bytes > self.limit {
            st.slots.remove(id);
            return;
        }
        slot.used = tick;
        slot.bytes = Some(bytes);
        st.order.insert(tick, id.clone());
        st.bytes += bytes;
        self.fit(st, id);
    }

    /// Lets go of the least recently used values that nobody else holds,
    /// but `keep`, until the bound holds or only held values are left.
    fn fit(&self, st: &mut CacheState, keep: &Id) {
        if st.bytes <= self.limit {
            return;
        }
        let candidates: Vec<(u64, Id)> = st
            .order
            .iter()
            .filter(|(_, id)| *id != keep && st.slots.get(*id).is_some_and(|s| !s.held()))
            .map(|(tick, id)| (*tick, id.clone()))
            .collect();
        for (tick, id) in candidates {
            if st.bytes <= self.limit {
                break;
            }
            st.order.remove(&tick);
            if let Some(slot) = st.slots.remove(&id) {
                st.bytes -= slot.bytes.unwrap_or(0);
            }
        }
    }

    /// Drops every value of `scope`.
    fn forget(&self, scope: u64) {
        let mut st = self.state();
        let gone: Vec<Id> = st
            .slots
            .keys()
            .filter(|id| id.0 == scope)
            .cloned()
            .collect();
        for id in gone {
            if let Some(slot) = st.slots.remove(&id) {
                if let Some(bytes) = slot.bytes {
                    st.order.remove(&slot.used);
                    st.bytes -= bytes;
                }
            }
        }
    }
}

impl Resources {
    /// The embedded word lists only (`en`, `en-large`), loaded on first use.
    pub fn embedded() -> Self {
        Resources::default()
    }

    /// These resources plus `lexicon`, under its own name (it shadows an
    /// embedded list of the same name).
    pub fn with_lexicon(self, lexicon: Arc<Lexicon>) -> Self {
        let name = lexicon.name().to_string();
        self.with_lexicon_as(&name, lexicon)
    }

    /// These resources plus `lexicon` under `name`: a record that names a
    /// list by the path it was loaded from finds the same list loaded from
    /// another path.
    ///
    /// The result starts with caches of its own, not shared with `self`:
    /// data derived for one set of lists lives exactly as long as the
    /// resources that hold those lists (a host can drop a player's uploaded
    /// list and everything built from it together), and a list added under
    /// a name already in use is never served data derived from the old one.
    /// So add lists first, then hand the resources to games.
    ///
    /// The caches of both count against one bound
    /// ([`derived_limit`](Resources::derived_limit)).
    pub fn with_lexicon_as(self, name: &str, lexicon: Arc<Lexicon>) -> Self {
        let mut added = self.inner.added.clone();
        added.insert(name.to_string(), lexicon);
        Resources {
            inner: Arc::new(Inner::new(added, self.inner.cache.clone())),
            share: self.share,
        }
    }

    /// These resources with a derived-data cache of its own, bounded to
    /// `bytes` (see [`Resources`]). Set the bound first, then add lists and
    /// hand the resources to games: what was derived before is not kept.
    pub fn with_derived_limit(self, bytes: usize) -> Self {
        Resources {
            inner: Arc::new(Inner::new(
                self.inner.added.clone(),
                Arc::new(DerivedCache::new(bytes)),
            )),
            share: self.share,
        }
    }

    /// These resources (the same lists, the same cache) with the values
    /// they build charged to `owner`, which may be charged for at most
    /// `bytes` of values that live games hold (see "Shares" above). A
    /// host gives each client's games such a copy, so that one client
    /// filling its share leaves the rest of the bound to the others.
    pub fn with_share(self, owner: u64, bytes: usize) -> Self {
        Resources {
            share: Some(Share { owner, bytes }),
            ..self
        }
    }

    /// The bytes of held values charged to `owner` (see
    /// [`with_share`](Resources::with_share)).
    pub fn derived_held_bytes_of(&self, owner: u64) -> usize {
        self.inner.cache.state().held_by(owner)
    }

    /// The most bytes the derived-data cache keeps (`usize::MAX`: no bound).
    pub fn derived_limit(&self) -> usize {
        self.inner.cache.limit
    }

    /// The bytes of the derived values the cache holds now (by their
    /// [`Derived::bytes`]), with those of every [`Resources`] sharing it.
    pub fn derived_bytes(&self) -> usize {
        self.inner.cache.state().bytes
    }

    /// The part of [`derived_bytes`](Resources::derived_bytes) that live
    /// games hold (values someone besides the cache has a reference to).
    pub fn derived_held_bytes(&self) -> usize {
        self.inner.cache.state().held()
    }

    /// An added list with this [`Lexicon::fingerprint`], if any.
    pub fn lexicon_by_fingerprint(&self, fingerprint: u64) -> Option<Arc<Lexicon>> {
        self.inner
            .added
            .values()
            .find(|l| l.fingerprint() == fingerprint)
            .cloned()
    }

    /// The names of the lists on offer.
    pub fn lexicon_names(&self) -> Vec<String> {
        let mut names: Vec<String> = parlor_lexicon::EMBEDDED
            .iter()
            .map(|s| s.to_string())
            .collect();
        for name in self.inner.added.keys() {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        names
    }

    /// The word list called `name`.
    pub fn lexicon(&self, name: &str) -> Result<Arc<Lexicon>, ResourceError> {
        if let Some(l) = self.inner.added.get(name) {
            return Ok(l.clone());
        }
        let mut cache = self
            .inner
            .embedded
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(l) = cache.get(name) {
            return Ok(l.clone());
        }
        let lexicon = Lexicon::embedded(name).map_err(|_| ResourceError::UnknownLexicon {
            name: name.to_string(),
            known: self.lexicon_names(),
        })?;
        let lexicon = Arc::new(lexicon);
        cache.insert(name.to_string(), lexicon.clone());
        Ok(lexicon)
    }

    /// The words of the list `name` up to `max_len` letters with their
    /// letters counted ([`parlor_lexicon::CountedWords`]), built once per
    /// list and length and shared by every game that asks. Like every
    /// derived value it counts against the host's bound: a table that
    /// would not fit is refused (`bad_setting` if it never fits, `busy`
    /// while live games hold the room) before it is built.
    pub fn counted_words(
        &self,
        name: &str,
        max_len: usize,
    ) -> Result<Arc<parlor_lexicon::CountedWords>, crate::ConfigError> {
        let lexicon = self.lexicon(name)?;
        // Keyed by the list's contents, not its name: a name can be reused.
        let key = format!("counted-words:{:016x}:{max_len}", lexicon.fingerprint());
        self.try_derived(&key, |max_bytes| {
            // Its size is known before it is built: the words' letters,
            // an offset and 32 counts a word.
            let (words, letters) = lexicon
                .words()
                .filter(|w| (2..=max_len).contains(&w.len()))
                .fold((0usize, 0usize), |(n, l), w| (n + 1, l + w.len()));
            let bytes = letters + 4 * (words + 1) + 32 * words;
            (bytes <= max_bytes).then(|| parlor_lexicon::CountedWords::new(&lexicon, max_len))
        })
        .map_err(|refused| {
            let what = format!("the letter counts of word list {name:?}");
            if refused.for_now() {
                crate::ConfigError::with_kind(
                    crate::ErrorKind::Busy,
                    format!("{what} do not fit now: {refused}; try again when games have ended"),
                )
            } else {
                crate::ConfigError::new(format!("{what}: {refused}"))
            }
        })
    }

    /// Data derived from a resource, built once per `key` and type and then
    /// shared (for example a solved Word Sprout table for one word list and
    /// rule set). The key must name exactly what the data depends on, no
    /// more: two settings that build the same data must give the same key.
    ///
    /// Concurrent first callers of one key do not build twice: one builds,
    /// the others wait for its result. Different keys build in parallel.
    /// A value larger than the cache's bound is returned but not kept; for
    /// data that may not fit, use [`try_derived`](Resources::try_derived).
    pub fn derived<T: Derived>(&self, key: &str, build: impl FnOnce() -> T) -> Arc<T> {
        match self.lookup(key, false, |_| Some(build())) {
            Ok(value) => value,
            Err(Refused::Build(build, _)) => {
                Arc::new(build(usize::MAX).expect("built by `derived`"))
            }
            Err(Refused::NoRoom(_)) => unreachable!("`derived` keeps what it builds"),
        }
    }

    /// Like [`derived`](Resources::derived) for data that may not fit:
    /// `build` is given the most bytes the value may take (the bound less
    /// what live games hold) and returns `None` when the value would take
    /// more (it may stop building as soon as it knows). A value that takes
    /// more is refused too. A refusal with the whole bound free is
    /// remembered, and every later request for the key is refused at once
    /// while it is; a refusal for want of room now is not.
    ///
    /// # Errors
    ///
    /// [`NoRoom::TooBig`] when the value would not fit the cache at all,
    /// [`NoRoom::Full`] when it does not fit beside what games hold now.
    pub fn try_derived<T: Derived>(
        &self,
        key: &str,
        build: impl FnOnce(usize) -> Option<T>,
    ) -> Result<Arc<T>, NoRoom> {
        self.lookup(key, true, build).map_err(|e| match e {
            Refused::NoRoom(e) | Refused::Build(_, e) => e,
        })
    }

    /// The value for `key`; a value over the bound is refused if `refuse`,
    /// else handed out but not kept. A refusal remembered under the key
    /// hands `build` back unused.
    fn lookup<T: Derived, F: FnOnce(usize) -> Option<T>>(
        &self,
        key: &str,
        refuse: bool,
        build: F,
    ) -> Result<Arc<T>, Refused<F>> {
        let cache = &self.inner.cache;
        let id: Id = (self.inner.scope, key.to_string(), TypeId::of::<T>());
        let share = self.share;
        let cell = cache.cell(&id, share.map(|s| s.owner));
        let limit = cache.limit;
        let mut build = Some(build);
        let mut built = None;
        let value = cell.get_or_init(|| {
            let build = build.take().expect("a cell is initialised once");
            let room = if refuse { cache.room() } else { limit };
            // The owner's share binds only where it leaves less room.
            let own = share
                .filter(|_| refuse)
                .map(|s| (s, cache.share_room(s)))
                .filter(|&(_, (own, _))| own < room);
            let max = own.map_or(room, |(_, (own, _))| own);
            let value = build(max);
            let bytes = value.as_ref().map(|v| v.bytes());
            let outcome = match (value, bytes) {
                (Some(v), Some(b)) if !refuse || b <= max => {
                    Ok(Arc::new(v) as Arc<dyn Any + Send + Sync>)
                }
                // A value larger than the whole bound never fits; one that
                // was stopped early, or is larger than the room, fits
                // perhaps once games let go.
                (_, Some(b)) if b > limit => Err(NoRoom::TooBig { limit }),
                _ => Err(match own {
                    Some((s, (_, held))) => NoRoom::Share {
                        share: s.bytes,
                        held,
                    },
                    None if max < limit => NoRoom::Full {
                        limit,
                        held: limit - max,
                    },
                    None => NoRoom::TooBig { limit },
                }),
            };
            built = Some(match (&outcome, bytes) {
                (Ok(_), Some(b)) => b,
                _ => REFUSAL_BYTES,
            });
            outcome
        });
        let value = value.clone();
        if let Some(bytes) = built {
            if matches!(&value, Err(e) if e.for_now()) {
                cache.drop_slot(&id, &cell);
            } else {
                cache.settle(&id, &cell, bytes);
            }
        }
        match (value, build) {
            // The map is keyed by the type too, so the cell always holds a `T`.
            (Ok(value), _) => Ok(value
                .downcast::<T>()
                .expect("a derived cell holds the type it is keyed by")),
            (Err(e), Some(build)) => Err(Refused::Build(build, e)),
            (Err(e), None) => Err(Refused::NoRoom(e)),
        }
    }

    /// How many derived values are held (built, not refused).
    pub fn derived_count(&self) -> usize {
        let st = self.inner.cache.state();
        st.slots
            .values()
            .filter(|s| s.bytes.is_some() && matches!(s.cell.get(), Some(Ok(_))))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A value that says it takes `.1` bytes.
    #[derive(Debug, PartialEq)]
    struct Blob(u64, usize);

    impl Derived for Blob {
        fn bytes(&self) -> usize {
            self.1
        }
    }

    impl Derived for u32 {
        fn bytes(&self) -> usize {
            4
        }
    }

    #[test]
    fn concurrent_first_callers_build_once() {
        let resources = Resources::embedded().with_derived_limit(1 << 20);
        let builds = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (r, b) = (resources.clone(), builds.clone());
                std::thread::spawn(move || {
                    r.derived("slow", || {
                        b.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        Blob(42, 100)
                    })
                    .0
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), 42);
        }
        assert_eq!(builds.load(Ordering::SeqCst), 1);
        assert_eq!(resources.derived("slow", || Blob(7, 100)).0, 42);
        // Another type under the same key is another value.
        assert_eq!(*resources.derived("slow", || 7u32), 7);
        assert_eq!(resources.derived_count(), 2);
        assert_eq!(resources.derived_bytes(), 104);
    }

    #[test]
    fn concurrent_first_callers_of_a_refused_key_build_once() {
        let resources = Resources::embedded().with_derived_limit(1000);
        let builds = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (r, b) = (resources.clone(), builds.clone());
                std::thread::spawn(move || {
                    r.try_derived("huge", |limit| {
                        b.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        // A builder that checks as it goes and gives up.
                        (2000 <= limit).then_some(Blob(1, 2000))
                    })
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), Err(NoRoom::TooBig { limit: 1000 }));
        }
        assert_eq!(builds.load(Ordering::SeqCst), 1);
        assert_eq!(resources.derived_count(), 0);
    }

    /// Many distinct keys never take the cache past its bound, and the
    /// least recently used go first.
    #[test]
    fn the_cache_stays_within_its_bytes() {
        let resources = Resources::embedded().with_derived_limit(1000);
        let builds = AtomicUsize::new(0);
        let get = |i: u64| {
            resources.derived(&format!("k{i}"), || {
                builds.fetch_add(1, Ordering::SeqCst);
                Blob(i, 300)
            })
        };
        for i in 0..60 {
            assert_eq!(get(i).0, i);
            assert!(resources.derived_bytes() <= 1000);
            if i >= 1 {
                // Used again: the most recent, so it stays.
                assert_eq!(get(0).0, 0);
            }
        }
        assert_eq!(resources.derived_count(), 3);
        assert_eq!(resources.derived_bytes(), 900);
        assert_eq!(builds.load(Ordering::SeqCst), 60);
        get(0);
        get(59);
        assert_eq!(builds.load(Ordering::SeqCst), 60, "0 and 59 are kept");
        get(1);
        assert_eq!(builds.load(Ordering::SeqCst), 61, "1 was let go");
    }

    /// A value a game holds is kept (letting it go would free nothing, and
    /// the next game would build a second copy); once nobody holds it, it
    /// is let go like any other.
    #[test]
    fn a_held_value_is_not_built_twice() {
        let resources = Resources::embedded().with_derived_limit(1000);
        let held = resources.derived("held", || Blob(1, 600));
        resources.derived("other", || Blob(2, 600));
        assert_eq!(resources.derived_count(), 2, "held is kept");
        assert_eq!(resources.derived_held_bytes(), 600);
        let again = resources.derived("held", || Blob(99, 600));
        assert!(Arc::ptr_eq(&held, &again));
        // Not held by anyone: let go for the next value.
        drop((held, again));
        assert_eq!(resources.derived_held_bytes(), 0);
        resources.derived("third", || Blob(3, 600));
        assert_eq!(resources.derived("held", || Blob(4, 600)).0, 4);
        assert!(resources.derived_bytes() <= 1000);
    }

    /// What live games hold counts against the bound: a value that fits
    /// only once they let go is refused for now (not remembered), and
    /// built when there is room again.
    /// One owner filling its share is refused for now, while another
    /// still finds the rest of the bound; a value already there is shared
    /// whoever asks, and only the owner's held values count.
    #[test]
    fn one_owner_cannot_take_the_others_room() {
        let resources = Resources::embedded().with_derived_limit(1000);
        let ann = resources.clone().with_share(1, 250);
        let bea = resources.clone().with_share(2, 250);
        let blob = |i: u64| move |room: usize| (100 <= room).then_some(Blob(i, 100));
        let held: Vec<Arc<Blob>> = (0..2)
            .map(|i| ann.try_derived(&format!("a{i}"), blob(i)).unwrap())
            .collect();
        assert_eq!(resources.derived_held_bytes_of(1), 200);
        let err = ann.try_derived("a2", blob(2)).unwrap_err();
        assert_eq!(
            err,
            NoRoom::Share {
                share: 250,
                held: 200
            }
        );
        assert!(err.for_now());
        assert!(err
            .to_string()
            .starts_with("games of yours hold 200 bytes of the 250 bytes"));
        // Bea builds in the rest of the bound, and uses Ann's values freely.
        let bea_own = bea.try_derived("b0", blob(10)).unwrap();
        assert_eq!(bea.try_derived("a0", blob(99)).unwrap().0, 0);
        assert_eq!(resources.derived_held_bytes_of(2), 100);
        // Without a share (a game loaded again), only the bound counts.
        assert_eq!(resources.try_derived("x", blob(20)).unwrap().0, 20);
        // Ann's game ends: her share has room again, and the refusal was
        // not kept.
        drop(held);
        assert_eq!(resources.derived_held_bytes_of(1), 0);
        assert_eq!(ann.try_derived("a2", blob(2)).unwrap().0, 2);
        drop(bea_own);
        // A value larger than a share is built for an owner that holds
        // nothing else, and is then all it may hold.
        let cy = resources.clone().with_share(3, 250);
        let big = cy
            .try_derived("c0", |room| (400 <= room).then_some(Blob(30, 400)))
            .unwrap();
        assert!(matches!(
            cy.try_derived("c1", blob(31)),
            Err(NoRoom::Share { held: 400, .. })
        ));
        drop(big);
    }

    #[test]
    fn held_values_count_against_the_bound() {
        let resources = Resources::embedded().with_derived_limit(1000);
        let games: Vec<Arc<Blob>> = (0..3)
            .map(|i| {
                resources
                    .try_derived(&format!("g{i}"), |room| {
                        (300 <= room).then_some(Blob(i, 300))
                    })
                    .unwrap()
            })
            .collect();
        assert_eq!(resources.derived_held_bytes(), 900);
        let asked = AtomicUsize::new(0);
        let fourth = |room: usize| {
            asked.fetch_add(1, Ordering::SeqCst);
            (300 <= room).then_some(Blob(3, 300))
        };
        let err = resources.try_derived("g3", fourth).unwrap_err();
        assert_eq!(
            err,
            NoRoom::Full {
                limit: 1000,
                held: 900
            }
        );
        assert!(err
            .to_string()
            .starts_with("live games hold 900 bytes of the 1000 bytes"));
        // A builder that does not check is refused as well.
        assert!(resources.try_derived("g3", |_| Some(Blob(3, 300))).is_err());
        assert_eq!(resources.derived_count(), 3);
        // One game ends: there is room again, and the refusal was not kept.
        drop(games.into_iter().next());
        assert_eq!(resources.try_derived("g3", fourth).unwrap().0, 3);
        assert_eq!(asked.load(Ordering::SeqCst), 2);
        assert!(resources.derived_bytes() <= 1000);
        // Larger than the whole bound is refused for good, held or not.
        assert_eq!(
            resources
                .try_derived("huge", |_| Some(Blob(9, 2000)))
                .unwrap_err(),
            NoRoom::TooBig { limit: 1000 }
        );
    }

    #[test]
    fn oversized_values() {
        let resources = Resources::embedded().with_derived_limit(1000);
        assert_eq!(resources.derived_limit(), 1000);
        resources.derived("small", || Blob(0, 10));
        // `try_derived` refuses, even when the builder does not check.
        let err = resources
            .try_derived("big", |_| Some(Blob(1, 5000)))
            .unwrap_err();
        assert_eq!(err, NoRoom::TooBig { limit: 1000 });
        assert_eq!(
            err.to_string(),
            "it would take more than 1000 bytes, the most this host keeps for data shared by games"
        );
        // The refusal is remembered: no second build.
        let called = AtomicUsize::new(0);
        let again = resources.try_derived("big", |_| {
            called.fetch_add(1, Ordering::SeqCst);
            Some(Blob(1, 5000))
        });
        assert!(again.is_err() && called.load(Ordering::SeqCst) == 0);
        // `derived` hands an oversized value out but does not keep it, nor
        // let go of the others for it.
        assert_eq!(resources.derived("huge", || Blob(7, 5000)).0, 7);
        assert_eq!(resources.derived("big", || Blob(8, 5000)).0, 8);
        assert_eq!(resources.derived_bytes(), 10 + REFUSAL_BYTES);
        assert_eq!(resources.derived_count(), 1);
        assert_eq!(Resources::embedded().derived_limit(), usize::MAX);
    }

    /// Lists added later share the bound; their values go with them.
    #[test]
    fn added_lists_share_the_bound() {
        let base = Resources::embedded().with_derived_limit(1000);
        base.derived("base", || Blob(0, 400));
        let (lex, _) = Lexicon::from_words("mine", ["cat"]).unwrap();
        let mine = base.clone().with_lexicon(Arc::new(lex));
        assert_eq!(
            mine.derived("base", || Blob(1, 400)).0,
            1,
            "its own key space"
        );
        assert_eq!(base.derived_bytes(), 800);
        mine.derived("more", || Blob(2, 400));
        assert!(base.derived_bytes() <= 1000);
        drop(mine);
        assert!(base.derived_bytes() <= 400);
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }
}
