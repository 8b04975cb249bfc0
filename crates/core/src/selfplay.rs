//! Computer players playing a match on, one agent per seat: what self-play
//! tallies and puzzle searches share.

use crate::{
    events_seen_by, Actor, Agent, AgentContext, Budget, ConfigError, Game, Level, Match, Resources,
    Seat, Seed, ToAct, Viewer,
};
use std::ops::ControlFlow;

/// A seat had no action the game accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("seat {} had no move the game accepts", .seat + 1)]
pub struct NoMove {
    /// The seat, from 0.
    pub seat: usize,
}

/// One agent per seat at `levels`, each shown what its seat saw of the
/// match so far (a deal at the start). Seat `s`'s agent is seeded with
/// `seed ^ (s + 1)`.
pub fn agents_for<G: Game>(
    table: &Match<G>,
    levels: &[Level],
    seed: Seed,
    resources: &Resources,
) -> Result<Vec<Box<dyn Agent<G>>>, ConfigError> {
    let config = table.state().config();
    let mut agents = Vec::new();
    for (s, &level) in levels.iter().enumerate() {
        let mut agent = G::agent(config, level, seed ^ (s as u64 + 1), resources)?;
        for step in table.history() {
            agent.observe(Seat(s), &events_seen_by::<G>(step, Viewer::Seat(Seat(s))));
        }
        agents.push(agent);
    }
    Ok(agents)
}

/// Plays `table` on with `agents[s]` in seat `s` until it is over, or
/// until `watch`, called before each action with the match as it stands,
/// breaks. In a simultaneous phase the first seat listed acts. An action
/// the game refuses is replaced by the first of `fallback` it accepts (a
/// bot's choice should never be refused; if it is, the game still ends).
pub fn play_out<G: Game>(
    table: &mut Match<G>,
    agents: &mut [Box<dyn Agent<G>>],
    fallback: &[G::Action],
    mut watch: impl FnMut(&Match<G>) -> ControlFlow<()>,
) -> Result<(), NoMove> {
    loop {
        let seat = match table.state().to_act() {
            ToAct::Over | ToAct::Chance => return Ok(()),
            t => match t.seats().first() {
                Some(&s) => s,
                None => return Ok(()),
            },
        };
        if watch(table).is_break() {
            return Ok(());
        }
        let view = table.state().view(Viewer::Seat(seat));
        let legal = table.state().legal_actions(seat);
        let ctx = AgentContext {
            seat,
            view: &view,
            legal: legal.as_deref(),
            budget: Budget::nodes(1),
        };
        let choice = agents.get_mut(seat.0).and_then(|a| a.choose(&ctx));
        let accepted = choice.and_then(|a| table.apply(Actor::Seat(seat), a).ok());
        let Some(events) = accepted.or_else(|| {
            fallback
                .iter()
                .find_map(|a| table.apply(Actor::Seat(seat), a.clone()).ok())
        }) else {
            return Err(NoMove { seat: seat.0 });
        };
        // Each agent follows the game as its seat sees it.
        for (s, agent) in agents.iter_mut().enumerate() {
            agent.observe(
                Seat(s),
                &events_seen_by::<G>(&events, Viewer::Seat(Seat(s))),
            );
        }
    }
}

impl From<NoMove> for String {
    fn from(e: NoMove) -> String {
        e.to_string()
    }
}

/// Plays `table` on as [`play_out`] does and gives the record up to each
/// position `wanted` says yes to (a puzzle search's candidates).
pub fn positions_where<G: Game, E: From<NoMove>>(
    table: &mut Match<G>,
    agents: &mut [Box<dyn Agent<G>>],
    mut wanted: impl FnMut(&Match<G>) -> Result<bool, E>,
) -> Result<Vec<crate::Record<G>>, E> {
    let mut found = Vec::new();
    let mut failed = None;
    play_out(table, agents, &[], |m| match wanted(m) {
        Ok(yes) => {
            if yes {
                found.push(m.record().clone());
            }
            ControlFlow::Continue(())
        }
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    })?;
    match failed {
        Some(e) => Err(e),
        None => Ok(found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc_nim::{Nim, NimConfig};

    #[test]
    fn agents_play_a_match_to_its_end_and_the_watch_sees_each_position() {
        let resources = Resources::default();
        let mut table = Match::<Nim>::new(NimConfig::default(), 3, &resources).unwrap();
        let mut agents = agents_for(&table, &[Level::Easy, Level::Best], 3, &resources).unwrap();
        let mut seen = Vec::new();
        play_out(&mut table, &mut agents, &[], |m| {
            seen.push(m.record().actions.len());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(table.state().to_act(), ToAct::Over);
        assert_eq!(seen, (0..table.record().actions.len()).collect::<Vec<_>>());
        // A watch that breaks stops the match where it stands.
        let mut again = Match::<Nim>::new(NimConfig::default(), 3, &resources).unwrap();
        let mut agents = agents_for(&again, &[Level::Easy, Level::Best], 3, &resources).unwrap();
        play_out(&mut again, &mut agents, &[], |m| {
            if m.record().actions.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(again.record().actions.len(), 2);
    }
}
