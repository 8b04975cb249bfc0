//! Quick benchmark driver: `cargo run --release -p parlor-gobble --example bench -- DICT N`.
use parlor_gobble::bench::{random_boards, score_boards, Dist};
use parlor_gobble::{DiceSet, Scoring, Size, Trie};

/// Process CPU seconds (user + system) from /proc/self/stat.
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let f: Vec<&str> = s
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let t = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dict = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("/work/shared/dicts/enable2k.txt");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let threads: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(dict).expect("read dictionary");
    let t0 = std::time::Instant::now();
    let trie = Trie::new(text.lines());
    eprintln!(
        "trie: {} words, {} nodes, {:?}",
        trie.len(),
        trie.node_count(),
        t0.elapsed()
    );
    for (name, size, dist) in [
        ("uniform 4x4", Size::square(4), Dist::Uniform),
        (
            "dice 4x4",
            Size::square(4),
            Dist::Dice(DiceSet::named("1987").unwrap()),
        ),
        ("uniform 5x5", Size::square(5), Dist::Uniform),
    ] {
        let boards = random_boards(n, "1", &dist, size);
        let c0 = cpu();
        let r = score_boards(&trie, Scoring::Boggle, &boards, threads);
        let c = cpu() - c0;
        println!(
            "{name}: {:.0} boards/s wall, {:.0} boards/CPU-s, sum {} words {} ({:?})",
            r.rate(),
            r.boards as f64 / c,
            r.score_sum,
            r.word_sum,
            r.elapsed
        );
    }
}
