//! The searches: normal play as "land + nim heap" outcomes with nimbers,
//! misère play over whole positions; the shared tables.
//!
//! # Normal play
//!
//! A position is a sum of lands, so its value is the XOR of their
//! nimbers. Nimbers are costly to compute in full (every option must be
//! valued), outcomes are cheap (one winning option ends the search), so
//! the search asks outcome questions: "does the player to move win
//! `L + *k`?" ([`Search::win`]). An option of `L + *k` is either a move in
//! `L`, giving lands `L1 + ... + Lm + *k`, or a move in the heap, giving
//! `L + *j`, `j < k`. For the lands of an option, the nimbers of all but
//! the largest are found (each by asking `L + *0`, `L + *1`, ... until one
//! loses, [`Search::nimber`]) and folded into the heap, so only one land is
//! ever searched as a game. A loss of `L + *k` proves nimber(L) = k; a win
//! only rules k out. Both are kept per land ([`Entry`]).
//!
//! # Misère play
//!
//! Misère values do not add up, so [`Search::misere_win`] searches whole
//! positions (the sorted list of their lands' keys); the lands still help,
//! as canonical pieces and as the unit of move generation.
//!
//! # Move ordering
//!
//! Options already known to lose for the opponent are taken first; the
//! rest go smallest first (the largest land that would still need a
//! search), since small lands are settled fast and often from the tables.

use super::land::{visit_children, Key, LAND};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A small, fast hash for keys that no outsider chooses.
#[derive(Default)]
pub(crate) struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let mut last = 0u64;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            last |= (b as u64) << (8 * i);
        }
        h = (h.rotate_left(23) ^ last ^ ((bytes.len() as u64) << 56))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h;
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(23) ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<Mix>>;

/// A land's options, each the sorted keys of its lands.
type Options = Arc<Vec<Vec<Key>>>;

const SHARDS: usize = 64;
/// Cached children lists per shard before the shard is emptied.
const KIDS_PER_SHARD: usize = 2048;

/// What is known of one land: its nimber (255 if unknown), and the heaps
/// `k < 64` for which `land + *k` is known to be a first-player win.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub nim: u8,
    pub wins: u64,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            nim: u8::MAX,
            wins: 0,
        }
    }
}

/// The tables every search thread shares, split in shards so two threads
/// rarely wait for one lock.
pub(crate) struct Tables {
    pub lands: Vec<Mutex<Map<Key, Entry>>>,
    pub misere: Vec<Mutex<Map<Box<[u8]>, bool>>>,
    kids: Vec<Mutex<Map<Key, Options>>>,
}

fn shard_of(key: &[u8]) -> usize {
    let mut h = Mix::default();
    key.hash(&mut h);
    (h.finish() >> 58) as usize % SHARDS
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A thread that panicked cannot leave a table half-written (inserts
    // are single calls), so a poisoned lock is still good to use.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            lands: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
            misere: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
            kids: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
        }
    }
}

impl Tables {
    pub fn entry(&self, land: &[u8]) -> Entry {
        lock(&self.lands[shard_of(land)])
            .get(land)
            .copied()
            .unwrap_or_default()
    }
    pub fn set_nim(&self, land: &[u8], n: u32) {
        // 255 means unknown; a larger nimber (never seen in Sprouts) is
        // simply not kept rather than kept wrong.
        if n >= u8::MAX as u32 {
            return;
        }
        let mut m = lock(&self.lands[shard_of(land)]);
        let e = m.entry(land.into()).or_default();
        e.nim = n as u8;
    }
    fn set_win(&self, land: &[u8], k: u32) {
        if k < 64 {
            let mut m = lock(&self.lands[shard_of(land)]);
            m.entry(land.into()).or_default().wins |= 1 << k;
        }
    }
    pub fn misere_get(&self, pos: &[u8]) -> Option<bool> {
        lock(&self.misere[shard_of(pos)]).get(pos).copied()
    }
    pub fn misere_set(&self, pos: &[u8], win: bool) {
        lock(&self.misere[shard_of(pos)]).insert(pos.into(), win);
    }
    /// Entries held: (lands, misère positions).
    pub fn sizes(&self) -> (usize, usize) {
        (
            self.lands.iter().map(|m| lock(m).len()).sum(),
            self.misere.iter().map(|m| lock(m).len()).sum(),
        )
    }
    /// Forgets everything.
    pub fn clear(&self) {
        for m in &self.lands {
            lock(m).clear();
        }
        for m in &self.misere {
            lock(m).clear();
        }
        for m in &self.kids {
            lock(m).clear();
        }
    }
}

/// One search thread's state.
pub(crate) struct Search<'a> {
    t: &'a Tables,
    stop: &'a AtomicBool,
    /// Lands and positions expanded.
    pub nodes: u64,
    /// This thread's number: threads differ in the order they try the
    /// first options, so that they share the work through the tables.
    thread: usize,
    threads: usize,
    depth: usize,
}

impl<'a> Search<'a> {
    pub fn new(t: &'a Tables, stop: &'a AtomicBool, thread: usize, threads: usize) -> Self {
        Search {
            t,
            stop,
            nodes: 0,
            thread,
            threads: threads.max(1),
            depth: 0,
        }
    }

    fn known(&self, land: &[u8], k: u32) -> Option<bool> {
        let e = self.t.entry(land);
        if e.nim != u8::MAX {
            Some(e.nim as u32 != k)
        } else if k < 64 && e.wins & (1 << k) != 0 {
            Some(true)
        } else {
            None
        }
    }

    /// Whether `lands + *k` is known to be a loss for the player to move,
    /// from the tables alone.
    fn quick_loses(&self, lands: &[Key], k: u32) -> Option<bool> {
        let mut x = k;
        let mut open: Option<&[u8]> = None;
        for l in lands {
            let e = self.t.entry(l);
            if e.nim != u8::MAX {
                x ^= e.nim as u32;
            } else if open.is_none() {
                open = Some(l);
            } else {
                return None;
            }
        }
        match open {
            None => Some(x == 0),
            Some(l) => self.known(l, x).map(|w| !w),
        }
    }

    /// The order in which to try a list of options: by `score`, and for
    /// helper threads near the root, rotated so threads start apart.
    fn order(&self, mut order: Vec<(u32, usize)>) -> Vec<(u32, usize)> {
        order.sort_unstable();
        if self.thread > 0 && self.depth < 3 && !order.is_empty() {
            let shift = order.len() * self.thread / self.threads;
            order.rotate_left(shift);
        }
        order
    }

    /// Whether the player to move wins `land + *k` under normal play;
    /// `None` if the search was stopped.
    pub fn win(&mut self, land: &[u8], k: u32) -> Option<bool> {
        if let Some(r) = self.known(land, k) {
            return Some(r);
        }
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let s = shard_of(land);
        let cached = lock(&self.t.kids[s]).get(land).cloned();
        let kids = match cached {
            Some(kids) => kids,
            None => {
                // Make the options one by one, and stop at one the tables
                // already show losing for the opponent.
                self.nodes += 1;
                let mut list = Vec::new();
                let mut hit = false;
                let me = &*self;
                visit_children(land, &mut |kid| {
                    if me.quick_loses(&kid, k) == Some(true) {
                        hit = true;
                    } else {
                        list.push(kid);
                    }
                    hit
                });
                if hit {
                    self.t.set_win(land, k);
                    return Some(true);
                }
                let list = Arc::new(list);
                let mut m = lock(&self.t.kids[s]);
                if m.len() >= KIDS_PER_SHARD {
                    m.clear();
                }
                m.insert(land.into(), list.clone());
                list
            }
        };
        if kids.is_empty() {
            self.t.set_nim(land, 0);
            return Some(k != 0);
        }
        let mut order = Vec::with_capacity(kids.len());
        for (i, kid) in kids.iter().enumerate() {
            match self.quick_loses(kid, k) {
                Some(true) => {
                    self.t.set_win(land, k);
                    return Some(true);
                }
                Some(false) => {}
                None => {
                    let size = kid.iter().map(|l| l.len()).max().unwrap_or(0) as u32;
                    order.push((size, i));
                }
            }
        }
        let order = self.order(order);
        self.depth += 1;
        let mut found = Some(false);
        for &(_, i) in &order {
            match self.sum_loses(&kids[i], k) {
                Some(true) => {
                    found = Some(true);
                    break;
                }
                Some(false) => {}
                None => {
                    found = None;
                    break;
                }
            }
        }
        self.depth -= 1;
        if found? {
            self.t.set_win(land, k);
            return Some(true);
        }
        // Moves in the heap: to `land + *j` for each j < k.
        for j in 0..k {
            if !self.win(land, j)? {
                return Some(true);
            }
        }
        self.t.set_nim(land, k);
        Some(false)
    }

    /// The nimber of a land.
    pub fn nimber(&mut self, land: &[u8]) -> Option<u32> {
        let e = self.t.entry(land);
        if e.nim != u8::MAX {
            return Some(e.nim as u32);
        }
        let mut j = 0;
        loop {
            if !self.win(land, j)? {
                return Some(j);
            }
            j += 1;
        }
    }

    /// Whether `lands + *k` is a loss for the player to move: the nimbers
    /// of all lands but the largest go into the heap, the largest is
    /// searched.
    pub fn sum_loses(&mut self, lands: &[Key], k: u32) -> Option<bool> {
        let Some((big, _)) = lands.iter().enumerate().max_by_key(|(_, l)| l.len()) else {
            return Some(k == 0);
        };
        let mut x = k;
        for (i, l) in lands.iter().enumerate() {
            if i != big {
                x ^= self.nimber(l)?;
            }
        }
        Some(!self.win(&lands[big], x)?)
    }

    /// The nimber of a sum of lands.
    pub fn sum_nimber(&mut self, lands: &[Key]) -> Option<u32> {
        let mut x = 0;
        for l in lands {
            x ^= self.nimber(l)?;
        }
        Some(x)
    }

    /// Whether the player to move wins the position `lands` (sorted) under
    /// misère play.
    pub fn misere_win(&mut self, lands: &[Key]) -> Option<bool> {
        if lands.is_empty() {
            // No move: the opponent moved last, and so lost.
            return Some(true);
        }
        let key = join(lands);
        if let Some(w) = self.t.misere_get(&key) {
            return Some(w);
        }
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.nodes += 1;
        // Options made land by land, checked against the table as they
        // come: one known lost for the opponent ends the work at once.
        let mut options: Vec<Vec<Key>> = Vec::new();
        let mut order = Vec::new();
        let mut hit = false;
        for i in 0..lands.len() {
            if i > 0 && lands[i] == lands[i - 1] {
                continue;
            }
            let t = self.t;
            let mut look = |kid: &[Key]| -> bool {
                let mut p: Vec<Key> = Vec::with_capacity(lands.len() + kid.len());
                p.extend(lands[..i].iter().cloned());
                p.extend(lands[i + 1..].iter().cloned());
                p.extend(kid.iter().cloned());
                p.sort_unstable();
                let known = if p.is_empty() {
                    Some(true)
                } else {
                    t.misere_get(&join(&p))
                };
                match known {
                    Some(false) => {
                        hit = true;
                        return true;
                    }
                    Some(true) => {}
                    None => {
                        let size: usize = p.iter().map(|l| l.len()).sum();
                        order.push((size as u32, options.len()));
                        options.push(p);
                    }
                }
                false
            };
            let s = shard_of(&lands[i]);
            let cached = lock(&t.kids[s]).get(&lands[i]).cloned();
            match cached {
                Some(kids) => {
                    for kid in kids.iter() {
                        if look(kid) {
                            break;
                        }
                    }
                }
                None => {
                    let mut list = Vec::new();
                    let stopped = visit_children(&lands[i], &mut |kid| {
                        let stop = look(&kid);
                        list.push(kid);
                        stop
                    });
                    if !stopped {
                        let mut m = lock(&t.kids[s]);
                        if m.len() >= KIDS_PER_SHARD {
                            m.clear();
                        }
                        m.insert(lands[i].clone(), Arc::new(list));
                    }
                }
            }
            if hit {
                self.t.misere_set(&key, true);
                return Some(true);
            }
        }
        let order = self.order(order);
        self.depth += 1;
        let mut found = Some(false);
        for &(_, i) in &order {
            match self.misere_win(&options[i]) {
                Some(false) => {
                    found = Some(true);
                    break;
                }
                Some(true) => {}
                None => {
                    found = None;
                    break;
                }
            }
        }
        self.depth -= 1;
        let w = found?;
        self.t.misere_set(&key, w);
        Some(w)
    }
}

/// A position's key: its lands' keys joined by `+`.
pub(crate) fn join(lands: &[Key]) -> Vec<u8> {
    let mut v = Vec::with_capacity(lands.iter().map(|l| l.len() + 1).sum());
    for (i, l) in lands.iter().enumerate() {
        if i > 0 {
            v.push(LAND);
        }
        v.extend_from_slice(l);
    }
    v
}
