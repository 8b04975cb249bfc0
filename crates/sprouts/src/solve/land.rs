//! The solver's own position form: lands as canonical byte strings, their
//! reduction, splitting and move generation.
//!
//! # The form
//!
//! Only live corners matter to the rest of a game, so a land (an
//! independent part of a position) keeps nothing else. A land is a list of
//! regions, a region a list of boundaries, a boundary a cyclic list of
//! live spot occurrences, each written by what it can still do:
//!
//! | byte | spot |
//! | --- | --- |
//! | `0` | three lives (an isolated spot, alone on its boundary) |
//! | `1` | two lives (one line, one corner) |
//! | `2` | one life, its only usable corner here |
//! | a name (`A`, `B`, ...) | one life, two usable corners: the name is written twice |
//!
//! Boundaries are separated by `.`, regions by `/`. A boundary is walked
//! with its region on the left, as in the card notation.
//!
//! # Reductions (each keeps the game the same)
//!
//! - Dead spots are dropped from boundaries, and boundaries left empty
//!   are dropped: a boundary without a live corner is never touched again,
//!   and on which side of a later curve it lies changes no move.
//! - A region whose live spots hold fewer than two lives in all is dropped:
//!   a line needs two lives in one region and lives are never gained.
//!   Its spots' corners there are forgotten, so a one-life spot left with a
//!   single corner becomes a `2`.
//! - A one-life spot whose two corners are next to each other on one
//!   boundary (`xAAy`) keeps one of them (`xAy`): the spot dies with the
//!   first line drawn to it, and a line to either corner leaves the same
//!   position — a join walks the boundary from the corner used, a dividing
//!   curve puts the twin on one side or the other, and in every case the
//!   twin is a corner of the dead spot, dropped at once.
//! - A region whose spots hold at most three lives (none with three) is
//!   written as one boundary of its spots, each once (Lemoine and
//!   Viennot's region reduction, as in GLOP): with so few lives a first
//!   move joins any two of its spots with a life each (or loops at a spot
//!   with two) whatever boundaries they lie on; the new spot `z` lies on
//!   the line and so in every region the move leaves; at most two lives
//!   are left, so the only later move is `z` to the one other spot `w`
//!   with a life, which always shares a region with `z`. Which moves exist
//!   therefore depends only on the spots and their lives (and, for spots
//!   with a corner in another region, on the lives spent there), not on
//!   their boundaries or order. A one-life spot with both corners in the
//!   region is written once, as a `2`.
//! - Regions that share no live spot are independent games (lands): a move
//!   changes one region and the lives of its own spots only.
//! - Mirroring one region alone (reversing all its boundaries) changes no
//!   move: boundaries of other regions meet it only through shared spots,
//!   never through orientation.
//!
//! # Keys
//!
//! [`canon`] writes a land as a key: each region in the direction and each
//! boundary from the rotation giving the least signature (names replaced
//! by their pattern inside the boundary and a mark for names shared with
//! another region), regions sorted by signature, then names assigned in
//! order of first appearance. The key describes the land completely (it is
//! never ambiguous), and most equivalent lands share it. Ties between equal
//! signatures are searched for the least key, but only for a bounded
//! number of steps ([`TIE_BUDGET`]); past it two keys for one class only
//! cost a second search, never a wrong answer.

use super::search::Mix;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// A canonical land (see the module documentation). Shared, not boxed:
/// a key is copied into option lists, caches and tables many times over,
/// and a count costs less than a copy.
pub(crate) type Key = std::sync::Arc<[u8]>;

/// Separates boundaries in a key.
pub(crate) const BOUNDARY: u8 = b'.';
/// Separates regions in a key.
pub(crate) const REGION: u8 = b'/';
/// Separates lands in a position key.
pub(crate) const LAND: u8 = b'+';
/// The first name byte; names run up from here.
const NAME0: u8 = b'A';
/// A name byte can go up to 255.
pub(crate) const MAX_NAMES: usize = (u8::MAX - NAME0) as usize + 1;
/// Signature mark for a name whose other corner is in another region.
const SHARED: u8 = b'L';
/// The last byte of a stand-in key ([`settle`]): a land's plain writing,
/// not yet its key.
pub(crate) const STAND_IN: u8 = b'?';

/// A position being worked on: regions of boundaries of spot ids, and the
/// lives of each id.
#[derive(Debug, Default)]
pub(crate) struct Work {
    pub regions: Vec<Vec<Vec<u8>>>,
    pub lives: Vec<u8>,
}

impl Clone for Work {
    fn clone(&self) -> Self {
        Work {
            regions: self.regions.clone(),
            lives: self.lives.clone(),
        }
    }
    // Field by field, so the nested vectors' buffers are reused (the
    // derived `clone_from` would allocate a whole new copy).
    fn clone_from(&mut self, source: &Self) {
        self.regions.clone_from(&source.regions);
        self.lives.clone_from(&source.lives);
    }
}

/// The work position each child of a land is made in, copied over from
/// the land for every child, with the buffers a child left over for the
/// next: the boundaries and regions a move or a reduction took out would
/// otherwise be freed and allocated again for every child.
#[derive(Default)]
struct Child {
    work: Work,
    spare_bounds: Vec<Vec<u8>>,
    spare_regions: Vec<Vec<Vec<u8>>>,
}

impl Child {
    /// Makes the work position a copy of `parent`, as `clone_from` would.
    fn copy_from(&mut self, parent: &Work) {
        let regions = &mut self.work.regions;
        while regions.len() > parent.regions.len() {
            let mut r = regions.pop().unwrap_or_default();
            self.spare_bounds.append(&mut r);
            self.spare_regions.push(r);
        }
        for (dst, src) in regions.iter_mut().zip(&parent.regions) {
            copy_region(dst, src, &mut self.spare_bounds);
        }
        for src in &parent.regions[regions.len()..] {
            let mut dst = self.spare_regions.pop().unwrap_or_default();
            copy_region(&mut dst, src, &mut self.spare_bounds);
            regions.push(dst);
        }
        self.work.lives.clone_from(&parent.lives);
    }
}

/// A boundary buffer holding `b`: one of `spare`, or a new one.
fn spare_bound(spare: &mut Vec<Vec<u8>>, b: &[u8]) -> Vec<u8> {
    let mut v = spare.pop().unwrap_or_default();
    v.clear();
    v.extend_from_slice(b);
    v
}

/// Makes `dst` a copy of the region `src`, taking boundary buffers from
/// `spare` and leaving the ones not needed there.
fn copy_region(dst: &mut Vec<Vec<u8>>, src: &[Vec<u8>], spare: &mut Vec<Vec<u8>>) {
    while dst.len() > src.len() {
        spare.push(dst.pop().unwrap_or_default());
    }
    for (d, s) in dst.iter_mut().zip(src) {
        d.clear();
        d.extend_from_slice(s);
    }
    for s in &src[dst.len()..] {
        dst.push(spare_bound(spare, s));
    }
}

/// Reads a key back into a work position (ids in order of appearance).
/// Keys come from [`canon`] or were checked by [`check_key`].
pub(crate) fn parse(key: &[u8]) -> Work {
    let mut regions: Vec<Vec<Vec<u8>>> = vec![vec![Vec::new()]];
    let mut lives: Vec<u8> = Vec::new();
    let mut names = [u8::MAX; 256];
    for &b in key.strip_suffix(&[STAND_IN]).unwrap_or(key) {
        match b {
            REGION => regions.push(vec![Vec::new()]),
            BOUNDARY => {
                if let Some(r) = regions.last_mut() {
                    r.push(Vec::new());
                }
            }
            b'0' | b'1' | b'2' => {
                let id = lives.len() as u8;
                lives.push(3 - (b - b'0'));
                push_occ(&mut regions, id);
            }
            _ => {
                if names[b as usize] == u8::MAX {
                    names[b as usize] = lives.len() as u8;
                    lives.push(1);
                }
                push_occ(&mut regions, names[b as usize]);
            }
        }
    }
    Work { regions, lives }
}

fn push_occ(regions: &mut [Vec<Vec<u8>>], id: u8) {
    if let Some(b) = regions.last_mut().and_then(|r| r.last_mut()) {
        b.push(id);
    }
}

/// Checks that outside bytes form a key [`parse`] reads as a real land:
/// known bytes, no empty boundary, each name twice, at most 250 spots.
pub(crate) fn check_key(key: &[u8]) -> Result<(), String> {
    if key.is_empty() {
        return Err("empty land".into());
    }
    let mut count = [0u8; 256];
    let mut spots = 0usize;
    let mut in_boundary = 0usize;
    for &b in key {
        match b {
            REGION | BOUNDARY => {
                if in_boundary == 0 {
                    return Err("empty boundary".into());
                }
                in_boundary = 0;
            }
            b'0' | b'1' | b'2' => {
                spots += 1;
                in_boundary += 1;
            }
            NAME0..=u8::MAX => {
                if count[b as usize] == 0 {
                    spots += 1;
                }
                count[b as usize] = count[b as usize].saturating_add(1);
                in_boundary += 1;
            }
            _ => return Err(format!("unexpected byte {b}")),
        }
    }
    if in_boundary == 0 {
        return Err("empty boundary".into());
    }
    if spots > 250 {
        return Err("too many spots".into());
    }
    if count.iter().any(|&c| c != 0 && c != 2) {
        return Err("a name must be written exactly twice".into());
    }
    Ok(())
}

/// Reduces a work position (see the module documentation) and appends its
/// lands' keys to `out`, unsorted.
pub(crate) fn finish(mut w: Work, out: &mut Vec<Key>) {
    finish_in(&mut w, out, false);
}

/// [`finish`] on a work position that the caller reuses (its buffers
/// are kept for the next child; its contents are spoilt).
/// With `stand_ins`, a land met for the first time gets a stand-in key
/// ([`settle`]) instead of its key.
fn finish_in(w: &mut Work, out: &mut Vec<Key>, stand_ins: bool) {
    let lives = &w.lives;
    // A child's spots are alive but for those the move used up (its
    // parent was reduced): when none died, no boundary loses a corner,
    // and the pass that drops dead corners is skipped.
    let died = lives.contains(&0);
    for region in &mut w.regions {
        for b in region.iter_mut() {
            if died {
                b.retain(|&v| lives[v as usize] > 0);
            }
            drop_twin(b, lives);
        }
        region.retain(|b| !b.is_empty());
    }
    w.regions.retain(|r| region_lives(r, lives) >= 2);
    if w.regions.is_empty() {
        return;
    }
    #[cfg(test)]
    let merge = !NO_MERGE.with(|m| m.get());
    #[cfg(not(test))]
    let merge = true;
    if merge {
        merge_small_regions(&mut w.regions, lives);
    }
    // Lands: regions joined by shared spots (union-find over regions).
    // Fixed arrays, no allocation: every region left holds a live corner,
    // and a spot (its id a byte) has at most two corners, so there are
    // at most 512 regions.
    let n = w.regions.len().min(MAX_REGIONS);
    // Most children have a few regions: the union-find of up to 64 lives
    // in a small array (clearing all 512 places for each child was 1% of
    // the solver's instructions).
    let mut few = [0u16; 64];
    let mut many = Vec::new();
    let parent: &mut [u16] = if n <= few.len() {
        &mut few[..n]
    } else {
        many.resize(n, 0);
        &mut many
    };
    for (r, p) in parent.iter_mut().enumerate() {
        *p = r as u16;
    }
    fn find(p: &mut [u16], mut x: u16) -> u16 {
        while p[x as usize] != x {
            p[x as usize] = p[p[x as usize] as usize];
            x = p[x as usize];
        }
        x
    }
    let mut owner = [u16::MAX; 256];
    // Each union joins two lands: `n - 1` of them leave one.
    let mut unions = 0;
    // Corners of each spot, for the key cache's writing: all of a spot's
    // corners lie in its own land, so one count serves every land.
    let mut count = [0u8; 256];
    for (r, region) in w.regions.iter().enumerate().take(n) {
        for bound in region {
            for &v in bound {
                count[v as usize] += 1;
                let o = owner[v as usize];
                if o == u16::MAX {
                    owner[v as usize] = r as u16;
                } else if o as usize != r {
                    let (a, b) = (find(parent, o), find(parent, r as u16));
                    if a != b {
                        parent[a as usize] = b;
                        unions += 1;
                    }
                }
            }
        }
    }
    if unions + 1 == n {
        // One land (the usual case): all regions as they come.
        out.push(canon_cached(
            &w.regions,
            &ALL_REGIONS[..n],
            lives,
            &count,
            stand_ins,
        ));
        return;
    }
    // Sized to the regions as the union-find above.
    let (mut few_group, mut few_done) = ([0u16; 64], [false; 64]);
    let (mut many_group, mut many_done) = (Vec::new(), Vec::new());
    let (group, done): (&mut [u16], &mut [bool]) = if n <= few_group.len() {
        (&mut few_group[..n], &mut few_done[..n])
    } else {
        many_group.resize(n, 0);
        many_done.resize(n, false);
        (&mut many_group, &mut many_done)
    };
    for r in 0..n {
        let root = find(parent, r as u16);
        if done[root as usize] {
            continue;
        }
        done[root as usize] = true;
        let mut len = 0;
        for s in r..n {
            if find(parent, s as u16) == root {
                group[len] = s as u16;
                len += 1;
            }
        }
        out.push(canon_cached(
            &w.regions,
            &group[..len],
            lives,
            &count,
            stand_ins,
        ));
    }
}

/// More regions than a work position can hold (see [`finish_in`]).
const MAX_REGIONS: usize = 512;

/// Every region index in order: a land of all the regions, without
/// writing the list for each child.
static ALL_REGIONS: [u16; MAX_REGIONS] = {
    let mut all = [0u16; MAX_REGIONS];
    let mut i = 0;
    while i < MAX_REGIONS {
        all[i] = i as u16;
        i += 1;
    }
    all
};

/// Drops one corner of a one-life spot whose two corners are next to each
/// other on boundary `b` (`xAAy` becomes `xAy`, `AA` becomes `A`): a line
/// drawn to either corner leaves the same position once the spot is dead,
/// since the other corner lies on the same arc whichever is used (see the
/// module documentation).
fn drop_twin(b: &mut Vec<u8>, lives: &[u8]) {
    let m = b.len();
    if m < 2 {
        return;
    }
    if m == 2 {
        if b[0] == b[1] {
            b.truncate(1);
        }
        return;
    }
    // With three or more corners, a spot written twice is followed by its
    // twin at one of its two places at most, so each twin is dropped once.
    let mut i = 0;
    while i < b.len() {
        let m = b.len();
        let (v, next) = (b[i], b[if i + 1 == m { 0 } else { i + 1 }]);
        if v == next && lives[v as usize] == 1 {
            b.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Rewrites each region whose spots hold at most three lives (and no spot
/// with three) as one boundary: its spots with two lives, then those with
/// one life whose other corner is in another region, then the rest, each
/// once. With so few lives the region's game depends only on which spots
/// it holds and their lives, not on how they lie (see the module
/// documentation).
fn merge_small_regions(regions: &mut [Vec<Vec<u8>>], lives: &[u8]) {
    // Corners of each spot in the whole land: counted only once a small
    // region is found (most children have none).
    let mut total = [0u8; 256];
    let mut counted = false;
    // Per spot, the region that last counted it and its corners there:
    // a stamp instead of clearing the counts after every region.
    let mut stamp = [u16::MAX; 256];
    let mut here = [0u8; 256];
    for ri in 0..regions.len() {
        let region = &regions[ri];
        if region.len() == 1 && region[0].len() <= 1 {
            continue;
        }
        let me = ri as u16;
        // Read only while the region can still be small: no spot with
        // three lives, at most three lives in all (the sum only grows).
        let mut small = true;
        let mut sum = 0u32;
        'read: for b in region.iter() {
            for &v in b {
                let vi = v as usize;
                let l = lives[vi];
                if l == 3 {
                    small = false;
                    break 'read;
                }
                if stamp[vi] != me {
                    stamp[vi] = me;
                    here[vi] = 0;
                    sum += l as u32;
                    if sum > 3 {
                        small = false;
                        break 'read;
                    }
                }
                here[vi] += 1;
            }
        }
        if !small {
            continue;
        }
        if !counted {
            counted = true;
            for r in regions.iter() {
                for &v in r.iter().flatten() {
                    total[v as usize] += 1;
                }
            }
        }
        // Every spot is written once (its stamp taken as it is), so
        // there are at most three: each holds a life.
        let region = &mut regions[ri];
        let mut merged = [0u8; 3];
        let mut len = 0;
        for pass in 0..3 {
            for &v in region.iter().flatten() {
                let vi = v as usize;
                if stamp[vi] != me {
                    continue;
                }
                let kind = if lives[vi] == 2 {
                    0
                } else if here[vi] < total[vi] {
                    1
                } else {
                    2
                };
                if kind == pass {
                    merged[len] = v;
                    len += 1;
                    stamp[vi] = u16::MAX;
                }
            }
        }
        region.truncate(1);
        region[0].clear();
        region[0].extend_from_slice(&merged[..len]);
    }
}

#[cfg(test)]
thread_local! {
    /// Turns the merging of small regions off on this thread, so a test can
    /// compare the moves made on reduced lands with the rules crate's move
    /// by move (the canon cache below is per thread, so it is never shared
    /// between the two settings).
    pub(crate) static NO_MERGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// Makes every child, twins and the moves at alike boundaries and
    /// corners too, on this thread (a test compares).
    pub(crate) static KEEP_TWINS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Children made on this thread, repeats included.
    pub(crate) static MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Steps of the tie search (see [`Exact`]) tried once a first key is
/// written. Lands with many tied boundaries holding shared names have
/// factorially many writings; past this budget the least key found so far
/// is kept. Two keys for one class only cost a second search. A budget
/// of 100 made normal play at n = 11 about 1.6 times faster than the
/// full search for the same positions; 10 is faster again (n = 12 and
/// nimbers 1..10 about 1.5 times, normal 1..11 the same: most searches
/// used the whole budget and rarely found a lesser key), while 0 to 5
/// made more positions than they saved (see `docs/rules/sprouts.md`).
const TIE_BUDGET: u32 = 10;

#[cfg(test)]
thread_local! {
    /// Lets a test search every tie (exact keys) on this thread.
    pub(crate) static EXACT_TIES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn tie_budget() -> u32 {
    #[cfg(test)]
    if EXACT_TIES.with(|e| e.get()) {
        return u32::MAX;
    }
    TIE_BUDGET
}

/// Most keys kept by [`canon_cached`] on one thread before it forgets them.
/// At 2^18, n = 14 made 2.28 million keys; at 2^20, 1.99 million and
/// about a tenth less time, for about 90 MiB more.
const CANON_CACHE: usize = 1 << 20;

thread_local! {
    /// Keys already made on this thread, by the land's plain writing.
    static CANON_SEEN: RefCell<HashMap<Box<[u8]>, Key, BuildHasherDefault<Mix>>> =
        RefCell::new(HashMap::default());
}

/// Empties this thread's key cache.
pub(crate) fn forget_keys() {
    CANON_SEEN.with(|c| c.borrow_mut().clear());
}

thread_local! {
    /// The buffers [`canon_cached`] writes plain writings in.
    static ARRANGE: RefCell<Arrange> = RefCell::new(Arrange::default());
}

/// A spot's byte in a writing without names: what it can still do; a
/// name (a spot of one life with both corners left) as what it reaches
/// ([`Reach`]). Reading where a name leads fixes more of the boundaries'
/// rotations and orders than one byte for every name, so equal lands met
/// through different moves more often get one writing.
#[inline(always)]
fn shape_byte(v: u8, ri: u16, lives: &[u8], count: &[u8; 256], reach: &Reach) -> u8 {
    match lives[v as usize] {
        3 => b'0',
        2 => b'1',
        _ if count[v as usize] == 1 => b'2',
        _ => reach.byte(v, ri),
    }
}

/// Where each name of a land being arranged leads: the regions of its
/// two corners, and each region's corners. Kept from land to land: only
/// the entries of the land's own spots are written and read.
struct Reach {
    at: [[u16; 2]; 256],
    corners: Vec<u8>,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            at: [[u16::MAX; 2]; 256],
            corners: Vec::new(),
        }
    }
}

/// Shape bytes of names ([`Reach::byte`]), the only ones at or above
/// `SAME_REGION`.
const SAME_REGION: u8 = 0x80;
const AWAY: u8 = 0x81;

impl Reach {
    fn read(&mut self, all: &[Vec<Vec<u8>>], group: &[u16]) {
        self.corners.clear();
        if group.len() == 1 {
            // Every name leads back into the one region: nothing to read.
            return;
        }
        for &g in group {
            let mut n = 0usize;
            for b in &all[g as usize] {
                n += b.len();
                for &v in b {
                    self.at[v as usize] = [u16::MAX; 2];
                }
            }
            self.corners.push(n.min((u8::MAX - AWAY) as usize) as u8);
        }
        for (ri, &g) in group.iter().enumerate() {
            for &v in all[g as usize].iter().flatten() {
                let a = &mut self.at[v as usize];
                a[usize::from(a[0] != u16::MAX)] = ri as u16;
            }
        }
    }

    /// A name's byte read in region `ri`: `SAME_REGION` when its other
    /// corner lies there too, else `AWAY` plus the corners of the region
    /// holding the other.
    #[inline(always)]
    fn byte(&self, v: u8, ri: u16) -> u8 {
        if self.corners.is_empty() {
            return SAME_REGION;
        }
        let [a, b] = self.at[v as usize];
        let other = if a == ri { b } else { a };
        if other == ri || other == u16::MAX {
            SAME_REGION
        } else {
            AWAY + self.corners[other as usize]
        }
    }
}

/// One boundary of a land being arranged for the key cache: where its
/// shape (its writing without names, from its least rotation) lies in
/// [`Arrange::shapes`], and where the boundary is.
#[derive(Clone, Copy)]
struct Shaped {
    region: u16,
    index: u16,
    start: u16,
    at: u32,
    len: u16,
}

/// Arranges a land's plain writing for the key cache: each boundary from
/// its least rotation with each name read as where it leads
/// ([`shape_byte`]), boundaries in order of those shapes,
/// regions in order of their boundaries' shapes, then names in order of
/// first appearance. Any arrangement describes the land (it only rotates
/// boundaries and reorders boundaries and regions), so equal writings are
/// equivalent lands; the arrangement makes the writing depend less on the
/// move that made the land (at n = 12, 515,000 keys were made for 114,000
/// distinct ones when writings kept the order they came in; at n = 8,
/// 29,730 keys were made for 16,602 distinct ones while every name read
/// alike, 24,975 once names were read by where they lead).
#[derive(Default)]
struct Arrange {
    shapes: Vec<u8>,
    bounds: Vec<Shaped>,
    /// Per region (in `group` order), its range in `bounds` and its
    /// isolated spots (see [`Arrange::side`]).
    regions: Vec<(u32, u32, u32)>,
    order: Vec<u16>,
    /// The writing: only a miss of the key cache keeps a copy of it.
    plain: Vec<u8>,
    /// Where the names lead, kept between lands (see [`Reach`]).
    reach: Option<Box<Reach>>,
}

impl Arrange {
    /// Shapes region `ri`'s boundaries, each from its least rotation, in
    /// order of shape; returns how many are isolated spots, which are left
    /// out. (Choosing each region's lesser direction too, as the key does,
    /// saved 1 to 2% of the keys made and cost more.)
    ///
    /// An isolated spot's boundary is `0`, the least shape of all: every
    /// other shape byte sorts after `0`, and a spot of three lives is
    /// alone on its boundary. So a region's isolated spots always come
    /// first, all alike, and are only counted (about a third of the
    /// boundaries of the lands a search makes are such spots).
    fn side(
        &mut self,
        ri: usize,
        region: &[Vec<u8>],
        lives: &[u8],
        count: &[u8; 256],
        reach: &Reach,
    ) -> u32 {
        let from = self.bounds.len();
        let mut zeros = 0;
        for (bi, b) in region.iter().enumerate() {
            let m = b.len();
            if m == 1 && lives[b[0] as usize] == 3 {
                zeros += 1;
                continue;
            }
            let at = self.shapes.len();
            self.shapes.extend(
                b.iter()
                    .map(|&v| shape_byte(v, ri as u16, lives, count, reach)),
            );
            // From the least rotation; a tie keeps the first (any choice
            // describes the land).
            let best = least_rotation(&self.shapes[at..]);
            if m == 2 && best == 1 {
                self.shapes.swap(at, at + 1);
            } else if best != 0 {
                self.shapes[at..].rotate_left(best);
            }
            self.bounds.push(Shaped {
                region: ri as u16,
                index: bi as u16,
                start: best as u16,
                at: at as u32,
                len: m as u16,
            });
        }
        let (shapes, bounds) = (&self.shapes, &mut self.bounds[from..]);
        let shape = |b: &Shaped| &shapes[b.at as usize..b.at as usize + b.len as usize];
        sort_small(bounds, |x, y| {
            x.len.cmp(&y.len).then_with(|| shape(x).cmp(shape(y)))
        });
        zeros
    }

    fn shape(&self, b: &Shaped) -> &[u8] {
        &self.shapes[b.at as usize..b.at as usize + b.len as usize]
    }

    /// Regions by their number of boundaries, then their boundaries'
    /// shapes in order: the isolated spots first, so that of two regions
    /// with as many boundaries the one with more isolated spots is the
    /// lesser (its next `0` sorts before the other's next shape).
    fn region_order(&self, x: usize, y: usize) -> std::cmp::Ordering {
        let (a0, a1, za) = self.regions[x];
        let (b0, b1, zb) = self.regions[y];
        (a1 - a0 + za)
            .cmp(&(b1 - b0 + zb))
            .then(zb.cmp(&za))
            .then_with(|| {
                let xs = self.bounds[a0 as usize..a1 as usize]
                    .iter()
                    .map(|b| self.shape(b));
                let ys = self.bounds[b0 as usize..b1 as usize]
                    .iter()
                    .map(|b| self.shape(b));
                xs.cmp(ys)
            })
    }

    fn write(&mut self, all: &[Vec<Vec<u8>>], group: &[u16], lives: &[u8], count: &[u8; 256]) {
        self.shapes.clear();
        let mut out = std::mem::take(&mut self.plain);
        out.clear();
        self.bounds.clear();
        self.regions.clear();
        // Taken out for the writing and put back: its table is kept.
        let mut reach = self.reach.take().unwrap_or_default();
        reach.read(all, group);
        for (ri, &g) in group.iter().enumerate() {
            let from = self.bounds.len() as u32;
            let zeros = self.side(ri, &all[g as usize], lives, count, &reach);
            self.regions.push((from, self.bounds.len() as u32, zeros));
        }
        self.order.clear();
        self.order.extend(0..group.len() as u16);
        let mut order = std::mem::take(&mut self.order);
        sort_small(&mut order, |&x, &y| {
            self.region_order(x as usize, y as usize)
        });
        let mut name = [u8::MAX; 256];
        let mut next = 0u8;
        for (k, &ri) in order.iter().enumerate() {
            if k > 0 {
                out.push(REGION);
            }
            let (a, b, zeros) = self.regions[ri as usize];
            let wrote = write_isolated_spots(zeros as usize, &mut out);
            for (j, sb) in self.bounds[a as usize..b as usize].iter().enumerate() {
                if j > 0 || wrote {
                    out.push(BOUNDARY);
                }
                let bound = &all[group[sb.region as usize] as usize][sb.index as usize];
                let m = bound.len();
                // The shape is the boundary from its least rotation, so
                // its bytes are this writing's but for the names.
                let shape = &self.shapes[sb.at as usize..sb.at as usize + m];
                for (t, &c) in shape.iter().enumerate() {
                    out.push(if c < SAME_REGION {
                        c
                    } else {
                        let vi = bound[around(sb.start as usize, t, m, false)] as usize;
                        if name[vi] == u8::MAX {
                            name[vi] = next;
                            next = next.wrapping_add(1);
                        }
                        NAME0.wrapping_add(name[vi])
                    });
                }
            }
        }
        self.order = order;
        self.plain = out;
        self.reach = Some(reach);
    }
}

/// Writes `n` isolated spots' boundaries (`0.0.0`), which open a region's
/// writing in a key and in the key cache's writing alike; returns whether
/// any was written.
fn write_isolated_spots(n: usize, out: &mut Vec<u8>) -> bool {
    for z in 0..n {
        if z > 0 {
            out.push(BOUNDARY);
        }
        out.push(b'0');
    }
    n > 0
}

/// Sorts as `sort_unstable_by` does, with the same result: a short slice
/// (of 20 or fewer, which the standard sort puts in order by insertion,
/// keeping equals in order) by an insertion sort written here, cheaper for
/// the few boundaries or regions of most lands; a longer one by the
/// standard sort itself.
#[inline(always)]
fn sort_small<T: Copy>(v: &mut [T], order: impl Fn(&T, &T) -> std::cmp::Ordering) {
    if v.len() > 20 {
        v.sort_unstable_by(order);
        return;
    }
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && order(&x, &v[j - 1]).is_lt() {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// [`canon`], remembered by the land's plain writing as [`Arrange`]
/// writes it (boundaries rotated and sorted, regions sorted, names by
/// first appearance). The plain writing describes the land up to the
/// spots' ids, so equal plain writings are equivalent lands and one key
/// serves them all: the same part met again costs one look-up.
/// `count` gives each spot's corners (in the land; see [`finish_in`]).
fn canon_cached(
    all: &[Vec<Vec<u8>>],
    group: &[u16],
    lives: &[u8],
    count: &[u8; 256],
    stand_in: bool,
) -> Key {
    ARRANGE.with(|a| {
        let mut a = a.borrow_mut();
        a.write(all, group, lives, count);
        if let Some(k) = cached_key(&a.plain) {
            return k;
        }
        if stand_in && a.plain.len() >= STAND_IN_FROM {
            // Written straight into the shared key: one allocation.
            return a.plain.iter().copied().chain([STAND_IN]).collect();
        }
        let regions: Vec<&Vec<Vec<u8>>> = group.iter().map(|&g| &all[g as usize]).collect();
        let key = canon(&regions, lives);
        remember_key(&a.plain, &key);
        key
    })
}

/// The key this thread made for a land of this plain writing, if any.
fn cached_key(plain: &[u8]) -> Option<Key> {
    CANON_SEEN.with(|c| c.borrow().get(plain).cloned())
}

fn remember_key(plain: &[u8], key: &Key) {
    CANON_SEEN.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CANON_CACHE {
            c.clear();
        }
        c.insert(plain.into(), key.clone());
    });
}

/// The shortest plain writing (in bytes) that gets a stand-in ([`settle`]):
/// a smaller land gets its key at once, being cheap to key and the most
/// likely to be met again and known. Over twenty random positions each of
/// 9, 10, 11 and 12 spots a few random moves in (one fresh solver each),
/// thresholds of 16 to 24 bytes took 16 to 21% less CPU than keys
/// everywhere, stand-ins everywhere 12% less, 30 bytes 7% less.
pub(crate) const STAND_IN_FROM: usize = 20;

/// Whether a key is a stand-in ([`settle`]).
pub(crate) fn is_stand_in(key: &[u8]) -> bool {
    key.last() == Some(&STAND_IN)
}

/// The key of the land a stand-in writes, if this thread has made it.
pub(crate) fn settled(key: &[u8]) -> Option<Key> {
    cached_key(key.strip_suffix(&[STAND_IN])?)
}

/// The key of the land a stand-in key writes (any other key is its own).
///
/// A search makes many more options than it ever searches: at normal
/// n = 8, 75,794 children for 5,577 lands searched, and a key (the least
/// writing over the land's arrangements) costs most of a child. So in
/// normal play a land met for the first time, its plain writing not yet
/// in the key cache and at least [`STAND_IN_FROM`] bytes long, is named
/// by that writing, marked ([`STAND_IN`]):
/// it describes the land exactly, so what the tables learn under it is
/// true, and only when the search goes into the land is its key made;
/// the search then works on the key, and copies what it learns back to
/// the stand-in ([`super::search`]). Two stand-ins for one land cost a
/// second key; a stand-in whose land the tables know under its key costs
/// the search a step to find out.
pub(crate) fn settle(key: &[u8]) -> Key {
    let Some(plain) = key.strip_suffix(&[STAND_IN]) else {
        return key.into();
    };
    if let Some(k) = cached_key(plain) {
        return k;
    }
    let w = parse(plain);
    let regions: Vec<&Vec<Vec<u8>>> = w.regions.iter().collect();
    let k = canon(&regions, &w.lives);
    remember_key(plain, &k);
    k
}

/// A key's land as the key cache writes it (see [`Arrange`]).
#[cfg(test)]
pub(crate) fn arranged(key: &[u8]) -> Vec<u8> {
    let w = parse(key);
    let group: Vec<u16> = (0..w.regions.len() as u16).collect();
    let mut count = [0u8; 256];
    for b in w.regions.iter().flatten() {
        for &v in b {
            count[v as usize] += 1;
        }
    }
    let mut a = Arrange::default();
    a.write(&w.regions, &group, &w.lives, &count);
    a.plain
}

/// Lives a region can use: the lives of its distinct spots (counting up to
/// two is enough).
fn region_lives(region: &[Vec<u8>], lives: &[u8]) -> u32 {
    let mut total = 0u32;
    let mut first: Option<u8> = None;
    for b in region {
        for &v in b {
            let l = lives[v as usize] as u32;
            if l >= 2 {
                return 2;
            }
            match first {
                None => {
                    first = Some(v);
                    total = l;
                }
                Some(f) if f != v => return 2,
                _ => {}
            }
        }
    }
    total
}

/// The place `t` steps from `start` around a boundary of `m` corners,
/// forwards or backwards (`t < m`, `start < m`). A compare instead of `%`:
/// the division cost more than the rest of a signature's inner loop.
#[inline(always)]
fn around(start: usize, t: usize, m: usize, reverse: bool) -> usize {
    let i = if reverse { start + m - t } else { start + t };
    if i >= m {
        i - m
    } else {
        i
    }
}

/// Writes the signature of boundary `b` from `start` into `out`. `sym`
/// gives each spot's byte, with `SHARED` for names shared with another
/// region and 255 for names with both corners in `b`, which are numbered
/// in order of first appearance (`a`, `b`, ...).
fn signature(b: &[u8], reverse: bool, start: usize, sym: &[u8], seen: &mut Vec<u8>, out: &mut Sig) {
    let m = b.len();
    seen.clear();
    out.clear();
    for t in 0..m {
        let i = around(start, t, m, reverse);
        let v = b[i];
        let c = sym[v as usize];
        if c != 255 {
            out.push(c);
            continue;
        }
        let k = match seen.iter().position(|&x| x == v) {
            Some(k) => k,
            None => {
                seen.push(v);
                seen.len() - 1
            }
        };
        out.push(b'a'.wrapping_add(k as u8));
    }
}

/// One boundary's least signature walked one way, and every start that
/// gives it.
struct Least {
    index: usize,
    sig: Sig,
    starts: SmallVec<[usize; 2]>,
}

impl Clone for Least {
    // By slices: the derived clone of a `SmallVec` goes through its
    // general `extend`, element by element (the clone of each boundary of
    // two corners or fewer for its second side was a twentieth of a key).
    fn clone(&self) -> Self {
        Least {
            index: self.index,
            sig: Sig::from_slice(&self.sig),
            starts: SmallVec::from_slice(&self.starts),
        }
    }
}

/// A signature: short enough, nearly always, to live on the stack (a
/// canonical form makes a few dozen of them, and allocating each one
/// cost about a fifth of the solver's time).
type Sig = SmallVec<[u8; 24]>;

/// Buffers [`least_rotations`] reuses from one boundary to the next.
#[derive(Default)]
struct Scratch {
    seen: Vec<u8>,
    cur: Sig,
}

/// A boundary's least signature walked one way (`reverse`: backwards),
/// and every start that gives it.
fn least_rotations(index: usize, b: &[u8], reverse: bool, sym: &[u8], sc: &mut Scratch) -> Least {
    if (1..=2).contains(&b.len()) {
        least_rotations_short(index, b, sym)
    } else {
        least_rotations_walk(index, b, reverse, sym, sc)
    }
}

/// [`least_rotations`] by walking the boundary from each start that can
/// win.
fn least_rotations_walk(
    index: usize,
    b: &[u8],
    reverse: bool,
    sym: &[u8],
    sc: &mut Scratch,
) -> Least {
    let m = b.len();
    // A signature starts with its least byte: only starts there can win
    // (a name with both corners here always reads `a` first).
    let first = |i: usize| {
        let c = sym[b[i] as usize];
        if c == 255 {
            b'a'
        } else {
            c
        }
    };
    let mut low = u8::MAX;
    for i in 0..m {
        low = low.min(first(i));
    }
    let Scratch { seen, cur } = sc;
    let mut best = Sig::new();
    let mut starts = SmallVec::new();
    for s in (0..m).filter(|&s| first(s) == low) {
        if best.is_empty() {
            signature(b, reverse, s, sym, seen, &mut best);
            starts.push(s);
            continue;
        }
        // Compare while writing: stop as soon as this start is worse.
        seen.clear();
        cur.clear();
        let mut order = std::cmp::Ordering::Equal;
        for (t, &want) in best.iter().enumerate() {
            let i = around(s, t, m, reverse);
            let v = b[i];
            let mut c = sym[v as usize];
            if c == 255 {
                let k = match seen.iter().position(|&x| x == v) {
                    Some(k) => k,
                    None => {
                        seen.push(v);
                        seen.len() - 1
                    }
                };
                c = b'a'.wrapping_add(k as u8);
            }
            cur.push(c);
            if order == std::cmp::Ordering::Equal {
                order = c.cmp(&want);
                if order == std::cmp::Ordering::Greater {
                    break;
                }
            }
        }
        match order {
            std::cmp::Ordering::Less => {
                std::mem::swap(&mut best, cur);
                starts.clear();
                starts.push(s);
            }
            std::cmp::Ordering::Equal => starts.push(s),
            std::cmp::Ordering::Greater => {}
        }
    }
    Least {
        index,
        sig: best,
        starts,
    }
}

/// [`least_rotations`] of a boundary of one or two corners, written out:
/// most boundaries are this short, and both ways read alike (with the
/// buffered [`region_shape`], 3.5% fewer instructions at nimber n = 8). The same
/// signature and starts as the general walk (names with both corners
/// here read `a`, then `b`, in order of appearance).
fn least_rotations_short(index: usize, b: &[u8], sym: &[u8]) -> Least {
    let byte = |c: u8| if c == 255 { b'a' } else { c };
    if b.len() == 1 {
        let mut sig = Sig::new();
        sig.extend(b.iter().map(|&v| byte(sym[v as usize])));
        let mut starts = SmallVec::new();
        starts.push(0);
        return Least { index, sig, starts };
    }
    let from = |s: usize| -> [u8; 2] {
        let (x, y) = (b[s], b[1 - s]);
        let (cx, cy) = (sym[x as usize], sym[y as usize]);
        let second = if cy != 255 {
            cy
        } else if cx == 255 && x != y {
            b'b'
        } else {
            b'a'
        };
        [byte(cx), second]
    };
    let (s0, s1) = (from(0), from(1));
    let mut starts: SmallVec<[usize; 2]> = SmallVec::new();
    // Only starts at the least first byte can win; of two, the lesser
    // writing, or both when they are equal.
    let best = match (s0[0].cmp(&s1[0])).then(s0.cmp(&s1)) {
        std::cmp::Ordering::Less => {
            starts.push(0);
            s0
        }
        std::cmp::Ordering::Greater => {
            starts.push(1);
            s1
        }
        std::cmp::Ordering::Equal => {
            starts.push(0);
            starts.push(1);
            s0
        }
    };
    let mut sig = Sig::new();
    sig.extend_from_slice(&best);
    Least { index, sig, starts }
}

/// A region walked one way: boundaries sorted by signature. The region's
/// signature is theirs joined by `.`; it is never written out, only
/// compared ([`Side::order`]): most regions' signatures were longer than
/// the stack space kept for them, and each cost an allocation.
struct Side {
    reverse: bool,
    /// Boundaries that are one isolated spot (`0`), left out of `bounds`:
    /// `0` is the least signature of all (no other byte sorts before it,
    /// and a spot with three lives is alone on its boundary), so they
    /// come first, hold no name and never tie with anything else. Most
    /// boundaries of a large land are such spots; their signatures and
    /// sorting were a good part of a key's cost.
    zeros: usize,
    bounds: SmallVec<[Least; 3]>,
    /// Runs of equal signature in `bounds`, as index ranges.
    groups: SmallVec<[(usize, usize); 3]>,
}

/// Whether a boundary reads the same backwards, from each start, as
/// forwards: true of one or two corners (`x y` walked back from `x` is
/// `x y` again), so such a boundary is its own mirror image.
fn reads_same_backwards(b: &[u8]) -> bool {
    b.len() <= 2
}

/// A region walked forwards and backwards: its two sides. The second is
/// `None` when every boundary reads the same backwards (one or two
/// corners): the backward side then has the forward side's signatures and
/// starts and writes every boundary alike, so it is not made (most
/// regions are such; making, sorting and moving their second side was
/// 1.8% of the instructions of nimber n = 8). The tie search still tries
/// it as a second side ([`Ways`]), so keys stay as they were.
/// The sides are made in place at the end of `store` (the forward side,
/// then the backward one if made; returns whether it was): built apart
/// and moved there, each side was moved three times.
fn sides_of(region: &[Vec<u8>], sym: &[u8], sc: &mut Scratch, store: &mut Vec<Side>) -> bool {
    let both = !region.iter().all(|b| reads_same_backwards(b));
    let at = store.len();
    store.push(Side::new(false));
    if both {
        store.push(Side::new(true));
    }
    let mut zeros = 0;
    for (i, b) in region.iter().enumerate() {
        if b.len() == 1 && sym[b[0] as usize] == b'0' {
            zeros += 1;
            continue;
        }
        let forwards = least_rotations(i, b, false, sym, sc);
        if both {
            // Its least signature and starts are then the same both ways:
            // only longer boundaries are walked twice (these walks were a
            // tenth of a key's cost).
            let backwards = if reads_same_backwards(b) {
                forwards.clone()
            } else {
                least_rotations(i, b, true, sym, sc)
            };
            store[at + 1].bounds.push(backwards);
        }
        store[at].bounds.push(forwards);
    }
    for side in &mut store[at..] {
        side.zeros = zeros;
        side.sort();
    }
    both
}

/// A region's sides as the tie search tries them: its lesser side, or
/// both when their signatures are equal; `count` 2 with one side kept
/// when the second writes as the first (see [`sides_of`]).
/// Its sides kept are `stored` from place `at` of the land's list of
/// sides (one list for all regions: a list per region was an allocation
/// per region of every key).
struct Ways {
    region: usize,
    at: usize,
    stored: usize,
    count: usize,
}

impl Ways {
    fn first<'s>(&self, store: &'s [Side]) -> &'s Side {
        &store[self.at]
    }
    /// Side `sd` (`sd < count`).
    fn side<'s>(&self, store: &'s [Side], sd: usize) -> &'s Side {
        &store[self.at + sd.min(self.stored - 1)]
    }
}

impl Side {
    /// A side with no boundaries yet.
    fn new(reverse: bool) -> Side {
        Side {
            reverse,
            zeros: 0,
            bounds: SmallVec::new(),
            groups: SmallVec::new(),
        }
    }

    /// Sorts the boundaries by signature and finds the runs of equal ones.
    fn sort(&mut self) {
        let bounds = &mut self.bounds;
        if bounds.len() > 1 {
            bounds.sort_by(|a, b| a.sig.cmp(&b.sig));
        }
        self.groups = runs(bounds.len(), |a, b| bounds[a].sig == bounds[b].sig);
    }

    /// The order of the two regions' signatures (boundaries' signatures
    /// joined by `.`). Comparing the lists of signatures gives the same
    /// order: `.` sorts before every signature byte, so a signature that
    /// is a prefix of another sorts first either way.
    fn order(&self, other: &Side) -> std::cmp::Ordering {
        self.sigs().cmp(other.sigs())
    }

    /// The boundaries' signatures in order, the isolated spots first.
    fn sigs(&self) -> impl Iterator<Item = &[u8]> + '_ {
        std::iter::repeat_n(&b"0"[..], self.zeros).chain(self.bounds.iter().map(|l| &l.sig[..]))
    }

    /// Writes the isolated spots' boundaries that open the region's
    /// writing; returns whether any was written.
    fn write_zeros(&self, key: &mut Vec<u8>) -> bool {
        write_isolated_spots(self.zeros, key)
    }

    /// Whether the signature holds a name shared with another region.
    fn shares(&self) -> bool {
        self.bounds.iter().any(|l| shares(&l.sig))
    }

    /// Whether the writing depends on names given before it.
    fn open_names(&self) -> bool {
        self.bounds.iter().any(|l| open_names(&l.sig))
    }
}

/// Index ranges of runs of equal items in a sorted list of `n`.
fn runs(n: usize, same: impl Fn(usize, usize) -> bool) -> SmallVec<[(usize, usize); 3]> {
    let mut out = SmallVec::new();
    if n == 1 {
        // One item is one run, without a comparison.
        out.push((0, 1));
        return out;
    }
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && same(i, j) {
            j += 1;
        }
        out.push((i, j));
        i = j;
    }
    out
}

/// Whether a region's chosen side leaves a choice open: two boundaries
/// of equal signature, or a boundary with two starts giving it.
fn side_has_ties(side: &Side) -> bool {
    // A tie matters only where the writing holds names shared with
    // another region: anything else is written the same whichever way
    // the tie is broken.
    let tied_groups = side
        .groups
        .iter()
        .any(|&(a, b)| b - a > 1 && shares(&side.bounds[a].sig));
    tied_groups
        || side
            .bounds
            .iter()
            .any(|l| l.starts.len() > 1 && shares(&l.sig))
}

/// Whether a signature holds a name shared with another region (marked
/// or classed).
fn shares(sig: &[u8]) -> bool {
    sig.iter().any(|&c| c == SHARED || c >= SHARED_CLASS)
}

/// Whether a writing depends on names given before it: only names shared
/// with another region can have been named already.
fn open_names(sig: &[u8]) -> bool {
    sig.iter().any(|&c| c >= SHARED_CLASS)
}

/// Signature bytes of shared names start here: `SHARED_CLASS + c` where
/// `c` is the class of the region holding the name's other corner.
const SHARED_CLASS: u8 = 0x80;

/// The exact canonical writing: every tie between boundaries, starts,
/// regions and sides whose writing depends on earlier names is tried,
/// and the least whole key kept. All candidate keys have the same length
/// and layout, so a prefix already above the best cuts the branch.
struct Exact<'a> {
    regions: &'a [&'a Vec<Vec<u8>>],
    /// Each region's spot bytes, `spots` a region.
    syms: &'a [u8],
    spots: usize,
    sides: &'a [Ways],
    store: &'a [Side],
    groups: SmallVec<[(usize, usize); 3]>,
    best: Option<Vec<u8>>,
    /// Steps left once a first key is written.
    budget: u32,
    /// How many bytes of the key being written are known equal to the
    /// best key's (see `cut`): every shortening of the key goes through
    /// `back`, which lowers it.
    same: usize,
}

impl Exact<'_> {
    fn cut(&mut self, key: &[u8]) -> bool {
        match &self.best {
            Some(b) => {
                if self.budget == 0 {
                    return true;
                }
                self.budget -= 1;
                // `key > b[..key.len()]`, comparing only the bytes
                // written since the last step: the first `same` are
                // known equal (the whole prefix compared at every step
                // was most of a cut's cost).
                let n = key.len().min(b.len());
                let mut i = self.same.min(n);
                while i < n && key[i] == b[i] {
                    i += 1;
                }
                self.same = i;
                if i < n {
                    key[i] > b[i]
                } else {
                    key.len() > b.len()
                }
            }
            None => false,
        }
    }

    /// Takes the key back to `mark` bytes.
    fn back(&mut self, key: &mut Vec<u8>, mark: usize) {
        key.truncate(mark);
        self.same = self.same.min(mark);
    }

    fn regions_step(
        &mut self,
        gi: usize,
        rleft: &mut Places,
        names: &mut Names,
        key: &mut Vec<u8>,
    ) {
        if rleft.is_empty() {
            let gi = gi + 1;
            if gi >= self.groups.len() {
                if self.best.as_ref().is_none_or(|b| *key < *b) {
                    self.best = Some(key.clone());
                    self.same = key.len();
                }
                return;
            }
            let mut next = Places::group(self.groups[gi]);
            return self.regions_step(gi, &mut next, names, key);
        }
        if self.cut(key) {
            return;
        }
        let sides = self.sides;
        let head = rleft.first();
        let branch = rleft.several() || sides[head].count > 1;
        let open = branch && sides[head].first(self.store).open_names();
        // Only the first place is tried when the writing holds no open
        // names; otherwise each place left, in order.
        for k in 0..rleft.len {
            if !rleft.has(k) || (!open && rleft.start + k != head) {
                continue;
            }
            let si = rleft.start + k;
            rleft.take(k);
            for sd in 0..sides[si].count {
                let mark = key.len();
                if !key.is_empty() {
                    key.push(REGION);
                }
                let side = sides[si].side(self.store, sd);
                // The isolated spots first, each a step of the tie budget
                // as when they were boundaries like any other (so the
                // keys cut short by the budget stay the same).
                let mut cut = false;
                for z in 0..side.zeros {
                    if self.cut(key) {
                        cut = true;
                        break;
                    }
                    if z > 0 {
                        key.push(BOUNDARY);
                    }
                    key.push(b'0');
                }
                if !cut {
                    let mut bleft = Places::group(side.groups.first().copied().unwrap_or((0, 0)));
                    let first = side.zeros == 0;
                    self.bounds_step(gi, rleft, si, sd, 0, &mut bleft, first, names, key);
                }
                self.back(key, mark);
            }
            rleft.put(k);
        }
    }

    /// Writes the boundaries left of one region's side, trying each
    /// writing a tie allows; `names` is handed back as it came (names
    /// given below are taken back, not copied: a copy per branch was a
    /// third of the tie search).
    #[allow(clippy::too_many_arguments)]
    fn bounds_step(
        &mut self,
        gi: usize,
        rleft: &mut Places,
        si: usize,
        sd: usize,
        bg: usize,
        bleft: &mut Places,
        first: bool,
        names: &mut Names,
        key: &mut Vec<u8>,
    ) {
        let sides = self.sides;
        let side = sides[si].side(self.store, sd);
        if bleft.is_empty() {
            let bg = bg + 1;
            if bg >= side.groups.len() {
                return self.regions_step(gi, rleft, names, key);
            }
            let mut next = Places::group(side.groups[bg]);
            return self.bounds_step(gi, rleft, si, sd, bg, &mut next, first, names, key);
        }
        if self.cut(key) {
            return;
        }
        let region = self.regions[sides[si].region];
        let r = sides[si].region;
        let sym = &self.syms[r * self.spots..(r + 1) * self.spots];
        let head = bleft.first();
        let open = open_names(&side.bounds[head].sig);
        let single = !open || (!bleft.several() && side.bounds[head].starts.len() == 1);
        if single {
            // No choice: write on.
            let k = head - bleft.start;
            bleft.take(k);
            let l = &side.bounds[head];
            let mark = key.len();
            if !first {
                key.push(BOUNDARY);
            }
            let given = names.next;
            names.write(&region[l.index], side.reverse, l.starts[0], sym, key);
            self.bounds_step(gi, rleft, si, sd, bg, bleft, false, names, key);
            names.take_back(given);
            self.back(key, mark);
            bleft.put(k);
            return;
        }
        // Each place left in turn, in order.
        for k in 0..bleft.len {
            if !bleft.has(k) {
                continue;
            }
            let bi = bleft.start + k;
            bleft.take(k);
            let l = &side.bounds[bi];
            let starts = if open { &l.starts[..] } else { &l.starts[..1] };
            for &s in starts {
                let mark = key.len();
                if !first {
                    key.push(BOUNDARY);
                }
                let given = names.next;
                names.write(&region[l.index], side.reverse, s, sym, key);
                self.bounds_step(gi, rleft, si, sd, bg, bleft, false, names, key);
                names.take_back(given);
                self.back(key, mark);
            }
            bleft.put(k);
        }
    }
}

/// Places (of regions or boundaries) still to write in a tie group
/// `start..start + len`, as a bit set: the places left are always taken
/// in increasing order, so a set gives the same order as the list it
/// replaces, without collecting the group into a list for every group
/// of every writing tried, nor shifting it at every step (the list's
/// making, `remove` and `insert` were about 7% of the instructions of
/// nimber n = 8).
struct Places {
    start: usize,
    len: usize,
    /// Places `start..start + 64`, a bit each.
    low: u64,
    /// The places past those, 64 a word: empty (no allocation) for the
    /// groups of 64 or fewer that every real land has.
    high: Vec<u64>,
}

impl Places {
    /// Every place of the group `a..b` left.
    fn group((a, b): (usize, usize)) -> Places {
        let len = b.saturating_sub(a);
        let word = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let high = if len > 64 {
            (64..len).step_by(64).map(|k| word(len - k)).collect()
        } else {
            Vec::new()
        };
        Places {
            start: a,
            len,
            low: word(len),
            high,
        }
    }

    fn is_empty(&self) -> bool {
        self.low == 0 && self.high.iter().all(|&w| w == 0)
    }

    /// Whether more than one place is left.
    fn several(&self) -> bool {
        let high: u32 = self.high.iter().map(|w| w.count_ones()).sum();
        self.low.count_ones() + high > 1
    }

    /// The first place left (the group must not be empty).
    fn first(&self) -> usize {
        if self.low != 0 {
            return self.start + self.low.trailing_zeros() as usize;
        }
        for (i, &w) in self.high.iter().enumerate() {
            if w != 0 {
                return self.start + 64 * (i + 1) + w.trailing_zeros() as usize;
            }
        }
        self.start
    }

    /// The word holding place `start + k`, and its bit there.
    fn word(&mut self, k: usize) -> (&mut u64, u64) {
        let bit = 1u64 << (k % 64);
        if k < 64 {
            (&mut self.low, bit)
        } else {
            (&mut self.high[k / 64 - 1], bit)
        }
    }

    /// Whether place `start + k` is left.
    fn has(&mut self, k: usize) -> bool {
        let (w, bit) = self.word(k);
        *w & bit != 0
    }

    /// Takes place `start + k` out.
    fn take(&mut self, k: usize) {
        let (w, bit) = self.word(k);
        *w &= !bit;
    }

    /// Puts place `start + k` back.
    fn put(&mut self, k: usize) {
        let (w, bit) = self.word(k);
        *w |= bit;
    }
}

/// Names given so far: per spot, its name index, or `u8::MAX`; and per
/// name index, its spot (so names can be taken back).
struct Names {
    of: [u8; 256],
    spot: [u8; 256],
    next: u8,
}

impl Names {
    fn new() -> Names {
        Names {
            of: [u8::MAX; 256],
            spot: [0; 256],
            next: 0,
        }
    }

    /// Writes boundary `b` from `start` with final names, giving new names
    /// in order of appearance. Inlined where it is called (the tie search
    /// and the writing of a key without ties): when the compiler made it a
    /// call of its own, nimber n = 8 took 1,404 million instructions
    /// against 1,397 inlined.
    #[inline(always)]
    fn write(&mut self, b: &[u8], reverse: bool, start: usize, sym: &[u8], out: &mut Vec<u8>) {
        let m = b.len();
        for t in 0..m {
            let i = around(start, t, m, reverse);
            let v = b[i] as usize;
            let c = sym[v];
            if c == b'0' || c == b'1' || c == b'2' {
                out.push(c);
            } else {
                if self.of[v] == u8::MAX {
                    self.of[v] = self.next;
                    self.spot[self.next as usize] = v as u8;
                    self.next += 1;
                }
                out.push(NAME0 + self.of[v]);
            }
        }
    }

    /// Forgets the names given since `next` was `given`.
    fn take_back(&mut self, given: u8) {
        for k in given..self.next {
            self.of[self.spot[k as usize] as usize] = u8::MAX;
        }
        self.next = given;
    }
}

/// The start of the least rotation of `s` (the first, on a tie).
fn least_rotation(s: &[u8]) -> usize {
    // One or two bytes: the lesser first (most boundaries are this short).
    if s.len() <= 2 {
        return usize::from(s.len() == 2 && s[1] < s[0]);
    }
    // Only starts at the least byte can win.
    let low = s.iter().copied().min().unwrap_or(0);
    let mut best = usize::MAX;
    for i in 0..s.len() {
        if s[i] != low {
            continue;
        }
        if best == usize::MAX {
            best = i;
            continue;
        }
        let new = s[i..].iter().chain(&s[..i]);
        let old = s[best..].iter().chain(&s[..best]);
        if new.lt(old) {
            best = i;
        }
    }
    best.min(s.len().saturating_sub(1))
}

/// A region's shape, for its class: each boundary written with every
/// name read alike (a shared one as `SHARED`, one with both corners on
/// the boundary as `a`) from its least rotation, hashed; the hashes
/// sorted, the lesser of the two ways round hashed together. It depends
/// only on the region, not on how it is numbered, ordered, cut or
/// mirrored; regions that differ only in their names may share a class
/// (and a rare shared hash joins two classes), which the tie search then
/// sorts. Classes from the regions' signatures computed both ways, as
/// before, cost a second pass of signatures for every key of several
/// regions; writing each boundary's least signature in full here cost
/// more than it saved (see `docs/rules/sprouts.md`).
fn region_shape(region: &[Vec<u8>], sym: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut ways: [SmallVec<[u64; 8]>; 2] = [SmallVec::new(), SmallVec::new()];
    // Each boundary's coarse writing is written twice over in one buffer,
    // so that any rotation of it is one slice (no copy to hash it); the
    // stack holds the usual short boundaries, a vector the rare long one.
    let mut stack = [0u8; 64];
    let mut heap: Vec<u8> = Vec::new();
    let read = |v: u8| match sym[v as usize] {
        255 => b'a',
        c => c,
    };
    let hash = |twice: &[u8]| {
        let m = twice.len() / 2;
        let r0 = least_rotation(&twice[..m]);
        let mut h = Mix::default();
        h.write(&twice[r0..r0 + m]);
        h.finish()
    };
    for b in region {
        let m = b.len();
        let twice: &mut [u8] = if 2 * m <= stack.len() {
            &mut stack[..2 * m]
        } else {
            heap.resize(2 * m, 0);
            &mut heap[..]
        };
        for (t, &v) in b.iter().enumerate() {
            let c = read(v);
            twice[t] = c;
            twice[t + m] = c;
        }
        let forwards = hash(twice);
        ways[0].push(forwards);
        // One hash serves both ways.
        if reads_same_backwards(b) {
            ways[1].push(forwards);
            continue;
        }
        twice.reverse();
        ways[1].push(hash(twice));
    }
    shape_of_ways(ways)
}

/// A region's shape from its boundaries' hashes read forwards (`ways[0]`)
/// and backwards (`ways[1]`): the lesser of the two sorted lists, hashed,
/// so that a mirrored region has the same shape.
fn shape_of_ways(mut ways: [SmallVec<[u64; 8]>; 2]) -> u64 {
    use std::hash::Hasher;
    ways[0].sort_unstable();
    ways[1].sort_unstable();
    let least = if ways[1] < ways[0] {
        &ways[1]
    } else {
        &ways[0]
    };
    let mut h = Mix::default();
    for &x in least {
        h.write_usize(x as usize);
    }
    h.finish()
}

/// Bytes per spot of a land being keyed (per region, a row of them): on
/// the stack for the small lands most keys are made for.
type SpotBytes = SmallVec<[u8; 128]>;

thread_local! {
    /// The buffers [`canon`] fills for each key (its regions' sides, and
    /// the signatures' scratch), kept from key to key: fresh ones were
    /// allocations for every key.
    static CANON_BUFFERS: std::cell::Cell<(Vec<Side>, Scratch)> =
        std::cell::Cell::new((Vec::new(), Scratch::default()));
}

/// The key of one land given as its regions.
pub(crate) fn canon(regions: &[&Vec<Vec<u8>>], lives: &[u8]) -> Key {
    let (mut store, mut sc) = CANON_BUFFERS.with(|b| b.take());
    store.clear();
    let key = canon_in(regions, lives, &mut store, &mut sc);
    CANON_BUFFERS.with(|b| b.set((store, sc)));
    key
}

/// [`canon`], the regions' sides written in `store`.
fn canon_in(
    regions: &[&Vec<Vec<u8>>],
    lives: &[u8],
    store: &mut Vec<Side>,
    sc: &mut Scratch,
) -> Key {
    let nv = lives.len();
    let mut count = [0u8; 256];
    // The key's length: a byte per corner and one between boundaries.
    let mut len = 0;
    for r in regions {
        for b in r.iter() {
            len += b.len() + 1;
            for &v in b {
                count[v as usize] += 1;
            }
        }
    }
    // Each spot's byte; a name seen a second time in the same boundary
    // has both corners there (255, numbered inside the boundary).
    let mut home = [u32::MAX; 256];
    let mut sym: SpotBytes = SmallVec::from_elem(0, nv);
    let mut bid = 0u32;
    for r in regions {
        for b in r.iter() {
            for &v in b {
                let vi = v as usize;
                sym[vi] = match lives[vi] {
                    3 => b'0',
                    2 => b'1',
                    _ if count[vi] == 1 => b'2',
                    _ if home[vi] == bid => 255,
                    _ => {
                        home[vi] = bid;
                        SHARED
                    }
                };
            }
            bid += 1;
        }
    }
    let nr = regions.len();
    // Each region's spot bytes: a row of `nv` per region, in one buffer
    // (a vector per region was an allocation per region of every key).
    let mut syms: SpotBytes;
    if nr == 1 {
        syms = sym;
    } else {
        // A region's class: the rank of its shape (see `region_shape`)
        // among the land's distinct ones. The shape reads the same however
        // the land is numbered, ordered, cut or mirrored, and costs far
        // less than the region's signatures, which were computed twice
        // for this before (once unmarked, once marked).
        let shapes: SmallVec<[u64; 8]> = regions.iter().map(|r| region_shape(r, &sym)).collect();
        let mut distinct = shapes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let classes: SmallVec<[u8; 8]> = shapes
            .iter()
            .map(|x| distinct.binary_search(x).unwrap_or(0).min(126) as u8)
            .collect();
        // A shared name is marked with the class of the region holding
        // its other corner.
        let mut at: SmallVec<[[u8; 2]; 64]> = SmallVec::from_elem([u8::MAX; 2], nv);
        for (ri, r) in regions.iter().enumerate() {
            for &v in r.iter().flatten() {
                let a = &mut at[v as usize];
                if a[0] == u8::MAX {
                    a[0] = ri as u8;
                } else if a[0] != ri as u8 {
                    a[1] = ri as u8;
                }
            }
        }
        syms = SmallVec::with_capacity(nr * nv);
        for (ri, r) in regions.iter().enumerate() {
            let row = syms.len();
            syms.extend_from_slice(&sym);
            let sr = &mut syms[row..];
            for &v in r.iter().flatten() {
                let vi = v as usize;
                if sym[vi] == SHARED {
                    let [a, b] = at[vi];
                    let other = if a as usize == ri { b } else { a };
                    sr[vi] = SHARED_CLASS + classes.get(other as usize).copied().unwrap_or(0);
                }
            }
        }
    }
    let row = |i: usize| &syms[i * nv..(i + 1) * nv];
    // Each region's least side (both when mirroring gives the same
    // signature), regions in signature order.
    let mut sides: SmallVec<[Ways; 8]> = SmallVec::new();
    for (i, r) in regions.iter().enumerate() {
        let at = store.len();
        let (stored, count) = if !sides_of(r, row(i), sc, store) {
            (1, 2)
        } else {
            match store[at].order(&store[at + 1]) {
                std::cmp::Ordering::Less => {
                    store.pop();
                    (1, 1)
                }
                std::cmp::Ordering::Greater => {
                    store.swap_remove(at);
                    (1, 1)
                }
                std::cmp::Ordering::Equal => (2, 2),
            }
        };
        sides.push(Ways {
            region: i,
            at,
            stored,
            count,
        });
    }
    let store = &store[..];
    sides.sort_by(|a, b| a.first(store).order(b.first(store)));
    // A region whose second side is not made (it writes as the first:
    // see `sides_of`) has one writing however it is turned, so it ties
    // with nothing: the tie search would only write the same key again
    // (at normal n = 8, one key in ten went through the tie search for
    // this alone; the keys are the same either way).
    let no_ties = sides.iter().all(|w| {
        (w.count == 1 || w.stored == 1 || !w.first(store).shares())
            && !side_has_ties(w.first(store))
    }) && sides
        .windows(2)
        .all(|w| w[0].first(store).order(w[1].first(store)).is_ne());
    if no_ties {
        // Nothing to choose: write the regions as they come.
        let mut names = Names::new();
        let mut key: Vec<u8> = Vec::with_capacity(len);
        for (k, w) in sides.iter().enumerate() {
            if k > 0 {
                key.push(REGION);
            }
            let side = w.first(store);
            let wrote = side.write_zeros(&mut key);
            for (j, l) in side.bounds.iter().enumerate() {
                if j > 0 || wrote {
                    key.push(BOUNDARY);
                }
                names.write(
                    &regions[w.region][l.index],
                    side.reverse,
                    l.starts[0],
                    row(w.region),
                    &mut key,
                );
            }
        }
        return key.into();
    }
    let groups = runs(sides.len(), |a, b| {
        sides[a].first(store).order(sides[b].first(store)).is_eq()
    });
    let mut names = Names::new();
    let (a, b) = groups[0];
    let mut exact = Exact {
        regions,
        syms: &syms,
        spots: nv,
        store,
        sides: &sides,
        groups,
        best: None,
        budget: tie_budget(),
        same: 0,
    };
    let mut key: Vec<u8> = Vec::with_capacity(len);
    let mut first = Places::group((a, b));
    exact.regions_step(0, &mut first, &mut names, &mut key);
    let key = exact.best.unwrap_or_default();
    key.into()
}

/// The positions one move away from a land, each as its lands' keys
/// (sorted), without repeats.
#[cfg(test)]
pub(crate) fn children(key: &[u8]) -> Vec<Vec<Key>> {
    let mut out = Vec::new();
    visit_children(key, false, false, &mut |k| {
        out.push(k);
        false
    });
    out
}

/// Hands each position one move away from a land to `f` (its lands' keys,
/// sorted; each position once) until `f` returns true; returns whether it
/// did. A search that finds a winning option among the first ones spares
/// the work of making the rest. With `bridges_first`, the moves that use a
/// spot tying two regions together come first (see below).
pub(crate) fn visit_children(
    key: &[u8],
    bridges_first: bool,
    stand_ins: bool,
    f: &mut dyn FnMut(Vec<Key>) -> bool,
) -> bool {
    let w = parse(key);
    #[cfg(test)]
    let twins_allowed = !KEEP_TWINS.with(|k| k.get());
    #[cfg(not(test))]
    let twins_allowed = true;
    // A land whose boundaries all have two corners or fewer reads the
    // same backwards, spot for spot: it is its own mirror image, which
    // makes some dividing moves come in twins (see `split` below).
    let mirrored = twins_allowed && w.regions.iter().flatten().all(|b| reads_same_backwards(b));
    // Sized for a typical land's children (about 35, half of them twins):
    // growing from empty rehashed it several times for each land.
    let mut seen: HashSet<Vec<Key>, BuildHasherDefault<Mix>> =
        HashSet::with_capacity_and_hasher(64, BuildHasherDefault::default());
    let mut stop = false;
    // Every child is made in this one work position, copied over from the
    // parent, which keeps the buffers of the last child.
    let mut scratch = Child::default();
    let mut lands: Vec<Key> = Vec::new();
    let mut emit = |w: &mut Work| -> bool {
        if stop {
            return true;
        }
        lands.clear();
        #[cfg(test)]
        MADE.with(|m| m.set(m.get() + 1));
        finish_in(w, &mut lands, stand_ins);
        lands.sort_unstable();
        // Inserted at once (one hashing), the copy given on only if new.
        if seen.insert(lands.clone()) {
            stop = f(lands.clone());
        }
        stop
    };
    let v = w.lives.len() as u8;
    let mut count = [0u8; 256];
    for &s in w.regions.iter().flatten().flatten() {
        count[s as usize] += 1;
    }
    // Spots of one life with corners in two regions tie their regions
    // together: a move using one kills it, and may cut its land in two.
    // Those moves are made first: a child of several lands is the one
    // most often known already to lose for the opponent (at normal
    // n = 8, 1,325 of the 1,844 lands won by a known child; 4.2 children
    // are now made up to that child on average, 7.5 before).
    let mut home = [u16::MAX; 256];
    let mut bridge = [false; 256];
    for (r, region) in w.regions.iter().enumerate() {
        for &s in region.iter().flatten() {
            let h = &mut home[s as usize];
            if *h == u16::MAX {
                *h = r as u16;
            } else if *h != r as u16 {
                bridge[s as usize] = true;
            }
        }
    }
    // (Not in misère play: its search took 1.5 times as long over n = 1
    // to 9 with this order, its path moved.)
    let passes = if bridges_first && bridge.contains(&true) {
        2
    } else {
        1
    };
    // What the moves need of each region's symmetries, read once for both
    // passes.
    let symmetries: SmallVec<[RegionSymmetry; 8]> = (0..w.regions.len())
        .map(|r| region_symmetry(&w, r, &count, twins_allowed))
        .collect();
    for pass in 0..passes {
        let wanted =
            |x: u8, y: u8| passes == 1 || (bridge[x as usize] || bridge[y as usize]) == (pass == 0);
        for r in 0..w.regions.len() {
            let region = &w.regions[r];
            let nb = region.len();
            let RegionSymmetry {
                shapes,
                turn,
                gid,
                rank,
            } = &symmetries[r];
            let back = |b: usize, k: usize| -> usize {
                let m = region[b].len();
                (turn[b] + m - k) % m
            };
            let mirrorable = !turn.is_empty();
            // Joining moves: a line between two boundaries of the region.
            for b1 in 0..nb {
                for b2 in b1 + 1..nb {
                    let first = if gid[b1] == gid[b2] {
                        rank[b1] == 0 && rank[b2] == 1
                    } else {
                        rank[b1] == 0 && rank[b2] == 0
                    };
                    if !first {
                        continue;
                    }
                    let (p, q) = (&region[b1], &region[b2]);
                    // Every corner of a reduced boundary is live; of corners
                    // that a turn of their boundary maps onto each other,
                    // only the first is joined.
                    for i in 0..shapes[b1].period {
                        for j in 0..shapes[b2].period {
                            let (x, y) = (p[i], q[j]);
                            if !wanted(x, y) {
                                continue;
                            }
                            if mirrorable {
                                let (i2, j2) = (back(b1, i), back(b2, j));
                                if (i2, j2) < (i, j)
                                    && i2 < shapes[b1].period
                                    && j2 < shapes[b2].period
                                {
                                    continue;
                                }
                            }
                            scratch.copy_from(&w);
                            let Child {
                                work: c,
                                spare_bounds,
                                ..
                            } = &mut scratch;
                            // The two boundaries out (the later first), the
                            // joined one in, written in the later one's buffer;
                            // the others stay where they were.
                            let nr = &mut c.regions[r];
                            let mut joined = nr.remove(b2);
                            spare_bounds.push(nr.remove(b1));
                            joined.clear();
                            joined.push(v);
                            joined.extend(p[i..].iter().chain(&p[..i]));
                            if w.lives[x as usize] < 3 {
                                joined.push(x);
                            }
                            joined.push(v);
                            joined.extend(q[j..].iter().chain(&q[..j]));
                            if w.lives[y as usize] < 3 {
                                joined.push(y);
                            }
                            nr.push(joined);
                            c.lives[x as usize] -= 1;
                            c.lives[y as usize] -= 1;
                            c.lives.push(1);
                            if emit(c) {
                                return true;
                            }
                        }
                    }
                }
            }
            // Dividing moves: a curve from a boundary back to it.
            for bi in 0..nb {
                if rank[bi] != 0 {
                    continue;
                }
                let b = &region[bi];
                let m = b.len();
                let others: Group = (0..nb).filter(|&k| k != bi).collect();
                let groups = interchangeable(shapes, &others);
                let period = shapes[bi].period;
                // The ways of sending the other boundaries to side 2 (so many
                // of each group); a count past `u64` is never halved.
                let ways: u64 = groups
                    .iter()
                    .fold(1u64, |a, g| a.saturating_mul(g.len() as u64 + 1));
                // `twins`: the two sides are alike (or mirror images in a
                // mirrored land), so sending some boundaries to side 2 gives
                // the position that sending the rest gives. The ways are
                // counted so that the rest of way `t` is way `ways - 1 - t`,
                // so only the first half is made (about half the children of
                // such a move were such twins, found only after reduction,
                // writing and look-up).
                let mut split =
                    |x: u8, y: u8, side1: &[u8], side2: &[u8], twice: bool, twins: bool| {
                        let mut counts: SmallVec<[usize; 8]> = SmallVec::from_elem(0, groups.len());
                        let mut step = 0u64;
                        loop {
                            if twins && step.saturating_mul(2) > ways - 1 {
                                return false;
                            }
                            step += 1;
                            scratch.copy_from(&w);
                            let mut r2 = scratch.spare_regions.pop().unwrap_or_default();
                            let side2 = spare_bound(&mut scratch.spare_bounds, side2);
                            let c = &mut scratch.work;
                            if twice {
                                c.lives[x as usize] -= 2;
                            } else {
                                c.lives[x as usize] -= 1;
                                c.lives[y as usize] -= 1;
                            }
                            c.lives.push(1);
                            // Region r keeps its buffers: the divided boundary
                            // becomes side 1, the boundaries moved to side 2 leave
                            // empty places, dropped after.
                            let r1 = &mut c.regions[r];
                            r2.push(side2);
                            for (g, &n) in groups.iter().zip(&counts) {
                                for &s in &g[n.min(g.len())..] {
                                    r2.push(std::mem::take(&mut r1[s]));
                                }
                            }
                            r1[bi].clear();
                            r1[bi].extend_from_slice(side1);
                            r1.retain(|b| !b.is_empty());
                            c.regions.push(r2);
                            if emit(c) {
                                return true;
                            }
                            let mut g = 0;
                            while g < groups.len() && counts[g] == groups[g].len() {
                                counts[g] = 0;
                                g += 1;
                            }
                            if g == groups.len() {
                                return false;
                            }
                            counts[g] += 1;
                        }
                    };
                for i in 0..m {
                    let x = b[i];
                    let lx = w.lives[x as usize];
                    // A loop from one corner: nothing of this boundary inside.
                    let mirrored_loop = mirrorable && m >= 2 && {
                        let i2 = back(bi, i);
                        i2 < i && i2 < period
                    };
                    if lx >= 2 && i < period && wanted(x, x) && !mirrored_loop {
                        // Sides are written on the stack: a vector for each
                        // was an allocation for every dividing move.
                        let side2: Side2 = if lx == 3 {
                            SmallVec::from_slice(&[v, x])
                        } else {
                            let mut s = Side2::new();
                            s.push(v);
                            s.extend_from_slice(&b[i..]);
                            s.extend_from_slice(&b[..i]);
                            s.push(x);
                            s
                        };
                        // A loop on a boundary of one spot: both sides are
                        // the new spot and that spot (dead on both, or alive
                        // with a corner on each), alike, in any land.
                        let twins = twins_allowed && m == 1;
                        if split(x, x, &[v, x], &side2, true, twins) {
                            return true;
                        }
                    }
                    // A curve between two corners: each side takes one arc.
                    for j in i + 1..m {
                        let y = b[j];
                        if y == x || !first_of_turns(i, j, m, period) || !wanted(x, y) {
                            continue;
                        }
                        if mirrorable && m >= 3 {
                            let (a, c) = (back(bi, i), back(bi, j));
                            let (i2, j2) = (a.min(c), a.max(c));
                            if (i2, j2) < (i, j) && first_of_turns(i2, j2, m, period) {
                                continue;
                            }
                        }
                        let mut s1 = Side2::new();
                        s1.push(v);
                        s1.extend_from_slice(&b[i..=j]);
                        let mut s2 = Side2::new();
                        s2.push(v);
                        s2.extend_from_slice(&b[j..]);
                        s2.extend_from_slice(&b[..=i]);
                        // Across a boundary of two corners the sides are
                        // `v x y` and `v y x`, mirror images: in a mirrored
                        // land, the mirror image of one way is the other.
                        let twins = mirrored && m == 2;
                        if split(x, y, &s1, &s2, false, twins) {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

/// What move generation needs of a region's symmetries.
struct RegionSymmetry {
    /// Each boundary's symmetry ([`Shape`]), the turn of a boundary tied to
    /// the rest of the land included ([`land_period`]).
    shapes: SmallVec<[Shape; 8]>,
    /// Each boundary's mirror turn, if the region is its own mirror image
    /// ([`region_mirror`]); else empty.
    turn: SmallVec<[usize; 8]>,
    /// Interchangeable boundaries ([`interchangeable`]): each boundary's
    /// group and its place in the group. Only the first of a group is
    /// divided or joined (the first two, for a join inside one group).
    gid: Group,
    rank: Group,
}

/// The symmetries of region `r` of `w`; none with `twins_allowed` off (a
/// test makes every move).
fn region_symmetry(w: &Work, r: usize, count: &[u8; 256], twins_allowed: bool) -> RegionSymmetry {
    let region = &w.regions[r];
    let nb = region.len();
    let mut shapes: SmallVec<[Shape; 8]> = region
        .iter()
        .map(|b| {
            if twins_allowed {
                shape_of(b, &w.lives, count)
            } else {
                Shape {
                    writing: None,
                    period: b.len(),
                }
            }
        })
        .collect();
    let mut turn = SmallVec::new();
    if twins_allowed {
        for (bi, shape) in shapes.iter_mut().enumerate() {
            if shape.writing.is_none() {
                shape.period = land_period(w, r, bi, count);
            }
        }
        turn = region_mirror(w, r, count);
    }
    let all: Group = (0..nb).collect();
    let mut gid: Group = SmallVec::from_elem(0, nb);
    let mut rank: Group = SmallVec::from_elem(0, nb);
    for (g, members) in interchangeable(&shapes, &all).iter().enumerate() {
        for (k, &b) in members.iter().enumerate() {
            gid[b] = g;
            rank[b] = k;
        }
    }
    RegionSymmetry {
        shapes,
        turn,
        gid,
        rank,
    }
}

/// The least turn of boundary `bi` of region `r` (a divisor of its corners)
/// that, carried over to the other corners of the boundary's spots, maps
/// the whole land onto itself: every spot to one of the same lives and
/// corners, every boundary to a boundary of the same region read the same
/// way round. The spots elsewhere stay where they are, so the other
/// boundaries of region `r` (which share no spot with this one: a spot's
/// corners in one region lie on one boundary) are untouched, and a move at
/// corners `k` of this boundary has its like at corners `k + turn`: the
/// same use of a boundary's `period` as for a boundary tied to nothing
/// ([`Shape`]). The boundary's own length when no turn does.
fn land_period(w: &Work, r: usize, bi: usize, count: &[u8; 256]) -> usize {
    let b = &w.regions[r][bi];
    let m = b.len();
    'turns: for d in 1..m {
        if !m.is_multiple_of(d) {
            continue;
        }
        // The turn as a map of spots: `to[s]`, and back, `from[t]`.
        let (mut to, mut from) = ([u8::MAX; 256], [u8::MAX; 256]);
        let pairs = (0..m).map(|k| (b[k], b[(k + d) % m]));
        if !map_spots(w, count, pairs, &mut to, &mut from) {
            continue 'turns;
        }
        // Every other region holding a moved spot goes onto itself (`2AB`
        // beside `AB` is itself read backwards with `A` and `B` exchanged).
        if !others_go_onto_themselves(w, r, &to) {
            continue 'turns;
        }
        return d;
    }
    m
}

/// For each boundary of region `r`, a turn `c` such that reading every
/// boundary of the region backwards, corner `k` to corner `(c - k) mod m`,
/// maps the whole land onto itself, if every boundary has one; else empty.
/// The mirror may exchange spots (of the same lives and corners: `11A1A`
/// read backwards from its second corner is itself with its first two
/// spots exchanged) as long as the land stays the same: every other
/// region holding an exchanged spot goes onto itself, read either way
/// round (each region's direction is free). A move at corners `k` then
/// has its mirror image at corners `(c - k) mod m`, which gives an
/// equivalent position.
fn region_mirror(w: &Work, r: usize, count: &[u8; 256]) -> SmallVec<[usize; 8]> {
    let region = &w.regions[r];
    let mut turns = SmallVec::new();
    // The mirror as a map of spots: `to[s]` (unset: `s` stays).
    let (mut to, mut from) = ([u8::MAX; 256], [u8::MAX; 256]);
    let mut moved = false;
    for b in region {
        let m = b.len();
        // A mirror keeping every spot in place first: it asks nothing of
        // the rest of the land.
        if let Some(c) = (0..m).find(|&c| (0..m).all(|k| b[k] == b[(c + m - k) % m])) {
            turns.push(c);
            continue;
        }
        // The spots of `b` are its own (a spot's corners in one region
        // lie on one boundary), so each boundary's map is made apart.
        let mut found = None;
        for c in 0..m {
            let (mut t, mut f) = (to, from);
            let pairs = (0..m).map(|k| (b[k], b[(c + m - k) % m]));
            if map_spots(w, count, pairs, &mut t, &mut f) {
                (to, from) = (t, f);
                found = Some(c);
                break;
            }
        }
        match found {
            Some(c) => {
                turns.push(c);
                moved = true;
            }
            None => return SmallVec::new(),
        }
    }
    if !moved || others_go_onto_themselves(w, r, &to) {
        turns
    } else {
        SmallVec::new()
    }
}

/// Adds to the map of spots `to` (and its inverse `from`; unset:
/// `u8::MAX`) each pair `(s, t)` of `pairs`, spot `s` going to spot `t`;
/// whether every pair fits: `t` has the lives and corners of `s`, and
/// neither is sent elsewhere or reached from elsewhere already.
fn map_spots(
    w: &Work,
    count: &[u8; 256],
    pairs: impl Iterator<Item = (u8, u8)>,
    to: &mut [u8; 256],
    from: &mut [u8; 256],
) -> bool {
    for (s, t) in pairs {
        let (si, ti) = (s as usize, t as usize);
        if w.lives[si] != w.lives[ti]
            || count[si] != count[ti]
            || (to[si] != u8::MAX && to[si] != t)
            || (from[ti] != u8::MAX && from[ti] != s)
        {
            return false;
        }
        to[si] = t;
        from[ti] = s;
    }
    true
}

/// Whether the map of spots `to` (unset: the spot stays) carries every
/// region of the land but `r` onto itself: each boundary holding a moved
/// spot onto a boundary of its region read the same way round from some
/// corner, or the whole region onto itself read backwards (each region's
/// direction is free).
fn others_go_onto_themselves(w: &Work, r: usize, to: &[u8; 256]) -> bool {
    let image = |s: u8| {
        if to[s as usize] == u8::MAX {
            s
        } else {
            to[s as usize]
        }
    };
    let moved = |o: &Vec<u8>| o.iter().any(|&s| to[s as usize] != u8::MAX);
    w.regions.iter().enumerate().all(|(ri, region)| {
        ri == r
            || !region.iter().any(moved)
            || region
                .iter()
                .filter(|o| moved(o))
                .all(|o| lands_on(o, region, false, &image))
            || region.iter().all(|o| lands_on(o, region, true, &image))
    })
}

/// Whether boundary `o`, its spots mapped by `image`, is one of the
/// boundaries `onto` read from some corner, forwards or backwards.
fn lands_on(o: &[u8], onto: &[Vec<u8>], backwards: bool, image: &impl Fn(u8) -> u8) -> bool {
    let n = o.len();
    onto.iter().any(|p| {
        p.len() == n
            && (0..n).any(|start| {
                (0..n).all(|k| {
                    let at = if backwards {
                        (start + n - k) % n
                    } else {
                        (start + k) % n
                    };
                    p[at] == image(o[k])
                })
            })
    })
}

/// One side of a dividing move, as it is built.
type Side2 = SmallVec<[u8; 32]>;

/// What move generation needs of a boundary's symmetry.
struct Shape {
    /// Its least writing over its turns (a spot written once by its
    /// lives, names from 4 up in order of appearance), if nothing ties it
    /// to the rest of the land (each of its names has both corners in
    /// it); `None` otherwise.
    writing: Option<SmallVec<[u8; 16]>>,
    /// The least turn (in corners) that maps the boundary onto itself:
    /// its corners `i` and `i + period` are alike.
    period: usize,
}

/// A boundary's writing from corner `start` (see [`Shape`]).
fn writing_from(
    b: &[u8],
    start: usize,
    lives: &[u8],
    count: &[u8; 256],
    out: &mut SmallVec<[u8; 16]>,
) {
    out.clear();
    let m = b.len();
    let mut names: SmallVec<[u8; 16]> = SmallVec::new();
    for t in 0..m {
        let s = b[around(start, t, m, false)];
        if count[s as usize] == 1 {
            out.push(lives[s as usize]);
        } else {
            let k = match names.iter().position(|&n| n == s) {
                Some(k) => k,
                None => {
                    names.push(s);
                    names.len() - 1
                }
            };
            out.push(4 + k as u8);
        }
    }
}

/// A boundary's [`Shape`]; `count` gives each spot's corners in the land.
/// A boundary whose names all have both corners in it shares no spot with
/// the rest of the land, so turning it onto itself, or exchanging it with
/// another written alike, changes nothing else: moves at alike corners or
/// boundaries give one position, made once. (Without this, 45% of the
/// positions made at normal n = 8 were repeats of a sibling, found only
/// after reduction, writing and look-up.)
fn shape_of(b: &[u8], lives: &[u8], count: &[u8; 256]) -> Shape {
    let m = b.len();
    let free = b
        .iter()
        .all(|&s| count[s as usize] == 1 || b.iter().filter(|&&u| u == s).count() == 2);
    if !free {
        return Shape {
            writing: None,
            period: m,
        };
    }
    let mut first = SmallVec::new();
    writing_from(b, 0, lives, count, &mut first);
    let mut least = first.clone();
    let mut other = SmallVec::new();
    let mut period = m;
    for d in 1..m {
        writing_from(b, d, lives, count, &mut other);
        if period == m && m.is_multiple_of(d) && other == first {
            period = d;
        }
        if other < least {
            std::mem::swap(&mut least, &mut other);
        }
    }
    Shape {
        writing: Some(least),
        period,
    }
}

/// Whether the corners `i < j` of a boundary of `m` corners that maps
/// onto itself by turns of `period` are the first pair of their kind
/// (no turn maps them onto a pair that comes earlier).
fn first_of_turns(i: usize, j: usize, m: usize, period: usize) -> bool {
    let mut d = period;
    while d < m {
        let (a, b) = ((i + d) % m, (j + d) % m);
        if (a.min(b), a.max(b)) < (i, j) {
            return false;
        }
        d += period;
    }
    true
}

/// The boundaries `others` of a region in groups whose members can be
/// exchanged without changing the position: boundaries tied to nothing
/// else in the land with the same least writing ([`Shape`]). Other
/// boundaries are groups of one.
fn interchangeable(shapes: &[Shape], others: &[usize]) -> Groups {
    let one = |k: usize| {
        let mut g = Group::new();
        g.push(k);
        g
    };
    // The groups of boundaries with a writing, in order of their first
    // member, then one group for each boundary without.
    let mut out = Groups::new();
    let mut writings: SmallVec<[&[u8]; 6]> = SmallVec::new();
    for &k in others {
        if let Some(w) = &shapes[k].writing {
            match writings.iter().position(|x| *x == &w[..]) {
                Some(g) => out[g].push(k),
                None => {
                    writings.push(w);
                    out.push(one(k));
                }
            }
        }
    }
    for &k in others {
        if shapes[k].writing.is_none() {
            out.push(one(k));
        }
    }
    out
}

/// Boundaries of a region that are alike ([`interchangeable`]), in groups;
/// kept on the stack, as most regions have a few boundaries (the vectors
/// were several allocations for every region of every land expanded).
type Group = SmallVec<[usize; 4]>;
type Groups = SmallVec<[Group; 6]>;

/// Writes a key for people and files: names as `A`-`Z`, `a`-`z`, then `{n}`.
pub(crate) fn show(key: &[u8]) -> String {
    let mut s = String::with_capacity(key.len());
    for &b in key {
        match b {
            b'0' | b'1' | b'2' | BOUNDARY | REGION | LAND | STAND_IN => s.push(b as char),
            _ => {
                let i = b.saturating_sub(NAME0) as u32;
                if i < 26 {
                    s.push(char::from(b'A' + i as u8));
                } else if i < 52 {
                    s.push(char::from(b'a' + (i - 26) as u8));
                } else {
                    s.push_str(&format!("{{{i}}}"));
                }
            }
        }
    }
    s
}

/// Reads what [`show`] wrote (the name bytes only; structure is checked
/// by [`check_key`]).
pub(crate) fn unshow(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '0' | '1' | '2' | '.' | '/' | '+' => out.push(c as u8),
            'A'..='Z' => out.push(NAME0 + (c as u8 - b'A')),
            'a'..='z' => out.push(NAME0 + 26 + (c as u8 - b'a')),
            '{' => {
                let digits: String = chars.by_ref().take_while(|&d| d != '}').collect();
                let i: usize = digits
                    .parse()
                    .map_err(|_| format!("bad name {{{digits}}}"))?;
                if i >= MAX_NAMES {
                    return Err(format!("name {{{i}}} out of range"));
                }
                out.push(NAME0 + i as u8);
            }
            _ => return Err(format!("unexpected character {c:?}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    /// A small xorshift generator from `seed`: each call gives a number
    /// below its argument (the tests need no crate's generator).
    fn below(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |m| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        }
    }

    /// The merging of small regions as it was first written (every
    /// region read whole, the counts cleared after each one): the one
    /// that reads less must merge exactly the same regions the same way.
    fn merge_plainly(regions: &mut [Vec<Vec<u8>>], lives: &[u8]) {
        let mut total = [0u8; 256];
        for &v in regions.iter().flatten().flatten() {
            total[v as usize] += 1;
        }
        let mut here = [0u8; 256];
        for region in regions.iter_mut() {
            if region.len() == 1 && region[0].len() <= 1 {
                continue;
            }
            let (mut sum, mut small) = (0u32, true);
            for &v in region.iter().flatten() {
                let l = lives[v as usize];
                small &= l != 3;
                if here[v as usize] == 0 {
                    sum += l as u32;
                }
                here[v as usize] += 1;
            }
            if small && sum <= 3 {
                let mut merged = Vec::new();
                for pass in 0..3 {
                    for &v in region.iter().flatten() {
                        let vi = v as usize;
                        if here[vi] == 0 {
                            continue;
                        }
                        let kind = if lives[vi] == 2 {
                            0
                        } else if here[vi] < total[vi] {
                            1
                        } else {
                            2
                        };
                        if kind == pass {
                            merged.push(v);
                            here[vi] = 0;
                        }
                    }
                }
                *region = vec![merged];
            } else {
                for &v in region.iter().flatten() {
                    here[v as usize] = 0;
                }
            }
        }
    }

    #[test]
    fn small_regions_merge_as_when_read_whole() {
        for seed in 1..3000u64 {
            let mut next = below(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            // Spots: a few with three or two lives (one corner), some
            // with one life and one or two corners, spread at random
            // over boundaries of a few regions.
            let spots = 1 + next(9) as usize;
            let mut lives = Vec::new();
            let mut corners = Vec::new();
            for v in 0..spots {
                let l = 1 + next(3) as u8;
                lives.push(l);
                let c = if l == 1 { 1 + next(2) } else { 1 };
                for _ in 0..c {
                    corners.push(v as u8);
                }
            }
            let nr = 1 + next(4) as usize;
            let mut regions: Vec<Vec<Vec<u8>>> = vec![Vec::new(); nr];
            for &v in &corners {
                let r = next(nr as u64) as usize;
                let nb = regions[r].len() as u64;
                let b = next(nb + 1) as usize;
                if b == regions[r].len() {
                    regions[r].push(Vec::new());
                }
                let at = next(regions[r][b].len() as u64 + 1) as usize;
                regions[r][b].insert(at, v);
            }
            regions.retain(|r| !r.is_empty());
            let mut plain = regions.clone();
            merge_plainly(&mut plain, &lives);
            merge_small_regions(&mut regions, &lives);
            assert_eq!(regions, plain, "seed {seed}, lives {lives:?}");
        }
    }

    /// A region's shape, which gives its class, does not change when the
    /// region is renumbered, its boundaries reordered and cut elsewhere,
    /// or the whole region mirrored.
    #[test]
    fn region_shapes_ignore_numbering_order_cuts_and_mirroring() {
        let mut next = below(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..500 {
            // Spot bytes: `0`, `1`, `2`, shared (`SHARED` or classed) and
            // names with both corners on one boundary (255).
            let bytes = [b'1', b'2', SHARED, SHARED_CLASS, SHARED_CLASS + 1, 255];
            let nb = 1 + next(4) as usize;
            let mut sym = Vec::new();
            let mut region: Vec<Vec<u8>> = Vec::new();
            for _ in 0..nb {
                let m = 1 + next(6) as usize;
                let b: Vec<u8> = (0..m)
                    .map(|_| {
                        sym.push(bytes[next(bytes.len() as u64) as usize]);
                        (sym.len() - 1) as u8
                    })
                    .collect();
                region.push(b);
            }
            // Renumber (reverse the ids), mirror, cut and reorder.
            let top = sym.len() as u8 - 1;
            let renamed: Vec<u8> = sym.iter().rev().copied().collect();
            let mut other: Vec<Vec<u8>> = region
                .iter()
                .map(|b| {
                    let mut b: Vec<u8> = b.iter().rev().map(|&v| top - v).collect();
                    let cut = next(b.len() as u64) as usize;
                    b.rotate_left(cut);
                    b
                })
                .collect();
            other.reverse();
            assert_eq!(region_shape(&region, &sym), region_shape(&other, &renamed));
        }
    }

    /// The written-out walk of a boundary of one or two corners gives the
    /// general walk's signature and starts, both ways, for every spot
    /// byte and for a name written twice.
    #[test]
    fn short_walks_as_the_general_walk() {
        let bytes = [
            b'0',
            b'1',
            b'2',
            SHARED,
            SHARED_CLASS,
            SHARED_CLASS + 1,
            255,
        ];
        let mut sc = Scratch::default();
        let same =
            |x: &Least, y: &Least| (&x.sig, &x.starts, x.index) == (&y.sig, &y.starts, y.index);
        for (i, &c) in bytes.iter().enumerate() {
            let sym = [c];
            for reverse in [false, true] {
                let want = least_rotations_walk(i, &[0], reverse, &sym, &mut sc);
                assert!(same(
                    &least_rotations(i, &[0], reverse, &sym, &mut sc),
                    &want
                ));
            }
            for &d in &bytes {
                let sym = [c, d];
                for b in [[0u8, 1], [1, 0], [0, 0], [1, 1]] {
                    for reverse in [false, true] {
                        let want = least_rotations_walk(i, &b, reverse, &sym, &mut sc);
                        let got = least_rotations(i, &b, reverse, &sym, &mut sc);
                        assert!(same(&got, &want), "{b:?} {sym:?} {reverse}");
                    }
                }
            }
        }
    }

    /// [`region_shape`] as first written (each rotation copied out before
    /// it is hashed), to check the buffered one against.
    fn region_shape_copied(region: &[Vec<u8>], sym: &[u8]) -> u64 {
        use std::hash::Hasher;
        let mut ways: [SmallVec<[u64; 8]>; 2] = [SmallVec::new(), SmallVec::new()];
        let (mut coarse, mut best) = (Sig::new(), Sig::new());
        let read = |v: &u8| match sym[*v as usize] {
            255 => b'a',
            c => c,
        };
        let hash = |coarse: &Sig, best: &mut Sig| {
            let r0 = least_rotation(coarse);
            best.clear();
            best.extend(coarse[r0..].iter().chain(&coarse[..r0]).copied());
            let mut h = Mix::default();
            h.write(best);
            h.finish()
        };
        for b in region {
            coarse.clear();
            coarse.extend(b.iter().map(read));
            let forwards = hash(&coarse, &mut best);
            ways[0].push(forwards);
            if reads_same_backwards(b) {
                ways[1].push(forwards);
                continue;
            }
            coarse.clear();
            coarse.extend(b.iter().rev().map(read));
            ways[1].push(hash(&coarse, &mut best));
        }
        shape_of_ways(ways)
    }

    /// The buffered region shape is the copied one, on random regions with
    /// boundaries short and long (past the stack buffer).
    #[test]
    fn region_shape_as_copied() {
        let mut next = below(0x6A09_E667_F3BC_C909u64);
        let bytes = [b'1', b'2', SHARED, SHARED_CLASS, 255];
        for _ in 0..2000 {
            let nb = 1 + next(4) as usize;
            let mut sym = Vec::new();
            let mut region: Vec<Vec<u8>> = Vec::new();
            for _ in 0..nb {
                let top = if next(8) == 0 { 60 } else { 6 };
                let m = 1 + next(top) as usize;
                let b: Vec<u8> = (0..m)
                    .map(|_| {
                        sym.push(bytes[next(bytes.len() as u64) as usize]);
                        (sym.len() - 1) as u8
                    })
                    .collect();
                region.push(b);
            }
            assert_eq!(
                region_shape(&region, &sym),
                region_shape_copied(&region, &sym)
            );
        }
    }

    /// Walking a boundary of one or two corners backwards is not done
    /// (its forward walk is reused): a region's two sides and its shape
    /// must be those of walking every boundary both ways.
    #[test]
    fn short_boundaries_are_walked_once() {
        let mut next = below(0x2545_F491_4F6C_DD1Du64);
        let mut sc = Scratch::default();
        for _ in 0..500 {
            let bytes = [
                b'0',
                b'1',
                b'2',
                SHARED,
                SHARED_CLASS,
                SHARED_CLASS + 1,
                255,
            ];
            let nb = 1 + next(5) as usize;
            let mut sym = Vec::new();
            let mut region: Vec<Vec<u8>> = Vec::new();
            for _ in 0..nb {
                let m = 1 + next(5) as usize;
                let mut b: Vec<u8> = Vec::new();
                for _ in 0..m {
                    // A name with both corners here is written twice.
                    if !b.is_empty() && next(4) == 0 {
                        b.push(b[next(b.len() as u64) as usize]);
                        continue;
                    }
                    let c = bytes[next(bytes.len() as u64) as usize];
                    sym.push(if c == b'0' && m > 1 { b'1' } else { c });
                    b.push((sym.len() - 1) as u8);
                }
                region.push(b);
            }
            let mut store = Vec::new();
            let both = sides_of(&region, &sym, &mut sc, &mut store);
            // A backward side not made must be the forward one read
            // backwards, which every short boundary writes alike.
            let all_short = region.iter().all(|x| reads_same_backwards(x));
            assert_eq!(!both, all_short, "region {region:?}");
            if !both {
                let mut b = Side::new(true);
                b.zeros = store[0].zeros;
                b.bounds = store[0].bounds.clone();
                b.sort();
                store.push(b);
            }
            let (f, b) = (&store[0], &store[1]);
            for (side, reverse) in [(f, false), (b, true)] {
                assert_eq!(side.reverse, reverse);
                let mut want: Vec<(Sig, Vec<usize>, usize)> = region
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| !(x.len() == 1 && sym[x[0] as usize] == b'0'))
                    .map(|(i, x)| {
                        let l = least_rotations(i, x, reverse, &sym, &mut sc);
                        (l.sig, l.starts.to_vec(), l.index)
                    })
                    .collect();
                want.sort_by(|x, y| x.0.cmp(&y.0));
                let got: Vec<(Sig, Vec<usize>, usize)> = side
                    .bounds
                    .iter()
                    .map(|l| (l.sig.clone(), l.starts.to_vec(), l.index))
                    .collect();
                assert_eq!(got, want, "region {region:?} sym {sym:?}");
            }
            // The shape, every boundary walked both ways.
            let mut ways: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
            for (w, reverse) in [false, true].into_iter().enumerate() {
                for x in &region {
                    let mut c: Vec<u8> = x
                        .iter()
                        .map(|&v| match sym[v as usize] {
                            255 => b'a',
                            c => c,
                        })
                        .collect();
                    if reverse {
                        c.reverse();
                    }
                    let r0 = least_rotation(&c);
                    c.rotate_left(r0);
                    let mut h = Mix::default();
                    std::hash::Hasher::write(&mut h, &c);
                    ways[w].push(std::hash::Hasher::finish(&h));
                }
                ways[w].sort_unstable();
            }
            let least = if ways[1] < ways[0] {
                &ways[1]
            } else {
                &ways[0]
            };
            let mut h = Mix::default();
            for &x in least {
                std::hash::Hasher::write_usize(&mut h, x as usize);
            }
            assert_eq!(region_shape(&region, &sym), std::hash::Hasher::finish(&h));
        }
    }

    /// The least rotation's start, the first on a tie, short boundaries
    /// (answered without comparing rotations) included.
    #[test]
    fn least_rotation_is_the_first_least() {
        let bytes = [b'0', b'1', b'2', b'3', b'a', SHARED_CLASS];
        // Every string of one to four of these bytes.
        let mut all: Vec<Vec<u8>> = Vec::new();
        let mut level: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            level = level
                .iter()
                .flat_map(|s| {
                    bytes.iter().map(move |&c| {
                        let mut t = s.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            all.extend(level.iter().cloned());
        }
        for s in &all {
            let turn = |i: usize| {
                let mut t = s.clone();
                t.rotate_left(i);
                t
            };
            let want = (0..s.len()).min_by_key(|&i| turn(i)).unwrap_or(0);
            assert_eq!(least_rotation(s), want, "{s:?}");
        }
    }

    /// The tie search's set of places left gives what the list it
    /// replaced gave (the places left in increasing order, each taken
    /// out and put back in turn), for groups of one word, past it, and
    /// of a land's most regions.
    #[test]
    fn places_left_are_the_list_they_replace() {
        let mut next = below(0x5eed_0017);
        for len in [0usize, 1, 2, 5, 63, 64, 65, 127, 128, 129, 200, 512] {
            let start = next(40) as usize;
            let mut set = Places::group((start, start + len));
            let mut list: Vec<usize> = (start..start + len).collect();
            for _ in 0..300 {
                assert_eq!(set.is_empty(), list.is_empty(), "len {len}");
                assert_eq!(set.several(), list.len() > 1, "len {len}");
                if let Some(&head) = list.first() {
                    assert_eq!(set.first(), head, "len {len}");
                }
                for k in 0..len {
                    assert_eq!(set.has(k), list.contains(&(start + k)), "len {len}");
                }
                if len == 0 {
                    break;
                }
                // Take a place out or put one back, as the search does.
                let k = next(len as u64) as usize;
                if list.contains(&(start + k)) {
                    set.take(k);
                    list.retain(|&p| p != start + k);
                } else {
                    set.put(k);
                    list.push(start + k);
                    list.sort_unstable();
                }
            }
        }
    }
}
