//! The set of valid strings of one length, as a compact hash set.
//!
//! Strings are lowercase a-z. A string of up to 12 letters is packed into a
//! `u64` (5 bits a letter, letters coded 1..=26, first letter most
//! significant), up to 25 letters into a `u128`, up to 64 (the longest word
//! a list holds) into a 320-bit [`Wide`]; longer strings, which no list
//! has, would be kept as bytes in a `std` hash map. (Vowel fill makes
//! millions of strings of 26 letters or more from the longest words, so
//! they are worth packing too.) Packed keys are
//! exact, never hashes: two strings share a key only if they are equal, and
//! the empty key 0 is never a string of length >= 1.
//!
//! Each table is open addressing with linear probing, at most 3/4 full, so
//! a lookup is a multiply, a shift and one or two cache lines.

use std::collections::HashMap;

/// Longest strings packed into a `u64`.
pub(crate) const SMALL_MAX: usize = 12;
/// Longest strings packed into a `u128`.
pub(crate) const MID_MAX: usize = 25;
/// Longest strings packed into a [`Wide`].
pub(crate) const WIDE_MAX: usize = 64;

/// A packed key: `Copy`, zero for an empty slot.
pub(crate) trait Key:
    Copy
    + Eq
    + Send
    + Sync
    + 'static
    + std::ops::Shr<u32, Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::BitOr<Output = Self>
{
    const ZERO: Self;
    fn slot_hash(self) -> u64;
    fn push(self, letter: u8) -> Self;
    fn low_letters(self, n: usize) -> Self;
    fn letter_at(self, len: usize, i: usize) -> u8;
}

impl Key for u64 {
    const ZERO: Self = 0;
    #[inline]
    fn slot_hash(self) -> u64 {
        (self ^ (self >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    #[inline]
    fn push(self, letter: u8) -> Self {
        (self << 5) | u64::from(letter - b'a' + 1)
    }
    #[inline]
    fn low_letters(self, n: usize) -> Self {
        if n >= 12 {
            self & ((1u64 << 60) - 1)
        } else {
            self & ((1u64 << (5 * n)) - 1)
        }
    }
    #[inline]
    fn letter_at(self, len: usize, i: usize) -> u8 {
        ((self >> (5 * (len - 1 - i))) & 31) as u8 + b'a' - 1
    }
}

impl Key for u128 {
    const ZERO: Self = 0;
    #[inline]
    fn slot_hash(self) -> u64 {
        let lo = self as u64;
        let hi = (self >> 64) as u64;
        (lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ (lo >> 29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    #[inline]
    fn push(self, letter: u8) -> Self {
        (self << 5) | u128::from(letter - b'a' + 1)
    }
    #[inline]
    fn low_letters(self, n: usize) -> Self {
        if n >= 25 {
            self & ((1u128 << 125) - 1)
        } else {
            self & ((1u128 << (5 * n)) - 1)
        }
    }
    #[inline]
    fn letter_at(self, len: usize, i: usize) -> u8 {
        ((self >> (5 * (len - 1 - i))) & 31) as u8 + b'a' - 1
    }
}

/// A packed key of up to 64 letters: 320 bits, least significant limb
/// first.
#[derive(Clone, Copy, Debug, Eq)]
pub(crate) struct Wide([u64; 5]);

impl PartialEq for Wide {
    /// Limb by limb without a branch (the derived comparison of the array
    /// calls `memcmp`, which a probe pays for at every slot).
    #[inline]
    fn eq(&self, o: &Wide) -> bool {
        (0..5).fold(0, |d, i| d | (self.0[i] ^ o.0[i])) == 0
    }
}

impl Wide {
    /// The low 128 bits: the key itself when it has at most 25 letters.
    #[inline]
    fn narrow(self) -> u128 {
        u128::from(self.0[0]) | u128::from(self.0[1]) << 64
    }
}

impl std::ops::Shl<u32> for Wide {
    type Output = Wide;
    #[inline]
    fn shl(self, n: u32) -> Wide {
        let (limbs, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; 5];
        for (i, o) in out.iter_mut().enumerate().skip(limbs) {
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            *o = v;
        }
        Wide(out)
    }
}

impl std::ops::Shr<u32> for Wide {
    type Output = Wide;
    #[inline]
    fn shr(self, n: u32) -> Wide {
        let (limbs, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; 5];
        for (i, o) in out
            .iter_mut()
            .enumerate()
            .take(5usize.saturating_sub(limbs))
        {
            let src = i + limbs;
            let mut v = self.0[src] >> bits;
            if bits != 0 && src + 1 < 5 {
                v |= self.0[src + 1] << (64 - bits);
            }
            *o = v;
        }
        Wide(out)
    }
}

impl std::ops::BitOr for Wide {
    type Output = Wide;
    #[inline]
    fn bitor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl Key for Wide {
    const ZERO: Self = Wide([0; 5]);
    #[inline]
    fn slot_hash(self) -> u64 {
        let mut h = 0u64;
        for l in self.0 {
            h = (h ^ l).wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
        }
        (h ^ (h >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    #[inline]
    fn push(self, letter: u8) -> Self {
        (self << 5) | Wide([u64::from(letter - b'a' + 1), 0, 0, 0, 0])
    }
    #[inline]
    fn low_letters(self, n: usize) -> Self {
        let bits = 5 * n.min(WIDE_MAX);
        Wide(std::array::from_fn(|i| {
            let lo = 64 * i;
            if bits >= lo + 64 {
                self.0[i]
            } else if bits > lo {
                self.0[i] & ((1u64 << (bits - lo)) - 1)
            } else {
                0
            }
        }))
    }
    #[inline]
    fn letter_at(self, len: usize, i: usize) -> u8 {
        let p = 5 * (len - 1 - i);
        let (limb, off) = (p / 64, p % 64);
        let mut v = self.0[limb] >> off;
        if off > 59 && limb + 1 < 5 {
            v |= self.0[limb + 1] << (64 - off);
        }
        (v & 31) as u8 + b'a' - 1
    }
}

pub(crate) fn pack<K: Key>(s: &[u8]) -> K {
    s.iter().fold(K::ZERO, |k, &c| k.push(c))
}

/// Open-addressing hash set of packed keys.
#[derive(Clone)]
pub(crate) struct Table<K> {
    keys: Vec<K>,
    shift: u32,
    count: usize,
}

impl<K: Key> Table<K> {
    pub(crate) fn new() -> Self {
        Table::with_bits(4)
    }

    /// Room for about `n` keys before growing.
    pub(crate) fn reserve(&mut self, n: usize) {
        let want = (4 * n / 3 + 1).next_power_of_two().max(16);
        if want > self.keys.len() && self.count == 0 {
            *self = Table::with_bits(want.trailing_zeros());
        }
    }

    fn with_bits(bits: u32) -> Self {
        Table {
            keys: vec![K::ZERO; 1 << bits],
            shift: 64 - bits,
            count: 0,
        }
    }

    #[inline]
    fn home(&self, k: K) -> usize {
        (k.slot_hash() >> self.shift) as usize
    }

    /// Inserts `k` (non-zero); returns whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, k: K) -> bool {
        if (self.count + 1) * 4 > self.keys.len() * 3 {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(k);
        loop {
            let here = self.keys[i];
            if here == K::ZERO {
                self.keys[i] = k;
                self.count += 1;
                return true;
            }
            if here == k {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, Table::with_bits(bits));
        let mask = self.keys.len() - 1;
        for k in old.keys.into_iter().filter(|&k| k != K::ZERO) {
            let mut i = self.home(k);
            while self.keys[i] != K::ZERO {
                i = (i + 1) & mask;
            }
            self.keys[i] = k;
        }
        self.count = old.count;
    }

    /// The slot holding `k`, if present.
    #[inline]
    pub(crate) fn find(&self, k: K) -> Option<usize> {
        let mask = self.keys.len() - 1;
        let mut i = self.home(k);
        loop {
            let here = self.keys[i];
            if here == k {
                return Some(i);
            }
            if here == K::ZERO {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    pub(crate) fn slots(&self) -> usize {
        self.keys.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.count
    }

    #[inline]
    pub(crate) fn key(&self, slot: usize) -> K {
        self.keys[slot]
    }

    fn heap_size(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<K>()
    }
}

/// The strings of one length.
#[derive(Clone)]
pub(crate) enum Keys {
    /// Length 0: the one empty string, slot 0.
    Empty,
    Small(Table<u64>),
    Mid(Table<u128>),
    Wide(Table<Wide>),
    Long {
        strings: Vec<Box<[u8]>>,
        index: HashMap<Box<[u8]>, usize>,
    },
}

/// A condition on strings.
pub(crate) type StringCheck<'a> = dyn Fn(&[u8]) -> bool + 'a;

/// The valid strings of one length, with per-slot flags.
#[derive(Clone)]
pub(crate) struct Level {
    pub(crate) len: usize,
    pub(crate) keys: Keys,
    /// One byte a slot: [`VALID`], [`REACH`]; 0 for an empty slot.
    pub(crate) flags: Vec<u8>,
}

/// The slot holds a valid string.
pub(crate) const VALID: u8 = 1;
/// The string is reachable from the empty string by legal moves.
pub(crate) const REACH: u8 = 2;

impl Level {
    pub(crate) fn new(len: usize) -> Level {
        let keys = match len {
            0 => Keys::Empty,
            1..=SMALL_MAX => Keys::Small(Table::new()),
            l if l <= MID_MAX => Keys::Mid(Table::new()),
            l if l <= WIDE_MAX => Keys::Wide(Table::new()),
            _ => Keys::Long {
                strings: Vec::new(),
                index: HashMap::new(),
            },
        };
        Level {
            len,
            keys,
            flags: Vec::new(),
        }
    }

    /// Inserts `s` (of this level's length) while building.
    #[inline]
    pub(crate) fn insert(&mut self, s: &[u8]) {
        debug_assert_eq!(s.len(), self.len);
        match &mut self.keys {
            Keys::Empty => {}
            Keys::Small(t) => {
                t.insert(pack(s));
            }
            Keys::Mid(t) => {
                t.insert(pack(s));
            }
            Keys::Wide(t) => {
                t.insert(pack(s));
            }
            Keys::Long { strings, index } => {
                if !index.contains_key(s) {
                    index.insert(s.into(), strings.len());
                    strings.push(s.into());
                }
            }
        }
    }

    /// Makes room for about `n` strings (only before the first insertion).
    pub(crate) fn reserve(&mut self, n: usize) {
        match &mut self.keys {
            Keys::Small(t) => t.reserve(n),
            Keys::Mid(t) => t.reserve(n),
            Keys::Wide(t) => t.reserve(n),
            _ => {}
        }
    }

    /// Marks [`VALID`] every occupied slot whose string `ok` accepts, once
    /// building is over (`ok` is `None` to accept all).
    pub(crate) fn seal(&mut self, ok: Option<&StringCheck<'_>>) {
        let n = self.slots();
        let mut flags = vec![0u8; n];
        let mut buf = vec![0u8; self.len];
        for (slot, f) in flags.iter_mut().enumerate() {
            let accepted = match ok {
                None => true,
                Some(ok) => self.get(slot, &mut buf) && ok(&buf),
            };
            if self.occupied(slot) && accepted {
                *f = VALID;
            }
        }
        self.flags = flags;
    }

    pub(crate) fn slots(&self) -> usize {
        match &self.keys {
            Keys::Empty => 1,
            Keys::Small(t) => t.slots(),
            Keys::Mid(t) => t.slots(),
            Keys::Wide(t) => t.slots(),
            Keys::Long { strings, .. } => strings.len(),
        }
    }

    /// Number of strings held.
    pub(crate) fn len(&self) -> usize {
        match &self.keys {
            Keys::Empty => 1,
            Keys::Small(t) => t.len(),
            Keys::Mid(t) => t.len(),
            Keys::Wide(t) => t.len(),
            Keys::Long { strings, .. } => strings.len(),
        }
    }

    fn occupied(&self, slot: usize) -> bool {
        match &self.keys {
            Keys::Empty => slot == 0,
            Keys::Small(t) => t.key(slot) != 0,
            Keys::Mid(t) => t.key(slot) != 0,
            Keys::Wide(t) => t.key(slot) != Wide::ZERO,
            Keys::Long { strings, .. } => slot < strings.len(),
        }
    }

    /// The slot of `s` (of this level's length), if held.
    #[inline]
    pub(crate) fn find(&self, s: &[u8]) -> Option<usize> {
        debug_assert_eq!(s.len(), self.len);
        match &self.keys {
            Keys::Empty => Some(0),
            Keys::Small(t) => t.find(pack(s)),
            Keys::Mid(t) => t.find(pack(s)),
            Keys::Wide(t) => t.find(pack(s)),
            Keys::Long { index, .. } => index.get(s).copied(),
        }
    }

    /// Writes the string in `slot` into `out[..len]`; false if empty.
    #[inline]
    pub(crate) fn get(&self, slot: usize, out: &mut [u8]) -> bool {
        let len = self.len;
        match &self.keys {
            Keys::Empty => slot == 0,
            Keys::Small(t) => {
                let k = t.key(slot);
                if k == 0 {
                    return false;
                }
                for (i, o) in out[..len].iter_mut().enumerate() {
                    *o = k.letter_at(len, i);
                }
                true
            }
            Keys::Mid(t) => {
                let k = t.key(slot);
                if k == 0 {
                    return false;
                }
                for (i, o) in out[..len].iter_mut().enumerate() {
                    *o = k.letter_at(len, i);
                }
                true
            }
            Keys::Wide(t) => {
                let k = t.key(slot);
                if k == Wide::ZERO {
                    return false;
                }
                for (i, o) in out[..len].iter_mut().enumerate() {
                    *o = k.letter_at(len, i);
                }
                true
            }
            Keys::Long { strings, .. } => match strings.get(slot) {
                Some(s) => {
                    out[..len].copy_from_slice(s);
                    true
                }
                None => false,
            },
        }
    }

    pub(crate) fn heap_size(&self) -> usize {
        self.flags.capacity()
            + match &self.keys {
                Keys::Empty => 0,
                Keys::Small(t) => t.heap_size(),
                Keys::Mid(t) => t.heap_size(),
                Keys::Wide(t) => t.heap_size(),
                Keys::Long { strings, .. } => strings.iter().map(|s| 2 * s.len() + 48).sum(),
            }
    }
}

/// Builds the level of all windows of length `len` of `words` (sorted),
/// skipping windows that lie inside the prefix a word shares with the one
/// before it (they were seen there).
pub(crate) fn windows_level(words: &[&[u8]], len: usize) -> Level {
    let mut level = Level::new(len);
    match &mut level.keys {
        Keys::Empty => {}
        Keys::Small(t) => windows_packed(t, words, len),
        Keys::Mid(t) => windows_packed(t, words, len),
        Keys::Wide(t) => windows_packed(t, words, len),
        Keys::Long { .. } => {
            let mut prev: &[u8] = &[];
            for &w in words {
                let lcp = common_prefix(prev, w);
                prev = w;
                if w.len() < len {
                    continue;
                }
                let first = (lcp + 1).saturating_sub(len);
                for i in first..=w.len() - len {
                    level.insert(&w[i..i + len]);
                }
            }
        }
    }
    level.seal(None);
    level
}

fn windows_packed<K: Key>(t: &mut Table<K>, words: &[&[u8]], len: usize) {
    let mut prev: &[u8] = &[];
    for &w in words {
        let lcp = common_prefix(prev, w);
        prev = w;
        if w.len() < len {
            continue;
        }
        // Windows ending at or before `lcp` lie in the shared prefix.
        let first = (lcp + 1).saturating_sub(len);
        let mut k = K::ZERO;
        for &c in &w[first..first + len - 1] {
            k = k.push(c);
        }
        for i in first..=w.len() - len {
            k = k.push(w[i + len - 1]).low_letters(len);
            t.insert(k);
        }
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The string `k` (of `len` letters) without its letter `i`.
#[inline]
pub(crate) fn delete<K: Key>(k: K, len: usize, i: usize) -> K {
    let hi = k >> (5 * (len - i)) as u32;
    (hi << (5 * (len - 1 - i)) as u32) | k.low_letters(len - 1 - i)
}

/// Inserts into `level` what one deletion makes of each string of `upper`:
/// its prefix and its suffix (with `ends`), and the string without any one
/// of its letters in the `vowels` mask.
pub(crate) fn derive_from(upper: &Level, level: &mut Level, ends: bool, vowels: u32) {
    let ul = upper.len;
    debug_assert_eq!(level.len + 1, ul);
    let is_vowel = |c: u8| vowels & (1 << (c - b'a')) != 0;
    if let Keys::Long { strings, .. } = &upper.keys {
        let mut buf = Vec::with_capacity(ul);
        for s in strings {
            if ends {
                level.insert(&s[..ul - 1]);
                level.insert(&s[1..]);
            }
            for i in 0..ul {
                if is_vowel(s[i]) && (i == 0 || s[i] != s[i - 1]) {
                    buf.clear();
                    buf.extend_from_slice(&s[..i]);
                    buf.extend_from_slice(&s[i + 1..]);
                    level.insert(&buf);
                }
            }
        }
        return;
    }
    match (&upper.keys, &mut level.keys) {
        (Keys::Small(u), Keys::Small(t)) => derive_packed(u, ul, ends, &is_vowel, |k| {
            t.insert(k);
        }),
        (Keys::Mid(u), Keys::Mid(t)) => derive_packed(u, ul, ends, &is_vowel, |k| {
            t.insert(k);
        }),
        (Keys::Mid(u), Keys::Small(t)) => derive_packed(u, ul, ends, &is_vowel, |k| {
            t.insert(k as u64);
        }),
        (Keys::Wide(u), Keys::Wide(t)) => derive_packed(u, ul, ends, &is_vowel, |k| {
            t.insert(k);
        }),
        (Keys::Wide(u), Keys::Mid(t)) => derive_packed(u, ul, ends, &is_vowel, |k| {
            t.insert(k.narrow());
        }),
        _ => {}
    }
}

#[inline]
fn derive_packed<K: Key>(
    u: &Table<K>,
    ul: usize,
    ends: bool,
    is_vowel: &dyn Fn(u8) -> bool,
    mut put: impl FnMut(K),
) {
    let any_vowel = (b'a'..=b'z').any(is_vowel);
    for slot in 0..u.slots() {
        let k = u.key(slot);
        if k == K::ZERO {
            continue;
        }
        if ends {
            put(k >> 5);
            put(k.low_letters(ul - 1));
        }
        if !any_vowel {
            continue;
        }
        let mut prev = 0;
        for i in 0..ul {
            let c = k.letter_at(ul, i);
            if c != prev && is_vowel(c) {
                put(delete(k, ul, i));
            }
            prev = c;
        }
    }
}

/// Two-player solving step without move restrictions: for every valid
/// string of `level` not marked winning in `win` (a loss for the player to
/// move), marks winning in `lower_win` every distinct one-letter deletion
/// held by `lower`. Works on packed keys; returns false (doing nothing) for
/// byte-string levels, which the caller handles.
pub(crate) fn mark_parents_packed(
    level: &Level,
    win: &[u8],
    lower: &Level,
    lower_win: &mut [u8],
) -> bool {
    let len = level.len;
    match (&level.keys, &lower.keys) {
        (Keys::Small(t), Keys::Small(l)) => {
            mark_packed(t, &level.flags, len, win, |k| l.find(k), lower_win)
        }
        (Keys::Mid(t), Keys::Mid(l)) => {
            mark_packed(t, &level.flags, len, win, |k| l.find(k), lower_win)
        }
        (Keys::Mid(t), Keys::Small(l)) => {
            mark_packed(t, &level.flags, len, win, |k| l.find(k as u64), lower_win)
        }
        (Keys::Wide(t), Keys::Wide(l)) => {
            mark_packed(t, &level.flags, len, win, |k| l.find(k), lower_win)
        }
        (Keys::Wide(t), Keys::Mid(l)) => {
            mark_packed(t, &level.flags, len, win, |k| l.find(k.narrow()), lower_win)
        }
        _ => return false,
    }
    true
}

#[inline]
fn mark_packed<K: Key>(
    t: &Table<K>,
    flags: &[u8],
    len: usize,
    win: &[u8],
    find: impl Fn(K) -> Option<usize>,
    lower_win: &mut [u8],
) {
    for slot in 0..t.slots() {
        if flags[slot] & VALID == 0 || win[slot] != 0 {
            continue;
        }
        each_deletion(t.key(slot), len, |d| {
            if let Some(ps) = find(d) {
                lower_win[ps] = 1;
            }
            true
        });
    }
}

/// Calls `f` with each distinct one-letter deletion of the `len`-letter
/// key `k` (of a run of equal letters, deleting any gives one string: it
/// is passed once), until `f` returns false.
#[inline]
fn each_deletion<K: Key>(k: K, len: usize, mut f: impl FnMut(K) -> bool) {
    let mut prev = 0u8;
    for i in 0..len {
        let c = k.letter_at(len, i);
        if c == prev {
            continue;
        }
        prev = c;
        if !f(delete(k, len, i)) {
            return;
        }
    }
}

/// Reachability step without move restrictions: marks [`REACH`] every
/// valid string of `level` with a one-letter deletion that `lower` holds as
/// reachable. Works on packed keys; returns false (doing nothing) for
/// byte-string levels, which the caller handles.
pub(crate) fn reach_packed(level: &mut Level, lower: &Level) -> bool {
    let len = level.len;
    let flags = &mut level.flags;
    let reached = |ps: Option<usize>| ps.is_some_and(|ps| lower.flags[ps] & REACH != 0);
    match (&level.keys, &lower.keys) {
        (Keys::Small(t), Keys::Small(l)) => reach_step(t, flags, len, |k| reached(l.find(k))),
        (Keys::Mid(t), Keys::Mid(l)) => reach_step(t, flags, len, |k| reached(l.find(k))),
        (Keys::Mid(t), Keys::Small(l)) => reach_step(t, flags, len, |k| reached(l.find(k as u64))),
        (Keys::Wide(t), Keys::Wide(l)) => reach_step(t, flags, len, |k| reached(l.find(k))),
        (Keys::Wide(t), Keys::Mid(l)) => reach_step(t, flags, len, |k| reached(l.find(k.narrow()))),
        _ => return false,
    }
    true
}

#[inline]
fn reach_step<K: Key>(t: &Table<K>, flags: &mut [u8], len: usize, reached: impl Fn(K) -> bool) {
    for (slot, f) in flags.iter_mut().enumerate() {
        if *f & VALID == 0 {
            continue;
        }
        each_deletion(t.key(slot), len, |d| {
            let found = reached(d);
            if found {
                *f |= REACH;
            }
            !found
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string a packed key holds.
    fn unpack<K: Key>(k: K, len: usize) -> Vec<u8> {
        (0..len).map(|i| k.letter_at(len, i)).collect()
    }

    /// Wide keys do to strings of up to 64 letters what the narrow ones do
    /// to short strings: pack, read back, drop the first or last letter,
    /// delete any letter; and a 25-letter one narrows to the `u128` key.
    #[test]
    fn wide_keys_pack_and_edit_strings() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 1..=WIDE_MAX {
            for _ in 0..20 {
                let s: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        b'a' + (x % 26) as u8
                    })
                    .collect();
                let k: Wide = pack(&s);
                assert_ne!(k, Wide::ZERO);
                assert_eq!(unpack(k, len), s);
                if len > 1 {
                    assert_eq!(unpack(k >> 5, len - 1), s[..len - 1]);
                    assert_eq!(unpack(k.low_letters(len - 1), len - 1), s[1..]);
                    for i in 0..len {
                        let mut t = s.clone();
                        t.remove(i);
                        assert_eq!(delete(k, len, i), pack::<Wide>(&t), "{len} {i}");
                    }
                }
                if len <= MID_MAX {
                    assert_eq!(k.narrow(), pack::<u128>(&s));
                }
            }
        }
    }

    /// A level of long strings (a 40-letter word's windows) holds exactly
    /// them, as packed keys.
    #[test]
    fn long_levels_are_packed() {
        let word = b"pneumonoultramicroscopicsilicovolcanoconiosis".as_slice();
        for len in [26, 30, 40, word.len()] {
            let level = windows_level(&[word], len);
            assert!(matches!(level.keys, Keys::Wide(_)));
            assert_eq!(level.len(), word.len() - len + 1);
            let mut buf = vec![0u8; len];
            for w in word.windows(len) {
                let slot = level.find(w).expect("held");
                assert!(level.get(slot, &mut buf));
                assert_eq!(buf, w);
            }
            assert!(level.find(&vec![b'z'; len]).is_none());
        }
    }
}
