//! Game records in the World Game of Sprouts Association's notation:
//! `8+ (Ann - Bob*) 1(9)2 1(10)1[3,4] 3(11)10 6(16@2)14 II`.
//!
//! - [`WgosaMove`] is one move as written, `f[!](g[@i])[!]h[!][L]`;
//!   [`resolve`] finds the drawing it means in a position (or says why it
//!   is illegal or ambiguous), [`describe`] writes a drawing in its
//!   shortest unambiguous form.
//! - [`Record`] is a whole record (header, players, moves, result);
//!   [`Record::replay`] checks it move by move.
//!
//! What each part means, and every inference made where the notation is
//! silent, is in `docs/rules/sprouts.md`. In short: without `@`, a move that
//! can be drawn in several regions is drawn in the one with no live spot
//! but its ends; `[L]` names the spots on one side of a closed curve,
//! each taking its whole boundary along; dead spots never count; drawings
//! that differ by mirroring a drawing, by the place of boundaries whose
//! spots are all dead, or by cuts and order, are the same move; the `!`
//! flags only break ties that remain after all that.

use crate::canon::labelled_key;
use crate::moves::{apply, Move};
use crate::position::{Position, Spot, MAX_SPOT};
use std::collections::BTreeSet;
use std::fmt;

/// The longest record text accepted, in bytes, checked before any parsing.
pub const MAX_RECORD_LEN: usize = 65_536;

/// The most starting spots a record may have.
pub const MAX_RECORD_SPOTS: u32 = 256;

/// One move as written: `f[!](g[@i])[!]h[!][L]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WgosaMove {
    /// The spot the line starts at (`f`).
    pub from: Spot,
    /// The new spot on the line (`g`): the next number.
    pub new: Spot,
    /// The spot the line ends at (`h`; equal to `from` for a loop).
    pub to: Spot,
    /// `@i`: a live spot of the region the line is drawn in.
    pub at: Option<Spot>,
    /// `[L]`: spots on one side of a closed curve, ascending, no repeats.
    pub listed: Option<Vec<Spot>>,
    /// `f!`: at `from`, the corner whose left neighbour (walking from the
    /// new spot to `from`) is the higher-numbered one.
    pub flip_from: bool,
    /// `)!h`: the same at `to`.
    pub flip_to: bool,
    /// `h![L]`: the listed side lies left of the walk from `from` through
    /// the new spot to `to` (by default, right).
    pub flip_side: bool,
}

/// Malformed record or move text: the part that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {part:?}: {reason}")]
pub struct NotationError {
    /// The offending part.
    pub part: String,
    /// What was wrong and what is accepted.
    pub reason: String,
}

fn nerr(part: &str, reason: impl Into<String>) -> NotationError {
    let part = if part.chars().count() > 40 {
        format!("{}...", part.chars().take(37).collect::<String>())
    } else {
        part.to_string()
    };
    NotationError {
        part,
        reason: reason.into(),
    }
}

const MOVE_FORM: &str =
    "a move is f(g)h, in full f!(g@i)!h![L], e.g. 1(5)2 or 6(16@2)14 or 1(10)1[3,4]";

impl std::str::FromStr for WgosaMove {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<WgosaMove, NotationError> {
        if text.len() > 1024 {
            return Err(nerr(text, "a move is at most 1024 bytes"));
        }
        let b = text.trim().as_bytes();
        let mut i = 0;
        let number = |i: &mut usize| -> Option<Spot> {
            let start = *i;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            if *i == start || *i - start > 7 {
                return None;
            }
            let v: Spot = std::str::from_utf8(&b[start..*i]).ok()?.parse().ok()?;
            (1..=MAX_SPOT).contains(&v).then_some(v)
        };
        let bad = |what: &str| nerr(text, format!("{what}; {MOVE_FORM}"));
        let spot_range = format!("spot numbers run from 1 to {MAX_SPOT}");
        let from = number(&mut i)
            .ok_or_else(|| bad(&format!("it must start with a spot number ({spot_range})")))?;
        let eat = |i: &mut usize, c: u8| -> bool {
            if *i < b.len() && b[*i] == c {
                *i += 1;
                true
            } else {
                false
            }
        };
        let flip_from = eat(&mut i, b'!');
        if !eat(&mut i, b'(') {
            return Err(bad("`(` expected after the first spot"));
        }
        let new = number(&mut i).ok_or_else(|| bad("the new spot's number expected after `(`"))?;
        let at = if eat(&mut i, b'@') {
            Some(number(&mut i).ok_or_else(|| bad("a spot number expected after `@`"))?)
        } else {
            None
        };
        if !eat(&mut i, b')') {
            return Err(bad("`)` expected after the new spot"));
        }
        let flip_to = eat(&mut i, b'!');
        let to = number(&mut i).ok_or_else(|| bad("the last spot's number expected after `)`"))?;
        let flip_side = eat(&mut i, b'!');
        let listed = if eat(&mut i, b'[') {
            let close = b[i..]
                .iter()
                .position(|&c| c == b']')
                .ok_or_else(|| bad("`]` missing"))?;
            let inner = std::str::from_utf8(&b[i..i + close]).unwrap_or("");
            i += close + 1;
            let mut set = BTreeSet::new();
            for item in inner.split(',') {
                let item = item.trim();
                let parse = |s: &str| -> Result<Spot, NotationError> {
                    match s.trim().parse::<Spot>() {
                        Ok(v) if (1..=MAX_SPOT).contains(&v) && s.trim().bytes().all(|c| c.is_ascii_digit()) => Ok(v),
                        _ => Err(nerr(text, format!("{s:?} in [L] is not a spot number ({spot_range}); list spots as 5,7,10-12"))),
                    }
                };
                match item.split_once('-') {
                    Some((lo, hi)) => {
                        let (lo, hi) = (parse(lo)?, parse(hi)?);
                        if lo > hi || hi - lo > 4096 {
                            return Err(nerr(text, format!("{item:?} in [L] is not an ascending range of at most 4096 spots")));
                        }
                        set.extend(lo..=hi);
                    }
                    None => {
                        set.insert(parse(item)?);
                    }
                }
            }
            Some(set.into_iter().collect())
        } else {
            None
        };
        if i != b.len() {
            return Err(bad(&format!(
                "unexpected {:?} at the end",
                String::from_utf8_lossy(&b[i..])
            )));
        }
        Ok(WgosaMove {
            from,
            new,
            to,
            at,
            listed,
            flip_from,
            flip_to,
            flip_side,
        })
    }
}

impl fmt::Display for WgosaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        if self.flip_from {
            f.write_str("!")?;
        }
        write!(f, "({}", self.new)?;
        if let Some(at) = self.at {
            write!(f, "@{at}")?;
        }
        f.write_str(")")?;
        if self.flip_to {
            f.write_str("!")?;
        }
        write!(f, "{}", self.to)?;
        if self.flip_side {
            f.write_str("!")?;
        }
        if let Some(l) = &self.listed {
            f.write_str("[")?;
            // Runs of three or more consecutive spots as ranges.
            let mut i = 0;
            let mut first = true;
            while i < l.len() {
                let mut j = i;
                while j + 1 < l.len() && l[j + 1] == l[j] + 1 {
                    j += 1;
                }
                if !first {
                    f.write_str(",")?;
                }
                first = false;
                if j >= i + 2 {
                    write!(f, "{}-{}", l[i], l[j])?;
                    i = j + 1;
                } else {
                    write!(f, "{}", l[i])?;
                    i += 1;
                }
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

/// Why a well-formed move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// No drawing matches the move.
    #[error("illegal: {0}")]
    Illegal(Refusal),
    /// Several inequivalent drawings match; it says how to choose.
    #[error("ambiguous: {0}")]
    Ambiguous(Ambiguity),
}

/// Why a move's notation matches several inequivalent drawings, and what
/// the writer can add to choose one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ambiguity {
    /// Rule 5: the line fits in several regions, each with live spots the
    /// others lack; `@` and one of `spots` names the region.
    #[error("the line can be drawn in {regions} regions and each holds other live spots (rule 5): name one with @ and a live spot only it holds, one of {spots:?}")]
    Region {
        /// How many regions the line fits in.
        regions: usize,
        /// The live spots that tell the regions apart.
        spots: BTreeSet<Spot>,
    },
    /// The `!` flags left drawings in several regions.
    #[error("the line can be drawn in {regions} regions; name one with @ and a live spot only it holds (live there: {live:?}), or pick a corner with !")]
    RegionOrCorner {
        /// How many regions the line still fits in.
        regions: usize,
        /// The live spots of those regions, other than the line's ends.
        live: Vec<Spot>,
    },
    /// Several drawings in one region that enclose different spots.
    #[error("{drawings} different drawings match; {}", if *.flags_tried { "the ! flags do not settle which" } else { "name the region with @ or the enclosed spots with [L]" })]
    Enclosure {
        /// How many inequivalent drawings match.
        drawings: usize,
        /// Whether the `!` flags could have chosen and did not.
        flags_tried: bool,
    },
}

/// Which rule refuses a move, with the spots it names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Rule 4: new spots are numbered in the order they are made.
    #[error("the new spot must be numbered {next}, not {given} (rule 4: new spots are numbered in the order they are made)")]
    NewSpotNumber {
        /// The number the new spot must have.
        next: Spot,
        /// The number the move gave it.
        given: Spot,
    },
    /// Rule 4: a line joins spots on the table.
    #[error("there is no spot {0} (rule 4: a line joins spots on the table)")]
    NoSuchSpot(Spot),
    /// Rule 4: a line joins live spots.
    #[error("spot {0} is dead (three lines; rule 4: a line joins live spots)")]
    DeadSpot(Spot),
    /// Rule 4: a loop takes two of its spot's lives.
    #[error("a loop needs two lives and spot {0} has one (rule 4)")]
    LoopNeedsTwoLives(Spot),
    /// Rule 5: `@` names a live spot.
    #[error(
        "@{0}: spot {0} is not a live spot (rule 5: @ names a live spot of the line's region)"
    )]
    AtNotLive(Spot),
    /// Rule 4: a listed spot is on the table.
    #[error("listed spot {0} is not on the table (rule 4)")]
    ListedNotOnTable(Spot),
    /// No region holds both ends of the line.
    #[error("spots {0} and {1} share no region")]
    NoSharedRegion(Spot, Spot),
    /// No region lets a loop be drawn at the spot.
    #[error("no region lets a loop be drawn at {0}")]
    NoLoopRegion(Spot),
    /// The region `@` names cannot hold this line.
    #[error("spot {0} is not in a region where this line can be drawn")]
    AtNoRegion(Spot),
    /// Rule 9: the `!` flags rule out every drawing.
    #[error("the ! flags select none of the drawings this move could mean (rule 9)")]
    FlagsSelectNone,
    /// The game is over.
    #[error("the game is already over")]
    GameOver,
    /// Every drawing tried breaks a rule; the last one tried and why.
    #[error("{0}")]
    Drawing(String),
}

/// One drawing that matches a written move.
#[derive(Clone, Debug)]
struct Candidate {
    mv: Move,
    row: usize,
    result: Position,
    key: String,
    /// Which card of `from` (row, stack, index) and its (previous, next) cards.
    from_corner: (usize, usize, usize, Option<(Spot, Spot)>),
    to_corner: (usize, usize, usize, Option<(Spot, Spot)>),
    /// For a curve with `[L]`: whether the listed side is the new row.
    listed_new: Option<bool>,
}

fn corner(stack: &[Spot], i: usize) -> Option<(Spot, Spot)> {
    let n = stack.len();
    (n >= 2).then(|| (stack[(i + n - 1) % n], stack[(i + 1) % n]))
}

/// Spots of `side` not on `other`, live, other than `except`.
fn exclusive_live(
    p: &Position,
    side: &[Vec<Spot>],
    other: &[Vec<Spot>],
    except: &[Spot],
) -> BTreeSet<Spot> {
    let lives = p.lives_map();
    let on_other: BTreeSet<Spot> = other.iter().flatten().copied().collect();
    side.iter()
        .flatten()
        .copied()
        .filter(|s| {
            !on_other.contains(s) && !except.contains(s) && lives.get(s).is_some_and(|&l| l > 0)
        })
        .collect()
}

/// The live spots of a candidate's listed side (a dividing move with
/// `[L]`) that are not listed, nor the line's own.
fn unlisted_on_listed_side(c: &Candidate, listed: &[Spot], ends: [Spot; 3]) -> BTreeSet<Spot> {
    let Some(x_new) = c.listed_new else {
        return BTreeSet::new();
    };
    let rows = c.result.rows();
    let (new_side, old_side) = (&rows[rows.len() - 1], &rows[c.row]);
    let (x, y) = if x_new {
        (new_side, old_side)
    } else {
        (old_side, new_side)
    };
    exclusive_live(&c.result, x, y, &ends)
        .into_iter()
        .filter(|s| !listed.contains(s))
        .collect()
}

/// Summary rule 6: of the drawings that match `[L]`, those whose listed
/// side holds only live spots every other drawing holds there too (a
/// spot one drawing can leave out of the listed side is not meant to be
/// there). Where the drawings leave out different spots, none is meant
/// more than another: they all stay, and the move is ambiguous unless
/// they are one move.
fn fewest_unlisted(cands: Vec<Candidate>, listed: &[Spot], ends: [Spot; 3]) -> Vec<Candidate> {
    let extra: Vec<BTreeSet<Spot>> = cands
        .iter()
        .map(|c| unlisted_on_listed_side(c, listed, ends))
        .collect();
    let keep: Vec<bool> = extra
        .iter()
        .map(|u| extra.iter().all(|o| u.is_subset(o)))
        .collect();
    if !keep.iter().any(|&k| k) {
        return cands;
    }
    cands
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Summary rule 5 without `@`, where the line can be drawn in the
/// regions `rows` (ascending) and none is free of other live spots
/// (`lives`: each region's live spots other than the line's ends): what
/// to add when the regions' drawings are different moves and some live
/// spot lies in one of those regions but not in another (so that `@` can
/// name one), else `None`.
fn region_needs_at(
    cands: &[Candidate],
    rows: &[usize],
    lives: &[BTreeSet<Spot>],
) -> Option<Ambiguity> {
    let mut by_row: std::collections::BTreeMap<usize, BTreeSet<&str>> = Default::default();
    for c in cands {
        by_row.entry(c.row).or_default().insert(c.key.as_str());
    }
    let mut key_sets = by_row.values();
    let first = key_sets.next()?;
    if key_sets.all(|k| k == first) {
        return None;
    }
    let pinning: BTreeSet<Spot> = lives
        .iter()
        .flat_map(|l| l.iter().filter(|s| lives.iter().any(|o| !o.contains(s))))
        .copied()
        .collect();
    if pinning.is_empty() {
        return None;
    }
    Some(Ambiguity::Region {
        regions: rows.len(),
        spots: pinning,
    })
}

/// A line as tried, for an error: its ends and, where a spot has two
/// lines or more, the corner between which neighbours it leaves.
fn drawing_text(
    f: Spot,
    at_f: Option<(Spot, Spot)>,
    h: Spot,
    at_h: Option<(Spot, Spot)>,
) -> String {
    let end = |s: Spot, at: Option<(Spot, Spot)>| match at {
        Some((prev, next)) if prev != next || prev != s => {
            format!("{s} (between {prev} and {next})")
        }
        _ => s.to_string(),
    };
    format!("the line from {} to {}", end(f, at_f), end(h, at_h))
}

/// A region in the card notation: its boundaries, `;` between them.
fn region_text(row: &[Vec<Spot>]) -> String {
    row.iter()
        .map(|st| {
            st.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join(";")
}

fn classes(cands: &[Candidate]) -> usize {
    let keys: BTreeSet<&str> = cands.iter().map(|c| c.key.as_str()).collect();
    keys.len()
}

/// The drawing `wm` means in `position`: the move and the position it
/// leads to. An error says why no drawing, or more than one, matches.
pub fn resolve(position: &Position, wm: &WgosaMove) -> Result<(Move, Position), RuleError> {
    let mut ties = false;
    resolve_noting_ties(position, wm, &mut ties)
}

/// [`resolve`], setting `ties` when the `!` tie-breaks were reached (so a
/// form with other flags could mean something else).
fn resolve_noting_ties(
    position: &Position,
    wm: &WgosaMove,
    ties: &mut bool,
) -> Result<(Move, Position), RuleError> {
    let (f, h, g) = (wm.from, wm.to, wm.new);
    let next = position.next_spot();
    if g != next {
        return Err(RuleError::Illegal(Refusal::NewSpotNumber {
            next,
            given: g,
        }));
    }
    for s in [f, h] {
        if position.copies(s) == 0 {
            return Err(RuleError::Illegal(Refusal::NoSuchSpot(s)));
        }
        if !position.is_live(s) {
            return Err(RuleError::Illegal(Refusal::DeadSpot(s)));
        }
    }
    if f == h && position.lives(f) < 2 {
        return Err(RuleError::Illegal(Refusal::LoopNeedsTwoLives(f)));
    }
    if let Some(i) = wm.at {
        if !position.is_live(i) {
            return Err(RuleError::Illegal(Refusal::AtNotLive(i)));
        }
    }
    if let Some(s) = wm
        .listed
        .iter()
        .flatten()
        .find(|&&s| s != g && position.copies(s) == 0)
    {
        return Err(RuleError::Illegal(Refusal::ListedNotOnTable(*s)));
    }
    let listed_live: Vec<Spot> = wm
        .listed
        .iter()
        .flatten()
        .copied()
        .filter(|&s| s != f && s != h && position.is_live(s))
        .collect();
    let lives_before = position.lives_map();
    let mut cands: Vec<Candidate> = Vec::new();
    let mut refusal: Option<String> = None;
    for (r, row) in position.rows().iter().enumerate() {
        let occ = |x: Spot| -> Vec<(usize, usize)> {
            let mut v = Vec::new();
            for (s, st) in row.iter().enumerate() {
                for (i, &c) in st.iter().enumerate() {
                    if c == x {
                        v.push((s, i));
                    }
                }
            }
            v
        };
        let (fo, ho) = (occ(f), occ(h));
        let mut pairs = Vec::new();
        for &(sf, i) in &fo {
            for &(sh, j) in &ho {
                if f == h && (sf != sh || j < i) {
                    continue;
                }
                pairs.push(((sf, i), (sh, j)));
            }
        }
        for ((sf, i), (sh, j)) in pairs {
            let from_corner = (r, sf, i, corner(&row[sf], i));
            let to_corner = (r, sh, j, corner(&row[sh], j));
            let tried = |why: String| {
                format!(
                    "{why} (tried: {}, in the region {})",
                    drawing_text(f, from_corner.3, h, to_corner.3),
                    region_text(row)
                )
            };
            let push =
                |mv: Move,
                 listed_new: Option<bool>,
                 cands: &mut Vec<Candidate>,
                 refusal: &mut Option<String>| match apply(position, &mv) {
                    Ok(result) => {
                        let key = labelled_key(&result);
                        cands.push(Candidate {
                            mv,
                            row: r,
                            result,
                            key,
                            from_corner,
                            to_corner,
                            listed_new,
                        });
                    }
                    Err(e) => *refusal = Some(tried(e.to_string())),
                };
            if sf != sh {
                if listed_live.is_empty() {
                    push(
                        Move::Join {
                            row: r,
                            a: sf,
                            a_cut: i,
                            b: sh,
                            b_cut: j,
                        },
                        None,
                        &mut cands,
                        &mut refusal,
                    );
                } else {
                    refusal = Some(tried(format!("{f} and {h} lie on different boundaries, so the line closes no curve and [L] has nothing to enclose (rule 4)")));
                }
                continue;
            }
            let len = row[sf].len();
            let take = (j + len - i) % len + 1;
            let others: Vec<usize> = (0..row.len())
                .filter(|&s| {
                    s != sf
                        && row[s]
                            .iter()
                            .any(|c| lives_before.get(c).is_some_and(|&l| l > 0))
                })
                .collect();
            let divide = |moved: Vec<usize>| Move::Divide {
                row: r,
                stack: sf,
                cut: i,
                take,
                moved,
            };
            let sides = |p: &Position| -> (Vec<Vec<Spot>>, Vec<Vec<Spot>>) {
                (p.rows()[p.rows().len() - 1].clone(), p.rows()[r].clone())
            };
            if listed_live.is_empty() {
                // No [L]: one side holds no live spot of its own.
                let mut options = vec![Vec::new()];
                if !others.is_empty() {
                    options.push(others.clone());
                }
                for moved in options {
                    if let Ok(p) = apply(position, &divide(moved.clone())) {
                        let (new_side, old_side) = sides(&p);
                        let ends = [f, g, h];
                        if exclusive_live(&p, &new_side, &old_side, &ends).is_empty()
                            || exclusive_live(&p, &old_side, &new_side, &ends).is_empty()
                        {
                            push(divide(moved), None, &mut cands, &mut refusal);
                        } else if refusal.is_none() {
                            refusal = Some(tried("both sides of the curve would hold live spots: list one side's with [L] (rule 6)".into()));
                        }
                    } else {
                        push(divide(moved), None, &mut cands, &mut refusal);
                    }
                }
            } else {
                for x_new in [true, false] {
                    let moved: Vec<usize> = others
                        .iter()
                        .copied()
                        .filter(|&s| row[s].iter().any(|c| listed_live.contains(c)) == x_new)
                        .collect();
                    let Ok(p) = apply(position, &divide(moved.clone())) else {
                        push(divide(moved), Some(x_new), &mut cands, &mut refusal);
                        continue;
                    };
                    let (new_side, old_side) = sides(&p);
                    let (x, y) = if x_new {
                        (&new_side, &old_side)
                    } else {
                        (&old_side, &new_side)
                    };
                    let on_x: BTreeSet<Spot> = x.iter().flatten().copied().collect();
                    if let Some(s) = listed_live.iter().find(|s| !on_x.contains(s)) {
                        refusal = Some(tried(format!(
                            "listed spot {s} cannot be on the listed side of this curve (rule 6)"
                        )));
                        continue;
                    }
                    // The split piece on the listed side: the stack with
                    // the new spot on top.
                    let Some(piece) = x.iter().find(|st| st[0] == g) else {
                        continue;
                    };
                    let own = exclusive_live(&p, std::slice::from_ref(piece), y, &[f, g, h]);
                    if !own.is_empty() && !own.iter().any(|s| listed_live.contains(s)) {
                        refusal = Some(tried(format!("the listed side would also hold live spot {} of the boundary through {f}, which is not listed (rule 6)", own.iter().next().copied().unwrap_or(0))));
                        continue;
                    }
                    push(divide(moved), Some(x_new), &mut cands, &mut refusal);
                }
            }
        }
    }
    if cands.is_empty() {
        return Err(RuleError::Illegal(match refusal {
            Some(why) => Refusal::Drawing(why),
            None if f == h => Refusal::NoLoopRegion(f),
            None => Refusal::NoSharedRegion(f, h),
        }));
    }
    // The region.
    let mut rows: Vec<usize> = cands.iter().map(|c| c.row).collect();
    rows.sort_unstable();
    rows.dedup();
    if let Some(i) = wm.at {
        cands.retain(|c| position.rows()[c.row].iter().flatten().any(|&s| s == i));
        if cands.is_empty() {
            return Err(RuleError::Illegal(Refusal::AtNoRegion(i)));
        }
    } else if rows.len() > 1 {
        // Rule 5: without `@`, the region that holds no other live spot;
        // by extension, the region whose other live spots every other
        // region holds too (which no `@` can name: each of its spots
        // names the others as well).
        let live = |r: usize| -> BTreeSet<Spot> {
            position
                .live_in_row(r)
                .into_iter()
                .filter(|&s| s != f && s != h)
                .collect()
        };
        let lives: Vec<BTreeSet<Spot>> = rows.iter().map(|&r| live(r)).collect();
        let least: Vec<usize> = rows
            .iter()
            .zip(&lives)
            .filter(|(_, l)| lives.iter().all(|o| l.is_subset(o)))
            .map(|(&r, _)| r)
            .collect();
        let kept: Vec<Candidate> = cands
            .iter()
            .filter(|c| least.contains(&c.row))
            .cloned()
            .collect();
        if !kept.is_empty() && least.len() < rows.len() {
            cands = kept;
        } else if let Some(hint) = region_needs_at(&cands, &rows, &lives) {
            // Every region holds a live spot another lacks, and the
            // regions' drawings are different moves: `@` must say which.
            // (Only where no live spot tells the regions apart may the `!`
            // flags, whose corners lie in one region each, settle it.)
            return Err(RuleError::Ambiguous(hint));
        }
    }
    // Rule 6: the listed side holds no live spot that another drawing of
    // the move could leave out.
    if !listed_live.is_empty() {
        cands = fewest_unlisted(cands, &listed_live, [f, g, h]);
    }
    if classes(&cands) > 1 {
        *ties = true;
        // The ! tie-breaks, each only where its choice is open.
        let open = |cands: &[Candidate], pick: &dyn Fn(&Candidate) -> (usize, usize, usize)| {
            let set: BTreeSet<(usize, usize, usize)> = cands.iter().map(pick).collect();
            set.len() > 1
        };
        let fits = |c: Option<(Spot, Spot)>, flip: bool| match c {
            Some((prev, next)) if prev != next => (next < prev) != flip,
            _ => true,
        };
        if f != h
            && open(&cands, &|c| {
                (c.from_corner.0, c.from_corner.1, c.from_corner.2)
            })
        {
            cands.retain(|c| fits(c.from_corner.3, wm.flip_from));
        }
        if f != h && open(&cands, &|c| (c.to_corner.0, c.to_corner.1, c.to_corner.2)) {
            cands.retain(|c| fits(c.to_corner.3, wm.flip_to));
        }
        let sides: BTreeSet<Option<bool>> = cands.iter().map(|c| c.listed_new).collect();
        if f != h && sides.contains(&Some(true)) && sides.contains(&Some(false)) {
            cands.retain(|c| c.listed_new == Some(!wm.flip_side));
        }
        if cands.is_empty() {
            return Err(RuleError::Illegal(Refusal::FlagsSelectNone));
        }
        let n = classes(&cands);
        let regions: BTreeSet<usize> = cands.iter().map(|c| c.row).collect();
        if n > 1 && regions.len() > 1 {
            let mut live: Vec<Spot> = Vec::new();
            for &r in &regions {
                live.extend(
                    position
                        .live_in_row(r)
                        .into_iter()
                        .filter(|&s| s != f && s != h),
                );
            }
            live.sort_unstable();
            live.dedup();
            return Err(RuleError::Ambiguous(Ambiguity::RegionOrCorner {
                regions: regions.len(),
                live,
            }));
        }
        if n > 1 {
            return Err(RuleError::Ambiguous(Ambiguity::Enclosure {
                drawings: n,
                flags_tried: f != h && wm.listed.is_some(),
            }));
        }
    }
    let c = cands.swap_remove(0);
    Ok((c.mv, c.result))
}

/// The shortest written form of `mv` in `position` that [`resolve`] reads
/// back as the same drawing (same [`labelled_key`]),
/// or `None` if no form of the notation singles it out.
pub fn describe(position: &Position, mv: &Move) -> Option<WgosaMove> {
    let target = apply(position, mv).ok()?;
    let key = labelled_key(&target);
    let rows = position.rows();
    let g = position.next_spot();
    let (r, f, h, divide) = match mv {
        Move::Join {
            row,
            a,
            a_cut,
            b,
            b_cut,
        } => (*row, rows[*row][*a][*a_cut], rows[*row][*b][*b_cut], false),
        Move::Divide {
            row,
            stack,
            cut,
            take,
            ..
        } => {
            let st = &rows[*row][*stack];
            (*row, st[*cut], st[(cut + take - 1) % st.len()], true)
        }
    };
    // `@` helps only where f and h share more than one region, and then
    // only with a live spot of this region that the others lack.
    let holds = |row: &Vec<Vec<Spot>>, x: Spot| row.iter().flatten().any(|&c| c == x);
    let shared: Vec<usize> = (0..rows.len())
        .filter(|&q| holds(&rows[q], f) && holds(&rows[q], h))
        .collect();
    let mut ats: Vec<Option<Spot>> = vec![None];
    if shared.len() > 1 {
        let naming = position
            .live_in_row(r)
            .into_iter()
            .find(|&i| shared.iter().all(|&q| q == r || !holds(&rows[q], i)));
        let quiet = shared
            .iter()
            .any(|&q| position.live_in_row(q).iter().all(|&s| s == f || s == h));
        if let Some(i) = naming {
            // Rule 5 asks for `@` wherever no region is free of other live
            // spots: a reader need not know parlor's reading of the rest.
            if !quiet {
                ats.clear();
            }
            ats.push(Some(i));
        }
    }
    let mut lists: Vec<Option<Vec<Spot>>> = vec![None];
    if divide {
        let n = target.rows().len();
        let (new_side, old_side) = (&target.rows()[n - 1], &target.rows()[r]);
        for (x, y) in [(new_side, old_side), (old_side, new_side)] {
            let all = exclusive_live(&target, x, y, &[f, g, h]);
            if all.is_empty() {
                continue;
            }
            let mut reps = BTreeSet::new();
            for st in x.iter() {
                if let Some(s) = exclusive_live(&target, std::slice::from_ref(st), y, &[f, g, h])
                    .into_iter()
                    .next()
                {
                    reps.insert(s);
                }
            }
            lists.push(Some(reps.into_iter().collect()));
            lists.push(Some(all.into_iter().collect()));
        }
    }
    let mut forms = Vec::new();
    let ends = if f == h {
        vec![(f, h)]
    } else {
        vec![(f.min(h), f.max(h)), (f.max(h), f.min(h))]
    };
    for &(a, b) in &ends {
        for at in &ats {
            for listed in &lists {
                for flags in 0..8u8 {
                    let wm = WgosaMove {
                        from: a,
                        new: g,
                        to: b,
                        at: *at,
                        listed: listed.clone(),
                        flip_from: flags & 1 != 0,
                        flip_to: flags & 2 != 0,
                        flip_side: flags & 4 != 0,
                    };
                    if wm.flip_side && wm.listed.is_none() {
                        continue;
                    }
                    let text = wm.to_string();
                    let flagged = wm.flip_from || wm.flip_to || wm.flip_side;
                    forms.push((flagged, text.len(), text, wm));
                }
            }
        }
    }
    // Forms without `!` first, however long: a flag means "the other
    // corner (side) than the default", and which one that is depends on
    // the orientation of the drawing the reader holds (a mirror image of
    // ours reads it the other way), while `@` and `[L]` mean the same in
    // every drawing of the position.
    forms.sort_by(|x, y| (x.0, x.1, &x.2).cmp(&(y.0, y.1, &y.2)));
    forms.dedup_by(|x, y| x.2 == y.2);
    // The flags only break ties: a form whose flagless version never
    // reached the tie-breaks means what that version means, so it is tried
    // only when that version did (each flagless version resolved once).
    //
    // A form whose reading reached the tie-breaks at all (flagged or not)
    // leans on the orientation of the reader's drawing, so one that did
    // not is taken first, however long; the other is kept in case no form
    // avoids them.
    let mut flagless: std::collections::HashMap<String, bool> = Default::default();
    let mut oriented: Option<WgosaMove> = None;
    for (_, _, _, wm) in forms {
        if wm.flip_from || wm.flip_to || wm.flip_side {
            let plain = WgosaMove {
                flip_from: false,
                flip_to: false,
                flip_side: false,
                ..wm.clone()
            };
            let tied = *flagless.entry(plain.to_string()).or_insert_with(|| {
                let mut ties = false;
                let _ = resolve_noting_ties(position, &plain, &mut ties);
                ties
            });
            if !tied {
                continue;
            }
        }
        let mut ties = false;
        if matches!(resolve_noting_ties(position, &wm, &mut ties), Ok((_, p)) if labelled_key(&p) == key)
        {
            if !ties {
                return Some(wm);
            }
            oriented.get_or_insert(wm);
        }
    }
    oriented
}

/// A written move as [`read`] understands it.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The drawing the move means.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// Whether several different moves matched until the orientation
    /// conventions (the `!` flags' defaults, summary rule 9) chose one: such a
    /// reading depends on which of the drawing's mirror images the reader
    /// holds, and another replayer may hold the other.
    pub by_orientation: bool,
}

/// [`resolve`], saying whether the reading leaned on the orientation of
/// the drawing (see [`Reading::by_orientation`]).
pub fn read(position: &Position, wm: &WgosaMove) -> Result<Reading, RuleError> {
    let mut ties = false;
    let (mv, after) = resolve_noting_ties(position, wm, &mut ties)?;
    Ok(Reading {
        mv,
        position: after,
        by_orientation: ties,
    })
}

/// Who won, as a record's last token says: `I` (the first player) or `II`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Winner {
    /// The first player (`I`).
    First,
    /// The second player (`II`).
    Second,
}

/// The optional players field, `(Alice - Bob*)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Players {
    /// Who moved first.
    pub first: String,
    /// Who moved second.
    pub second: String,
    /// Which of them (0 first, 1 second) carried the `*`: who chose the
    /// number of spots and the convention.
    pub chooser: Option<usize>,
}

/// A whole game record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Starting spots (`N` of the header).
    pub spots: u32,
    /// `N-`: misère (the last player to move loses).
    pub misere: bool,
    /// The players field, if given.
    pub players: Option<Players>,
    /// The moves, in order.
    pub moves: Vec<WgosaMove>,
    /// The result, if given.
    pub result: Option<Winner>,
}

/// A record that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text is not in the notation.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move that cannot be played where it stands.
    #[error("move {number} ({text}): {error}")]
    Move {
        /// Move number from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: RuleError,
    },
    /// The record names a winner the final position contradicts.
    #[error("the record says {said} won, but the game ended with {actual} winning")]
    WrongResult {
        /// `I` or `II` as written.
        said: &'static str,
        /// Who the rules make the winner.
        actual: &'static str,
    },
}

/// A record played through: every position and the move that led to it.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The starting position, then the position after each move.
    pub positions: Vec<Position>,
    /// Each move as a card move in the position before it.
    pub moves: Vec<Move>,
}

impl Replay {
    /// The winner if the last position has no move left (normal play: the
    /// last player to move; misère: the other).
    pub fn winner(&self, misere: bool) -> Option<Winner> {
        let last = self.positions.last()?;
        if last.has_move() {
            return None;
        }
        // An odd number of moves: the first player moved last. (With no
        // move at all, the first player is the one who cannot move.)
        let first_moved_last = self.moves.len() % 2 == 1;
        let first_wins = first_moved_last != misere;
        Some(if first_wins {
            Winner::First
        } else {
            Winner::Second
        })
    }
}

fn roman(w: Winner) -> &'static str {
    match w {
        Winner::First => "I",
        Winner::Second => "II",
    }
}

impl Record {
    /// Parses a record: header, optional players, moves, optional result.
    pub fn parse(text: &str) -> Result<Record, NotationError> {
        if text.len() > MAX_RECORD_LEN {
            return Err(nerr(
                text,
                format!("a record is at most {MAX_RECORD_LEN} bytes"),
            ));
        }
        let text = text.trim();
        let head_end = text
            .find(|c: char| c.is_whitespace() || c == '(')
            .unwrap_or(text.len());
        let head = &text[..head_end];
        let (n, misere) = match head.strip_suffix('+') {
            Some(n) => (n, false),
            None => match head.strip_suffix('-') {
                Some(n) => (n, true),
                None => {
                    return Err(nerr(
                        head,
                        "a record starts with N+ (normal play) or N- (misère), e.g. 8+",
                    ))
                }
            },
        };
        let spots: u32 = match n.parse() {
            Ok(v)
                if (1..=MAX_RECORD_SPOTS).contains(&v) && n.bytes().all(|c| c.is_ascii_digit()) =>
            {
                v
            }
            _ => {
                return Err(nerr(
                    head,
                    format!("the number of starting spots runs from 1 to {MAX_RECORD_SPOTS}"),
                ))
            }
        };
        let mut rest = text[head_end..].trim_start();
        let mut players = None;
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner
                .find(')')
                .ok_or_else(|| nerr(rest, "the players field (Alice - Bob) has no `)`"))?;
            let field = &inner[..close];
            rest = inner[close + 1..].trim_start();
            let (a, b) = field
                .split_once(" - ")
                .or_else(|| {
                    (field.matches('-').count() == 1)
                        .then(|| field.split_once('-'))
                        .flatten()
                })
                .ok_or_else(|| {
                    nerr(
                        field,
                        "the players field is (First - Second), names separated by ` - `",
                    )
                })?;
            let mut chooser = None;
            let mut name = |s: &str, seat: usize| -> Result<String, NotationError> {
                let s = s.trim();
                let s = match s.strip_suffix('*') {
                    Some(x) => {
                        if chooser.is_some() {
                            return Err(nerr(field, "only one player can carry the `*`"));
                        }
                        chooser = Some(seat);
                        x.trim()
                    }
                    None => s,
                };
                if s.is_empty() {
                    return Err(nerr(field, "a player's name is empty"));
                }
                Ok(s.to_string())
            };
            let first = name(a, 0)?;
            let second = name(b, 1)?;
            players = Some(Players {
                first,
                second,
                chooser,
            });
        }
        // Tokens: whitespace separates, except inside [ ].
        let mut tokens: Vec<String> = Vec::new();
        let mut cur = String::new();
        let mut depth = 0;
        for c in rest.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
            if c.is_whitespace() && depth == 0 {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
            } else if !c.is_whitespace() {
                cur.push(c);
            }
        }
        if !cur.is_empty() {
            tokens.push(cur);
        }
        let mut result = None;
        if let Some(last) = tokens.last() {
            result = match last.as_str() {
                "I" => Some(Winner::First),
                "II" => Some(Winner::Second),
                _ => None,
            };
            if result.is_some() {
                tokens.pop();
            }
        }
        let mut moves = Vec::with_capacity(tokens.len());
        for t in &tokens {
            if t == "I" || t == "II" {
                return Err(nerr(t, "the result (I or II) comes last"));
            }
            moves.push(t.parse::<WgosaMove>()?);
        }
        Ok(Record {
            spots,
            misere,
            players,
            moves,
            result,
        })
    }

    /// Plays the record from the start, checking every move and the result.
    pub fn replay(&self) -> Result<Replay, RecordError> {
        let mut positions = vec![Position::start(self.spots)];
        let mut moves = Vec::new();
        for (k, wm) in self.moves.iter().enumerate() {
            let here = positions.last().expect("the start is there");
            let err = |error: RuleError| RecordError::Move {
                number: k + 1,
                text: wm.to_string(),
                error,
            };
            if !here.has_move() {
                return Err(err(RuleError::Illegal(Refusal::GameOver)));
            }
            let (mv, next) = resolve(here, wm).map_err(err)?;
            moves.push(mv);
            positions.push(next);
        }
        let replay = Replay { positions, moves };
        if let (Some(said), Some(actual)) = (self.result, replay.winner(self.misere)) {
            if said != actual {
                return Err(RecordError::WrongResult {
                    said: roman(said),
                    actual: roman(actual),
                });
            }
        }
        Ok(replay)
    }

    /// The record with every move in its shortest unambiguous form (a move
    /// no form singles out is kept as written).
    pub fn normalized(&self) -> Result<Record, RecordError> {
        let replay = self.replay()?;
        let mut out = self.clone();
        for (k, mv) in replay.moves.iter().enumerate() {
            if let Some(wm) = describe(&replay.positions[k], mv) {
                out.moves[k] = wm;
            }
        }
        Ok(out)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.spots, if self.misere { "-" } else { "+" })?;
        if let Some(p) = &self.players {
            let star = |i: usize| if p.chooser == Some(i) { "*" } else { "" };
            write!(f, " ({}{} - {}{})", p.first, star(0), p.second, star(1))?;
        }
        for m in &self.moves {
            write!(f, " {m}")?;
        }
        if let Some(w) = self.result {
            write!(f, " {}", roman(w))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Record {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Record, NotationError> {
        Record::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::canonical;

    #[test]
    fn moves_round_trip() {
        for t in [
            "1(3)2",
            "6(16@2)14",
            "1(10)1[3,4]",
            "16(23)21![6]",
            "1!(5)!2",
            "5(20)7[1,3-6,9]",
        ] {
            let m: WgosaMove = t.parse().unwrap();
            assert_eq!(m.to_string(), t);
        }
        let m: WgosaMove = "1(10)1[4,3,3]".parse().unwrap();
        assert_eq!(m.listed, Some(vec![3, 4]));
        for bad in [
            "",
            "1(3",
            "(3)2",
            "1(3)2[",
            "1(3)2[x]",
            "1(3)2 x",
            "1(0)2",
            "1(3)2[5-2]",
        ] {
            assert!(bad.parse::<WgosaMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_documents_game_position_by_position() {
        let r = Record::parse("2+ 1(3)2 1(4)2 1(5)4 2(6)3").unwrap();
        let replay = r.replay().unwrap();
        let expected = [
            "1;2",
            "1,3,2,3",
            "4,1,3,2/4,2,3,1",
            "5,1,3,2,4/5,4,1/4,2,3,1",
            "5,1,3,2,4/5,4,1/6,2,3/6,3,1,4,2",
        ];
        assert_eq!(replay.positions.len(), expected.len());
        for (p, e) in replay.positions.iter().zip(expected) {
            let e = Position::parse(e).unwrap();
            assert_eq!(labelled_key(p), labelled_key(&e), "{p} vs {e}");
            assert_eq!(canonical(p), canonical(&e));
        }
        // The game is over: the second player made the last move.
        assert!(!replay.positions[4].has_move());
        assert_eq!(replay.winner(false), Some(Winner::Second));
        assert_eq!(replay.winner(true), Some(Winner::First));
        assert!(Record::parse("2+ 1(3)2 1(4)2 1(5)4 2(6)3 I")
            .unwrap()
            .replay()
            .is_err());
    }

    #[test]
    fn the_eight_spot_example_replays() {
        let text = "8+ 1(9)2 1(10)1[3,4] 3(11)10 2(12)5 5(13)5 6(14)6[7,8] 7(15)8 6(16@2)14 II";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.to_string(), text);
        let replay = r.replay().unwrap();
        assert_eq!(replay.positions.len(), 9);
    }

    #[test]
    fn an_ambiguity_says_what_to_add() {
        let enclosure = |flags_tried| Ambiguity::Enclosure {
            drawings: 2,
            flags_tried,
        };
        assert_eq!(
            enclosure(false).to_string(),
            "2 different drawings match; name the region with @ or the enclosed spots with [L]"
        );
        assert_eq!(
            enclosure(true).to_string(),
            "2 different drawings match; the ! flags do not settle which"
        );
        let region = Ambiguity::Region {
            regions: 2,
            spots: [2, 3].into_iter().collect(),
        };
        assert!(region.to_string().ends_with("one of {2, 3}"), "{region}");
    }

    #[test]
    fn at_and_lists_before_flags() {
        // Positions met in random play where two drawings of one line are
        // different moves. In the first, the line 1-7 can go in two
        // regions, each holding other live spots: without `@` the move is
        // ambiguous (summary rule 5), and `@` names the region.
        let p = Position::parse("3;7,6,1/7,1,6,2,6;8,4,8,5").unwrap();
        assert!(matches!(
            resolve(&p, &"1(9)7".parse().unwrap()),
            Err(RuleError::Ambiguous(a @ Ambiguity::Region { .. })) if a.to_string().contains("@")
        ));
        let (ma, a) = resolve(&p, &"1(9@3)7".parse().unwrap()).unwrap();
        let (mb, b) = resolve(&p, &"1(9@2)7".parse().unwrap()).unwrap();
        assert_ne!(labelled_key(&a), labelled_key(&b));
        assert_eq!(describe(&p, &ma).unwrap().to_string(), "1(9@3)7");
        assert_eq!(describe(&p, &mb).unwrap().to_string(), "1(9@2)7");
        // In the second, the corner at 7 decides whether 3 goes with 1 on
        // the listed side: `[1]` encloses 1 without 3 (summary rule 6:
        // another drawing leaves 3 out), so no tie is left for a flag to
        // break, and the drawing with 3 is written `[3]` (its other side).
        let p = Position::parse("5;8,3,7,6,1,6,2,6,7,3,8,4").unwrap();
        let (ma, a) = resolve(&p, &"2(9)7[1]".parse().unwrap()).unwrap();
        let (_, flagged) = resolve(&p, &"2(9)!7[1]".parse().unwrap()).unwrap();
        assert_eq!(labelled_key(&a), labelled_key(&flagged), "nothing to break");
        let (mb, b) = resolve(&p, &"2(9)7[3]".parse().unwrap()).unwrap();
        assert_ne!(labelled_key(&a), labelled_key(&b));
        assert_eq!(describe(&p, &ma).unwrap().to_string(), "2(9)7[1]");
        assert_eq!(describe(&p, &mb).unwrap().to_string(), "2(9)7[3]");
    }

    #[test]
    fn a_list_encloses_no_live_spot_another_drawing_leaves_out() {
        // 1(9)7[2] from 1,6,2,6,1,7,3,7: one drawing encloses 2 alone,
        // another 2 and 3 (the arc 7,3,7 on the listed side too). Summary
        // rule 6: the listed side holds no live spot that another drawing
        // leaves out, so 3 stays outside.
        let r = Record::parse("5- 1(6)2 1(7)3 4(8)5 1(9)7[2]").unwrap();
        let replay = r.replay().unwrap();
        let last = &replay.positions[4];
        for row in last.rows() {
            let spots: BTreeSet<Spot> = row.iter().flatten().copied().collect();
            assert!(
                !(spots.contains(&2) && spots.contains(&3)),
                "2 and 3 on one side: {last}"
            );
        }
        // The drawing that does enclose 3 with 2 is written so.
        let before = &replay.positions[3];
        let (_, both) = resolve(before, &"1(9)7[2,3]".parse().unwrap()).unwrap();
        assert_ne!(labelled_key(&both), labelled_key(last));
    }

    #[test]
    fn players_and_result() {
        let r = Record::parse("3- (Ann Lee - Bob 2*) 1(4)2 II").unwrap();
        assert!(r.misere);
        let p = r.players.clone().unwrap();
        assert_eq!(
            (p.first.as_str(), p.second.as_str(), p.chooser),
            ("Ann Lee", "Bob 2", Some(1))
        );
        assert_eq!(r.result, Some(Winner::Second));
        assert_eq!(r.to_string(), "3- (Ann Lee - Bob 2*) 1(4)2 II");
    }

    #[test]
    fn errors_name_the_move() {
        let e = Record::parse("2+ 1(3)2 1(5)2")
            .unwrap()
            .replay()
            .unwrap_err();
        assert!(e.to_string().starts_with("move 2 (1(5)2): illegal"), "{e}");
        assert!(e.to_string().contains("(rule 4"), "the rule: {e}");
        // A refused drawing is named with the rule and the line tried.
        let e = Record::parse("4+ 1(5)2 1(6)2 5(7)6[3]")
            .unwrap()
            .replay()
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("move 3 (5(7)6[3]): illegal"), "{e}");
        assert!(e.contains("(rule 6)"), "{e}");
        assert!(e.contains("tried: the line from 5 (between"), "{e}");
        assert!(e.contains("in the region 6,1,5,2"), "{e}");
        let e = Record::parse("2+ 1(3)2 3(4)3")
            .unwrap()
            .replay()
            .unwrap_err();
        assert!(
            matches!(
                e,
                RecordError::Move {
                    number: 2,
                    error: RuleError::Illegal(Refusal::LoopNeedsTwoLives(3)),
                    ..
                }
            ),
            "{e}"
        );
        // Three spots, a loop at 1 with 2 and 3 on different sides: both
        // sides hold live spots, so [L] is needed.
        let e = Record::parse("3+ 1(4)1").unwrap().replay();
        assert!(e.is_ok(), "{e:?}");
        assert!(Record::parse("9+ 1(10)1[2]").unwrap().replay().is_ok());
    }
}
