//! The one source of randomness a game may use.
//!
//! A record replays only if every draw comes out the same on every machine
//! and with every dependency version. `rand`'s samplers (`gen_range`,
//! `shuffle`, `gen_bool`) and `rand_core`'s `seed_from_u64` promise stable
//! values only within a release series, so a routine upgrade could move every
//! seeded board. This module therefore takes only the raw ChaCha8 block
//! output from `rand_chacha` (a specified algorithm) and does the seeding and
//! the sampling itself. The algorithms are those of `rand_core` 0.6.4 and
//! `rand` 0.8.8, reproduced bit for bit so that records made before this
//! module owned them still replay; [`RANDOMNESS_VERSION`] names them.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The seed of a game: with the config and the action log it fixes every state.
pub type Seed = u64;

/// The version of the values [`GameRng`] produces from a seed.
///
/// Version 1:
/// - the generator is ChaCha8 (`rand_chacha` 0.3), keyed by expanding the
///   `u64` seed into 32 bytes with PCG32 (multiplier 6364136223846793005,
///   increment 11634580027462260723, state advanced before each output,
///   4 little-endian bytes per output), as `rand_core` 0.6's
///   `seed_from_u64` does;
/// - [`GameRng::below`] is Lemire's widening multiply on one `next_u64` per
///   try, rejecting when the low word exceeds
///   `(n << n.leading_zeros()) - 1`, as `rand` 0.8's `gen_range`;
/// - [`GameRng::shuffle`] is Fisher–Yates from the last element down, each
///   index drawn the same way on `next_u32` while the bound fits in 32 bits,
///   as `rand` 0.8's `SliceRandom::shuffle`;
/// - [`GameRng::chance`] compares one `next_u64` with `p × 2^64` truncated
///   (and draws nothing for `p` = 1), as `rand` 0.8's `Bernoulli`.
///
/// Any change to these values needs a new version, because records replay
/// by seed.
pub const RANDOMNESS_VERSION: u32 = 1;

/// A seeded generator owned by a game state.
///
/// Its values depend only on the seed and the order of the draws (see
/// [`RANDOMNESS_VERSION`]), not on the platform or on `rand`'s releases, so
/// a record made on one machine replays on another. Games draw from it only
/// inside [`crate::Game::new`], [`crate::Game::apply`] and
/// [`crate::Game::resolve_chance`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// A generator from a game's seed.
    pub fn from_seed(seed: Seed) -> Self {
        GameRng(ChaCha8Rng::from_seed(expand_seed(seed)))
    }

    /// The next 32 raw bits.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// The next 64 raw bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n`.
    ///
    /// Draws at least one `u64`, even for `n` = 1 (where it may draw more):
    /// skipping the draw would shift every later value of a version 1 record.
    ///
    /// # Panics
    ///
    /// If `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "GameRng::below(0): the range is empty");
        // Always the 64-bit path, as rand 0.8 took on 64-bit targets: the
        // values do not depend on the platform's pointer width. The result
        // is below `n`, so it fits back in a usize.
        self.below_u64(n as u64) as usize
    }

    /// Shuffles a slice in place (Fisher–Yates), every order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            // Elements after `i` are already in place.
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// True with probability `p`, clamped to `0.0..=1.0`.
    ///
    /// # Panics
    ///
    /// If `p` is NaN.
    pub fn chance(&mut self, p: f64) -> bool {
        assert!(!p.is_nan(), "GameRng::chance: p is NaN");
        let p = p.clamp(0.0, 1.0);
        if p == 1.0 {
            // p × 2^64 does not fit in a u64, and u64::MAX would still fail
            // once in 2^64 draws: certain means certain, and draws nothing.
            return true;
        }
        // 2^64 exactly; `as` truncates, and p < 1 gives at most 2^64 − 2048.
        const SCALE: f64 = 2.0 * (1u64 << 63) as f64;
        self.next_u64() < (p * SCALE) as u64
    }

    /// A uniform index in `0..bound` for [`Self::shuffle`]: bounds that fit
    /// in 32 bits draw `u32`s, the others `u64`s (rand 0.8's `gen_index`).
    fn index(&mut self, bound: usize) -> usize {
        match u32::try_from(bound) {
            Ok(b) => self.below_u32(b) as usize,
            Err(_) => self.below_u64(bound as u64) as usize,
        }
    }

    /// Uniform in `0..n` (`n` > 0) from `u64` draws: the high word of
    /// `draw × n`, keeping the draw only when its low word lies below
    /// `n << n.leading_zeros()`. Every result then has exactly
    /// `2^n.leading_zeros()` accepted draws, so none is favoured, and at most
    /// half the draws are rejected. (Lemire's exact bound rejects fewer, but
    /// this is the zone the old records were drawn with.)
    fn below_u64(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let zone = (n << n.leading_zeros()).wrapping_sub(1);
        loop {
            let wide = u128::from(self.next_u64()) * u128::from(n);
            if wide as u64 <= zone {
                return (wide >> 64) as u64;
            }
        }
    }

    /// [`Self::below_u64`] on `u32` draws.
    fn below_u32(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let zone = (n << n.leading_zeros()).wrapping_sub(1);
        loop {
            let wide = u64::from(self.next_u32()) * u64::from(n);
            if wide as u32 <= zone {
                return (wide >> 32) as u32;
            }
        }
    }
}

/// The 32-byte ChaCha key of a `u64` seed: eight PCG32 outputs, little-endian
/// (`rand_core` 0.6.4's `SeedableRng::seed_from_u64`). PCG spreads the seed's
/// bits, so that seeds 0, 1, 2… give unrelated keys.
fn expand_seed(mut state: u64) -> [u8; 32] {
    const MUL: u64 = 6364136223846793005;
    const INC: u64 = 11634580027462260723;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(4) {
        // Advance first, to get away from a seed with few bits set.
        state = state.wrapping_mul(MUL).wrapping_add(INC);
        let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
        let rot = (state >> 59) as u32;
        chunk.copy_from_slice(&xorshifted.rotate_right(rot).to_le_bytes());
    }
    key
}

#[cfg(test)]
mod tests {
    //! The tables below were printed by `rand` 0.8.8 and `rand_chacha` 0.3.1
    //! (`ChaCha8Rng::seed_from_u64`, then `gen_range(0..n)`, `shuffle`,
    //! `gen_bool`), the code `GameRng` used before it owned its sampling.
    //! Each case starts from a fresh generator; `after` is the next `u32`
    //! once the case is done, which checks how much it drew.

    use super::*;

    #[test]
    fn seeding_matches_rand_core_seed_from_u64() {
        let seeds = (0..64).chain([0xdead_beef, 1 << 32, 1 << 63, u64::MAX - 1, u64::MAX]);
        for seed in seeds {
            let mut ours = GameRng::from_seed(seed);
            let mut theirs = ChaCha8Rng::seed_from_u64(seed);
            assert_eq!(ours.0, theirs, "seed {seed}");
            for _ in 0..20 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
                assert_eq!(ours.next_u32(), theirs.next_u32(), "seed {seed}");
            }
        }
    }

    #[test]
    fn raw_output() {
        for &(seed, u64s, u32s) in RAW {
            let mut r = GameRng::from_seed(seed);
            assert_eq!(u64s.map(|_| r.next_u64()), u64s, "seed {seed}");
            let mut r = GameRng::from_seed(seed);
            assert_eq!(u32s.map(|_| r.next_u32()), u32s, "seed {seed}");
        }
    }

    #[test]
    fn below_matches_gen_range() {
        for &(seed, n, want, after) in BELOW {
            // Bounds past 32 bits exist only where usize has 64.
            let Ok(n) = usize::try_from(n) else { continue };
            let mut r = GameRng::from_seed(seed);
            let got = want.map(|_| r.below(n) as u64);
            assert_eq!(got, want, "seed {seed}, n {n}");
            assert_eq!(r.next_u32(), after, "seed {seed}, n {n}");
        }
    }

    #[test]
    fn shuffle_indices_match_gen_range_u32() {
        for &(seed, n, want, after) in BELOW_U32 {
            let mut r = GameRng::from_seed(seed);
            assert_eq!(want.map(|_| r.below_u32(n)), want, "seed {seed}, n {n}");
            assert_eq!(r.next_u32(), after, "seed {seed}, n {n}");
        }
    }

    #[test]
    fn shuffle_matches_slice_random() {
        for &(seed, want, after) in SHUFFLE {
            let mut r = GameRng::from_seed(seed);
            let mut got: Vec<usize> = (0..want.len()).collect();
            r.shuffle(&mut got);
            assert_eq!(got, want, "seed {seed}, len {}", want.len());
            assert_eq!(r.next_u32(), after, "seed {seed}, len {}", want.len());
        }
    }

    #[test]
    fn chance_matches_gen_bool() {
        for &(seed, p, want, after) in CHANCE {
            let mut r = GameRng::from_seed(seed);
            let got: String = want
                .chars()
                .map(|_| if r.chance(p) { '1' } else { '0' })
                .collect();
            assert_eq!(got, want, "seed {seed}, p {p}");
            assert_eq!(r.next_u32(), after, "seed {seed}, p {p}");
        }
    }

    #[test]
    fn chance_clamps() {
        let mut a = GameRng::from_seed(3);
        let mut b = a.clone();
        assert!(!a.chance(-0.5));
        assert!(!b.chance(0.0));
        assert_eq!(a, b, "below 0 draws like 0");
        assert!(a.chance(7.0));
        assert_eq!(a, b, "above 1 draws nothing, like 1");
    }

    #[test]
    fn keyphrase_draws_match_gen_range() {
        for &(seed, want) in KEYPHRASE {
            let mut r = GameRng::from_seed(seed);
            assert_eq!(want.map(|_| r.below(7776)), want, "seed {seed}");
        }
    }

    /// A game's kind of sequence: one of each draw, in turn, from one
    /// generator, which checks that 32- and 64-bit reads share its position.
    struct Mixed {
        seed: u64,
        die: usize,
        order: [usize; 5],
        coin: bool,
        pick: usize,
        after: u32,
    }

    #[test]
    fn mixed_draws_match() {
        for m in MIXED {
            let seed = m.seed;
            let mut r = GameRng::from_seed(seed);
            assert_eq!(r.below(6), m.die, "seed {seed}");
            let mut order: Vec<usize> = (0..m.order.len()).collect();
            r.shuffle(&mut order);
            assert_eq!(order, m.order, "seed {seed}");
            assert_eq!(r.chance(0.5), m.coin, "seed {seed}");
            assert_eq!(r.below(1000), m.pick, "seed {seed}");
            assert_eq!(r.next_u32(), m.after, "seed {seed}");
        }
    }

    #[test]
    #[should_panic(expected = "below(0)")]
    fn below_zero_panics() {
        GameRng::from_seed(0).below(0);
    }

    // Generated tables: one case a line reads better than rustfmt's one
    // number a line.
    #[rustfmt::skip]
    const RAW: &[(u64, [u64; 3], [u32; 3])] = &[
        (0, [13080132717333068652, 8594738769458413623, 12896916468484187878], [2811902828, 3045455719, 3134767159]),
        (1, [7424550030962593201, 1482817706323250795, 11004592982271133285], [2359561649, 1728662762, 4228812395]),
        (7, [2910824217569608635, 3098856782162503994, 12991601491111613745], [601310139, 677729076, 781920570]),
        (0xdead_beef, [18375021277806890489, 10694743742067356635, 108071404945557828], [1139576313, 4278268031, 767669211]),
        (u64::MAX, [12619125218144107694, 7899558952931569112, 7024312652144319452], [3819388078, 2938119046, 2545823192]),
    ];

    #[rustfmt::skip]
    const BELOW: &[(u64, u64, [u64; 8], u32)] = &[
        (0, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 3550263442),
        (0, 0x2, [1, 1, 0, 1, 0, 1, 1, 0], 4252696926),
        (0, 0x3, [2, 1, 2, 0, 2, 1, 2, 2], 3870498312),
        (0, 0x6, [4, 4, 0, 5, 3, 5, 5, 4], 2102083747),
        (0, 0x1e60, [5513, 3623, 5436, 467, 4273, 6446, 7273, 6250], 3870498312),
        (0, 0x200000000, [6090911439, 4002237119, 6005594725, 516866377, 7551503566, 4720437655, 3013227797, 6567375708], 2481900615),
        (0, 0xffffffffffffffff, [13080132717333068651, 8594738769458413622, 12896916468484187877, 1109962093070354555, 16216730426637698680, 10137062675859812540, 15292064470292927035, 17255573299003615417], 2122901088),
        (0, 0x8000000000000001, [554981046535177278, 8108365213318849341, 5068531337929906271, 1423085824317689604, 7107104045630691253, 4833554344838537298, 3235428711109448816, 5927408238155228708], 215995376),
        (0, 0xc000000000000001, [9810099537999801489, 6446054077093810217, 9672687351363140909, 832471569802765917, 12162547819978274011, 7602797006894859406, 12941679974252711564, 2134628736476534406], 2132528196),
        (1, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 4192854433),
        (1, 0x2, [0, 1, 0, 1, 0, 1, 1, 0], 4192854433),
        (1, 0x3, [1, 0, 0, 2, 1, 0, 2, 2], 118244209),
        (1, 0x6, [2, 0, 3, 1, 1, 4, 5, 4], 118244209),
        (1, 0x1e60, [3129, 625, 4638, 1705, 5525, 3585, 1187, 6802], 746613000),
        (1, 0x200000000, [3457325525, 5124412934, 1311276677, 7514312246, 6069854560, 4151147364, 8512903266, 7837069157], 3373658233),
        (1, 0xffffffffffffffff, [7424550030962593200, 1482817706323250794, 11004592982271133284, 4045824405258374465, 5233167733899381732, 13108444932406911063, 8505575526562236950, 2815945222763399309], 179396627),
        (1, 0x8000000000000001, [5502296491135566643, 2022912202629187233, 1407972611381699655, 8068431337215275018, 5323814614856115442, 4182427744225951217, 9140660280449178607, 8414988931905394950], 3373658233),
        (1, 0xc000000000000001, [5568412523221944901, 1112113279742438096, 8253444736703349964, 3034368303943780849, 3924875800424536300, 9831333699305183298, 6379181644921677713, 2111958917072549482], 179396627),
        (7, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 1635369686),
        (7, 0x2, [0, 0, 1, 1, 1, 0, 0, 1], 3852673003),
        (7, 0x3, [0, 0, 2, 2, 1, 0, 2, 1], 2118657399),
        (7, 0x6, [1, 4, 4, 3, 2, 0, 5, 2], 2118657399),
        (7, 0x1e60, [1227, 1306, 5476, 5651, 4675, 2794, 645, 6604], 1544530125),
        (7, 0x200000000, [1355458152, 1443017638, 6242660204, 5164775614, 713475902, 3300897563, 4477502433, 4522924714], 3492652098),
        (7, 0xffffffffffffffff, [2910824217569608634, 3098856782162503993, 12991601491111613744, 13406010708265417442, 11091271176959810439, 6629102542470643237, 1532177833826564250, 15666632647712377469], 1544530125),
        (7, 0x8000000000000001, [1549428391081251997, 6495800745555806873, 6703005354132708722, 3314551271235321619, 9130884341011059388, 1846866000883506228, 4807681629467187853, 3935080910365188459], 1072006962),
        (7, 0xc000000000000001, [2183118163177206476, 2324142586621877995, 9743701118333710309, 8318453382719857830, 1149133375369923188, 11749974485784283103, 5042382279864467098, 13696326511516589082], 1959835752),
        (0xdead_beef, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 1414846108),
        (0xdead_beef, 0x2, [1, 0, 1, 0, 0, 1, 0, 1], 2834569046),
        (0xdead_beef, 0x3, [1, 0, 2, 0, 2, 1, 0, 1], 2214332408),
        (0xdead_beef, 0x6, [3, 0, 1, 4, 0, 5, 2, 1], 4191500901),
        (0xdead_beef, 0x1e60, [7745, 4508, 45, 1960, 5262, 239, 6924, 3520], 3740433503),
        (0xdead_beef, 0x200000000, [4980128138, 264096685, 7648949435, 3870793885, 2062491247, 3775144991, 1086195727, 7548072453], 1412633190),
        (0xdead_beef, 0xffffffffffffffff, [18375021277806890488, 10694743742067356634, 108071404945557827, 4650010346337213240, 12484079701440771533, 567143312553379838, 16425993836330506271, 8351803193930637780], 3740433503),
        (0xdead_beef, 0x8000000000000001, [9187510638903445245, 5347371871033678318, 54035702472778914, 4974053463553645875, 4156233286441370620, 4053531069003665663, 5919952433525120170, 1166293781473528747], 2898916838),
        (0xdead_beef, 0xc000000000000001, [13781265958355167867, 81053553709168371, 3487507759752909931, 9363059776080578651, 425357484415034879, 6263852395447978336, 2850306232197438791, 7461080195330468812], 2214332408),
        (u64::MAX, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 3527850414),
        (u64::MAX, 0x2, [1, 1, 0, 0, 1, 0, 1, 0], 3702445435),
        (u64::MAX, 0x3, [2, 1, 1, 1, 2, 0, 2, 0], 2163713964),
        (u64::MAX, 0x6, [4, 2, 2, 2, 1, 0, 5, 4], 4019510092),
        (u64::MAX, 0x1e60, [5319, 2961, 3365, 5119, 6340, 1937, 7631, 2549], 1029541307),
        (u64::MAX, 0x200000000, [3678518791, 3270950472, 3718267889, 5655852513, 7004237813, 8430560290, 2815920764, 8337558076], 830209514),
        (u64::MAX, 0xffffffffffffffff, [12619125218144107693, 7899558952931569111, 7024312652144319451, 7984919490939168150, 12145850787534979524, 15041486170534369075, 4597157153194323385, 18104490367216864356], 421675379),
        (u64::MAX, 0x8000000000000001, [3949779476465784556, 3512156326072159726, 6072925393767489763, 2298578576597161693, 9052245183608432179, 8952384816744941278, 183620130289404302, 6730431414362153071], 4019510092),
        (u64::MAX, 0xc000000000000001, [9464343913608080771, 5924669214698676834, 5268234489108239589, 5988689618204376113, 9109388090651234644, 3447867864895742539, 13578367775412648268, 4535357846381506838], 1029541307),
    ];

    #[rustfmt::skip]
    const BELOW_U32: &[(u64, u32, [u32; 8], u32)] = &[
        (0, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 2250799138),
        (0, 0xa, [6, 7, 7, 5, 5, 0, 5, 4], 3560461213),
        (0, 0x34, [34, 24, 26, 36, 29, 3, 10, 45], 2491330749),
        (0, 0x80000001, [1522727860, 1567383580, 129216594, 1887875892, 1245665375, 1180109414, 890718494, 1780230607], 3537070266),
        (0, 0xb2d05e01, [1964091436, 2127226246, 1522094053, 2097429728, 180513496, 586041654, 2637332154, 1740174426], 2360218827),
        (0, 0xffffffff, [2811902827, 3045455718, 3134767158, 2001118558, 2179114725, 3002797361, 2409334907, 258433187], 839009913),
        (1, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 3049605262),
        (1, 0xa, [5, 4, 2, 2, 8, 9, 7, 4], 3049605262),
        (1, 0x34, [28, 51, 4, 31, 20, 11, 43, 14], 3923910744),
        (1, 0x80000001, [1179780825, 864331381, 2114406198, 172622700, 1281103234, 830736033, 470995950, 1787684339], 1218441811),
        (1, 0xb2d05e01, [1207456991, 2953791336, 241151126, 633134078, 1789680543, 1160524832, 657973741, 851071773], 3923910744),
        (1, 0xffffffff, [2359561648, 1728662761, 4228812394, 345245399, 906430052, 2562206466, 1661472065, 941991899], 3575368677),
        (7, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 1039513755),
        (7, 0xa, [1, 1, 7, 0, 7, 6, 8, 3], 1039513755),
        (7, 0x34, [7, 8, 9, 8, 14, 36, 37, 3], 2582387807),
        (7, 0x80000001, [338864538, 390960285, 1512421469, 152825284, 1291193904, 548898111, 1823836082, 782680741], 2118657399),
        (7, 0xb2d05e01, [420010280, 473388291, 503968088, 2112828384, 108317414, 213494455, 1803777046, 2432830480], 1543458211),
        (7, 0xffffffff, [601310138, 677729075, 781920569, 721508818, 1160025392, 3024842936, 155073250, 3121330101], 305650568),
        (0xdead_beef, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 3740433503),
        (0xdead_beef, 0xa, [0, 9, 2, 3, 5, 0, 3, 4], 3740433503),
        (0xdead_beef, 0x34, [13, 51, 9, 30, 40, 0, 48, 13], 1342879182),
        (0xdead_beef, 0x80000001, [2139134016, 1245032035, 12581167, 2007567773, 671439591, 1086178304, 66024171, 1912237359], 1345675733),
        (0xdead_beef, 0xb2d05e01, [795984859, 2988335699, 1739289660, 2322156656, 17575687, 756232697, 937990273, 2030289950], 2172356607),
        (0xdead_beef, 0xffffffff, [1139576312, 4278268030, 767669210, 2490064068, 3324528963, 25162333, 4015135544, 1082664900], 1342879182),
        (u64::MAX, 0x1, [0, 0, 0, 0, 0, 0, 0, 0], 1029541307),
        (u64::MAX, 0xa, [4, 0, 4, 6, 8, 9, 2, 2], 4215280145),
        (u64::MAX, 0x34, [46, 35, 22, 1, 19, 31, 22, 30], 2827926256),
        (u64::MAX, 0x80000001, [53218798, 817737618, 1287836364, 929566972, 1257627875, 535179529, 2107640073, 703980191], 1029541307),
        (u64::MAX, 0xb2d05e01, [2667811754, 2052252446, 1142366256, 1799086617, 1756885845, 2868675780, 747637165, 673155140], 4215280145),
        (u64::MAX, 0xffffffff, [3819388077, 2938119045, 2545823191, 1839259394, 106437595, 1635475235, 2575672726, 1859133943], 2515255749),
    ];

    #[rustfmt::skip]
    const SHUFFLE: &[(u64, &[usize], u32)] = &[
        (0, &[], 2811902828),
        (0, &[0], 2811902828),
        (0, &[0, 1], 3045455719),
        (0, &[3, 8, 5, 2, 7, 1, 0, 4, 9, 6], 2132528196),
        (0, &[46, 8, 30, 25, 16, 13, 7, 3, 15, 22, 12, 0, 10, 4, 37, 5, 21, 47, 23, 38, 11, 29, 1, 44, 31, 2, 48, 43, 24, 45, 17, 19, 14, 6, 40, 27, 28, 33, 42, 32, 20, 39, 35, 49, 18, 26, 41, 9, 51, 50, 36, 34], 1268095817),
        (1, &[], 2359561649),
        (1, &[0], 2359561649),
        (1, &[0, 1], 1728662762),
        (1, &[8, 7, 2, 0, 4, 6, 1, 3, 9, 5], 3034927280),
        (1, &[41, 23, 15, 2, 4, 13, 24, 43, 45, 7, 42, 16, 46, 17, 14, 40, 25, 22, 27, 5, 0, 50, 32, 11, 8, 31, 38, 47, 26, 36, 35, 44, 9, 33, 3, 30, 21, 1, 34, 6, 29, 19, 39, 12, 37, 48, 18, 51, 10, 49, 20, 28], 1629112508),
        (7, &[], 601310139),
        (7, &[0], 601310139),
        (7, &[1, 0], 677729076),
        (7, &[5, 4, 2, 0, 3, 6, 7, 8, 9, 1], 2582387807),
        (7, &[42, 46, 38, 28, 21, 2, 29, 30, 49, 16, 44, 22, 40, 6, 19, 4, 20, 47, 23, 24, 32, 5, 39, 0, 43, 25, 31, 14, 36, 12, 11, 48, 37, 18, 13, 26, 51, 17, 33, 41, 45, 10, 15, 35, 27, 3, 34, 1, 50, 9, 8, 7], 2255572352),
        (0xdead_beef, &[], 1139576313),
        (0xdead_beef, &[0], 1139576313),
        (0xdead_beef, &[1, 0], 2490064069),
        (0xdead_beef, &[5, 3, 1, 9, 6, 4, 7, 2, 8, 0], 4191500901),
        (0xdead_beef, &[44, 15, 42, 26, 48, 49, 18, 40, 5, 37, 3, 11, 20, 2, 50, 16, 6, 34, 30, 47, 7, 25, 32, 17, 36, 33, 24, 45, 29, 46, 10, 28, 22, 4, 35, 23, 27, 41, 21, 43, 8, 19, 51, 39, 1, 31, 14, 12, 0, 38, 9, 13], 25289502),
        (u64::MAX, &[], 3819388078),
        (u64::MAX, &[0], 3819388078),
        (u64::MAX, &[0, 1], 2545823192),
        (u64::MAX, &[1, 8, 6, 5, 7, 2, 9, 3, 0, 4], 963726437),
        (u64::MAX, &[24, 17, 40, 5, 29, 19, 39, 11, 25, 23, 16, 48, 3, 26, 14, 8, 38, 31, 35, 32, 22, 34, 6, 33, 51, 2, 37, 12, 49, 15, 20, 0, 27, 10, 44, 47, 45, 7, 43, 13, 4, 41, 9, 42, 36, 50, 28, 18, 1, 21, 30, 46], 1271145021),
    ];

    #[rustfmt::skip]
    const CHANCE: &[(u64, f64, &str, u32)] = &[
        (0, 0.0, "0000000000000000", 215995376),
        (0, 0.1, "0001000000000000", 215995376),
        (0, 0.5, "0101000001000100", 215995376),
        (0, 0.999, "1111111111111111", 215995376),
        (0, 1.0, "1111111111111111", 2811902828),
        (1, 0.0, "0000000000000000", 157562845),
        (1, 0.1, "0100000000001000", 157562845),
        (1, 0.5, "1101101100101111", 157562845),
        (1, 0.999, "1111111111111111", 157562845),
        (1, 1.0, "1111111111111111", 2359561649),
        (7, 0.0, "0000000000000000", 3492652098),
        (7, 0.1, "0000001000000000", 3492652098),
        (7, 0.5, "1100011010110110", 3492652098),
        (7, 0.999, "1111111111111111", 3492652098),
        (7, 1.0, "1111111111111111", 601310139),
        (0xdead_beef, 0.0, "0000000000000000", 2898916838),
        (0xdead_beef, 0.1, "0010010000000000", 2898916838),
        (0xdead_beef, 0.5, "0011010110111001", 2898916838),
        (0xdead_beef, 0.999, "1111111111111111", 2898916838),
        (0xdead_beef, 1.0, "1111111111111111", 1139576313),
        (u64::MAX, 0.0, "0000000000000000", 3527850414),
        (u64::MAX, 0.1, "0000000000010000", 3527850414),
        (u64::MAX, 0.5, "0111001010010011", 3527850414),
        (u64::MAX, 0.999, "1111111111111111", 3527850414),
        (u64::MAX, 1.0, "1111111111111111", 3819388078),
    ];

    #[rustfmt::skip]
    const KEYPHRASE: &[(u64, [usize; 4])] = &[
        (0, [5513, 3623, 5436, 467]),
        (1, [3129, 625, 4638, 1705]),
        (7, [1227, 1306, 5476, 5651]),
        (0xdead_beef, [7745, 4508, 45, 1960]),
        (u64::MAX, [5319, 2961, 3365, 5119]),
    ];

    #[rustfmt::skip]
    const MIXED: &[Mixed] = &[
        Mixed { seed: 0, die: 4, order: [0, 1, 3, 4, 2], coin: true, pick: 580, after: 2360218827 },
        Mixed { seed: 1, die: 2, order: [3, 4, 1, 2, 0], coin: true, pick: 710, after: 2130676247 },
        Mixed { seed: 7, die: 1, order: [4, 3, 2, 0, 1], coin: false, pick: 242, after: 356737951 },
        Mixed { seed: 0xdead_beef, die: 3, order: [4, 3, 2, 1, 0], coin: false, pick: 313, after: 1944555713 },
        Mixed { seed: u64::MAX, die: 4, order: [3, 4, 1, 0, 2], coin: false, pick: 596, after: 3502118906 },
    ];
}
