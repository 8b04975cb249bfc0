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
//! `L + *j`, `j < k`. Lands of an option whose nimber the tables know
//! are folded into the heap at once; when several unknown lands remain,
//! the nimbers of all but one are found (the one kept is the largest,
//! heaps known won counting against it; each found by asking
//! `L + *0`, `L + *1`, ... until one loses, [`Search::nimber`]) only when
//! the search chooses that option, so only one land is ever searched
//! as a game and options never chosen cost nothing. Lands of 13 lives or
//! more are valued a question at a time, each question searched only
//! while the option stays the best ([`Search::value_step`]), so a costly
//! valuing gives way to cheaper options. A loss of `L + *k`
//! proves nimber(L) = k; a win only rules k out. Both are kept per land
//! ([`Entry`]).
//!
//! # Proof-number search
//!
//! Each outcome question is answered by depth-first proof-number search
//! (df-pn, Nagai 2002; with the 1 + ε threshold of Pawlewicz and Lew 2007,
//! ε = 1/4): the search always works on the option whose proof looks
//! cheapest (least disproof number for the opponent), and leaves it once
//! another looks cheaper; the numbers of unsolved nodes are kept in a
//! table, solved nodes in the land table. Plain depth-first search spent
//! most of its time proving options that turned out to win for the
//! opponent: at n = 8 it expanded 481,039 lands where df-pn expands about
//! 4,700, and the first outcome to n = 11 takes a few seconds.
//!
//! # Misère play
//!
//! Misère values do not add up, so [`Search::misere_win`] searches whole
//! positions (the sorted list of their lands' keys) with the same df-pn;
//! the lands still help, as canonical pieces and as the unit of move
//! generation.
//!
//! # Move ordering
//!
//! Options already known to lose for the opponent end the work at once.
//! The rest start at proof number 1 and a disproof number growing with
//! the square of their size ([`fresh_numbers`]), and are kept in order of
//! fewest lives (a heap of `k` counting as `4k` lives), then most lands,
//! then shortest key: df-pn takes the first of equally good options, so
//! this order decides where it starts (as in GLOP and SPOTS).

use super::land::{
    is_stand_in, settle, settled, visit_children, Key, BOUNDARY, LAND, REGION, STAND_IN,
};
use smallvec::SmallVec;
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

impl Entry {
    /// Whether `land + *k` is a first-player win, if known.
    fn outcome(self, k: u32) -> Option<bool> {
        if self.nim != u8::MAX {
            Some(self.nim as u32 != k)
        } else if k < 64 && self.wins & (1 << k) != 0 {
            Some(true)
        } else {
            None
        }
    }
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
    /// Proof and disproof numbers of unsolved `land + *k`, keyed by a
    /// 64-bit fingerprint of the land and `k` alone: these numbers only
    /// guide the search (a node is solved only by its children's
    /// outcomes), so a rare shared fingerprint costs a detour, never a
    /// wrong answer, and no key is copied or kept.
    pn: Vec<Mutex<Map<u64, Proof>>>,
    /// Proof and disproof numbers of unsolved misère positions, the same way.
    mpn: Vec<Mutex<Map<u64, Proof>>>,
}

/// A 64-bit fingerprint of a key and a heap, for the proof-number tables.
fn fingerprint(key: &[u8], k: u32) -> u64 {
    let mut h = Mix::default();
    key.hash(&mut h);
    h.write_usize(k as usize);
    h.finish()
}

/// The shard of a key's tables. The shard's maps hash the key with this
/// same hash, and read their control bytes from its top seven bits: the
/// shard is taken from bits no map uses (a map of fewer than 2^40
/// places), or else every key of a shard would share six of those seven
/// bits and most slots would look like a match.
fn shard_of(key: &[u8]) -> usize {
    let mut h = Mix::default();
    key.hash(&mut h);
    (h.finish() >> 40) as usize % SHARDS
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
            pn: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
            mpn: (0..SHARDS).map(|_| Mutex::new(Map::default())).collect(),
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
    fn pn_get(&self, land: &[u8], k: u32) -> Option<(u32, u32)> {
        let f = fingerprint(land, k);
        lock(&self.pn[(f >> 58) as usize % SHARDS]).get(&f).copied()
    }
    fn pn_set(&self, land: &[u8], k: u32, pn: u32, dn: u32) {
        let f = fingerprint(land, k);
        let mut m = lock(&self.pn[(f >> 58) as usize % SHARDS]);
        if m.len() >= PN_PER_SHARD {
            m.clear();
        }
        m.insert(f, (pn, dn));
    }
    fn mpn_get(&self, pos: &[u8]) -> Option<Proof> {
        let f = fingerprint(pos, 0);
        lock(&self.mpn[(f >> 58) as usize % SHARDS])
            .get(&f)
            .copied()
    }
    fn mpn_set(&self, pos: &[u8], pn: u32, dn: u32) {
        let f = fingerprint(pos, 0);
        let mut m = lock(&self.mpn[(f >> 58) as usize % SHARDS]);
        if m.len() >= PN_PER_SHARD {
            m.clear();
        }
        m.insert(f, (pn, dn));
    }
    /// Adds what the table knows of land `from` to land `to` (the same
    /// land under another name).
    fn copy_entry(&self, from: &[u8], to: &[u8]) {
        let e = self.entry(from);
        if e.nim == u8::MAX && e.wins == 0 {
            return;
        }
        let mut m = lock(&self.lands[shard_of(to)]);
        let t = m.entry(to.into()).or_default();
        if e.nim != u8::MAX {
            t.nim = e.nim;
        }
        t.wins |= e.wins;
    }
    pub(crate) fn set_win(&self, land: &[u8], k: u32) {
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
    /// Forgets the proof and disproof numbers of unsolved nodes (only
    /// guides; every answer stays).
    pub fn forget_guides(&self) {
        for m in self.pn.iter().chain(&self.mpn) {
            lock(m).clear();
        }
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
        for m in &self.pn {
            lock(m).clear();
        }
        for m in &self.mpn {
            lock(m).clear();
        }
    }
}

/// A node's proof and disproof numbers.
type Proof = (u32, u32);

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = u32::MAX / 2;

/// Entries of the proof-number table per shard before the shard is
/// emptied (its numbers only guide the search; answers never depend on
/// them).
const PN_PER_SHARD: usize = 1 << 16;

/// An option of `land + *k` in the proof-number search: one land of
/// unknown nimber beside a heap, or (until it is first chosen) several,
/// whose nimbers are computed when it is.
struct Kid {
    /// The land to search, once known.
    land: Option<Key>,
    /// Which option of the parent's list, and its lands of unknown nimber.
    option: usize,
    open: OpenLands,
    /// The heap beside the land(s): the parent's heap and the nimbers known.
    heap: u32,
    /// From the view of the player to move in the option.
    pn: u32,
    dn: u32,
    /// Order among equals: fewest lives (a heap counting as lives) first,
    /// then most lands, then shortest.
    rank: u64,
}

/// The places in an option of its lands of unknown nimber: nearly always
/// one or two, kept inline (a vector was an allocation for every option
/// assessed).
type OpenLands = SmallVec<[usize; 4]>;

/// An option as the tables see it ([`Search::assess`]).
struct Assessed {
    /// The heap with the nimbers known folded in.
    heap: u32,
    /// The places of the lands of unknown nimber.
    open: OpenLands,
    /// The entry of the last of them (of the only one, when there is one).
    open_entry: Entry,
}

impl Assessed {
    /// Whether the option is known lost for the player to move in it.
    fn lost(&self) -> bool {
        match self.open.len() {
            0 => self.heap == 0,
            1 => self.open_entry.outcome(self.heap) == Some(false),
            _ => false,
        }
    }
}

/// Where the valuing of a multi-land option stands ([`Search::valuing`]).
enum Valuing {
    /// Ask `land + *j` next.
    Ask(Key, u32),
    /// All lands but this one are valued: search it beside this heap.
    Search(Key, u32),
}

impl Kid {
    fn one(land: Key, heap: u32) -> Kid {
        Kid {
            land: Some(land),
            option: 0,
            open: OpenLands::new(),
            heap,
            pn: 1,
            dn: 1,
            rank: 0,
        }
    }

    fn estimate(&self, list: &[Vec<Key>]) -> u64 {
        let (mut halves, mut len, mut count) = (0u64, 0u64, 0u64);
        let mut add = |l: &[u8]| {
            halves += lives2(l);
            len += l.len() as u64;
            count += 1;
        };
        match &self.land {
            Some(l) => add(l),
            None => {
                for &j in &self.open {
                    add(&list[self.option][j]);
                }
            }
        }
        ((halves + 8 * self.heap as u64) << 32)
            | ((255 - count.min(255)) << 24)
            | len.min(0xFF_FFFF)
    }
}

/// The places of a sorted list of lands left once equal lands are
/// paired off: in normal play `L + L` is `*0` whatever `L` is (the
/// second player copies every move), so a pair adds nothing and need not
/// be searched (valuing one of them in full cost most of normal n = 11).
fn unpaired(lands: &[Key]) -> impl Iterator<Item = usize> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i + 1 < lands.len() && lands[i] == lands[i + 1] {
            i += 2;
        }
        if i < lands.len() {
            i += 1;
            Some(i - 1)
        } else {
            None
        }
    })
}

/// Half-lives a heap known won takes off a land's size when choosing the
/// land to search ([`Search::kept_for_search`]). Any weight moves the
/// search's path; measured over normal n = 8 to 14, nimbers and
/// `--spots 1..11` in one process, 6 did best while lands were valued in
/// full (counting the heaps known won before the size, as an unbounded
/// weight, made the one-process run 2.2 times slower; 7 and 8 n = 14 1.4
/// times slower); with the stepwise valuing 8 does (normal 1..11 1.06
/// times faster than 6, n = 14 1.1; 0, 3, 12 more positions at n = 12
/// and 14).
const KNOWN_WIN_WEIGHT: i64 = 8;

/// Lands of at least this many half-lives (13 lives) inside a multi-land
/// option are valued one question at a time within the search's
/// thresholds ([`Search::value_step`]); smaller ones, cheap to value, in
/// full at once. Measured over normal n = 8 to 14 and the nimbers
/// (`parlor sprouts solve`): every land stepwise made normal
/// 1..11 1.1 times and n = 12 1.4 times slower than 26, and 22, 30 or 34
/// half-lives n = 12 1.4 to 1.7 times; the path moves with this bound.
const STEPWISE_VALUING_HALF_LIVES: u64 = 26;

/// [`STEPWISE_VALUING_HALF_LIVES`] and [`KNOWN_WIN_WEIGHT`] for the
/// questions after the first of a start position's nimber
/// ([`Search::root_nimber`]). Swept over the nimbers of n = 9, 10 and 11
/// only (the runs that ask them; n = 7, 8, 12 to 14 have nimber 0 and
/// stop at the first question): 20 and 0 made 4,385, 6,195, 18,725
/// positions against 4,950, 6,612, 22,120; the path is as chaotic here
/// as in the normal search (weight 12 16% fewer at n = 11 but 37% more
/// at n = 10).
const LATER_STEPWISE_VALUING_HALF_LIVES: u64 = 20;
const LATER_KNOWN_WIN_WEIGHT: i64 = 0;

/// A multi-land option's proof and disproof numbers from those of the
/// question its valuing asks now (`p`, `d`, neither 0): the valuing must
/// settle the question either way and then go on, so the option is as
/// hard to prove lost as both numbers together, and at least as easy to
/// prove won as the cheaper of them. The disproof number is at least the
/// threshold the question was searched to, so the search, finding it
/// past the threshold, moves on. (The greater of the two as the disproof
/// number made n = 12 1.5 times slower.)
fn valuing_numbers(p: u32, d: u32) -> (u32, u32) {
    (p.min(d), p.saturating_add(d).min(INF))
}

/// The proof and disproof numbers an option starts with before it is
/// searched, from its size (half-lives of its lands, a heap of `k`
/// counting as `8k`): proof number 1, disproof number growing with the
/// square of the size. Proving that the player to move in the option
/// loses means refuting every one of its moves, and a land's moves grow
/// about as the square of its lives, so a large option is the harder to
/// prove lost (df-pn+'s start from the mobility); plain 1 and 1 made
/// df-pn try large options as readily as small ones. Measured over normal
/// n = 9 to 14 (positions): a factor of 10 (here) took n = 12, 13, 14 from
/// 24,806, 70,865, 112,201 positions to 17,431, 35,872, 57,962; 8 and 11
/// did about as well, 6 and 9 less well at n = 14 (89,931, 102,025), 12
/// worse there than 1 and 1 (167,522); a linear one (1 + 3h/4) about as
/// well as 8, and a proof number growing with the size as well much
/// worse (n = 14 four times the positions): the path is chaotic.
fn fresh_numbers(halves: u64) -> Proof {
    (1, (1 + halves * halves * 10 / 1024).min(INF as u64) as u32)
}

/// [`fresh_numbers`] for a misère position (the half-lives of all its
/// lands): the same shape, a factor of 32. Misère n = 8 and 9 took
/// 131,642 and 927,792 positions with 1 and 1, 36,799 and 319,855 so
/// (24: 38,128 and 263,087; 16: 32,860 and 370,818; 48: 64,337 and
/// 560,313).
fn misere_fresh_numbers(halves: u64) -> Proof {
    (1, (1 + halves * halves / 32).min(INF as u64) as u32)
}

/// Twice the lives of a land key: a name stands for one life written twice.
fn lives2(key: &[u8]) -> u64 {
    key.iter().map(|&b| HALF_LIVES[b as usize] as u64).sum()
}

/// Each key byte's half-lives ([`lives2`]), looked up: the sizes are read
/// for every option each time a node is searched, and matching each byte
/// cost more than the table.
static HALF_LIVES: [u8; 256] = {
    let mut t = [1u8; 256];
    t[b'0' as usize] = 6;
    t[b'1' as usize] = 4;
    t[b'2' as usize] = 2;
    t[BOUNDARY as usize] = 0;
    t[REGION as usize] = 0;
    t[LAND as usize] = 0;
    t[STAND_IN as usize] = 0;
    t
};

/// An option of a misère position in the proof-number search.
/// A node's proof and disproof numbers from its children's `(pn, dn)`
/// (the mover wins when some child is lost): the least child disproof
/// number and the sum of the children's proof numbers; also the child
/// with that least disproof number and the second least, for the 1+ε
/// thresholds.
fn combine(kids: impl Iterator<Item = (u32, u32)>) -> (u32, u32, usize, u32) {
    let (mut pn, mut dn) = (INF, 0u32);
    let (mut best, mut dn2) = (usize::MAX, INF);
    for (i, (kid_pn, kid_dn)) in kids.enumerate() {
        dn = dn.saturating_add(kid_pn).min(INF);
        if kid_dn < pn {
            dn2 = pn;
            pn = kid_dn;
            best = i;
        } else if kid_dn < dn2 {
            dn2 = kid_dn;
        }
    }
    (pn, dn, best, dn2)
}

struct MisereKid {
    lands: Vec<Key>,
    key: Vec<u8>,
    pn: u32,
    dn: u32,
    rank: u64,
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
    /// The option lists of the nodes on the current path.
    lists: Vec<Options>,
    /// Lands of at least this many half-lives are valued stepwise
    /// ([`STEPWISE_VALUING_HALF_LIVES`]; tests lower it to reach that code
    /// on small positions).
    stepwise_from: u64,
    /// Half-lives a heap known won takes off a land kept for the search
    /// ([`KNOWN_WIN_WEIGHT`]).
    known_win_weight: i64,
    /// `stepwise_from` and `known_win_weight` for the questions after the
    /// first of a start position's nimber ([`Search::root_nimber`]).
    later: (u64, i64),
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
            lists: Vec::new(),
            stepwise_from: STEPWISE_VALUING_HALF_LIVES,
            known_win_weight: KNOWN_WIN_WEIGHT,
            later: (LATER_STEPWISE_VALUING_HALF_LIVES, LATER_KNOWN_WIN_WEIGHT),
        }
    }

    /// The same search valuing lands of at least `half_lives` stepwise
    /// inside multi-land options (0: every land).
    #[cfg(test)]
    pub(crate) fn stepwise_from(mut self, half_lives: u64) -> Self {
        self.stepwise_from = half_lives;
        self
    }

    /// The same search with these settings for the later questions of a
    /// start position's nimber ([`Search::root_nimber`]).
    #[cfg(test)]
    pub(crate) fn later_questions(mut self, half_lives: u64, weight: i64) -> Self {
        self.later = (half_lives, weight);
        self
    }

    fn known(&self, land: &[u8], k: u32) -> Option<bool> {
        self.entry_of(land).outcome(k)
    }

    /// What the tables know of a land, a stand-in's key's facts included
    /// once its key is made.
    fn entry_of(&self, land: &[u8]) -> Entry {
        let e = self.t.entry(land);
        if !is_stand_in(land) || e.nim != u8::MAX {
            return e;
        }
        match settled(land) {
            Some(key) => {
                let k = self.t.entry(&key);
                Entry {
                    nim: k.nim,
                    wins: k.wins | e.wins,
                }
            }
            None => e,
        }
    }

    /// What the tables tell of the option `lands + *k` (from the view of
    /// the player to move in it): the heap once every land of known nimber
    /// is folded into it, and the lands left unknown (pairs cancelled).
    fn assess(&self, lands: &[Key], k: u32) -> Assessed {
        let mut x = k;
        let mut open = OpenLands::new();
        let mut open_entry = Entry::default();
        for j in unpaired(lands) {
            let e = self.entry_of(&lands[j]);
            if e.nim != u8::MAX {
                x ^= e.nim as u32;
            } else {
                open.push(j);
                open_entry = e;
            }
        }
        Assessed {
            heap: x,
            open,
            open_entry,
        }
    }

    /// Whether the player to move wins `land + *k` under normal play;
    /// `None` if the search was stopped. A depth-first proof-number
    /// search ([`Search::mid`]) from this node, run until it is solved.
    pub fn win(&mut self, land: &[u8], k: u32) -> Option<bool> {
        loop {
            if let Some(r) = self.known(land, k) {
                return Some(r);
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            self.mid(land, k, INF, INF)?;
        }
    }

    /// The options of `land + *k` as proof-number search sees them, with
    /// their current proof and disproof numbers (from the mover's view of
    /// each option); `Err(())` when one option is already known lost for
    /// the opponent (so `land + *k` is won).
    fn options(&mut self, land: &[u8], k: u32) -> Result<Vec<Kid>, ()> {
        let s = shard_of(land);
        let cached = lock(&self.t.kids[s]).get(land).cloned();
        let mut fresh: Vec<Assessed> = Vec::new();
        let list = match cached {
            Some(list) => list,
            None => {
                // Make the options one by one, and stop at one the tables
                // already show losing for the opponent. What the tables
                // say of each is kept for the loop below, so that each
                // land is looked up once (twice was about 3% of normal
                // 1..11).
                let mut list = Vec::new();
                let mut hit = false;
                let me = &*self;
                visit_children(land, true, true, &mut |kid| {
                    let a = me.assess(&kid, k);
                    if a.lost() {
                        hit = true;
                    } else {
                        list.push(kid);
                        fresh.push(a);
                    }
                    hit
                });
                if hit {
                    return Err(());
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
        let mut kids: Vec<Kid> = Vec::with_capacity(list.len() + k as usize);
        let mut fresh = fresh.into_iter();
        for (i, lands) in list.iter().enumerate() {
            let a = match fresh.next() {
                Some(a) => a,
                None => self.assess(lands, k),
            };
            if a.lost() {
                return Err(());
            }
            let Assessed {
                heap: x,
                open,
                open_entry,
            } = a;
            let kid = match open.len() {
                // Known won for the opponent.
                0 => continue,
                1 => {
                    // One land left: its entry, read above, settles it (won
                    // for the opponent; lost is ruled out above) or the
                    // proof-number table guides it.
                    let mut kid = Kid::one(lands[open[0]].clone(), x);
                    match open_entry.outcome(x) {
                        Some(_) => continue,
                        None => {
                            (kid.pn, kid.dn) =
                                self.t.pn_get(&lands[open[0]], x).unwrap_or_else(|| {
                                    fresh_numbers(lives2(&lands[open[0]]) + 8 * x as u64)
                                });
                        }
                    }
                    kid
                }
                _ => {
                    let mut kid = Kid {
                        land: None,
                        option: i,
                        open,
                        heap: x,
                        pn: 1,
                        dn: 1,
                        rank: 0,
                    };
                    // A valuing left half done earlier starts where its
                    // current question stands.
                    let mut found = false;
                    if let Valuing::Ask(l, j) = self.valuing(&kid, &list) {
                        if let Some((p, d)) = self.t.pn_get(&l, j) {
                            (kid.pn, kid.dn) = valuing_numbers(p, d);
                            found = true;
                        }
                    }
                    if !found {
                        let h: u64 = kid.open.iter().map(|&j| lives2(&lands[j])).sum();
                        (kid.pn, kid.dn) = fresh_numbers(h + 8 * x as u64);
                    }
                    kid
                }
            };
            kids.push(kid);
        }
        // Moves in the heap: to `land + *j` for each j < k.
        for j in 0..k {
            let mut kid = Kid::one(land.into(), j);
            self.look(&mut kid);
            if kid.dn == 0 {
                return Err(());
            }
            if kid.pn != 0 {
                kids.push(kid);
            }
        }
        for kid in &mut kids {
            kid.rank = kid.estimate(&list);
        }
        kids.sort_by_key(|kid| kid.rank);
        self.rotate(&mut kids);
        // Keep the options' lists with their kids.
        self.lists.push(list);
        Ok(kids)
    }

    /// Reads an option's proof numbers from the tables.
    fn look(&self, kid: &mut Kid) {
        let Some(land) = &kid.land else { return };
        match self.known(land, kid.heap) {
            Some(true) => (kid.pn, kid.dn) = (0, INF),
            Some(false) => (kid.pn, kid.dn) = (INF, 0),
            None => {
                (kid.pn, kid.dn) = self
                    .t
                    .pn_get(land, kid.heap)
                    .unwrap_or_else(|| fresh_numbers(lives2(land) + 8 * kid.heap as u64));
            }
        }
    }

    /// Helper threads near the root start with other options than thread
    /// 0, so that they settle different parts first.
    fn rotate(&self, kids: &mut [Kid]) {
        if self.thread > 0 && self.depth < 3 && !kids.is_empty() {
            let shift = kids.len() * self.thread / self.threads;
            kids.rotate_left(shift);
        }
    }

    /// Depth-first proof-number search (Nagai's df-pn, with Pawlewicz and
    /// Lew's 1 + ε trick) of `land + *k` until its proof number reaches
    /// `thpn` or its disproof number `thdn`; returns them. Solved nodes
    /// go to the land table (a loss is the land's nimber), unsolved ones
    /// to the proof-number table.
    fn mid(&mut self, land: &[u8], k: u32, thpn: u32, thdn: u32) -> Option<(u32, u32)> {
        if let Some(w) = self.known(land, k) {
            return Some(if w { (0, INF) } else { (INF, 0) });
        }
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        if is_stand_in(land) {
            // The search reaches a land named by a stand-in: it works on
            // the land's key, and what it learns holds for the stand-in.
            let key = settle(land);
            let result = self.mid(&key, k, thpn, thdn);
            self.t.copy_entry(&key, land);
            if let Some((p, d)) = result {
                if p != 0 && d != 0 {
                    self.t.pn_set(land, k, p, d);
                }
            }
            return result;
        }
        self.nodes += 1;
        let lists_mark = self.lists.len();
        let mut kids = match self.options(land, k) {
            Ok(kids) => kids,
            Err(()) => {
                self.t.set_win(land, k);
                return Some((0, INF));
            }
        };
        self.depth += 1;
        let result = loop {
            let (pn, dn, best, dn2) = combine(kids.iter().map(|kid| (kid.pn, kid.dn)));
            if pn == 0 {
                self.t.set_win(land, k);
                break Some((0, INF));
            }
            if dn == 0 {
                self.t.set_nim(land, k);
                break Some((INF, 0));
            }
            if pn >= thpn || dn >= thdn {
                self.t.pn_set(land, k, pn, dn);
                break Some((pn, dn));
            }
            let kid = &kids[best];
            let child_thpn = thdn.saturating_sub(dn - kid.pn.min(dn)).max(1);
            let eps = dn2.saturating_add(dn2 / 4).max(dn2.saturating_add(1));
            let child_thdn = thpn.min(eps).min(INF);
            if kid.land.is_none() {
                // An option of several lands of unknown nimber: its lands
                // but one are valued question by question, each question
                // searched only while the option stays the best (see
                // `value_step`).
                let list = self.lists[lists_mark].clone();
                if self
                    .value_step(&mut kids[best], &list, child_thdn)
                    .is_none()
                {
                    break None;
                }
                continue;
            }
            let child = kid.land.clone().unwrap_or_default();
            let heap = kid.heap;
            match self.mid(&child, heap, child_thpn, child_thdn) {
                Some((p, d)) => {
                    let kid = &mut kids[best];
                    kid.pn = p;
                    kid.dn = d;
                }
                None => break None,
            }
        };
        self.depth -= 1;
        self.lists.truncate(lists_mark);
        result
    }

    /// Where the valuing of a multi-land option stands: the next question
    /// to ask (a land to value and the heap beside it: `land + *0`,
    /// `land + *1`, ... in turn, the first not known won), or, once all
    /// lands but the one kept for the search are valued, that land and the
    /// heap beside it.
    fn valuing(&self, kid: &Kid, list: &[Vec<Key>]) -> Valuing {
        let lands: Vec<Key> = kid
            .open
            .iter()
            .map(|&j| list[kid.option][j].clone())
            .collect();
        let big = self.kept_for_search(&lands);
        let mut x = kid.heap;
        for (i, l) in lands.iter().enumerate() {
            if i == big {
                continue;
            }
            let e = self.entry_of(l);
            if e.nim != u8::MAX {
                x ^= e.nim as u32;
            } else {
                return Valuing::Ask(l.clone(), e.wins.trailing_ones());
            }
        }
        Valuing::Search(lands[big].clone(), x)
    }

    /// One step of valuing a multi-land option chosen by the search: the
    /// current question is searched within the option's threshold `th`
    /// (the search leaves the option once that is passed, as for any
    /// option), and the option takes the question's numbers
    /// ([`valuing_numbers`]). Answered questions lead to the next; once
    /// all lands but one are valued the option becomes that land beside a
    /// heap. Valuing a land in full at once took most of normal n = 11
    /// (5,070 and 2,346 of 9,580 positions), though the search might
    /// have proved its node through another option meanwhile. Lands
    /// under `stepwise_from` half-lives are still valued in full at once.
    /// `None` if the search was stopped.
    fn value_step(&mut self, kid: &mut Kid, list: &[Vec<Key>], th: u32) -> Option<()> {
        loop {
            match self.valuing(kid, list) {
                Valuing::Search(land, x) => {
                    kid.land = Some(land);
                    kid.heap = x;
                    (kid.pn, kid.dn) = (1, 1);
                    self.look(kid);
                    return Some(());
                }
                Valuing::Ask(land, j) if j >= 64 => {
                    // Past the heaps the table keeps: value it in full.
                    self.nimber(&land)?;
                }
                Valuing::Ask(land, _) if lives2(&land) < self.stepwise_from => {
                    self.nimber(&land)?;
                }
                Valuing::Ask(land, j) => {
                    let (p, d) = self.mid(&land, j, th, th)?;
                    if p != 0 && d != 0 {
                        (kid.pn, kid.dn) = valuing_numbers(p, d);
                        return Some(());
                    }
                }
            }
        }
    }

    /// Which of an option's lands of unknown nimber is searched beside
    /// the heap, the others being valued: the largest once each heap `k`
    /// known won for `land + *k` takes [`KNOWN_WIN_WEIGHT`] half-lives
    /// off its size. A land's nimber is found by asking `land + *0`,
    /// `land + *1`, ... in turn, and the questions already answered cost
    /// nothing again, so a land with more of them is the cheaper to
    /// value. (The largest alone valued a land of 14 lives and nimber 2
    /// at normal n = 11 for 5,070 of its 9,580 positions.)
    pub(crate) fn kept_for_search(&self, lands: &[Key]) -> usize {
        lands
            .iter()
            .enumerate()
            .max_by_key(|(_, l)| {
                let known = self.entry_of(l).wins.count_ones() as i64;
                (
                    lives2(l) as i64 - self.known_win_weight * known,
                    lives2(l),
                    l.len(),
                )
            })
            .map(|(i, _)| i)
            .unwrap_or(0)
    }

    /// The nimber of a land.
    pub fn nimber(&mut self, land: &[u8]) -> Option<u32> {
        let e = self.entry_of(land);
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
        let mut sorted = lands.to_vec();
        sorted.sort_unstable();
        let left: Vec<&Key> = unpaired(&sorted).map(|i| &sorted[i]).collect();
        let Some((big, _)) = left
            .iter()
            .enumerate()
            .max_by_key(|(_, l)| (lives2(l), l.len()))
        else {
            return Some(k == 0);
        };
        let mut x = k;
        for (i, l) in left.iter().enumerate() {
            if i != big {
                x ^= self.nimber(l)?;
            }
        }
        Some(!self.win(left[big], x)?)
    }

    /// The nimber of a sum of lands (equal lands cancel in pairs).
    pub fn sum_nimber(&mut self, lands: &[Key]) -> Option<u32> {
        let mut sorted = lands.to_vec();
        sorted.sort_unstable();
        let mut x = 0;
        for i in unpaired(&sorted) {
            x ^= self.root_nimber(&sorted[i])?;
        }
        Some(x)
    }

    /// The nimber of a land of the position asked: as [`Search::nimber`],
    /// but the questions after `land + *0` (the nimbers' own cost: at
    /// n = 9 and 10 `L + *1` took 3,526 and 3,345 of 4,950 and 6,612
    /// positions) value smaller lands stepwise and keep the largest land
    /// for the search whatever heaps are known won beside it
    /// ([`LATER_STEPWISE_VALUING_HALF_LIVES`]). The first question is
    /// the normal one and keeps its settings: normal play is unchanged.
    fn root_nimber(&mut self, land: &[u8]) -> Option<u32> {
        if self.entry_of(land).nim == u8::MAX && !self.win(land, 0)? {
            return Some(0);
        }
        let kept = (self.stepwise_from, self.known_win_weight);
        (self.stepwise_from, self.known_win_weight) = self.later;
        let nimber = self.nimber(land);
        (self.stepwise_from, self.known_win_weight) = kept;
        nimber
    }

    /// Whether the player to move wins the position `lands` (sorted) under
    /// misère play: a proof-number search over whole positions, run until
    /// this one is solved.
    pub fn misere_win(&mut self, lands: &[Key]) -> Option<bool> {
        if lands.is_empty() {
            // No move: the opponent moved last, and so lost.
            return Some(true);
        }
        let key = join(lands);
        loop {
            if let Some(w) = self.t.misere_get(&key) {
                return Some(w);
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            self.misere_mid(lands, &key, INF, INF)?;
        }
    }

    /// The options of a misère position with their proof numbers (from
    /// the view of the player to move in each); `Err(())` when one is
    /// already known lost for the opponent.
    fn misere_options(&self, lands: &[Key]) -> Result<Vec<MisereKid>, ()> {
        // Options made land by land and checked against the table as they
        // come: one known lost for the opponent ends the work at once.
        let mut kids: Vec<MisereKid> = Vec::new();
        let t = self.t;
        for i in 0..lands.len() {
            if i > 0 && lands[i] == lands[i - 1] {
                continue;
            }
            let mut hit = false;
            let mut look = |kid: &[Key]| -> bool {
                let mut p: Vec<Key> = Vec::with_capacity(lands.len() + kid.len());
                p.extend(lands[..i].iter().cloned());
                p.extend(lands[i + 1..].iter().cloned());
                // Lists made in normal play may hold stand-ins; a misère
                // position is written with its lands' keys.
                p.extend(
                    kid.iter()
                        .map(|l| if is_stand_in(l) { settle(l) } else { l.clone() }),
                );
                if p.is_empty() {
                    // The opponent cannot move, and so wins.
                    return false;
                }
                p.sort_unstable();
                let key = join(&p);
                match t.misere_get(&key) {
                    Some(false) => {
                        hit = true;
                        return true;
                    }
                    Some(true) => {}
                    None => {
                        let halves: u64 = p.iter().map(|l| lives2(l)).sum();
                        let (pn, dn) = t
                            .mpn_get(&key)
                            .unwrap_or_else(|| misere_fresh_numbers(halves));
                        let rank = (halves << 32)
                            | ((255 - (p.len() as u64).min(255)) << 24)
                            | (key.len() as u64).min(0xFF_FFFF);
                        kids.push(MisereKid {
                            lands: p,
                            key,
                            pn,
                            dn,
                            rank,
                        });
                    }
                }
                false
            };
            let s = shard_of(&lands[i]);
            let cached = lock(&t.kids[s]).get(&lands[i]).cloned();
            match cached {
                Some(list) => {
                    for kid in list.iter() {
                        if look(kid) {
                            break;
                        }
                    }
                }
                None => {
                    let mut list = Vec::new();
                    let stopped = visit_children(&lands[i], false, false, &mut |kid| {
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
                return Err(());
            }
        }
        kids.sort_by_key(|k| k.rank);
        if self.thread > 0 && self.depth < 3 && !kids.is_empty() {
            let shift = kids.len() * self.thread / self.threads;
            kids.rotate_left(shift);
        }
        Ok(kids)
    }

    /// Depth-first proof-number search of a misère position (as
    /// [`Search::mid`] for normal play).
    fn misere_mid(&mut self, lands: &[Key], key: &[u8], thpn: u32, thdn: u32) -> Option<Proof> {
        if let Some(w) = self.t.misere_get(key) {
            return Some(if w { (0, INF) } else { (INF, 0) });
        }
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.nodes += 1;
        let mut kids = match self.misere_options(lands) {
            Ok(kids) => kids,
            Err(()) => {
                self.t.misere_set(key, true);
                return Some((0, INF));
            }
        };
        self.depth += 1;
        let result = loop {
            let (pn, dn, best, dn2) = combine(kids.iter().map(|kid| (kid.pn, kid.dn)));
            if pn == 0 {
                self.t.misere_set(key, true);
                break Some((0, INF));
            }
            if dn == 0 {
                self.t.misere_set(key, false);
                break Some((INF, 0));
            }
            if pn >= thpn || dn >= thdn {
                self.t.mpn_set(key, pn, dn);
                break Some((pn, dn));
            }
            let kid = &kids[best];
            let child_thpn = thdn.saturating_sub(dn - kid.pn.min(dn)).max(1);
            let eps = dn2.saturating_add(dn2 / 4).max(dn2.saturating_add(1));
            let child_thdn = thpn.min(eps).min(INF);
            let (child, ckey) = (kid.lands.clone(), kid.key.clone());
            match self.misere_mid(&child, &ckey, child_thpn, child_thdn) {
                Some((p, d)) => {
                    let kid = &mut kids[best];
                    kid.pn = p;
                    kid.dn = d;
                }
                None => break None,
            }
        };
        self.depth -= 1;
        result
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
