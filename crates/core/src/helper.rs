//! A game's helper: the analysis a player asks for at the table (Word
//! Sprout's "what could I have played?", how a WORDCHAIN play or a Twin
//! Grids placement would score, Sprouts' verdict on every move).
//!
//! A game says what its helper is asked ([`Game::Query`], a [`Query`]) and
//! what it answers ([`Game::Answer`]); [`Game::assist`] answers or refuses
//! with a [`HelpError`]. Hosts speak JSON: [`crate::DynMatch::assist_json`]
//! reads the query into the game's type (so a malformed one is refused
//! before the game sees it) and writes the answer. A game without a helper
//! names [`NoHelper`] for both.
//!
//! [`Game::Query`]: crate::Game::Query
//! [`Game::Answer`]: crate::Game::Answer
//! [`Game::assist`]: crate::Game::assist

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

/// What a game's helper is asked: read from JSON by hosts.
pub trait Query: DeserializeOwned + Send + 'static {
    /// One well-formed query, as JSON, for the message that refuses a
    /// malformed one (`{"word": "cat", "column": 0}`).
    const EXAMPLE: &'static str;
    /// Whether this is [`NoHelper`]: the game has no helper at all.
    const NONE: bool = false;
}

/// The query and answer of a game without a helper: there is none of
/// either, and hosts say the game has no helper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoHelper {}

impl Query for NoHelper {
    const EXAMPLE: &'static str = "";
    const NONE: bool = true;
}

impl<'de> Deserialize<'de> for NoHelper {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom("this game has no helper"))
    }
}

impl Serialize for NoHelper {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

/// Why a helper did not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HelpError {
    /// The game has no helper.
    #[error("this game has no helper")]
    NoHelper,
    /// The query is not one the helper reads: what was wrong and what is
    /// accepted.
    #[error("{0}")]
    BadQuery(String),
    /// The helper is closed to this viewer now (during play it would play
    /// the game for them, or tell hidden information): when it opens.
    #[error("{0}")]
    Closed(String),
    /// The helper stopped before it had an answer: its budget ran out or
    /// the host cancelled it.
    #[error("{0}")]
    Stopped(String),
}

impl HelpError {
    /// A malformed query, told with the game's example of a good one.
    pub fn bad_query<Q: Query>(what: impl std::fmt::Display) -> Self {
        HelpError::BadQuery(format!("{what}; a helper query is like {}", Q::EXAMPLE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Budget, DynMatch, Match, Resources, Viewer};
    use serde_json::json;

    #[test]
    fn a_game_without_a_helper_says_so_whatever_it_is_asked() {
        let m = Match::<crate::doc_nim::Nim>::new(Default::default(), 1, &Resources::default())
            .unwrap();
        for q in [json!({}), json!("junk"), json!(null)] {
            assert_eq!(
                m.assist_json(Viewer::Spectator, &q, &Budget::UNLIMITED),
                Err(HelpError::NoHelper)
            );
        }
        assert!(serde_json::from_value::<NoHelper>(json!({})).is_err());
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Ask {
        #[allow(dead_code)]
        word: String,
    }
    impl Query for Ask {
        const EXAMPLE: &'static str = r#"{"word": "cat"}"#;
    }

    #[test]
    fn a_malformed_query_is_told_with_a_good_one() {
        let e = serde_json::from_value::<Ask>(json!({"wrd": 1})).unwrap_err();
        let e = HelpError::bad_query::<Ask>(e);
        assert!(
            matches!(&e, HelpError::BadQuery(m) if m.contains("wrd") && m.ends_with(r#"a helper query is like {"word": "cat"}"#)),
            "{e}"
        );
    }
}
