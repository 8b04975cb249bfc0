//! What creating a game asks for and answers: shared by the hub, which
//! creates games, and the actors, which ask it for a rematch, so that
//! neither reaches into the other for them.

use crate::storage::SeatRow;
use parlor_core::Level;
use rand::Rng;
use serde_json::Value;

/// What to create.
pub(crate) struct NewGameSpec {
    pub game: String,
    pub config: Value,
    pub seed: Option<u64>,
    pub public: bool,
    /// Seats given whole (a rematch); tokens are made here.
    pub seats: Option<Vec<SeatRow>>,
    /// Bot seats and levels (when `seats` is not given).
    pub bots: Vec<(usize, Level)>,
    /// Human seats anyone may take with `claim` (public games only): they
    /// get no token until claimed. Every other human seat is invited: its
    /// token is made now and handed to the creator, and nobody can claim it.
    pub open_seats: Vec<usize>,
    /// The creator's seat, name and player key.
    pub take_seat: Option<(usize, Option<String>, Option<String>)>,
    pub rematch_of: Option<String>,
    /// A position the host gives the game (a puzzle's): the moves that
    /// lead to it from `seed`, played before anyone joins and stored as
    /// the game's first moves. Its seed is the position's, so the server
    /// takes it even where the seed decides what players may not see.
    pub start: Option<Vec<(parlor_core::Actor, Value)>>,
    /// The clocks the host keeps for the seats (validated).
    pub time_control: parlor_core::TimeControl,
    /// Rated (see `crate::ratings`): no bots.
    pub rated: bool,
    /// The creator's account, which `take_seat` then belongs to.
    pub account: Option<String>,
    /// The address of the client that asks for it, charged with what its
    /// build adds to the derived-data cache (a rematch: nobody, since its
    /// rules' data is there from the game before).
    pub client: Option<std::net::IpAddr>,
}

/// A created game.
pub(crate) struct Created {
    pub id: String,
    /// Its summary, as JSON text.
    pub summary: Box<serde_json::value::RawValue>,
    /// Every human seat with its token.
    pub tokens: Vec<(usize, String)>,
    /// For a rematch (`NewGameSpec::rematch_of`): whether the game it
    /// follows was linked to it in the same commit. False: that game had
    /// a rematch already (made by another process), and this one is
    /// stored but known to nobody.
    pub linked: bool,
}

/// A seat token: 128 random bits in hex.
pub(crate) fn new_token() -> String {
    let bits: u128 = rand::thread_rng().gen();
    format!("{bits:032x}")
}
