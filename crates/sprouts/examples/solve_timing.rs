//! Times the solver on start positions: `solve_timing N [misere|nimber]`.
use parlor_sprouts::solve::{Query, Solver};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mode = args.get(2).map(String::as_str).unwrap_or("normal");
    let q = Query {
        misere: mode == "misere",
        nimber: mode == "nimber",
        threads: 1,
    };
    for k in 1..=n {
        let s = Solver::new();
        let t = Instant::now();
        let a = s.solve_start(k, &q).unwrap();
        println!(
            "n={k} win={} nim={:?} nodes={} {:.3}s tables={:?}",
            a.first_player_wins,
            a.nimber,
            a.positions,
            t.elapsed().as_secs_f64(),
            s.table_sizes()
        );
    }
}
