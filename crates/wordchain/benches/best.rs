//! `best` on a 20-card hand holding two Multicards, on `en-large`: the
//! issue's goal is under 20 ms, so that bots can call it every turn.

use criterion::{criterion_group, criterion_main, Criterion};
use parlor_wordchain::best::{index, search, Limits};
use parlor_wordchain::card::{parse_cards, Card};
use parlor_wordchain::scoring::ScoreRules;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text)
        .unwrap()
        .iter()
        .map(|t| t.card())
        .collect()
}

fn bench(c: &mut Criterion) {
    let lexicon = parlor_lexicon::Lexicon::embedded("en-large").unwrap();
    let words = index(&lexicon);
    let rules = ScoreRules::default();
    let hands = [
        (
            "common",
            "Kh Nd Oc Ps Ed Ts Rh Ic Ad Sc Lh Md Bs Uh Ec Gd Hh Os * *",
            "Th",
        ),
        (
            "hard",
            "Qh Zd Xc Jj Vd Wh Kc Yd Fh Bc Ed Ah Ic Ud Ms Nh Pd Gc * *",
            "Xs",
        ),
    ];
    for (name, hand, link) in hands {
        let hand = cards(&hand.replace("Jj", "Js"));
        let link = cards(link)[0];
        c.bench_function(
            &format!("best/{name}/20 cards, 2 Multicards, en-large"),
            |b| {
                b.iter(|| {
                    let s = search(&words, &hand, link, &rules, Limits::default());
                    (s.by_score(10), s.by_tactical(10))
                })
            },
        );
    }
    c.bench_function("best/index en-large", |b| b.iter(|| index(&lexicon)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
