//! Word lists (and other heavy shared data) handed to games by name.

use parlor_lexicon::Lexicon;
use std::any::Any;
use std::collections::{BTreeMap, HashMap};
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

/// The word lists a host offers, by name, and a cache of data that games
/// derive from them (indexes, solved tables) so that many games on one
/// host share one copy.
///
/// Cloning is cheap and clones share the cache. Nothing here is global:
/// two hosts in one process (or two processes) each have their own.
#[derive(Clone, Default)]
pub struct Resources {
    inner: Arc<Inner>,
}

type DerivedCell = std::sync::OnceLock<Arc<dyn Any + Send + Sync>>;

#[derive(Default)]
struct Inner {
    added: BTreeMap<String, Arc<Lexicon>>,
    embedded: Mutex<HashMap<String, Arc<Lexicon>>>,
    /// One cell per key and type: the map's lock is held only to find or
    /// add the cell, and the first caller builds inside the cell while
    /// later ones wait for it, so a value is built once however many ask.
    derived: Mutex<HashMap<(String, std::any::TypeId), Arc<DerivedCell>>>,
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
    pub fn with_lexicon_as(self, name: &str, lexicon: Arc<Lexicon>) -> Self {
        let mut added = self.inner.added.clone();
        added.insert(name.to_string(), lexicon);
        Resources {
            inner: Arc::new(Inner {
                added,
                ..Inner::default()
            }),
        }
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
    pub fn derived<T: Any + Send + Sync>(&self, key: &str, build: impl FnOnce() -> T) -> Arc<T> {
        let id = (key.to_string(), std::any::TypeId::of::<T>());
        let cell = self
            .inner
            .derived
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(id)
            .or_default()
            .clone();
        let value = cell.get_or_init(|| Arc::new(build()) as Arc<dyn Any + Send + Sync>);
        // The map is keyed by the type too, so the cell always holds a `T`.
        value
            .clone()
            .downcast::<T>()
            .expect("a derived cell holds the type it is keyed by")
    }

    /// How many derived values are held.
    pub fn derived_count(&self) -> usize {
        let map = self.inner.derived.lock().unwrap_or_else(|e| e.into_inner());
        map.values().filter(|c| c.get().is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn concurrent_first_callers_build_once() {
        let resources = Resources::embedded();
        let builds = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (r, b) = (resources.clone(), builds.clone());
                std::thread::spawn(move || {
                    *r.derived("slow", || {
                        b.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        42u64
                    })
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), 42);
        }
        assert_eq!(builds.load(Ordering::SeqCst), 1);
        assert_eq!(*resources.derived("slow", || 7u64), 42);
        // Another type under the same key is another value.
        assert_eq!(*resources.derived("slow", || 7u32), 7);
        assert_eq!(resources.derived_count(), 2);
    }
}
