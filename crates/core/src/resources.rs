//! Word lists (and other heavy shared data) handed to games by name.

use parlor_lexicon::Lexicon;
use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

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

/// A derived value refused because it would not fit the cache: one value
/// may take at most the whole bound, `limit` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "it would take more than {}, the most this host keeps for data shared by games",
    human_bytes(*.limit)
)]
pub struct TooBig {
    /// The cache's bound, in bytes.
    pub limit: usize,
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
/// [`with_derived_limit`](Resources::with_derived_limit)): past it the least
/// recently used values are let go. Letting go only drops the cache's
/// reference: a game that holds a value keeps it, and while anyone holds it
/// a later request for its key gets that same value back instead of
/// building a second copy. A value that alone would take more than the
/// bound is refused by [`try_derived`](Resources::try_derived) (its builder
/// is told the bound and may stop early) and not kept by
/// [`derived`](Resources::derived).
#[derive(Clone, Default)]
pub struct Resources {
    inner: Arc<Inner>,
}

/// A value as the cache holds it, or its refusal.
type Built = Result<Arc<dyn Any + Send + Sync>, TooBig>;

/// One per key: the map's lock is held only to find or add the cell, and
/// the first caller builds inside the cell while later ones wait for it,
/// so a value is built once however many ask.
type DerivedCell = std::sync::OnceLock<Built>;

/// (scope, key, type): each [`Inner`] has its own scope in a shared cache.
type Id = (u64, String, TypeId);

/// Why [`Resources::lookup`] gave no value.
enum Refused<F> {
    /// This call's build refused.
    TooBig(TooBig),
    /// A refusal was remembered: the build, unused.
    Build(F),
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
    /// Values let go while someone may still hold them, with their bytes:
    /// asked for again, they come back instead of being built twice.
    released: HashMap<Id, (Weak<dyn Any + Send + Sync>, usize)>,
}

struct Slot {
    cell: Arc<DerivedCell>,
    /// Last use (its key in `order` once built).
    used: u64,
    /// Bytes once built; `None` while building.
    bytes: Option<usize>,
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

    /// The cell for `id`, marked as used now.
    fn cell(&self, id: &Id) -> Arc<DerivedCell> {
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
        let revived = st
            .released
            .remove(id)
            .and_then(|(weak, bytes)| Some((weak.upgrade()?, bytes)));
        let bytes = revived.map(|(value, bytes)| {
            let _ = cell.set(Ok(value));
            bytes
        });
        st.slots.insert(
            id.clone(),
            Slot {
                cell: cell.clone(),
                used: tick,
                bytes,
            },
        );
        if let Some(bytes) = bytes {
            st.order.insert(tick, id.clone());
            st.bytes += bytes;
            self.fit(&mut st, id);
        }
        cell
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

    /// Lets go of the least recently used values but `keep` until the
    /// bound holds.
    fn fit(&self, st: &mut CacheState, keep: &Id) {
        if st.bytes <= self.limit {
            return;
        }
        let mut spared = Vec::new();
        while st.bytes > self.limit {
            let Some((tick, id)) = st.order.pop_first() else {
                break;
            };
            if &id == keep {
                spared.push((tick, id));
                continue;
            }
            let Some(slot) = st.slots.remove(&id) else {
                continue;
            };
            let bytes = slot.bytes.unwrap_or(0);
            st.bytes -= bytes;
            if let Some(Ok(value)) = slot.cell.get() {
                st.released.insert(id, (Arc::downgrade(value), bytes));
            }
        }
        st.order.extend(spared);
        st.released.retain(|_, (weak, _)| weak.strong_count() > 0);
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
        st.released
            .retain(|id, (weak, _)| id.0 != scope && weak.strong_count() > 0);
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
        }
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
            Err(Refused::Build(build)) => Arc::new(build(usize::MAX).expect("built by `derived`")),
            Err(Refused::TooBig(_)) => unreachable!("`derived` keeps what it builds"),
        }
    }

    /// Like [`derived`](Resources::derived) for data that may not fit:
    /// `build` is given the most bytes one value may take (the cache's
    /// bound) and returns `None` when the value would take more (it may
    /// stop building as soon as it knows). A value that takes more than
    /// the bound is refused too, and so is, at once, every later request
    /// for the key while the refusal is remembered.
    ///
    /// # Errors
    ///
    /// [`TooBig`] when the value would not fit the cache.
    pub fn try_derived<T: Derived>(
        &self,
        key: &str,
        build: impl FnOnce(usize) -> Option<T>,
    ) -> Result<Arc<T>, TooBig> {
        self.lookup(key, true, build).map_err(|e| match e {
            Refused::TooBig(e) => e,
            Refused::Build(_) => TooBig {
                limit: self.derived_limit(),
            },
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
        let cell = cache.cell(&id);
        let limit = cache.limit;
        let mut build = Some(build);
        let mut built = None;
        let value = cell.get_or_init(|| {
            let build = build.take().expect("a cell is initialised once");
            let value = build(limit).filter(|v| !refuse || v.bytes() <= limit);
            built = Some(value.as_ref().map_or(REFUSAL_BYTES, |v| v.bytes()));
            match value {
                Some(v) => Ok(Arc::new(v) as Arc<dyn Any + Send + Sync>),
                None => Err(TooBig { limit }),
            }
        });
        let value = value.clone();
        if let Some(bytes) = built {
            cache.settle(&id, &cell, bytes);
        }
        match (value, build) {
            // The map is keyed by the type too, so the cell always holds a `T`.
            (Ok(value), _) => Ok(value
                .downcast::<T>()
                .expect("a derived cell holds the type it is keyed by")),
            (Err(_), Some(build)) => Err(Refused::Build(build)),
            (Err(e), None) => Err(Refused::TooBig(e)),
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
            assert_eq!(t.join().unwrap(), Err(TooBig { limit: 1000 }));
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

    /// A value let go while a game holds it comes back, not built again.
    #[test]
    fn a_held_value_is_not_built_twice() {
        let resources = Resources::embedded().with_derived_limit(1000);
        let held = resources.derived("held", || Blob(1, 600));
        resources.derived("other", || Blob(2, 600));
        assert_eq!(resources.derived_count(), 1, "held was let go");
        let again = resources.derived("held", || Blob(99, 600));
        assert!(Arc::ptr_eq(&held, &again));
        // Not held by anyone once let go: built anew.
        drop((held, again));
        resources.derived("other", || Blob(2, 600));
        assert_eq!(resources.derived("held", || Blob(3, 600)).0, 3);
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
        assert_eq!(err, TooBig { limit: 1000 });
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
