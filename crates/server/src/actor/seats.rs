//! Seats: tokens, connections, joins and claims, and the rematch.

use super::{Connected, GameActor, Holder, Outbound, Who};
use crate::error::ApiError;
use crate::error::Code;
use crate::newgame::NewGameSpec;
use crate::storage::{SeatKind, SeatRow, Write};
use parlor_core::{Seat, ToAct, Viewer};
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// The game's seats as stored, and whether each seat's player has arrived
/// for the clock's sake. Who may act for a seat, who may sit in it, and
/// what another process changed in them are answered here, from the seats
/// alone.
pub(super) struct Seating {
    pub rows: Vec<SeatRow>,
    /// Per seat: whether its player has arrived for the clock's sake
    /// (joined; bots always have). A rematch keeps its seats joined (they
    /// stay reserved for the same players) but its players have not
    /// arrived until they join or connect, so its clock waits for them.
    pub arrived: Vec<bool>,
}

/// What catching up with the stored seats changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Merged {
    /// Some seat differs from what was known.
    pub changed: bool,
    /// Seats whose token changed elsewhere (an invite used through another
    /// process): who is bound here by the old one lets go.
    pub retired: Vec<usize>,
}

impl Seating {
    /// The stored `rows`; in a `fresh_rematch` (nobody has moved, the clock
    /// has not started) only bots have arrived: its players come again.
    pub(super) fn new(rows: Vec<SeatRow>, fresh_rematch: bool) -> Seating {
        let arrived = rows
            .iter()
            .map(|s| s.kind == SeatKind::Bot || (s.joined && !fresh_rematch))
            .collect();
        Seating { rows, arrived }
    }

    pub(super) fn human(&self, seat: usize) -> bool {
        self.rows
            .get(seat)
            .is_some_and(|s| s.kind == SeatKind::Human)
    }

    /// Whether some person's seat has not been taken yet.
    pub(super) fn some_untaken(&self) -> bool {
        self.rows
            .iter()
            .any(|s| s.kind == SeatKind::Human && !s.joined)
    }

    /// The seat whose secret (or invite) is `token`.
    pub(super) fn of_token(&self, token: &str) -> Option<Seat> {
        if token.is_empty() {
            return None;
        }
        self.rows
            .iter()
            .find(|s| s.token.as_deref() == Some(token))
            .map(|s| Seat(s.seat))
    }

    /// The seat `holder` acts for in game `game`, `rated` or not (see
    /// [`GameActor::seat_for`]).
    pub(super) fn seat_for(
        &self,
        holder: &Holder,
        rated: bool,
        game: &str,
    ) -> Result<Seat, ApiError> {
        let seat = self
            .of_token(&holder.token)
            .ok_or_else(ApiError::bad_token)?;
        let s = &self.rows[seat.0];
        if let Some(owner) = s.account.as_deref() {
            let mine = holder
                .account
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(owner));
            if !mine {
                return Err(ApiError::new(
                    Code::NotYourSeat,
                    format!(
                        "seat {} belongs to the account {owner}: log in as {owner} to play it",
                        seat.0
                    ),
                ));
            }
        }
        if rated && !s.joined {
            return Err(ApiError::new(
                Code::SeatNotTaken,
                format!(
                    "seat {} has not been taken yet: a rated game's seat is played once its invite link is used to join it (POST /api/games/{game}/join)",
                    seat.0
                ),
            ));
        }
        Ok(seat)
    }

    /// Whether `account` (the logged-in one, if any) may take `seat` (see
    /// [`GameActor::may_sit`]).
    pub(super) fn may_sit(
        &self,
        seat: usize,
        account: Option<&str>,
        rated: bool,
    ) -> Result<(), ApiError> {
        let Some(s) = self.rows.get(seat) else {
            return Ok(()); // the join or claim says what is wrong
        };
        if !rated {
            return Ok(());
        }
        let Some(account) = account else {
            return Err(ApiError::new(
                Code::LoginRequired,
                "this game is rated: log in (or sign up) to take a seat in it",
            ));
        };
        if let Some(owner) = s.account.as_deref() {
            if !owner.eq_ignore_ascii_case(account) {
                return Err(ApiError::new(
                    Code::SeatTaken,
                    format!("seat {seat} belongs to the account {owner}"),
                ));
            }
        }
        let elsewhere = self.rows.iter().any(|o| {
            o.seat != seat
                && o.account
                    .as_deref()
                    .is_some_and(|a| a.eq_ignore_ascii_case(account))
        });
        if elsewhere {
            return Err(ApiError::new(
                Code::SeatTaken,
                "you hold another seat of this rated game: a rated game is played between different accounts",
            ));
        }
        Ok(())
    }

    /// After a stored join or claim: the seat is its player's, who has
    /// arrived.
    pub(super) fn taken(&mut self, seat: usize, name: Option<String>, player: Option<String>) {
        let s = &mut self.rows[seat];
        s.joined = true;
        self.arrived[seat] = true;
        if name.is_some() {
            s.name = name;
        }
        if player.is_some() {
            s.player = player;
        }
    }

    /// Takes the seats as another process stored them: a seat joined
    /// there has arrived; a seat whose token changed there retires the
    /// old one.
    pub(super) fn merge(&mut self, stored: Vec<SeatRow>) -> Merged {
        let mut merged = Merged::default();
        for s in stored {
            let n = s.seat;
            let Some(mine) = self.rows.get_mut(n) else {
                continue;
            };
            if *mine == s {
                continue;
            }
            if mine.token.is_some() && mine.token != s.token {
                merged.retired.push(n);
            }
            if s.joined && !mine.joined {
                if let Some(a) = self.arrived.get_mut(n) {
                    *a = true;
                }
            }
            *mine = s;
            merged.changed = true;
        }
        merged
    }
}

impl GameActor {
    pub(super) fn human(&self, seat: usize) -> bool {
        self.seats.human(seat)
    }

    /// On a shared database a seat nobody has joined yet may have been
    /// taken through another process: an open seat gets its claimant's
    /// token, an invited seat trades its invite for its joiner's secret.
    /// So a token this actor does not know, or one of a seat it believes
    /// untaken (an invite another process may have retired), is checked
    /// against the seats read afresh. Only while some seat is untaken, so
    /// a wrong token costs a read only then.
    pub(super) async fn learn_token(&mut self, who: &Who) {
        if let Who::Token(h) = who {
            self.learn_holder(h).await;
        }
    }

    async fn learn_holder(&mut self, h: &Holder) {
        if h.token.is_empty() || !self.env.store.shared() {
            return;
        }
        let known_taken = self
            .seat_of_token(&h.token)
            .is_some_and(|s| self.seats.rows[s.0].joined);
        if !known_taken && self.seats.some_untaken() {
            self.catch_up().await;
        }
    }

    /// The seat `holder` acts for: the seat whose secret it shows, if that
    /// seat is its to act for. A seat that belongs to an account acts only
    /// for that account's session, whatever token is shown (a token seen
    /// over a shoulder, or the invite its creator still holds, is not
    /// enough); in a rated game a seat acts only once taken (an invite is
    /// for joining, and a rated seat belongs to the account that joins).
    pub(super) fn seat_for(&self, holder: &Holder) -> Result<Seat, ApiError> {
        self.seats.seat_for(holder, self.row.rated, &self.row.id)
    }

    /// Who `holder` sees the game as: its seat, or a spectator without a
    /// token.
    pub(super) fn viewer_of(&self, holder: Option<&Holder>) -> Result<Viewer, ApiError> {
        match holder.filter(|h| !h.token.is_empty()) {
            None => Ok(Viewer::Spectator),
            Some(h) => self.seat_for(h).map(Viewer::Seat),
        }
    }

    pub(super) fn seat_of_token(&self, token: &str) -> Option<Seat> {
        self.seats.of_token(token)
    }

    pub(super) fn connect(
        &mut self,
        token: Option<String>,
        account: Option<String>,
        legal: bool,
    ) -> Result<Connected, ApiError> {
        let holder = token.map(|t| Holder::new(t, account));
        let viewer = self.viewer_of(holder.as_ref())?;
        let queue = self.env.settings.connections.conn_queue;
        let super::broadcast::Opened { conn, out, own } = self.conns.open(viewer, legal, queue);
        let you = match viewer {
            Viewer::Seat(s) => json!({"seat": s.0}),
            // The spectator's number in chat (`from.spectator`), so that a
            // page knows its own lines.
            Viewer::Spectator => json!({"spectator": true, "speaker": conn}),
        };
        let welcome = self.welcome_text(you);
        self.send_to(conn, welcome.into());
        // The whole state follows (see `Msg::Connect`).
        if matches!(viewer, Viewer::Seat(_)) {
            self.broadcast_seats();
        }
        Ok(Connected {
            conn,
            out,
            own,
            spectator: viewer == Viewer::Spectator,
        })
    }

    /// Takes the seat of `token` (see [`Msg::Join`]). An invite is a
    /// one-time claim: the seat gets a secret of its own, minted now for
    /// the joiner, and the invite's token is retired, so whoever else saw
    /// the invite (its creator among them) holds nothing of the seat any
    /// more. The seat's own secret shown again (a page reloaded) takes it
    /// again, for its holder only.
    pub(super) async fn join(
        &mut self,
        token: String,
        name: Option<String>,
        player: Option<String>,
        account: Option<String>,
    ) -> Result<(usize, String, Value), ApiError> {
        let holder = Holder::new(token, account);
        self.learn_holder(&holder).await;
        let seat = self
            .seat_of_token(&holder.token)
            .ok_or_else(ApiError::bad_token)?
            .0;
        if self.seats.rows[seat].joined {
            self.seat_for(&holder)?;
            self.may_sit(seat, holder.account.as_deref())?;
            self.take_seat(seat, name, player).await?;
            self.bind_after_sitting(seat, holder.account).await?;
            return Ok((seat, holder.token, self.summary()));
        }
        self.may_sit(seat, holder.account.as_deref())?;
        let secret = crate::newgame::new_token();
        let name = clean_name(name);
        let write = Write::Claim {
            game_id: self.row.id.clone(),
            seat,
            token: secret.clone(),
            invite: Some(holder.token.clone()),
            name: name.clone(),
            player: player.clone(),
        };
        if !self.env.store.try_write(write).await? {
            // The invite was used through another process first.
            self.catch_up().await;
            return Err(ApiError::bad_token());
        }
        self.seats.rows[seat].token = Some(secret.clone());
        self.let_go_of_seat(seat);
        self.seat_taken(seat, name, player).await;
        self.bind_after_sitting(seat, holder.account).await?;
        Ok((seat, secret, self.summary()))
    }

    /// The connections bound to `seat` by a token it no longer has (its
    /// invite, used by somebody else): told why, then let go of.
    pub(super) fn let_go_of_seat(&mut self, seat: usize) {
        let bound = self.conns.bound_to(seat);
        if bound.is_empty() {
            return;
        }
        let e = ApiError::new(
            Code::SeatTaken,
            format!(
                "seat {seat} was taken with its invite link: this connection no longer plays it"
            ),
        );
        for conn in bound {
            self.send_to(conn, e.ws_message(Value::Null).to_string().into());
            self.conns.close(conn);
        }
        self.broadcast_seats();
    }

    pub(super) async fn take_seat(
        &mut self,
        seat: usize,
        name: Option<String>,
        player: Option<String>,
    ) -> Result<(), ApiError> {
        let name = clean_name(name);
        let write = Write::Join {
            game_id: self.row.id.clone(),
            seat,
            name: name.clone(),
            player: player.clone(),
        };
        self.env.store.write(write).await?;
        self.seat_taken(seat, name, player).await;
        Ok(())
    }

    /// After a stored join or claim: the seat is its player's.
    pub(super) async fn seat_taken(
        &mut self,
        seat: usize,
        name: Option<String>,
        player: Option<String>,
    ) {
        self.seats.taken(seat, name, player);
        self.broadcast_seats();
        self.start_clocks().await;
    }

    /// Whether `account` (the logged-in one, if any) may take `seat`: in a
    /// rated game only an account may, one seat each, and never a seat of
    /// another account.
    pub(super) fn may_sit(&self, seat: usize, account: Option<&str>) -> Result<(), ApiError> {
        self.seats.may_sit(seat, account, self.row.rated)
    }

    /// After a join or claim: a logged-in player's seat becomes their
    /// account's. In an unrated game a seat that already belongs to
    /// another account stays theirs (the join itself stands, as a guest's
    /// would); in a rated game it is an error.
    pub(super) async fn bind_after_sitting(
        &mut self,
        seat: usize,
        account: Option<String>,
    ) -> Result<(), ApiError> {
        let Some(account) = account else {
            return Ok(());
        };
        match self.bind_account(seat, account).await {
            Err(e) if self.row.rated => Err(e),
            _ => Ok(()),
        }
    }

    /// Makes `seat` (taken) belong to `account`.
    pub(super) async fn bind_account(
        &mut self,
        seat: usize,
        account: String,
    ) -> Result<(), ApiError> {
        let s = &self.seats.rows[seat];
        if s.account.as_deref() == Some(account.as_str()) {
            return Ok(());
        }
        if s.kind != SeatKind::Human || !s.joined {
            return Err(ApiError::new(
                Code::SeatNotTaken,
                format!("seat {seat} has not been taken yet: join it first"),
            ));
        }
        if let Some(owner) = &s.account {
            return Err(ApiError::new(
                Code::SeatTaken,
                format!("seat {seat} belongs to the account {owner}"),
            ));
        }
        let write = Write::SeatAccount {
            game_id: self.row.id.clone(),
            seat,
            username: account.clone(),
        };
        if !self.env.store.try_write(write).await? {
            self.catch_up().await;
            return Err(ApiError::new(
                Code::SeatTaken,
                format!(
                    "seat {seat} belongs to another account, or this account holds another seat of this rated game"
                ),
            ));
        }
        self.seats.rows[seat].account = Some(account);
        self.broadcast_seats();
        Ok(())
    }

    pub(super) async fn claim(
        &mut self,
        seat: usize,
        name: Option<String>,
        player: Option<String>,
    ) -> Result<(usize, String, Value), ApiError> {
        if !self.row.public {
            return Err(ApiError::new(
                Code::BadToken,
                "this game is private: ask a player for an invite link",
            ));
        }
        let Some(s) = self.seats.rows.get(seat) else {
            return Err(ApiError::bad_json(format!(
                "seat {seat} does not exist: this game has seats 0 to {}",
                self.seats.rows.len().saturating_sub(1)
            )));
        };
        if s.kind == SeatKind::Bot {
            return Err(ApiError::bad_json(format!("seat {seat} is a bot's")));
        }
        if s.joined {
            return Err(ApiError::new(
                Code::SeatTaken,
                format!("seat {seat} is taken: choose a free seat"),
            ));
        }
        if s.token.is_some() {
            // An invited seat: its token is its invitee's, and a seat has
            // one holder.
            return Err(ApiError::new(
                Code::InviteOnly,
                format!(
                    "seat {seat} is kept for an invited player: only their invite link takes it; choose an open seat"
                ),
            ));
        }
        // The claimant's own secret, minted now: an open seat has no token
        // until it is claimed.
        let token = crate::newgame::new_token();
        let name = clean_name(name);
        let write = Write::Claim {
            game_id: self.row.id.clone(),
            seat,
            token: token.clone(),
            invite: None,
            name: name.clone(),
            player: player.clone(),
        };
        if !self.env.store.try_write(write).await? {
            // Somebody claimed it through another process first.
            self.catch_up().await;
            return Err(ApiError::new(
                Code::SeatTaken,
                format!("seat {seat} is taken: choose a free seat"),
            ));
        }
        self.seats.rows[seat].token = Some(token.clone());
        self.seat_taken(seat, name, player).await;
        Ok((seat, token, self.summary()))
    }

    /// The rematch of this finished game, made at the first call: the
    /// new seat, token and summary of `old`'s player.
    ///
    /// Every connection here hears of a new rematch (a `rematch` message)
    /// but `mover`'s, which moves to it and hears from its answer (one
    /// send fewer per rematch).
    pub(super) async fn rematch(
        &mut self,
        old: Seat,
        mover: Option<u64>,
    ) -> Result<RematchSeat, ApiError> {
        if self.m.to_act() != ToAct::Over {
            return Err(ApiError::new(
                Code::NotOver,
                "a rematch can be made once this game is over",
            ));
        }
        let n = self.seats.rows.len();
        let new_seat = (old.0 + n - 1) % n;
        let new_id = match &self.row.rematch {
            Some(id) => id.clone(),
            None => {
                // New seat k is old seat k + 1: the first player alternates.
                let seats: Vec<SeatRow> = (0..n)
                    .map(|k| {
                        let o = &self.seats.rows[(k + 1) % n];
                        SeatRow {
                            seat: k,
                            kind: o.kind,
                            level: o.level.clone(),
                            token: None,
                            name: o.name.clone(),
                            player: o.player.clone(),
                            joined: o.joined,
                            account: o.account.clone(),
                        }
                    })
                    .collect();
                // A seat that was open and nobody claimed stays open.
                let open_seats = seats
                    .iter()
                    .filter(|s| {
                        let o = &self.seats.rows[(s.seat + 1) % n];
                        o.kind == SeatKind::Human && o.token.is_none()
                    })
                    .map(|s| s.seat)
                    .collect();
                let spec = NewGameSpec {
                    game: self.row.game.clone(),
                    config: self.row.config.value(),
                    // A fresh seed, drawn by the server.
                    seed: None,
                    public: self.row.public,
                    seats: Some(seats),
                    bots: Vec::new(),
                    open_seats,
                    take_seat: None,
                    rematch_of: Some(self.row.id.clone()),
                    start: None,
                    time_control: self.row.time_control.clone(),
                    // Between the same accounts, as rated as the first.
                    rated: self.row.rated,
                    account: None,
                    client: None,
                };
                // Stored with the link from this game (`Created::linked`).
                let created = self.env.games.create(spec).await?;
                let id = created.id.clone();
                if !created.linked {
                    // Another process made the rematch first: that one it
                    // is; the game made here is aborted (nobody knows it).
                    if let Ok(stub) = self.env.games.stub(&id).await {
                        let _ = stub.abort(Who::Host).await;
                    }
                    self.catch_up().await;
                    match self.row.rematch.clone() {
                        Some(theirs) => return self.rematch_seat(&theirs, new_seat).await,
                        None => {
                            return Err(ApiError::storage(
                                "the rematch was made elsewhere but cannot be read",
                            ))
                        }
                    }
                }
                self.row.rematch = Some(id.clone());
                let text: Outbound = json!({"type": "rematch", "game": id}).to_string().into();
                let conns = self.conns.ids().into_iter().filter(|&c| Some(c) != mover);
                for c in conns {
                    self.send_to(c, text.clone());
                }
                // The new game was made here a moment ago: its token and
                // summary came with it, no need to ask its actor again.
                if let Some((_, token)) = created.tokens.iter().find(|(s, _)| *s == new_seat) {
                    return Ok(RematchSeat {
                        id: created.id,
                        seat: new_seat,
                        token: token.clone(),
                        game: created.summary,
                    });
                }
                id
            }
        };
        self.rematch_seat(&new_id, new_seat).await
    }

    /// The seat, token and summary of `new_seat` in the rematch `new_id`.
    pub(super) async fn rematch_seat(
        &self,
        new_id: &str,
        new_seat: usize,
    ) -> Result<RematchSeat, ApiError> {
        let stub = self.env.games.stub(new_id).await?;
        let token = stub.seat_token(new_seat).await?.unwrap_or_default();
        let game = stub.summary().await?;
        Ok(RematchSeat {
            id: new_id.to_string(),
            seat: new_seat,
            token,
            game,
        })
    }
}

/// A player's seat in the rematch of a finished game.
pub(crate) struct RematchSeat {
    /// The rematch's id.
    pub id: String,
    pub seat: usize,
    pub token: String,
    /// The rematch's summary.
    pub game: Box<RawValue>,
}

impl RematchSeat {
    /// The answer that gives it: `POST .../rematch`'s (without `ws`), or
    /// the WebSocket's `rematch_seat` with the client's ref and, for a
    /// connection that moves to it, whether it did (docs/api.md).
    pub(crate) fn answer(&self, ws: Option<(&Value, Option<bool>)>) -> Box<RawValue> {
        #[derive(serde::Serialize)]
        struct Answer<'a> {
            game: &'a RawValue,
            #[serde(skip_serializing_if = "Option::is_none")]
            moved: Option<bool>,
            #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
            reference: Option<&'a Value>,
            seat: usize,
            token: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            r#type: Option<&'static str>,
        }
        crate::raw_json(&Answer {
            game: &self.game,
            moved: ws.and_then(|w| w.1),
            reference: ws.map(|w| w.0),
            seat: self.seat,
            token: &self.token,
            r#type: ws.map(|_| "rematch_seat"),
        })
    }
}

/// A display name as a seat shows it: trimmed, at most 40 characters;
/// none if nothing is left.
fn clean_name(name: Option<String>) -> Option<String> {
    name.map(|n| n.trim().chars().take(40).collect::<String>())
        .filter(|n| !n.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn human(seat: usize, token: Option<&str>, joined: bool, account: Option<&str>) -> SeatRow {
        SeatRow {
            seat,
            kind: SeatKind::Human,
            level: None,
            token: token.map(str::to_string),
            name: None,
            player: None,
            joined,
            account: account.map(str::to_string),
        }
    }

    fn bot(seat: usize) -> SeatRow {
        SeatRow {
            seat,
            kind: SeatKind::Bot,
            level: Some("easy".into()),
            token: None,
            name: None,
            player: None,
            joined: true,
            account: None,
        }
    }

    fn holder(token: &str, account: Option<&str>) -> Holder {
        Holder::new(token.into(), account.map(str::to_string))
    }

    #[test]
    fn a_token_finds_its_seat_and_an_empty_one_none() {
        let s = Seating::new(
            vec![
                human(0, Some("aa"), true, None),
                human(1, None, false, None),
                bot(2),
            ],
            false,
        );
        assert_eq!(s.of_token("aa"), Some(Seat(0)));
        assert_eq!(s.of_token("bb"), None);
        // An open seat has no token: an empty one must not find it.
        assert_eq!(s.of_token(""), None);
        assert!(s.human(1) && !s.human(2) && !s.human(9));
        assert!(s.some_untaken());
    }

    #[test]
    fn an_accounts_seat_acts_only_for_that_account() {
        let s = Seating::new(vec![human(0, Some("aa"), true, Some("Ann"))], false);
        assert_eq!(
            s.seat_for(&holder("aa", Some("ann")), false, "g"),
            Ok(Seat(0))
        );
        let e = s.seat_for(&holder("aa", None), false, "g").unwrap_err();
        assert_eq!(e.code, Code::NotYourSeat);
        let e = s
            .seat_for(&holder("aa", Some("bob")), false, "g")
            .unwrap_err();
        assert_eq!(e.code, Code::NotYourSeat);
        let e = s
            .seat_for(&holder("zz", Some("ann")), false, "g")
            .unwrap_err();
        assert_eq!(e.code, Code::BadToken);
    }

    #[test]
    fn a_rated_seat_acts_only_once_taken() {
        let s = Seating::new(vec![human(0, Some("invite"), false, None)], false);
        assert_eq!(s.seat_for(&holder("invite", None), false, "g"), Ok(Seat(0)));
        let e = s.seat_for(&holder("invite", None), true, "g").unwrap_err();
        assert_eq!(e.code, Code::SeatNotTaken);
        assert!(e.message.contains("/api/games/g/join"), "{}", e.message);
    }

    #[test]
    fn a_rated_game_seats_each_account_once_and_nobody_logged_out() {
        let s = Seating::new(
            vec![
                human(0, Some("a"), true, Some("Ann")),
                human(1, Some("b"), false, None),
            ],
            false,
        );
        // Unrated: anybody sits.
        assert!(s.may_sit(1, None, false).is_ok());
        assert_eq!(
            s.may_sit(1, None, true).unwrap_err().code,
            Code::LoginRequired
        );
        assert_eq!(
            s.may_sit(1, Some("ANN"), true).unwrap_err().code,
            Code::SeatTaken
        );
        assert_eq!(
            s.may_sit(0, Some("bob"), true).unwrap_err().code,
            Code::SeatTaken
        );
        assert!(s.may_sit(0, Some("ann"), true).is_ok());
        assert!(s.may_sit(1, Some("bob"), true).is_ok());
    }

    #[test]
    fn a_fresh_rematchs_players_have_not_arrived_and_a_taken_seat_has() {
        let rows = vec![
            human(0, Some("a"), true, None),
            bot(1),
            human(2, None, false, None),
        ];
        assert_eq!(
            Seating::new(rows.clone(), false).arrived,
            [true, true, false]
        );
        let mut s = Seating::new(rows, true);
        assert_eq!(s.arrived, [false, true, false]);
        s.taken(2, Some("Cy".into()), None);
        assert_eq!(s.arrived, [false, true, true]);
        assert!(s.rows[2].joined);
        assert_eq!(s.rows[2].name.as_deref(), Some("Cy"));
        assert!(!s.some_untaken());
    }

    #[test]
    fn merging_stored_seats_retires_a_changed_token_and_marks_arrivals() {
        let mut s = Seating::new(
            vec![
                human(0, Some("invite"), false, None),
                human(1, None, false, None),
            ],
            false,
        );
        // Nothing new: nothing changes.
        let same = s.rows.clone();
        assert_eq!(s.merge(same), Merged::default());
        // Elsewhere: seat 0's invite was used (a new secret), seat 1 was
        // claimed (it had no token: nobody here held it).
        let stored = vec![
            human(0, Some("secret"), true, None),
            human(1, Some("claimed"), true, None),
            // A seat this game does not have is ignored.
            human(7, Some("x"), true, None),
        ];
        let merged = s.merge(stored);
        assert_eq!(
            merged,
            Merged {
                changed: true,
                retired: vec![0],
            }
        );
        assert_eq!(s.arrived, [true, true]);
        assert_eq!(s.of_token("secret"), Some(Seat(0)));
        assert_eq!(s.of_token("invite"), None);
    }
}
