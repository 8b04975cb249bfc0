//! Tuning runs of the best-board search:
//! `cargo run --release -p parlor-gobble --example best -- size=5 secs=120 seed=1 target=10406 [dict=PATH] [iterations=N t_start=X t_end=X elite=N elite_share=X kick=N reheat=X elite_iterations=N threads=N]`
use parlor_gobble::search::{search, SearchConfig};
use parlor_gobble::{Scoring, Size, Trie};
use std::time::Duration;

fn main() {
    let mut kv = std::collections::HashMap::new();
    for a in std::env::args().skip(1) {
        let (k, v) = a.split_once('=').expect("key=value");
        kv.insert(k.to_string(), v.to_string());
    }
    let get = |k: &str| kv.get(k).cloned();
    let dict = get("dict").unwrap_or("/work/shared/dicts/enable2k.txt".into());
    let text = std::fs::read_to_string(dict).unwrap();
    let trie = Trie::new(text.lines());
    let size: usize = get("size").map_or(4, |s| s.parse().unwrap());
    let mut cfg = SearchConfig::new(
        Size::square(size),
        Scoring::Boggle,
        Duration::from_secs_f64(get("secs").map_or(60.0, |s| s.parse().unwrap())),
        get("seed").map_or(1, |s| s.parse().unwrap()),
        get("threads").map_or(2, |s| s.parse().unwrap()),
    );
    macro_rules! set {
        ($($f:ident),*) => {$(if let Some(v) = get(stringify!($f)) { cfg.$f = v.parse().unwrap(); })*};
    }
    set!(
        iterations,
        t_start,
        t_end,
        elite,
        elite_share,
        kick,
        reheat,
        elite_iterations
    );
    cfg.target = get("target").map(|s| s.parse().unwrap());
    let cpu0 = cpu();
    let cpu_budget: f64 = get("cpu").map_or(f64::INFINITY, |s| s.parse().unwrap());
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let finished = std::sync::atomic::AtomicBool::new(false);
    let found_cpu = std::sync::Mutex::new(0.0f64);
    let last = std::sync::Mutex::new(0u32);
    let verbose = get("v").is_some();
    let st = std::thread::scope(|sc| {
        sc.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                if cpu() - cpu0 >= cpu_budget {
                    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let st = search(&trie, &cfg, &cancel, &|s| {
            let mut l = last.lock().unwrap();
            if s.score > *l {
                *l = s.score;
                *found_cpu.lock().unwrap() = cpu() - cpu0;
                if verbose {
                    eprintln!(
                        "{:>8.1}s {} {} evals {} runs {}",
                        s.elapsed.as_secs_f64(),
                        s.score,
                        s.board.letters(),
                        s.evaluations,
                        s.runs
                    );
                }
            }
        });
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        st
    });
    println!(
        "seed {} best {} {} found {:.1}s cpu {:.1}; {} evals, {} runs in {:.1}s, cpu {:.1}s; elite {:?}",
        cfg.seed,
        st.score,
        st.board.letters(),
        st.found_after.as_secs_f64(),
        *found_cpu.lock().unwrap(),
        st.evaluations,
        st.runs,
        st.elapsed.as_secs_f64(),
        cpu() - cpu0,
        st.elite.iter().map(|e| e.1).collect::<Vec<_>>()
    );
}

fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = s.rsplit_once(')').unwrap().1.split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}
