//! Tiles: with rule `tiles`, every letter played comes from a shared pot.

use super::vowels::bit;
use super::{Error, WordSprout};
use crate::judge::inserted_letters;
use crate::rules::Rule;

impl WordSprout {
    pub(super) fn tiles_allow(&self, from: &str, to: &str) -> bool {
        let mut need = [0u16; 26];
        for c in inserted_letters(from, to) {
            need[(c - b'a') as usize] += 1;
        }
        need.iter().zip(self.pot.iter()).all(|(n, p)| n <= p)
    }

    /// The pot a new round starts with: the full pot, less the vowels held
    /// in collections (they are tiles taken from the pot).
    pub(super) fn fresh_pot(&self) -> [u16; 26] {
        let mut pot = self.config.pot.0;
        if self.rules.has(Rule::Tiles) {
            for &m in &self.collections {
                for c in b'a'..=b'z' {
                    if m & bit(c) != 0 {
                        let i = (c - b'a') as usize;
                        pot[i] = pot[i].saturating_sub(1);
                    }
                }
            }
        }
        pot
    }

    /// Refuses a play whose letters are not all left in the pot.
    pub(super) fn check_tiles(&self, added: &[u8]) -> Result<(), Error> {
        let mut need = [0u16; 26];
        for &c in added {
            need[(c - b'a') as usize] += 1;
        }
        for (i, &n) in need.iter().enumerate() {
            if n > self.pot[i] {
                return Err(Error::NoTile {
                    letter: (b'a' + i as u8) as char,
                });
            }
        }
        Ok(())
    }
}
