//! The game's rules, situation by situation: tables arranged by hand.

use crate::card::{parse_cards, Card, CardText};
use crate::turns::Phase;
use crate::{Action, Config, Event, WordCards, WordChain};
use parlor_core::{Actor, Game, Resources, Seat, ToAct, Viewer};

/// A table, chance resolved after every action as a host does.
struct T {
    g: WordChain,
    opening: Vec<Event>,
}

impl T {
    fn new(config: Config, seed: u64) -> T {
        let mut g = WordChain::new(&config, seed, &Resources::embedded()).unwrap();
        let opening = settle(&mut g);
        T { g, opening }
    }
    fn apply(&mut self, actor: Actor, action: Action) -> Result<Vec<Event>, crate::Error> {
        let mut e = self.g.apply(actor, action)?;
        e.extend(settle(&mut self.g));
        Ok(e)
    }
    fn state(&self) -> &WordChain {
        &self.g
    }
}

fn settle(g: &mut WordChain) -> Vec<Event> {
    let mut e = Vec::new();
    while g.to_act() == ToAct::Chance {
        e.extend(g.resolve_chance());
    }
    e
}

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text)
        .unwrap()
        .iter()
        .map(|t| t.card())
        .collect()
}

fn word(text: &str, link: usize) -> WordCards {
    WordCards {
        cards: parse_cards(text).unwrap(),
        link,
        space: None,
    }
}

fn play(text: &str, link: usize) -> Action {
    Action::Play {
        words: vec![word(text, link)],
        consonants: None,
    }
}

fn seat(s: usize) -> Actor {
    Actor::Seat(Seat(s))
}

/// A table after the deal, with seat 0 to play, hands and link replaced.
fn table(config: Config, hands: &[&str], link: &str) -> T {
    let mut m = T::new(config, 7);
    let g = &mut m.g;
    for (s, h) in hands.iter().enumerate() {
        g.hands[s] = cards(h);
    }
    g.link = Some(cards(link)[0]);
    g.turn = 0;
    if g.config.dice == 0 {
        g.phase = Phase::Turn;
    }
    m
}

#[test]
fn the_deal() {
    let m = T::new(Config::default(), 1);
    let g = m.state();
    for s in 0..2 {
        let h = g.hand(s);
        assert_eq!(h.len(), 12);
        assert_eq!(h.iter().filter(|c| c.in_vowel_deck()).count(), 6);
    }
    assert!(!g.link().unwrap().in_vowel_deck());
    assert_eq!(g.deck_sizes(), [53 - 12 - 1, 50 - 12]);
    // The player to the dealer's left plays first.
    assert_eq!(g.to_act(), ToAct::One(Seat((g.dealer + 1) % 2)));
    // Each hand is hidden from the other seat and from spectators.
    let mine = serde_json::to_string(g.hand(0)).unwrap();
    for v in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        let view = serde_json::to_string(&g.view(v)).unwrap();
        assert!(!view.contains(&mine), "{view}");
        for e in m.opening.iter() {
            let seen = serde_json::to_string(&WordChain::event_view(e, v)).unwrap();
            assert!(!seen.contains(&mine), "{seen}");
        }
    }
    assert!(serde_json::to_string(&g.view(Viewer::Seat(Seat(0))))
        .unwrap()
        .contains(&mine));
}

#[test]
fn a_play_scores_draws_and_hands_on_its_last_card() {
    let cfg = Config {
        challenges: false,
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah Cd Sc Od Eh Ts", "Bh Bd Bc Bs Eh Es"], "Kh");
    // Not a word: refused with challenges off.
    let e = m.apply(seat(0), play("Kh Ah Cd", 0)).unwrap_err();
    assert_eq!(
        parlor_core::GameError::kind(&e),
        parlor_core::ErrorKind::UnknownWord
    );
    // A card not held; the link in the wrong place; out of turn.
    assert!(m.apply(seat(0), play("Kh Ah Zd", 0)).is_err());
    assert!(m.apply(seat(0), play("Ah Kh Ts", 0)).is_err());
    assert!(m.apply(seat(1), play("Kh Eh", 0)).is_err());
    let before = m.state().deck_sizes();
    // KOAS? no: KEAS? Use COAT with the link elsewhere? Link K: KAE is not
    // a word; "oak" has K last.
    let events = m.apply(seat(0), play("Od Ah Kh", 2)).unwrap();
    let g = m.state();
    // O 15 + A 1 + K 11 = 27, red (+5%) = 28.35 -> 29, link not first x 0.667 -> 20.
    assert_eq!(g.scores()[0], 20);
    assert_eq!(
        g.link(),
        Some(cards("Kh")[0]),
        "OAK ends on the link card, which stays"
    );
    assert_eq!(g.hand(0).len(), 6, "two cards played, two drawn");
    let after = g.deck_sizes();
    assert_eq!(before[0] + before[1] - 2, after[0] + after[1]);
    // By default the same kinds as played: O and A from the vowel deck.
    assert_eq!(after[1], before[1] - 2);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Drew { vowels: 2, .. })));
    assert_eq!(g.to_act(), ToAct::One(Seat(1)));
}

#[test]
fn challenges_taken_back_and_failed() {
    let mut m = table(
        Config::default(),
        &["Ah Cd Sc Od Eh Ts", "Bh Bd Bc Bs Eh Es"],
        "Th",
    );
    // A bluff: TSA.
    m.apply(seat(0), play("Th Sc Ah", 0)).unwrap();
    assert!(matches!(m.state().to_act(), ToAct::Simultaneous(ref s) if s == &[Seat(1)]));
    // The player cannot act on its own play; others cannot pass now.
    assert!(m.apply(seat(0), Action::Accept).is_err());
    assert!(m.apply(seat(1), Action::Pass).is_err());
    let score = match &m.state().phase {
        Phase::Challenge(p) => p.score,
        _ => unreachable!(),
    };
    m.apply(seat(1), Action::Challenge).unwrap();
    let g = m.state();
    assert_eq!(g.scores(), &[0, i64::from(score)]);
    assert_eq!(g.hand(0).len(), 6, "the cards come back");
    assert_eq!(g.link(), Some(cards("Th")[0]));
    assert_eq!(
        g.to_act(),
        ToAct::One(Seat(1)),
        "the bluffer's turn is over"
    );
    // Seat 1 plays a real word (BE on... the link T: BET, link last).
    m.apply(seat(1), play("Bh Eh Th", 2)).unwrap();
    let score = match &m.state().phase {
        Phase::Challenge(p) => p.score,
        _ => unreachable!(),
    };
    let s1 = m.state().scores()[1];
    m.apply(seat(0), Action::Challenge).unwrap();
    let g = m.state();
    // The challenge fails: the challenger loses the score, the player gains it again.
    assert_eq!(g.scores()[0], -i64::from(score));
    assert_eq!(g.scores()[1], s1 + 2 * i64::from(score));
}

#[test]
fn accepting_lets_the_play_stand() {
    let mut m = table(
        Config::default(),
        &["Ah Cd Sc Od Eh Ts", "Bh Bd Bc Bs Eh Es"],
        "Th",
    );
    m.apply(seat(0), play("Th Ah Cd Od", 0)).unwrap();
    m.apply(seat(1), Action::Accept).unwrap();
    let g = m.state();
    assert!(g.scores()[0] > 0);
    assert_eq!(g.link(), Some(cards("Od")[0]));
}

#[test]
fn five_cards_once_and_a_round_of_passes_ends_the_deal_by_the_house_rule() {
    let cfg = Config {
        passes_end: true,
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah Cd", "Bh Bd"], "Xh");
    m.apply(
        seat(0),
        Action::FiveCards {
            consonants: Some(5),
        },
    )
    .unwrap();
    assert_eq!(m.state().hand(0).len(), 7);
    assert_eq!(
        m.state()
            .hand(0)
            .iter()
            .filter(|c| !c.in_vowel_deck())
            .count(),
        6
    );
    m.apply(seat(1), Action::Pass).unwrap();
    assert!(m
        .apply(seat(0), Action::FiveCards { consonants: None })
        .is_err());
    m.apply(seat(0), Action::Pass).unwrap();
    assert_eq!(
        m.state().to_act(),
        ToAct::Over,
        "a round of passes ends the deal, and the game, by the house rule"
    );
    assert!(m.state().outcome().is_some());
}

/// Why the game ended, from its view.
fn over(m: &T) -> Option<String> {
    m.state().view(Viewer::Spectator).over
}

#[test]
fn a_round_of_passes_is_only_passes_while_a_hand_can_form_a_word() {
    // A Multicard link, words in both hands: A passes, B passes, A plays on.
    let hands = ["Ah Cd Th Es", "Oh Nd Ec Ss"];
    let mut m = table(Config::default(), &hands, "*");
    m.apply(seat(0), Action::Pass).unwrap();
    m.apply(seat(1), Action::Pass).unwrap();
    assert_eq!(over(&m), None);
    assert_eq!(m.state().to_act(), ToAct::One(Seat(0)));
    m.apply(seat(0), Action::Pass).unwrap();
    m.apply(seat(1), Action::Pass).unwrap();
    assert_eq!(m.state().to_act(), ToAct::One(Seat(0)), "passes again");
    m.apply(seat(0), play("*Ch Ah Th", 0)).unwrap();
    m.apply(seat(1), Action::Accept).unwrap();
    assert!(m.state().scores()[0] > 0);
    // The house rule: the same round of passes ends the deal, and the game.
    let cfg = Config {
        passes_end: true,
        ..Config::default()
    };
    let mut m = table(cfg, &hands, "*");
    m.apply(seat(0), Action::Pass).unwrap();
    assert_eq!(over(&m), None);
    m.apply(seat(1), Action::Pass).unwrap();
    assert_eq!(
        over(&m).as_deref(),
        Some("every player passed in a row (the house rule)")
    );
}

#[test]
fn the_deal_ends_when_no_hand_can_form_a_word() {
    // Consonants only, and X to follow: no word of the list.
    let mut m = table(Config::default(), &["Bh Cd", "Bh Bd"], "Xh");
    assert!(!m.state().anyone_can_form());
    m.apply(seat(0), Action::Pass).unwrap();
    assert_eq!(over(&m).as_deref(), Some("no player could form a word"));
    // A play that leaves nobody a word ends it too: TAX hands on X.
    let cfg = Config {
        challenges: false,
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah Xd Bc", "Bh Bd"], "Th");
    m.g.decks = [Vec::new(), Vec::new()];
    m.apply(seat(0), play("Th Ah Xd", 0)).unwrap();
    assert_eq!(over(&m).as_deref(), Some("no player could form a word"));
    // Each word once: AX played already is no word left to form.
    let cfg = Config {
        once_only: true,
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah", "Bh Bd"], "Xh");
    assert!(m.state().anyone_can_form(), "AX");
    m.g.words_played.insert("ax".into());
    assert!(!m.state().anyone_can_form());
    // Under dice the best throw counts: a long word is still a word.
    let cfg = Config {
        dice: 1,
        ..Config::default()
    };
    let m = table(cfg, &["Ah Cd", "Bh Bd"], "Th");
    assert!(m.state().anyone_can_form());
}

#[test]
fn the_pass_dialog_and_the_end_say_what_the_table_agreed() {
    let m = table(Config::default(), &["Ah Cd", "Bh Bd"], "Th");
    let v = m.state().view(Viewer::Seat(Seat(0)));
    assert!(
        v.pass_rule.contains("Passes do not end the deal"),
        "{}",
        v.pass_rule
    );
    assert_eq!(v.ends, "at 1000 points, or at the end of the deal");
    let cfg = Config {
        passes_end: true,
        target: None,
        minutes: Some(60),
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah Cd", "Bh Bd"], "Th");
    let v = m.state().view(Viewer::Seat(Seat(0)));
    assert!(
        v.pass_rule.contains("a full round of passes"),
        "{}",
        v.pass_rule
    );
    assert!(!v.pass_rule.contains("your pass ends"), "{}", v.pass_rule);
    assert_eq!(v.ends, "after 60 minutes, or at the end of the deal");
    m.apply(seat(0), Action::Pass).unwrap();
    let v = m.state().view(Viewer::Seat(Seat(1)));
    assert!(
        v.pass_rule
            .contains("your pass ends the deal, and the game"),
        "{}",
        v.pass_rule
    );
}

#[test]
fn dice_limit_the_word_and_a_double_allows_two() {
    let cfg = Config {
        dice: 2,
        challenges: false,
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah Cd Sc Od Eh Ts Oc Wh", "Bh Bd Bc Bs Eh Es"], "Th");
    {
        let g = &mut m.g;
        g.dice = Some(vec![1, 1]);
        g.phase = Phase::Turn;
    }
    // TACO takes 3 cards: more than the throw's 2.
    let e = m.apply(seat(0), play("Th Ah Cd Od", 0)).unwrap_err();
    assert!(e.to_string().contains("allows 2"), "{e}");
    // On the double: TA and TO, one card each, both on the link.
    m.apply(
        seat(0),
        Action::Play {
            words: vec![word("Th Ah", 0), word("Th Od", 0)],
            consonants: None,
        },
    )
    .unwrap();
    let g = m.state();
    assert_eq!(
        g.link(),
        Some(cards("Od")[0]),
        "the second word's last card"
    );
    assert_eq!(g.hand(0).len(), 8);
    assert_eq!(
        g.to_act(),
        ToAct::One(Seat(1)),
        "the next throw is resolved at once"
    );
    assert!(g.dice().is_some());
}

#[test]
fn multicards_are_named_and_a_multicard_link_is_named_by_the_next_player() {
    let cfg = Config {
        challenges: false,
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah * Sc", "Oh Bd"], "Ch");
    // Unnamed Multicard in a word: malformed.
    let e = m
        .apply(
            seat(0),
            Action::Play {
                words: vec![WordCards {
                    space: None,
                    cards: vec![
                        CardText::parse("Ch").unwrap(),
                        CardText::parse("Ah").unwrap(),
                        CardText::parse("*").unwrap(),
                    ],
                    link: 0,
                }],
                consonants: None,
            },
        )
        .unwrap_err();
    assert_eq!(
        parlor_core::GameError::kind(&e),
        parlor_core::ErrorKind::Malformed
    );
    // CAB with the Multicard named B ends on the Multicard.
    m.apply(seat(0), play("Ch Ah *Bh", 0)).unwrap();
    assert_eq!(m.state().link(), Some(Card::Multi));
    // The next player names it: NO, the link named N.
    m.apply(seat(1), play("*Ns Oh", 0)).unwrap();
    assert_eq!(m.state().link(), Some(cards("Oh")[0]));
}

#[test]
fn the_target_ends_the_game_and_teams_share() {
    let cfg = Config {
        challenges: false,
        target: Some(10),
        players: 4,
        teams: vec![vec![0, 2], vec![1, 3]],
        ..Config::default()
    };
    let mut m = table(cfg, &["Ah Cd Sc Od", "Bh", "Eh", "Es"], "Th");
    m.apply(seat(0), play("Th Ah Cd Od", 0)).unwrap();
    let g = m.state();
    assert_eq!(g.to_act(), ToAct::Over);
    let out = g.outcome().unwrap();
    assert_eq!(out.ranking[0], vec![Seat(0), Seat(2)]);
}

#[test]
fn displayed_hands_are_seen_and_drawn_cards_too() {
    let mut m = table(
        Config::default(),
        &["Ah Cd Sc Od Eh Ts", "Bh Bd Bc Bs Eh Es"],
        "Th",
    );
    m.apply(seat(1), Action::Display).unwrap();
    assert!(m.apply(seat(1), Action::Display).is_err());
    let v = m.state().view(Viewer::Seat(Seat(0)));
    assert_eq!(v.seats[1].hand.as_ref().unwrap().len(), 6);
    assert!(v.seats[0].hand.is_some(), "one's own");
    let v = m.state().view(Viewer::Spectator);
    assert!(v.seats[0].hand.is_none());
}

#[test]
fn bots_play_whole_games_at_every_level() {
    use parlor_core::{AgentContext, Budget, Level};
    let res = Resources::embedded();
    for (i, level) in [Level::Easy, Level::Medium, Level::Hard, Level::Best]
        .into_iter()
        .enumerate()
    {
        let cfg = Config {
            dice: (i % 3) as u8,
            turn_limit: 80,
            ..Config::default()
        };
        let mut m = T::new(cfg.clone(), i as u64);
        let mut bots: Vec<_> = (0..2)
            .map(|s| WordChain::agent(&cfg, level, s, &res).unwrap())
            .collect();
        let mut plays = 0;
        while m.state().to_act() != ToAct::Over {
            let s = m.state().to_act().seats()[0];
            let view = m.state().view(Viewer::Seat(s));
            let legal = m.state().legal_actions(s);
            let ctx = AgentContext {
                seat: s,
                view: &view,
                legal: legal.as_deref(),
                budget: Budget::nodes(1),
            };
            let a = bots[s.0].choose(&ctx).expect("a bot always acts");
            if matches!(a, Action::Play { .. }) {
                plays += 1;
            }
            m.apply(Actor::Seat(s), a).unwrap();
        }
        assert!(plays > 5, "{level:?}: {plays} plays");
    }
}

#[test]
fn two_word_names_by_agreement() {
    let cfg = Config {
        challenges: false,
        ..Config::default()
    };
    // TO BE: refused unless agreed.
    let two = |m: &mut T| {
        m.apply(
            seat(0),
            Action::Play {
                words: vec![WordCards {
                    space: Some(2),
                    ..word("Th Od Bc Eh", 0)
                }],
                consonants: None,
            },
        )
    };
    let mut m = table(cfg.clone(), &["Od Bc Eh Ts", "Bh"], "Th");
    assert!(two(&mut m).unwrap_err().to_string().contains("not agreed"));
    let mut m = table(
        Config {
            two_word_names: true,
            ..cfg
        },
        &["Od Bc Eh Ts", "Bh"],
        "Th",
    );
    two(&mut m).unwrap();
    let play = m.state().log().iter().find_map(|e| match e {
        crate::LogEntry::Play { words, .. } => Some(words[0].word.clone()),
        _ => None,
    });
    assert_eq!(play.as_deref(), Some("to be"));
}

#[test]
fn the_player_building_a_word_asks_the_server_its_score() {
    let cfg = Config {
        link_bonus: crate::scoring::LinkBonus::LinkFirst,
        ..Config::default()
    };
    let m = table(cfg, &["Nc Od Ps Zh", "Bh Bd"], "Kh");
    let budget = parlor_core::Budget::default();
    // As a host asks: the query read from JSON into the game's type, the
    // answer written as JSON.
    let ask_as = |v: Viewer, req: &serde_json::Value| {
        let q: crate::PlayQuery = serde_json::from_value(req.clone())
            .map_err(|e| parlor_core::HelpError::BadQuery(e.to_string()))?;
        m.state()
            .assist(v, &q, &budget)
            .map(|a| serde_json::to_value(a).unwrap())
    };
    let ask = |s: usize, req: serde_json::Value| ask_as(Viewer::Seat(Seat(s)), &req);
    let knop = serde_json::json!({"words": [{"cards": ["Kh", "Nc", "Od", "Ps"], "link": 0}]});
    // KNOP under the table's reading of rule J: 65 + 2 x 16.
    let a = ask(0, knop.clone()).unwrap();
    assert_eq!(a["score"], 97);
    assert_eq!(a["words"][0]["word"], "knop");
    let steps = a["words"][0]["breakdown"]["steps"].as_array().unwrap();
    assert_eq!(steps.last().unwrap()["rule"], "J");
    // A play the server would refuse says why; a bluff is scored (only a
    // challenge says whether a word is in the dictionary).
    let a = ask(0, serde_json::json!({"words": [{"cards": ["Kh", "Bh"]}]})).unwrap();
    assert_eq!(a["refusal"], "you hold no Bh for card 2");
    let a = ask(0, serde_json::json!({"words": [{"cards": ["Kh", "Zh"]}]})).unwrap();
    assert!(a["score"].as_u64().unwrap() > 0);
    // Only the player to move, with a play's words.
    assert!(ask(1, knop.clone()).is_err());
    assert!(matches!(
        ask_as(Viewer::Spectator, &knop),
        Err(parlor_core::HelpError::Closed(_))
    ));
    assert!(matches!(
        ask(0, serde_json::json!({"cards": []})),
        Err(parlor_core::HelpError::BadQuery(_))
    ));
    // Nothing changed.
    assert_eq!(m.state().hand(0).len(), 4);
}
