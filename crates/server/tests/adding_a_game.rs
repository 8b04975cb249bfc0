//! `docs/adding-a-game.md` kept true. Its example game, Sealed-Bid Nim
//! (`parlor_core::sealed_bid`), is taken through the document's steps here:
//! registered (§17), held to the conformance suite (§18), shown in the
//! catalogue with the settings it declares (§3) and played over HTTP against
//! its bot (§15) on a server. And every Rust code block of the document names
//! the file it quotes (`<!-- code: PATH -->` on the line before it) and is
//! checked to be in that file, so that when the code changes the document
//! fails here instead of going stale.

mod common;

use parlor_core::sealed_bid::{self, Config, SealedBid};
use parlor_core::{Registry, Resources};
use parlor_server::Server;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn document() -> String {
    std::fs::read_to_string(workspace().join("docs/adding-a-game.md")).expect("the document")
}

/// A fenced code block of the document: its language, the file its marker
/// names (if any), its lines, and the line it starts on.
struct Block {
    lang: String,
    source: Option<String>,
    lines: Vec<String>,
    line: usize,
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut previous = "";
    let mut lines = doc.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let t = line.trim();
        if let Some(lang) = t.strip_prefix("```") {
            let source = previous
                .strip_prefix("<!-- code:")
                .and_then(|s| s.strip_suffix("-->"))
                .map(|s| s.trim().to_string());
            let mut body = Vec::new();
            for (_, l) in lines.by_ref() {
                if l.trim() == "```" {
                    break;
                }
                body.push(l.to_string());
            }
            out.push(Block {
                lang: lang.trim().to_string(),
                source,
                lines: body,
                line: n + 1,
            });
            previous = "";
            continue;
        }
        if !t.is_empty() {
            previous = t;
        }
    }
    out
}

/// Whether `block` is in `file`: its lines (trimmed, blank ones left out)
/// appear in the file in order, each run between `...` lines as
/// consecutive lines. `Err` names the first run not found.
fn quoted_in(block: &[String], file: &str) -> Result<(), String> {
    let file: Vec<&str> = file
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut runs: Vec<Vec<&str>> = vec![Vec::new()];
    for l in block.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        if l == "..." {
            runs.push(Vec::new());
        } else {
            runs.last_mut().unwrap().push(l);
        }
    }
    let mut from = 0;
    for run in runs.iter().filter(|r| !r.is_empty()) {
        let found = (from..=file.len().saturating_sub(run.len()))
            .find(|&i| file[i..i + run.len()] == run[..])
            .ok_or_else(|| format!("not found in order: {}", run.join("\n")))?;
        from = found + run.len();
    }
    Ok(())
}

#[test]
fn every_rust_block_of_the_document_is_the_code_it_quotes() {
    let doc = document();
    let blocks = blocks(&doc);
    let mut checked = 0;
    for b in &blocks {
        let Some(source) = &b.source else {
            assert!(
                b.lang != "rust",
                "docs/adding-a-game.md line {}: a Rust block names the file it quotes \
                 (`<!-- code: PATH -->` on the line before it)",
                b.line
            );
            continue;
        };
        let file = std::fs::read_to_string(workspace().join(source))
            .unwrap_or_else(|e| panic!("docs/adding-a-game.md line {}: {source}: {e}", b.line));
        if let Err(e) = quoted_in(&b.lines, &file) {
            panic!(
                "docs/adding-a-game.md line {}: the block is not what {source} says ({e})",
                b.line
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} blocks checked");
}

/// The check itself fails on a block that drifted from its file.
#[test]
fn a_block_that_drifted_is_caught() {
    let file = "fn a() {\n    one();\n    two();\n}\nfn b() {}\n";
    let ok = |s: &str| quoted_in(&s.lines().map(String::from).collect::<Vec<_>>(), file);
    assert!(ok("fn a() {\n  one();\n\n  two();").is_ok());
    assert!(ok("fn a() {\n...\n}\nfn b() {}").is_ok());
    assert!(ok("fn a() {\n    two();").is_err(), "a line left out");
    assert!(ok("fn b() {}\n...\nfn a() {").is_err(), "out of order");
    assert!(ok("fn a() {\n    one(1);").is_err(), "a changed line");
}

/// §17 and §18: registered, the game is hosted through the registry with no
/// code of its own, and the conformance suite passes over its default and
/// extreme configs.
#[test]
fn the_example_registers_and_passes_the_conformance_suite() {
    let mut registry = Registry::new();
    registry.register::<SealedBid>();
    assert_eq!(registry.names(), vec!["sealed-bid"]);
    let resources = Resources::embedded();
    for config in [Config::default(), Config { pile: 1, chips: 0 }] {
        let totals = sealed_bid::conformance_suite(config).check(0..200, &resources);
        assert_eq!(totals.games, 200);
    }
}

/// The state of `token`'s seat, polled until `ready` says so. The bot
/// answers on its own task, so the loop waits for something that must
/// happen; the bound only keeps a broken server from hanging the test.
async fn state_when(
    addr: std::net::SocketAddr,
    id: &str,
    token: &str,
    ready: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..6000 {
        let (status, state) =
            common::get(addr, &format!("/api/games/{id}/state?token={token}")).await;
        assert_eq!(status, 200, "{state}");
        if ready(&state) {
            return state;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the game never got there");
}

/// §3, §15 and §17: a server given the registry lists the game with the
/// settings it declares, refuses a setting out of its range with the
/// game's one line, and plays a whole game of it against its bot.
#[tokio::test]
async fn the_example_is_hosted_and_played_against_its_bot() {
    let mut registry = Registry::new();
    registry.register::<SealedBid>();
    let server = Server::start(
        registry,
        Resources::embedded(),
        &common::sqlite_url("adding-a-game"),
        "127.0.0.1:0".parse().unwrap(),
        common::test_settings(),
    )
    .await
    .expect("server starts");
    let addr = server.addr();

    let (status, catalog) = common::get(addr, "/api/catalog").await;
    assert_eq!(status, 200);
    let game = &catalog["games"][0];
    assert_eq!(game["name"], "sealed-bid");
    assert_eq!(game["title"], "Sealed-Bid Nim");
    let fields: Vec<&str> = game["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["pile", "chips"]);

    let (status, refused) = common::post(
        addr,
        "/api/games",
        json!({"game": "sealed-bid", "config": {"pile": 0}}),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"]["code"], "bad_config");
    assert_eq!(refused["error"]["kind"], "bad_setting");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("pile: 0 is not a whole number from 1 to 1000"),
        "the declared range is held before the game sees it (§3): {refused}"
    );

    let created = common::create(
        addr,
        json!({"game": "sealed-bid", "config": {"pile": 9, "chips": 6},
               "bots": [{"seat": 1, "level": "best"}], "take_seat": 0}),
    )
    .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = created["you"]["token"].as_str().unwrap().to_string();
    let mut moves = 0;
    loop {
        let state = state_when(addr, &id, &token, |s| {
            !s["outcome"].is_null() || s["legal"].as_array().is_some_and(|l| !l.is_empty())
        })
        .await;
        if !state["outcome"].is_null() {
            // Taken to the last stone (§10): both seats ranked, the
            // winner first.
            assert_eq!(state["view"]["pile"], 0, "{state}");
            let ranking = state["outcome"]["ranking"].as_array().unwrap();
            assert_eq!(ranking.len(), 2, "{state}");
            assert_eq!(ranking[0][0], state["view"]["winner"], "{state}");
            break;
        }
        // The smallest bid, or the most stones: any listed action is legal.
        let legal = state["legal"].as_array().unwrap();
        let action = if legal[0].get("bid").is_some() {
            legal[0].clone()
        } else {
            legal.last().unwrap().clone()
        };
        let (status, reply) = common::post(
            addr,
            &format!("/api/games/{id}/actions"),
            json!({"token": token, "action": action}),
        )
        .await;
        assert_eq!(status, 200, "{action} refused: {reply}");
        moves += 1;
        assert!(moves < 100, "a 9-stone game is over in fewer moves");
    }
    let (status, record) = common::get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200, "{record}");
    server.stop().await;
}
