//! The two moves of the card formulation, step by step, and the legal-move
//! generator.
//!
//! A [`Move`] names its stacks by index into [`Position::rows`] and its cuts
//! by how many cards go from the top to the bottom, so it means something
//! only in the position it was made for. [`apply`] plays the steps of the
//! original document literally, counting the cards left in the deck (three
//! per spot); a step that cannot be done makes the move illegal
//! ([`MoveError`]).

use crate::canon::{branch_keys, canonical_reduced, labelled_key, Canonical};
use crate::position::{Position, Spot};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// One move in one position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// Joins two stacks of one row into one (a line between two boundaries
    /// of a region): `1;2` becomes `3,1,3,2` (written `1,3,2,3` in the
    /// document, the same cycle).
    Join {
        /// The row (from 0).
        row: usize,
        /// Stack A (from 0).
        a: usize,
        /// Cards cut from the top of A to its bottom first; A's new top card
        /// is the line's first end.
        a_cut: usize,
        /// Stack B, another stack of the row.
        b: usize,
        /// Cards cut from B; its new top card is the line's other end.
        b_cut: usize,
    },
    /// Divides a stack in two, one of them in a new row (a curve from a
    /// boundary back to it): `1,3,2,3` becomes `4,1,3,2/4,2,3,1`.
    Divide {
        /// The row (from 0).
        row: usize,
        /// The stack (from 0).
        stack: usize,
        /// Cards cut from its top to its bottom first; the new top card is
        /// the curve's first end.
        cut: usize,
        /// Cards taken from the top into the new row after the twin is
        /// played (1 up to the stack's length); the last of them is the
        /// curve's other end.
        take: usize,
        /// Other stacks of the row moved to the new row (indices, any order).
        moved: Vec<usize>,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The row is not there.
    #[error("there is no row {row} (the position has {rows})")]
    NoRow {
        /// Asked (from 1).
        row: usize,
        /// Rows there are.
        rows: usize,
    },
    /// The stack is not there.
    #[error("row {row} has no stack {stack}")]
    NoStack {
        /// Row from 1.
        row: usize,
        /// Stack from 1.
        stack: usize,
    },
    /// A joining move needs two different stacks.
    #[error("a joining move needs two different stacks")]
    SameStack,
    /// A cut longer than the stack.
    #[error("cannot cut {cut} cards from a stack of {len}")]
    BadCut {
        /// Cards to cut.
        cut: usize,
        /// Cards in the stack.
        len: usize,
    },
    /// Taking none or all of the cards.
    #[error("take 1 to {max} cards into the new row, not {take}")]
    BadTake {
        /// Asked.
        take: usize,
        /// The most allowed.
        max: usize,
    },
    /// A stack to move that is the divided one, repeated, or not in the row.
    #[error("stack {stack} cannot be moved to the new row")]
    BadMoved {
        /// Stack from 1.
        stack: usize,
    },
    /// A twin to play whose three cards are all on the table: the spot has
    /// no life left for this line.
    #[error("spot {spot} has no card left to play (no life left for this line)")]
    NoTwin {
        /// The spot.
        spot: Spot,
    },
}

/// Plays `mv` on `position`, step by step as the document says.
pub fn apply(position: &Position, mv: &Move) -> Result<Position, MoveError> {
    let mut rows: Vec<Vec<Vec<Spot>>> = position.rows().to_vec();
    let fresh = position.next_spot();
    let deck = |rows: &Vec<Vec<Vec<Spot>>>, spot: Spot| {
        3 - rows
            .iter()
            .flatten()
            .flatten()
            .filter(|&&c| c == spot)
            .count()
            .min(3)
    };
    let row_of = |row: usize| {
        if row < position.rows().len() {
            Ok(row)
        } else {
            Err(MoveError::NoRow {
                row: row + 1,
                rows: position.rows().len(),
            })
        }
    };
    match mv {
        Move::Join {
            row,
            a,
            a_cut,
            b,
            b_cut,
        } => {
            let r = row_of(*row)?;
            let len = rows[r].len();
            for s in [a, b] {
                if *s >= len {
                    return Err(MoveError::NoStack {
                        row: r + 1,
                        stack: s + 1,
                    });
                }
            }
            if a == b {
                return Err(MoveError::SameStack);
            }
            let mut sa = cut_stack(&rows[r][*a], *a_cut)?;
            let mut sb = cut_stack(&rows[r][*b], *b_cut)?;
            // Steps 2 and 3: a twin of each top card to the bottom, where
            // the stack has more than one card.
            for s in [&mut sa, &mut sb] {
                if s.len() > 1 {
                    let top = s[0];
                    if deck(&rows, top) == 0 {
                        return Err(MoveError::NoTwin { spot: top });
                    }
                    s.push(top);
                    // The twin is on the table now: count it for the other stack.
                    rows.push(vec![vec![top]]);
                }
            }
            // Step 4: two fresh identical cards on top of A and B; step 5:
            // A on top of B.
            let mut joined = vec![fresh];
            joined.extend(sa);
            joined.push(fresh);
            joined.extend(sb);
            let mut kept: Vec<Vec<Spot>> = position.rows()[r]
                .iter()
                .enumerate()
                .filter(|(i, _)| i != a && i != b)
                .map(|(_, s)| s.clone())
                .collect();
            kept.push(joined);
            let mut out = position.rows().to_vec();
            out[r] = kept;
            Ok(Position::from_rows_unchecked(out))
        }
        Move::Divide {
            row,
            stack,
            cut,
            take,
            moved,
        } => {
            let r = row_of(*row)?;
            if *stack >= rows[r].len() {
                return Err(MoveError::NoStack {
                    row: r + 1,
                    stack: stack + 1,
                });
            }
            let mut seen = HashSet::new();
            for &m in moved {
                if m == *stack || m >= rows[r].len() || !seen.insert(m) {
                    return Err(MoveError::BadMoved { stack: m + 1 });
                }
            }
            // Step 1: cut. Step 2: a twin of the top card to the bottom.
            let mut s = cut_stack(&rows[r][*stack], *cut)?;
            let k = s.len();
            let top = s[0];
            if deck(&rows, top) == 0 {
                return Err(MoveError::NoTwin { spot: top });
            }
            s.push(top);
            rows.push(vec![vec![top]]);
            // Step 3: one or more cards, not all, from the top to a new row.
            if *take == 0 || *take > k {
                return Err(MoveError::BadTake {
                    take: *take,
                    max: k,
                });
            }
            let mut new_stack: Vec<Spot> = s[..*take].to_vec();
            let mut original: Vec<Spot> = s[*take..].to_vec();
            // Step 4: a twin of the new stack's bottom card on top of the original.
            if new_stack.len() > 1 || original.len() > 1 {
                let bottom = *new_stack.last().expect("take >= 1");
                if deck(&rows, bottom) == 0 {
                    return Err(MoveError::NoTwin { spot: bottom });
                }
                original.insert(0, bottom);
            }
            // Step 5: fresh twins on top of both.
            new_stack.insert(0, fresh);
            original.insert(0, fresh);
            // Step 6: the chosen other stacks go to the new row.
            let mut new_row = vec![new_stack];
            let mut old_row = Vec::new();
            for (i, st) in position.rows()[r].iter().enumerate() {
                if i == *stack {
                    old_row.push(original.clone());
                } else if moved.contains(&i) {
                    new_row.push(st.clone());
                } else {
                    old_row.push(st.clone());
                }
            }
            let mut out = position.rows().to_vec();
            out[r] = old_row;
            out.push(new_row);
            Ok(Position::from_rows_unchecked(out))
        }
    }
}

fn cut_stack(stack: &[Spot], cut: usize) -> Result<Vec<Spot>, MoveError> {
    if cut >= stack.len() {
        return Err(MoveError::BadCut {
            cut,
            len: stack.len(),
        });
    }
    let mut s = stack.to_vec();
    s.rotate_left(cut);
    Ok(s)
}

/// Every legal move of `position`, one per class of equivalent results
/// (equal [`canonical_reduced`] forms: the same game up to cuts, order,
/// renumbering, mirroring and the place of dead boundaries; or equal
/// [`labelled_key`]s: drawings the record notation does not tell apart
/// because they differ only in dead spots), with the position it leads to
/// and its [`canonical_reduced`] form.
///
/// Two simplifications keep the list finite and short without losing a
/// class: stacks whose spots are all dead are never moved to the new row
/// (no move can ever touch them, so their place cannot matter), and
/// interchangeable stacks (equal canonical forms of everything they carry)
/// are moved as counts, not as subsets.
pub fn successors(position: &Position) -> Vec<(Move, Position, Canonical)> {
    let mut out = Vec::new();
    let mut seen: HashSet<Canonical> = HashSet::new();
    let mut seen_labelled: HashSet<String> = HashSet::new();
    let mut push = |mv: Move, out: &mut Vec<(Move, Position, Canonical)>| {
        if let Ok(p) = apply(position, &mv) {
            let key = canonical_reduced(&p);
            // Also one per drawing as the record notation tells drawings
            // apart (dead spots aside), so every listed move has a written
            // form of its own.
            let labelled = labelled_key(&p);
            if !seen.contains(&key) && !seen_labelled.contains(&labelled) {
                seen.insert(key.clone());
                seen_labelled.insert(labelled);
                out.push((mv, p, key));
            }
        }
    };
    let lives = position.lives_map();
    let live = |c: Spot| lives.get(&c).is_some_and(|&l| l > 0);
    for (r, row) in position.rows().iter().enumerate() {
        // A corner is usable if its spot is live (a stack of one card is an
        // isolated spot; its cut is always 0).
        let usable = |stack: &[Spot], i: usize| live(stack[i]);
        // Stacks of a row with equal keys are interchangeable: moves from
        // one give the same positions, up to equivalence, as from another.
        let keys = branch_keys(position, r);
        let mut pairs_seen: HashSet<(&str, &str)> = HashSet::new();
        for a in 0..row.len() {
            for b in a + 1..row.len() {
                let pair = if keys[a] <= keys[b] {
                    (keys[a].as_str(), keys[b].as_str())
                } else {
                    (keys[b].as_str(), keys[a].as_str())
                };
                if !pairs_seen.insert(pair) {
                    continue;
                }
                for i in 0..row[a].len() {
                    if !usable(&row[a], i) {
                        continue;
                    }
                    for j in 0..row[b].len() {
                        if usable(&row[b], j) {
                            push(
                                Move::Join {
                                    row: r,
                                    a,
                                    a_cut: i,
                                    b,
                                    b_cut: j,
                                },
                                &mut out,
                            );
                        }
                    }
                }
            }
        }
        // Groups of interchangeable movable stacks.
        let mut split_seen: HashSet<&str> = HashSet::new();
        let movable: Vec<usize> = (0..row.len())
            .filter(|&s| row[s].iter().any(|&c| live(c)))
            .collect();
        for (s, stack) in row.iter().enumerate() {
            if !split_seen.insert(keys[s].as_str()) {
                continue;
            }
            let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
            for &m in movable.iter().filter(|&&m| m != s) {
                match groups.iter_mut().find(|(k, _)| *k == keys[m]) {
                    Some((_, v)) => v.push(m),
                    None => groups.push((keys[m].clone(), vec![m])),
                }
            }
            let k = stack.len();
            for cut in 0..k {
                if !usable(stack, cut) {
                    continue;
                }
                for take in 1..=k {
                    if !usable(stack, (cut + take - 1) % k) {
                        continue;
                    }
                    let mut counts = vec![0usize; groups.len()];
                    loop {
                        let moved: Vec<usize> = groups
                            .iter()
                            .zip(&counts)
                            .flat_map(|((_, v), &n)| v[..n].iter().copied())
                            .collect();
                        push(
                            Move::Divide {
                                row: r,
                                stack: s,
                                cut,
                                take,
                                moved,
                            },
                            &mut out,
                        );
                        // Next count vector (odometer).
                        let mut g = 0;
                        while g < groups.len() && counts[g] == groups[g].1.len() {
                            counts[g] = 0;
                            g += 1;
                        }
                        if g == groups.len() {
                            break;
                        }
                        counts[g] += 1;
                    }
                }
            }
        }
    }
    out
}

/// The legal moves of `position`, one per class of equivalent results (see
/// [`successors`]).
pub fn legal_moves(position: &Position) -> Vec<Move> {
    successors(position)
        .into_iter()
        .map(|(m, _, _)| m)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(t: &str) -> Position {
        Position::parse(t).unwrap()
    }

    #[test]
    fn the_documents_steps() {
        // (3) joining 1 and 2.
        let one = apply(
            &p("1;2"),
            &Move::Join {
                row: 0,
                a: 0,
                a_cut: 0,
                b: 1,
                b_cut: 0,
            },
        )
        .unwrap();
        assert_eq!(crate::canonical(&one), crate::canonical(&p("1,3,2,3")));
        // (4) dividing 1,3,2,3: take 3 cards.
        let two = apply(
            &p("1,3,2,3"),
            &Move::Divide {
                row: 0,
                stack: 0,
                cut: 0,
                take: 3,
                moved: vec![],
            },
        )
        .unwrap();
        assert_eq!(two.to_string(), "4,2,3,1/4,1,3,2");
    }

    #[test]
    fn dead_spots_refuse_twins() {
        // 3 has three cards: no twin of it can be played.
        let pos = p("4,1,3,2/4,2,3,1");
        let e = apply(
            &pos,
            &Move::Divide {
                row: 0,
                stack: 0,
                cut: 1,
                take: 1,
                moved: vec![],
            },
        )
        .unwrap_err();
        assert_eq!(e, MoveError::NoTwin { spot: 1 });
    }

    #[test]
    fn start_positions_have_the_known_move_counts() {
        // One spot: only the loop. Two spots: the join or a loop (whether
        // the loop holds the other spot inside or outside is the same
        // position). Three: the join, a loop with the others on one side,
        // a loop between them.
        assert_eq!(legal_moves(&Position::start(1)).len(), 1);
        assert_eq!(legal_moves(&Position::start(2)).len(), 2);
        assert_eq!(legal_moves(&Position::start(3)).len(), 3);
    }
}
