//! `cargo run --release -p parlor-gobble --example best -- SECONDS ITER T0 T1 [SEED]`
use parlor_gobble::search::{search, SearchConfig};
use parlor_gobble::{Scoring, Size, Trie};
use std::time::Duration;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let secs: u64 = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let text = std::fs::read_to_string("/work/shared/dicts/enable2k.txt").unwrap();
    let trie = Trie::new(text.lines());
    let mut cfg = SearchConfig::new(
        Size::square(4),
        Scoring::Boggle,
        Duration::from_secs(secs),
        1,
        2,
    );
    if let Some(v) = a.get(2).and_then(|s| s.parse().ok()) {
        cfg.iterations = v;
    }
    if let Some(v) = a.get(3).and_then(|s| s.parse().ok()) {
        cfg.t_start = v;
    }
    if let Some(v) = a.get(4).and_then(|s| s.parse().ok()) {
        cfg.t_end = v;
    }
    if let Some(v) = a.get(5).and_then(|s| s.parse().ok()) {
        cfg.seed = v;
    }
    cfg.target = Some(3625);
    let last = std::sync::Mutex::new(0u32);
    let st = search(&trie, &cfg, &Default::default(), &|s| {
        let mut l = last.lock().unwrap();
        if s.score > *l {
            *l = s.score;
            eprintln!(
                "{:>8.1}s {} {} evals {} runs {}",
                s.elapsed.as_secs_f64(),
                s.score,
                s.board.letters(),
                s.evaluations,
                s.runs
            );
        }
    });
    println!(
        "best {} {} found after {:?}; {} evals, {} runs in {:?}",
        st.score,
        st.board.letters(),
        st.found_after,
        st.evaluations,
        st.runs,
        st.elapsed
    );
}
