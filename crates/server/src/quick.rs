//! Work done on an async worker because it was quick the last time: a
//! game's build, a bot's decision. Handing quick work to a blocking thread
//! and taking its result back (two thread wake-ups and their context
//! switches) costs more than the work itself; work that turns slow goes
//! back to the threads the next time.

/// The kinds of work (each named by a key: rules, or rules and a bot
/// level) whose last run in this process was quick.
#[derive(Default)]
pub(crate) struct QuickKinds(std::sync::Mutex<std::collections::HashSet<String>>);

/// Kinds remembered at most: past this the memory starts again (each
/// kind costs one run on a blocking thread to learn again).
const KEPT: usize = 1024;

impl QuickKinds {
    /// Whether the last run of `key` was quick.
    pub(crate) fn is_quick(&self, key: &str) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(key)
    }

    /// The last run of `key` was quick, or not.
    pub(crate) fn remember(&self, key: String, quick: bool) {
        let mut quick_ones = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !quick {
            quick_ones.remove(&key);
            return;
        }
        if quick_ones.len() >= KEPT {
            quick_ones.clear();
        }
        quick_ones.insert(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_quick_until_a_slow_run_and_the_memory_is_bounded() {
        let kinds = QuickKinds::default();
        assert!(!kinds.is_quick("nim"));
        kinds.remember("nim".into(), true);
        assert!(kinds.is_quick("nim"));
        kinds.remember("nim".into(), false);
        assert!(!kinds.is_quick("nim"));
        for i in 0..KEPT {
            kinds.remember(format!("rules {i}"), true);
        }
        assert!(kinds.is_quick("rules 0"));
        // One more than it keeps: it starts again with that one.
        kinds.remember("one more".into(), true);
        assert!(kinds.is_quick("one more"));
        assert!(!kinds.is_quick("rules 0"));
    }
}
