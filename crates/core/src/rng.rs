//! The one source of randomness a game may use.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The seed of a game: with the config and the action log it fixes every state.
pub type Seed = u64;

/// A seeded generator owned by a game state.
///
/// ChaCha8 is portable and stable across platforms and `rand` releases of
/// the same major version, so a record made on one machine replays on
/// another. Games draw from it only inside [`crate::Game::new`],
/// [`crate::Game::apply`] and [`crate::Game::resolve_chance`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// A generator from a game's seed.
    pub fn from_seed(seed: Seed) -> Self {
        GameRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.gen_range(0..n)
    }

    /// Shuffles a slice in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        use rand::seq::SliceRandom;
        items.shuffle(&mut self.0);
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.0.gen_bool(p.clamp(0.0, 1.0))
    }

    /// The underlying generator, for `rand`'s distributions.
    pub fn inner(&mut self) -> &mut impl RngCore {
        &mut self.0
    }
}

/// The version of the sampling algorithms a [`GameRng`] uses, written
/// into every record.
pub const RANDOMNESS_VERSION: u32 = 1;
