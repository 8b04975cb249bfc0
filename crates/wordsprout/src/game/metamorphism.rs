//! Metamorphism: the winner of a round switches one rule for the next.

use super::{Error, Event, Phase, WordSprout};
use crate::judge::Judge;
use crate::rules::Rule;
use parlor_core::Seat;

impl WordSprout {
    pub(super) fn choose_rule(
        &mut self,
        seat: Seat,
        rule: Option<Rule>,
    ) -> Result<Vec<Event>, Error> {
        let Phase::ChoosingRule { seat: chooser } = self.phase else {
            return Err(Error::NotNow("no rule is being chosen now".into()));
        };
        if seat != chooser {
            return Err(Error::NotNow(format!("{chooser} chooses the rule")));
        }
        let mut events = Vec::new();
        let mut on = false;
        if let Some(rule) = rule {
            if let Some(why) = self.unswitchable(rule) {
                return Err(Error::RuleNotSwitchable { rule, why });
            }
            on = !self.rules.has(rule);
            let shapes = rule.shapes_strings();
            if shapes {
                // Built before anything changes: rules whose strings would
                // not fit this host refuse the action and leave the game as
                // it was.
                let mut rules = self.rules.clone();
                rules.set(rule, on);
                self.shared.judge = Judge::new(
                    &self.shared.resources,
                    &self.shared.lexicon,
                    &rules,
                    &self.config.pot,
                    &self.config.vowels,
                )
                .map_err(|e| Error::RuleNotSwitchable {
                    rule,
                    why: e.message,
                })?;
            }
            self.rules.set(rule, on);
        }
        events.push(Event::RuleChanged { seat, rule, on });
        self.round += 1;
        self.start_round(&mut events);
        Ok(events)
    }

    /// Why metamorphism cannot switch `rule`, if it cannot.
    pub fn unswitchable(&self, rule: Rule) -> Option<String> {
        match rule {
            Rule::Teams if self.config.teams.is_empty() => {
                Some("no teams are configured for this table".into())
            }
            Rule::VowelFill if !self.rules.has(rule) => {
                let mut rules = self.rules.clone();
                rules.set(rule, true);
                crate::judge::too_costly(&self.shared.lexicon, &rules).map(|e| e.message)
            }
            _ => None,
        }
    }

    /// The rules metamorphism may switch now.
    pub fn switchable_rules(&self) -> Vec<Rule> {
        Rule::ALL
            .into_iter()
            .filter(|&r| self.unswitchable(r).is_none())
            .collect()
    }
}
