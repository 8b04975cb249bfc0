//! Words for a client that sees only its seat's view: what a load
//! generator enters for its seat, where Gobble lists no actions (any word
//! may be typed).

use crate::game::trie_for;
use crate::{Board, Solver};
use parlor_core::{Resources, ViewActions};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Boards whose words are kept at once; past that the cache starts over.
const BOARDS_KEPT: usize = 10_000;

/// The words found on the board of a seat's JSON view, a few not yet on
/// its list (the client picks one), then `done` once none is left. Each
/// board is solved once (boards repeat only by keyphrase).
pub fn view_actions(config: &Value, resources: &Resources) -> Result<ViewActions, String> {
    let name = config["lexicon"]
        .as_str()
        .unwrap_or(parlor_lexicon::DEFAULT)
        .to_string();
    let trie = trie_for(resources, &name).map_err(|e| e.to_string())?;
    let boards: Arc<Mutex<HashMap<String, Arc<Vec<String>>>>> = Arc::default();
    Ok(Arc::new(move |view: &Value| {
        if view["over"].as_bool() != Some(false) {
            return None;
        }
        let letters = view["letters"].as_str()?;
        let words = {
            let mut b = boards.lock().unwrap_or_else(|e| e.into_inner());
            if b.len() > BOARDS_KEPT {
                b.clear();
            }
            match b.get(letters) {
                Some(w) => w.clone(),
                None => {
                    let board = Board::parse(letters, None).ok()?;
                    let scoring = serde_json::from_value(view["scoring"].clone()).ok()?;
                    let found: Vec<String> = Solver::new(&trie, scoring)
                        .words(&board)
                        .into_iter()
                        .map(|f| f.word)
                        .collect();
                    let found = Arc::new(found);
                    b.insert(letters.to_string(), found.clone());
                    found
                }
            }
        };
        let min = view["min_len"].as_u64().unwrap_or(3) as usize;
        let mine: Vec<&str> = view["my_words"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let left: Vec<&String> = words
            .iter()
            .filter(|w| w.len() >= min && !mine.contains(&w.as_str()))
            .collect();
        if left.is_empty() {
            return Some(vec![json!({"type": "done"})]);
        }
        // A few to pick from (the client picks at random).
        Some(
            left.iter()
                .take(4)
                .map(|w| json!({"type": "enter", "word": w}))
                .collect(),
        )
    }))
}
