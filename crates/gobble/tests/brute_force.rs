//! The solver against a naive search: every simple path of the board,
//! spelled out and looked up in a `HashSet`.

use parlor_gobble::{Board, Scoring, Size, Solver, Trie, QU};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet};

fn brute(board: &Board, dict: &HashSet<String>, scoring: Scoring) -> BTreeMap<String, u32> {
    let size = board.size();
    let mut out = BTreeMap::new();
    fn go(
        board: &Board,
        size: Size,
        dict: &HashSet<String>,
        scoring: Scoring,
        path: &mut Vec<usize>,
        out: &mut BTreeMap<String, u32>,
    ) {
        let word: String = path
            .iter()
            .map(|&c| Board::face(board.cells()[c]).to_lowercase())
            .collect();
        let len = word.len();
        if dict.contains(&word) && scoring.points(len, size) > 0 {
            out.insert(word, scoring.points(len, size));
        }
        let last = *path.last().unwrap();
        for n in 0..size.cells() {
            if !path.contains(&n) && Board::adjacent(size, last, n) {
                path.push(n);
                go(board, size, dict, scoring, path, out);
                path.pop();
            }
        }
    }
    for c in 0..size.cells() {
        go(board, size, dict, scoring, &mut vec![c], &mut out);
    }
    out
}

fn letter() -> impl Strategy<Value = u8> {
    // A small alphabet (with Qu) so that words are found often.
    prop::sample::select(vec![0u8, 4, 18, 19, 17, QU, 20, 8])
}

fn word() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["a", "e", "s", "t", "r", "qu", "u", "i", "q"]),
        2..8,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn solver_matches_brute_force(
        w in 1usize..5,
        h in 1usize..4,
        cells in prop::collection::vec(letter(), 12),
        words in prop::collection::vec(word(), 1..120),
        boggle in any::<bool>(),
    ) {
        let size = Size::new(w, h).unwrap();
        let board = Board::from_cells(size, cells[..size.cells()].to_vec());
        let scoring = if boggle { Scoring::Boggle } else { Scoring::Gobble };
        let trie = Trie::new(&words);
        let dict: HashSet<String> = words.iter().filter(|w| trie.contains(w)).cloned().collect();
        let expected = brute(&board, &dict, scoring);
        let mut solver = Solver::new(&trie, scoring);
        let found: BTreeMap<String, u32> = solver.words(&board).into_iter().map(|f| (f.word, f.points)).collect();
        prop_assert_eq!(&found, &expected);
        let tally = solver.score(&board);
        prop_assert_eq!(tally.count as usize, expected.len());
        prop_assert_eq!(tally.score, expected.values().sum::<u32>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    /// Large and odd boards (up to 64 cells, where the used-cells set is
    /// full) and long words: the fast totals agree with the listing walk,
    /// which the test above holds to the naive search.
    #[test]
    fn fast_totals_match_the_word_list_on_large_boards(
        w in 1usize..=8,
        h in 1usize..=8,
        cells in prop::collection::vec(letter(), 64),
        words in prop::collection::vec(word(), 1..200),
        snake in any::<bool>(),
        boggle in any::<bool>(),
    ) {
        let size = Size::new(w, h).unwrap();
        let board = Board::from_cells(size, cells[..size.cells()].to_vec());
        let mut words = words;
        if snake {
            // The whole board read row by row, snaking, is a path: a word
            // as long as the board (up to 128 letters with Qu).
            let mut path = String::new();
            for r in 0..h {
                let row: Vec<usize> = (0..w).map(|c| r * w + c).collect();
                let row: Vec<usize> = if r % 2 == 0 { row } else { row.into_iter().rev().collect() };
                for c in row {
                    path.push_str(&Board::face(board.cells()[c]).to_lowercase());
                }
            }
            words.push(path);
        }
        let scoring = if boggle { Scoring::Boggle } else { Scoring::Gobble };
        let trie = Trie::new(&words);
        let mut solver = Solver::new(&trie, scoring);
        let listed = solver.words(&board);
        let tally = solver.score(&board);
        prop_assert_eq!(tally.count as usize, listed.len());
        prop_assert_eq!(tally.score, listed.iter().map(|f| f.points).sum::<u32>());
        prop_assert_eq!(solver.score(&board), tally, "a second solve of the same board agrees");
    }
}
