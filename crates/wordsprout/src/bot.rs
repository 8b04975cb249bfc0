//! Computer players for every level.
//!
//! A bot sees only its seat's [`View`] and the word list it was given; it
//! knows the language of the active rules (as a well-read player would) and
//! uses it to play, to challenge invalid plays and to answer challenges.
//!
//! | level | plays | challenges | bluffs |
//! | --- | --- | --- | --- |
//! | best | perfect where solved (two players, see [`crate::game`]), else search and a heuristic | every invalid play | when it has no valid play |
//! | hard | as best, with one slip in ten | every invalid play | when it has no valid play |
//! | medium | takes an immediate kill, else a random valid play; a quarter of its plays random | 9 in 10 invalid plays, rarely a valid one | half the time when stuck |
//! | easy | a random valid play | 7 in 10 invalid plays, sometimes a valid one | half the time when stuck, now and then for fun |

use crate::game::{Action, Config, Phase, View, WordSprout};
use crate::judge::{inserted_letters, Judge};
use crate::rules::{Pot, Rule};
use parlor_core::{Agent, AgentContext, ConfigError, GameRng, Level, Resources, Seed};
use parlor_lexicon::Lexicon;
use std::sync::Arc;
use std::time::Instant;

/// The Word Sprout computer player.
pub struct Bot {
    config: Config,
    level: Level,
    rng: GameRng,
    resources: Resources,
    lexicon: Arc<Lexicon>,
}

impl Bot {
    /// A bot for tables with `config`.
    pub fn new(
        config: &Config,
        level: Level,
        seed: Seed,
        resources: &Resources,
    ) -> Result<Bot, ConfigError> {
        let lexicon = resources
            .lexicon(&config.lexicon)
            .map_err(|e| ConfigError::new(e.to_string()))?;
        Ok(Bot {
            config: config.clone(),
            level,
            rng: GameRng::from_seed(seed),
            resources: resources.clone(),
            lexicon,
        })
    }

    /// The judge of the view's rules: the game's own (the game holds it, so
    /// the host hands the same one back). An error only if the host could
    /// not build it for the game either.
    fn judge(&self, view: &View) -> Result<Judge, ConfigError> {
        Judge::new(
            &self.resources,
            &self.lexicon,
            &view.rules,
            &self.config.pot,
            &self.config.vowels,
        )
    }

    fn p(&mut self, best: f64, hard: f64, medium: f64, easy: f64) -> bool {
        let p = match self.level {
            Level::Best => best,
            Level::Hard => hard,
            Level::Medium => medium,
            Level::Easy => easy,
        };
        self.rng.chance(p)
    }

    fn pick<T: Clone>(&mut self, v: &[T]) -> Option<T> {
        if v.is_empty() {
            None
        } else {
            Some(v[self.rng.below(v.len())].clone())
        }
    }

    /// The valid plays from the view's string, tiles permitting.
    fn plays(judge: &Judge, view: &View) -> Vec<String> {
        let mut plays = judge.moves(&view.string);
        if let Some(pot) = view.pot {
            plays.retain(|to| tiles_allow(&pot, &view.string, to));
        }
        if let Some(board) = &view.board {
            plays.retain(|to| board.play(to).is_ok());
        }
        plays
    }

    /// 2-D: the valid new strings among the legal actions, and whether each
    /// closes a shape.
    fn crosses(judge: &Judge, view: &View, legal: Option<&[Action]>) -> Vec<(Action, bool)> {
        let (Some(board), Some(legal)) = (&view.board, legal) else {
            return Vec::new();
        };
        legal
            .iter()
            .filter_map(|a| {
                let Action::Cross {
                    line,
                    index,
                    letter,
                    before,
                } = a
                else {
                    return None;
                };
                let next = board.cross(*line, *index, *letter, *before).ok()?;
                let from = &board.lines[*line].letters[*index..*index + 1];
                judge
                    .is_legal_move(from, &next.active().letters)
                    .then(|| (a.clone(), next.has_hole()))
            })
            .collect()
    }

    fn choose_play(
        &mut self,
        judge: &Judge,
        view: &View,
        budget: &parlor_core::Budget,
        legal: Option<&[Action]>,
    ) -> Action {
        let plays = Self::plays(judge, view);
        // 2-D: a play that closes a shape wins at once; a new string when
        // the current one cannot grow.
        if let Some(board) = &view.board {
            let closing: Vec<String> = plays
                .iter()
                .filter(|p| board.play(p).is_ok_and(|b| b.has_hole()))
                .cloned()
                .collect();
            if self.level >= Level::Medium {
                if let Some(p) = self.pick(&closing) {
                    return Action::Play { string: p };
                }
            }
            let crosses = Self::crosses(judge, view, legal);
            if let Some((a, _)) = crosses
                .iter()
                .find(|(_, closes)| *closes)
                .filter(|_| self.level >= Level::Medium)
            {
                return a.clone();
            }
            if plays.is_empty() {
                let all: Vec<Action> = crosses.into_iter().map(|(a, _)| a).collect();
                if let Some(a) = self.pick(&all) {
                    return a;
                }
            }
        }
        let challenges = view.rules.has(Rule::Challenge) || view.rules.has(Rule::OpenChallenge);
        if plays.is_empty() || (challenges && self.p(0.0, 0.0, 0.0, 0.03)) {
            if challenges && self.p(1.0, 1.0, 0.5, 0.5) {
                if let Some(b) = self.bluff(judge, view) {
                    return Action::Play { string: b };
                }
            }
            if plays.is_empty() {
                return Action::Concede;
            }
        }
        let random_slip = self.p(0.0, 0.1, 0.25, 1.0);
        if random_slip {
            let s = self.pick(&plays).expect("plays");
            return Action::Play { string: s };
        }
        if self.level >= Level::Hard {
            if let Some(s) = self.solved_play(judge, view, &plays, budget) {
                return Action::Play { string: s };
            }
        }
        // Heuristic: a play that leaves the next player stuck, else the play
        // that keeps the most goal words open (for the longest game).
        let kills: Vec<String> = plays
            .iter()
            .filter(|p| {
                Self::plays(
                    judge,
                    &View {
                        string: (*p).clone(),
                        ..view.clone()
                    },
                )
                .is_empty()
            })
            .cloned()
            .collect();
        if self.level >= Level::Medium {
            if let Some(k) = self.pick(&kills) {
                return Action::Play { string: k };
            }
        }
        if self.level == Level::Medium {
            let s = self.pick(&plays).expect("plays");
            return Action::Play { string: s };
        }
        let mut scored: Vec<(usize, String)> = plays
            .iter()
            .map(|p| (judge.goal_word_count(p), p.clone()))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let top: Vec<String> = scored.iter().take(3).map(|x| x.1.clone()).collect();
        Action::Play {
            string: self.pick(&top).expect("plays"),
        }
    }

    /// Perfect play where the analysis solves the position: two players
    /// still in and the full language (no tiles taken out of the pot by
    /// collections) use the two-player [`crate::solve::Solution`]; more
    /// players use the max^n solution ([`crate::solve::PlayersSolution`]).
    /// Past that, an exhaustive two-player search within the budget.
    fn solved_play(
        &mut self,
        judge: &Judge,
        view: &View,
        plays: &[String],
        budget: &parlor_core::Budget,
    ) -> Option<String> {
        if view.board.is_some() {
            // The solutions know strings, not the grid.
            return None;
        }
        let active = view.active.iter().filter(|&&a| a).count();
        let whole_language = !view.rules.has(Rule::VowelCollection);
        let mut winning = Vec::new();
        if whole_language && active == 2 {
            let solution = judge.solution();
            for p in plays {
                match solution.wins(p) {
                    Some(false) => winning.push(p.clone()),
                    Some(true) => {}
                    None => return self.searched_play(judge, view, plays, budget),
                }
            }
        } else if whole_language
            && !view.rules.has(Rule::VowelReverses)
            && (3..=8).contains(&active)
        {
            // The seat after the player to move at `p` is relative 1; the
            // player who made `p` is relative `active - 1`.
            let solution = judge.players_solution(active);
            for p in plays {
                if solution.winner_at(p) == Some(active - 1) {
                    winning.push(p.clone());
                }
            }
        } else if active == 2 {
            return self.searched_play(judge, view, plays, budget);
        } else {
            return None;
        }
        if let Some(w) = self.pick(&winning) {
            return Some(w);
        }
        Some(longest_game(judge, plays))
    }

    /// Perfect two-player play by exhaustive search from the current string
    /// (within the budget): a play after which the opponent loses.
    fn searched_play(
        &mut self,
        judge: &Judge,
        view: &View,
        plays: &[String],
        budget: &parlor_core::Budget,
    ) -> Option<String> {
        let started = Instant::now();
        let mut nodes = 0u64;
        let limit = parlor_core::Budget {
            nodes: Some(budget.nodes.unwrap_or(200_000)),
            ..budget.clone()
        };
        let mut memo = std::collections::HashMap::new();
        let mut winning = Vec::new();
        for p in plays {
            match wins(judge, view, p, &mut memo, &mut nodes, started, &limit) {
                Some(false) => winning.push(p.clone()),
                Some(true) => {}
                None => return None,
            }
        }
        if let Some(w) = self.pick(&winning) {
            return Some(w);
        }
        Some(longest_game(judge, plays))
    }

    /// A bluff that looks plausible: an insertion whose result, less its
    /// first or last letter, is still valid.
    fn bluff(&mut self, judge: &Judge, view: &View) -> Option<String> {
        let s = view.string.as_bytes();
        if s.len() >= self.lexicon.longest().len() {
            return None;
        }
        let mut good = Vec::new();
        let mut any = Vec::new();
        for i in 0..=s.len() {
            for c in b'a'..=b'z' {
                let mut t = s.to_vec();
                t.insert(i, c);
                let t = String::from_utf8(t).expect("ascii");
                if let Some(pot) = view.pot {
                    if !tiles_allow(&pot, &view.string, &t) {
                        continue;
                    }
                }
                let plausible = judge.is_valid(&t[1..]) && judge.is_valid(&t[..t.len() - 1]);
                if plausible {
                    good.push(t);
                } else {
                    any.push(t);
                }
            }
        }
        self.pick(&good).or_else(|| self.pick(&any))
    }

    fn choose_rule(&mut self, view: &View, me: parlor_core::Seat) -> Action {
        // Two players, strong bots: pick the string rules under which the
        // player this bot will be in the next round wins with perfect play
        // (the first player of round r + 1 is seat r mod n).
        if view.players == 2
            && self.level >= Level::Hard
            && !view.rules.has(Rule::TwoD)
            && !view.rules.has(Rule::VowelCollection)
        {
            let first_next = view.round as usize % view.players;
            let want_first_win = first_next == me.0;
            let candidates = [
                None,
                Some(Rule::Tiles),
                Some(Rule::VowelFill),
                Some(Rule::ConsonantStart),
                Some(Rule::VowelCap),
                Some(Rule::NoFrontConsonant),
                Some(Rule::NoPlurals),
            ];
            for c in candidates {
                let mut rules = view.rules.clone();
                if let Some(r) = c {
                    rules.set(r, !rules.has(r));
                }
                // Rules whose strings would not fit this host are not chosen.
                let Ok(judge) = Judge::new(
                    &self.resources,
                    &self.lexicon,
                    &rules,
                    &self.config.pot,
                    &self.config.vowels,
                ) else {
                    continue;
                };
                if judge.solution().first_player_wins() == want_first_win {
                    return Action::ChooseRule { rule: c };
                }
            }
        }
        // Otherwise sensible changes: challenges on if off (bots know the
        // words), else now and then a rule that spices the game without
        // making it degenerate; never one that cannot be played.
        if !view.rules.has(Rule::Challenge) && !view.rules.has(Rule::OpenChallenge) {
            return Action::ChooseRule {
                rule: Some(Rule::Challenge),
            };
        }
        let spice = [
            Rule::VowelReverses,
            Rule::Tiles,
            Rule::VowelCap,
            Rule::OutOfTurn,
        ];
        if self.rng.chance(0.5) {
            return Action::ChooseRule { rule: None };
        }
        let r = self.pick(&spice).expect("rules");
        if r == Rule::OutOfTurn && view.rules.has(r) {
            return Action::ChooseRule { rule: None };
        }
        if r.shapes_strings() {
            let mut rules = view.rules.clone();
            rules.set(r, !rules.has(r));
            let fits = Judge::new(
                &self.resources,
                &self.lexicon,
                &rules,
                &self.config.pot,
                &self.config.vowels,
            )
            .is_ok();
            if !fits {
                return Action::ChooseRule { rule: None };
            }
        }
        Action::ChooseRule { rule: Some(r) }
    }
}

/// Lost against perfect play: the play that keeps the most goal words open,
/// to make the game long and hope for a slip.
fn longest_game(judge: &Judge, plays: &[String]) -> String {
    let mut scored: Vec<(usize, &String)> = plays
        .iter()
        .map(|p| (judge.goal_word_count(p), p))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    scored[0].1.clone()
}

fn tiles_allow(pot: &Pot, from: &str, to: &str) -> bool {
    let mut need = [0u16; 26];
    for c in inserted_letters(from, to) {
        need[(c - b'a') as usize] += 1;
    }
    need.iter().zip(pot.0.iter()).all(|(n, p)| n <= p)
}

/// Whether the player to move at `s` wins with perfect play (two players,
/// the pot of `view` for tiles), or `None` past the budget.
fn wins(
    judge: &Judge,
    view: &View,
    s: &str,
    memo: &mut std::collections::HashMap<String, bool>,
    nodes: &mut u64,
    started: Instant,
    budget: &parlor_core::Budget,
) -> Option<bool> {
    if let Some(&w) = memo.get(s) {
        return Some(w);
    }
    *nodes += 1;
    if budget.exhausted(started, *nodes) {
        return None;
    }
    let mut moves = judge.moves(s);
    if let Some(pot) = view.pot {
        moves.retain(|to| tiles_allow(&pot, &view.string, to));
    }
    let mut win = false;
    for m in moves {
        if !wins(judge, view, &m, memo, nodes, started, budget)? {
            win = true;
            break;
        }
    }
    memo.insert(s.to_string(), win);
    Some(win)
}

impl Agent<WordSprout> for Bot {
    fn choose(&mut self, ctx: &AgentContext<'_, WordSprout>) -> Option<Action> {
        let view = ctx.view;
        let me = ctx.seat;
        match &view.phase {
            Phase::Over => None,
            Phase::ChoosingRule { seat } => (*seat == me).then(|| self.choose_rule(view, me)),
            Phase::Proving { challenged, .. } => {
                if *challenged != me {
                    return None;
                }
                let Ok(judge) = self.judge(view) else {
                    return Some(Action::Concede);
                };
                let from = view
                    .last_play
                    .as_ref()
                    .map(|l| l.from.clone())
                    .unwrap_or_default();
                if judge.is_legal_move(&from, &view.string) {
                    let words = judge.goal_words(&view.string);
                    // A short word is the one a person would name.
                    let best = words.iter().min_by_key(|w| (w.len(), **w));
                    if let Some(word) = best {
                        return Some(Action::Prove {
                            word: word.to_string(),
                        });
                    }
                }
                Some(Action::Concede)
            }
            Phase::Playing => {
                if !view.active.get(me.0).copied().unwrap_or(false) {
                    return None;
                }
                let Ok(judge) = self.judge(view) else {
                    return (view.to_move == me).then_some(Action::Concede);
                };
                if let Some(last) = &view.last_play {
                    let by_active = view.active[last.by.0];
                    if last.out_of_turn && last.by != me && by_active && self.p(1.0, 1.0, 0.9, 0.6)
                    {
                        return Some(Action::Call);
                    }
                    let may_challenge = last.by != me
                        && !last.proven
                        && by_active
                        && (view.rules.has(Rule::OpenChallenge)
                            || (view.rules.has(Rule::Challenge) && view.to_move == me));
                    if may_challenge {
                        let invalid = !judge.is_legal_move(&last.from, &last.to);
                        if invalid && self.p(1.0, 1.0, 0.9, 0.7) {
                            return Some(Action::Challenge);
                        }
                        if !invalid && view.to_move == me {
                            // Weak players doubt odd-looking strings.
                            let few = judge.goal_word_count(&last.to) <= 3;
                            if few && self.p(0.0, 0.0, 0.04, 0.12) {
                                return Some(Action::Challenge);
                            }
                        }
                    }
                }
                if view.to_move != me {
                    return None;
                }
                Some(self.choose_play(&judge, view, &ctx.budget, ctx.legal))
            }
        }
    }
}
