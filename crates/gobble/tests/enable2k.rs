//! Golden results with the ENABLE2K list (read from `../shared/dicts/`, never
//! copied into the repository); skipped with a message when it is absent.

use parlor_gobble::{Board, Scoring, Solver, Trie};

fn enable2k() -> Option<Trie> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/dicts/enable2k.txt"
    );
    match std::fs::read_to_string(path) {
        Ok(text) => Some(Trie::new(text.lines())),
        Err(e) => {
            eprintln!("skipping: cannot read {path}: {e}");
            None
        }
    }
}

#[test]
fn perslatgsineters_is_3625_points_1045_words() {
    let Some(trie) = enable2k() else { return };
    let board = Board::parse("perslatgsineters", None).unwrap();
    let mut solver = Solver::new(&trie, Scoring::Boggle);
    let tally = solver.score(&board);
    assert_eq!((tally.score, tally.count), (3625, 1045));
    let words = solver.words(&board);
    assert_eq!(words.len(), 1045);
    assert_eq!(words.iter().map(|w| w.points).sum::<u32>(), 3625);
    // Every reported path spells its word through touching, distinct cells.
    for w in &words {
        let spelled: String = w
            .path
            .iter()
            .map(|&c| Board::face(board.cells()[c]).to_lowercase())
            .collect();
        assert_eq!(spelled, w.word);
        assert!(w
            .path
            .windows(2)
            .all(|p| Board::adjacent(board.size(), p[0], p[1])));
        let mut cells = w.path.clone();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), w.path.len());
    }
}
