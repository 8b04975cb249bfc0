//! A move in words, for a reader who does not read WGOSA notation: "joined
//! 4 to 3 with new spot 7, enclosing spots 1 and 2".
//!
//! The words are read off the positions before and after the move, not off
//! its notation, so a move written as a position (`=...`) reads as well as
//! any other. What a line encloses is judged here, once, so a page never
//! has to work it out from its drawing.

use crate::position::{components, Position, Spot};
use crate::wgosa::WgosaMove;
use std::collections::BTreeSet;
use std::fmt;

/// A move as a reader would tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveWords {
    /// The spot the line starts at.
    pub from: Spot,
    /// The spot it ends at (`from` again for a loop).
    pub to: Spot,
    /// The new spot put on the line.
    pub new: Spot,
    /// For a line that closes a curve (a loop, or a line between two spots
    /// of one boundary): the live spots it encloses, ascending, on whichever
    /// side holds fewer of them (spots of the line itself left out). `None`
    /// for a line joining two boundaries, which encloses nothing.
    pub enclosing: Option<Vec<Spot>>,
}

/// "1", "1 and 2", "1, 2 and 3".
fn spot_list(spots: &[Spot]) -> String {
    match spots {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let head: Vec<String> = rest.iter().map(Spot::to_string).collect();
            format!("{} and {last}", head.join(", "))
        }
    }
}

impl fmt::Display for MoveWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from == self.to {
            write!(f, "drew a loop at {}", self.from)?;
        } else {
            write!(f, "joined {} to {}", self.from, self.to)?;
        }
        write!(f, " with new spot {}", self.new)?;
        match self.enclosing.as_deref() {
            None => Ok(()),
            Some([]) => f.write_str(", enclosing nothing"),
            Some([one]) => write!(f, ", enclosing spot {one}"),
            Some(many) => write!(f, ", enclosing spots {}", spot_list(many)),
        }
    }
}

/// The move that leads from `before` to `after` in words, or `None` if
/// `after` is not one move on from `before` (no new spot with two lines).
/// `written`, the move as the record has it, gives the order of the ends
/// (else the lower first) and, where both sides of a closed curve hold as
/// many live spots, the side told: the one its `[L]` lists (else the one
/// holding the lowest-numbered spot).
pub fn in_words(
    before: &Position,
    after: &Position,
    written: Option<&WgosaMove>,
) -> Option<MoveWords> {
    let new = before.next_spot();
    let rows = after.rows();
    // Where the new spot's two cards lie: one card on each side of the line
    // when it divides a region, both on one boundary when it joins two.
    let mut cards = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (s, stack) in row.iter().enumerate() {
            for (i, &c) in stack.iter().enumerate() {
                if c == new {
                    cards.push((r, s, i));
                }
            }
        }
    }
    let &[(r0, s0, i0), (r1, _, _)] = cards.as_slice() else {
        return None;
    };
    let stack = &rows[r0][s0];
    let n = stack.len();
    // (A loop's inner boundary is just its spot and the new one.)
    if n < 2 {
        return None;
    }
    // Walking round a boundary, the new spot sits between the line's ends.
    let (p, q) = (stack[(i0 + n - 1) % n], stack[(i0 + 1) % n]);
    let (from, to) = match written {
        Some(w) if (w.from, w.to) == (p, q) || (w.from, w.to) == (q, p) => (w.from, w.to),
        _ => (p.min(q), p.max(q)),
    };
    if r0 == r1 {
        return Some(MoveWords {
            from,
            to,
            new,
            enclosing: None,
        });
    }
    let lives = after.lives_map();
    let ends = [from, to, new];
    let live_side = |here: usize, there: usize| -> Vec<Spot> {
        side(after, here, there, (r0, s0))
            .into_iter()
            .filter(|s| !ends.contains(s) && lives.get(s).is_some_and(|&l| l > 0))
            .collect()
    };
    let (a, b) = (live_side(r0, r1), live_side(r1, r0));
    let told_first = match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match written.and_then(|w| w.listed.as_ref()?.first()) {
            Some(l) if a.contains(l) || b.contains(l) => a.contains(l),
            _ => a.first() <= b.first(),
        },
    };
    Some(MoveWords {
        from,
        to,
        new,
        enclosing: Some(if told_first { a } else { b }),
    })
}

/// Every spot on the `here` side of the line whose new spot is on the
/// stack `line` (row, index): the spots of the line's drawing on `here`'s
/// boundary and not on `there`'s, and every spot of the drawings that lie
/// in `here`'s region or in regions nested inside them. (Rows and drawings
/// nest as a tree, so a walk from `here` that never crosses the line's
/// drawing reaches exactly that side.)
fn side(p: &Position, here: usize, there: usize, line: (usize, usize)) -> BTreeSet<Spot> {
    let rows = p.rows();
    let (comp, count) = components(rows);
    let own = comp[line.0][line.1];
    let on_there: BTreeSet<Spot> = rows[there]
        .iter()
        .zip(&comp[there])
        .filter(|&(_, &c)| c == own)
        .flat_map(|(st, _)| st.iter().copied())
        .collect();
    let mut out: BTreeSet<Spot> = rows[here]
        .iter()
        .zip(&comp[here])
        .filter(|&(_, &c)| c == own)
        .flat_map(|(st, _)| st.iter().copied())
        .filter(|s| !on_there.contains(s))
        .collect();
    let mut seen_rows = vec![false; rows.len()];
    let mut seen_comps = vec![false; count];
    seen_rows[here] = true;
    seen_comps[own] = true;
    let mut queue = vec![here];
    while let Some(r) = queue.pop() {
        for (st, &c) in rows[r].iter().zip(&comp[r]) {
            if c == own {
                continue;
            }
            out.extend(st.iter().copied());
            if seen_comps[c] {
                continue;
            }
            seen_comps[c] = true;
            // The drawing's other boundaries face regions on this side too.
            for (q, row_comps) in comp.iter().enumerate() {
                if !seen_rows[q] && row_comps.contains(&c) {
                    seen_rows[q] = true;
                    queue.push(q);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wgosa::resolve;

    /// The words for each move of a game from `spots`, played from the start.
    fn told(spots: u32, moves: &[&str]) -> Vec<String> {
        let mut p = Position::start(spots);
        let mut out = Vec::new();
        for m in moves {
            let wm: WgosaMove = m.parse().unwrap();
            let (_, next) = resolve(&p, &wm).unwrap_or_else(|e| panic!("{m}: {e}"));
            out.push(in_words(&p, &next, Some(&wm)).unwrap().to_string());
            p = next;
        }
        out
    }

    #[test]
    fn a_line_between_two_boundaries_is_a_join() {
        assert_eq!(told(3, &["1(4)2"]), ["joined 1 to 2 with new spot 4"]);
        // The ends in the order written.
        assert_eq!(told(3, &["2(4)1"]), ["joined 2 to 1 with new spot 4"]);
    }

    #[test]
    fn a_loop_encloses_the_side_it_lists_when_both_hold_as_many() {
        // Spot 2 on one side, spot 3 on the other: the side listed is told.
        assert_eq!(
            told(3, &["1(4)1[2]"]),
            ["drew a loop at 1 with new spot 4, enclosing spot 2"]
        );
        assert_eq!(
            told(3, &["1(4)1[3]"]),
            ["drew a loop at 1 with new spot 4, enclosing spot 3"]
        );
    }

    #[test]
    fn a_loop_with_nothing_on_one_side_encloses_nothing() {
        assert_eq!(
            told(3, &["1(4)1"]),
            ["drew a loop at 1 with new spot 4, enclosing nothing"]
        );
    }

    #[test]
    fn a_dividing_line_tells_the_side_with_fewer_live_spots() {
        // The second line closes a curve through 1, 6 and 2 with 3 and 4
        // listed on one side: the other side, with 5 alone, is told.
        assert_eq!(
            told(5, &["1(6)2", "1(7)2[3,4]"]),
            [
                "joined 1 to 2 with new spot 6",
                "joined 1 to 2 with new spot 7, enclosing spot 5"
            ]
        );
        // The document's game: the second line between 1 and 2 leaves the
        // first line's new spot on both sides, so nothing is enclosed.
        assert_eq!(
            told(2, &["1(3)2", "1(4)2"])[1],
            "joined 1 to 2 with new spot 4, enclosing nothing"
        );
    }

    #[test]
    fn spots_inside_an_enclosed_drawing_are_enclosed_too() {
        // Spot 2 sits inside the loop at 1; the loop at 3 round that
        // drawing encloses 2 with it.
        assert_eq!(
            told(6, &["1(7)1[2]", "3(8)3[1]"])[1],
            "drew a loop at 3 with new spot 8, enclosing spots 1, 2 and 7"
        );
    }

    #[test]
    fn dead_spots_are_not_told() {
        // After a loop at 1 and a line from 1 to 5 inside it, 1 and 5 are
        // dead and 6 is alive inside the loop. A loop at 2 between that
        // drawing and spots 3 and 4 has one live spot on the drawing's
        // side (two, counting the dead), so that side is told.
        assert_eq!(
            told(4, &["1(5)1", "1(6)5", "2(7)2[3,4]"])[2],
            "drew a loop at 2 with new spot 7, enclosing spot 6"
        );
    }

    #[test]
    fn a_position_that_is_not_one_move_on_has_no_words() {
        let p = Position::start(3);
        assert_eq!(in_words(&p, &p, None), None);
    }

    #[test]
    fn lists_read_as_english() {
        assert_eq!(spot_list(&[1, 2, 3]), "1, 2 and 3");
        assert_eq!(spot_list(&[1, 2]), "1 and 2");
    }
}
