//! The ARC4 generator of David Bau's `seedrandom.js`, bit for bit.
//!
//! Gobble's original web version seeds `seedrandom.js` with a keyphrase; to
//! make our boards reproducible in a browser (or any language), we implement
//! the same generator:
//!
//! 1. **mixkey**: the seed string's UTF-16 code units are folded into a key
//!    of at most 256 bytes: `smear ^= key[j % 256] * 19;
//!    key[j % 256] = (smear + code[j]) & 255`, with `smear` and missing key
//!    entries starting at 0.
//! 2. **ARC4** key schedule over that key (an empty key is `[0]`), then the
//!    first 256 output bytes are dropped.
//! 3. **prng()**: a double in `[0, 1)` with 52 significant bits: start with
//!    six bytes `n` (big-endian) over `d = 2^48`; while `n < 2^52` shift in a
//!    fresh byte `x` (`n = (n + x) * 256; d *= 256; x = next byte`); then while
//!    `n >= 2^53` halve `n`, `d` and `x`; return `(n + x) / d`.
//!
//! ```
//! use parlor_gobble::SeedRandom;
//! let mut rng = SeedRandom::new("hello.");
//! assert_eq!(rng.next_f64(), 0.9282578795792454);
//! ```

/// The `seedrandom.js` ARC4 generator (see the module docs for the algorithm).
#[derive(Clone)]
pub struct SeedRandom {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl std::fmt::Debug for SeedRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeedRandom")
            .field("i", &self.i)
            .field("j", &self.j)
            .finish_non_exhaustive()
    }
}

impl SeedRandom {
    /// Seeds the generator exactly as `seedrandom(seed)` does for a string seed.
    pub fn new(seed: &str) -> Self {
        let key = mixkey(seed);
        let mut rng = Self::from_key(&key);
        for _ in 0..256 {
            rng.next_byte();
        }
        rng
    }

    fn from_key(key: &[u8]) -> Self {
        let key: &[u8] = if key.is_empty() { &[0] } else { key };
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j: u8 = 0;
        for i in 0..256 {
            let t = s[i];
            j = j.wrapping_add(key[i % key.len()]).wrapping_add(t);
            s[i] = s[j as usize];
            s[j as usize] = t;
        }
        SeedRandom { s, i: 0, j: 0 }
    }

    /// One ARC4 output byte (`arc4.g(1)`).
    pub fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        let t = self.s[self.i as usize];
        self.j = self.j.wrapping_add(t);
        let sj = self.s[self.j as usize];
        self.s[self.i as usize] = sj;
        self.s[self.j as usize] = t;
        self.s[(sj.wrapping_add(t)) as usize]
    }

    /// The next double in `[0, 1)`, as `prng()` returns it.
    pub fn next_f64(&mut self) -> f64 {
        const SIGNIFICANCE: u64 = 1 << 52;
        const OVERFLOW: u64 = 1 << 53;
        let mut n: u64 = 0;
        for _ in 0..6 {
            n = (n << 8) | u64::from(self.next_byte());
        }
        let mut d: f64 = (1u64 << 48) as f64;
        let mut x: u64 = 0;
        while n < SIGNIFICANCE {
            n = (n + x) << 8;
            d *= 256.0;
            x = u64::from(self.next_byte());
        }
        while n >= OVERFLOW {
            n /= 2;
            d /= 2.0;
            x >>= 1;
        }
        (n + x) as f64 / d
    }

    /// `Math.floor(prng() * n)`: a uniform index below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        let v = (self.next_f64() * n as f64).floor() as usize;
        v.min(n.saturating_sub(1))
    }
}

/// seedrandom's `mixkey(seed, [])` for a string seed.
fn mixkey(seed: &str) -> Vec<u8> {
    let mut key: Vec<u8> = Vec::new();
    let mut smear: i64 = 0;
    for (j, unit) in seed.encode_utf16().enumerate() {
        let k = j & 255;
        let cur = key.get(k).copied().unwrap_or(0);
        smear ^= i64::from(cur) * 19;
        let v = ((smear + i64::from(unit)) & 255) as u8;
        if k < key.len() {
            key[k] = v;
        } else {
            key.push(v);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_vector() {
        let mut rng = SeedRandom::new("hello.");
        assert_eq!(rng.next_f64(), 0.9282578795792454);
        assert_eq!(rng.next_f64(), 0.3752569768646784);
        assert_eq!(rng.next_f64(), 0.7316977468919549);
    }

    #[test]
    fn long_seed_wraps_key() {
        let seed = "x".repeat(600);
        let mut a = SeedRandom::new(&seed);
        let v = a.next_f64();
        assert!((0.0..1.0).contains(&v));
    }
}
