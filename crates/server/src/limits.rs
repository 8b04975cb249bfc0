//! Rate limits: how much one client may ask of the server per second.
//!
//! Anyone may create games, play and upload word lists without an account,
//! so the server meters clients instead of trusting them. Each kind of
//! request has a token bucket per client address ([`ClientLimits`]): a
//! burst is served at once, a steady flood is refused with `rate_limited`
//! (HTTP 429 with `Retry-After`) before any work is done on it. Each
//! WebSocket has a bucket of its own ([`ConnLimit`]) so that one socket
//! cannot keep a game's queue full however many sockets its client opens
//! (opening them is metered too: a connection is a request).
//!
//! The address is the peer's, with IPv6 addresses taken by their /64
//! prefix (one household, one phone network customer); behind a reverse
//! proxy, [`crate::Settings::client_ip_header`] names the header the proxy
//! sets.

use crate::error::ApiError;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// A rate: `burst` at once, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests served at once from a full bucket.
    pub burst: u32,
    /// The bucket gains one request this often.
    pub every: Duration,
}

impl Rate {
    /// `burst` at once, then `per_minute` a minute.
    pub const fn per_minute(burst: u32, per_minute: u32) -> Rate {
        Rate {
            burst,
            every: Duration::from_millis(60_000 / per_minute as u64),
        }
    }
    /// `burst` at once, then `per_second` a second.
    pub const fn per_second(burst: u32, per_second: u32) -> Rate {
        Rate {
            burst,
            every: Duration::from_micros(1_000_000 / per_second as u64),
        }
    }
    pub(crate) fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.every.max(Duration::from_micros(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst)
    }
}

/// Which bucket a request draws on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Creating a game (a rematch included).
    Create,
    /// An action, a claim, a join; opening a WebSocket.
    Play,
    /// Uploading a word list.
    Upload,
    /// Everything else that reads (state, lists, records).
    Read,
    /// A request that may run a game's helper or solver (`assist` over
    /// HTTP and WebSocket, a replay with `helper=true`): one may cost
    /// seconds of a core, so it has a bucket of its own, far smaller than
    /// the cheap reads'.
    Helper,
}

impl Kind {
    fn what(self) -> &'static str {
        match self {
            Kind::Create => "games created",
            Kind::Play => "moves and connections",
            Kind::Upload => "word lists uploaded",
            Kind::Read => "requests",
            Kind::Helper => "helper requests",
        }
    }
}

/// The per-client buckets of one server.
pub(crate) struct ClientLimits {
    create: DefaultKeyedRateLimiter<IpAddr>,
    play: DefaultKeyedRateLimiter<IpAddr>,
    upload: DefaultKeyedRateLimiter<IpAddr>,
    read: DefaultKeyedRateLimiter<IpAddr>,
    helper: DefaultKeyedRateLimiter<IpAddr>,
    rates: [Rate; 5],
    /// Checks since the buckets of quiet clients were last dropped.
    checks: AtomicU32,
}

/// How many checks pass between two sweeps of full (quiet) buckets: the
/// maps hold only clients seen lately, whatever the number of addresses.
const SWEEP_EVERY: u32 = 4096;

impl ClientLimits {
    pub(crate) fn new(s: &crate::Settings) -> ClientLimits {
        ClientLimits {
            create: RateLimiter::keyed(s.rate_create.quota()),
            play: RateLimiter::keyed(s.rate_play.quota()),
            upload: RateLimiter::keyed(s.rate_upload.quota()),
            read: RateLimiter::keyed(s.rate_read.quota()),
            helper: RateLimiter::keyed(s.rate_helper.quota()),
            rates: [
                s.rate_create,
                s.rate_play,
                s.rate_upload,
                s.rate_read,
                s.rate_helper,
            ],
            checks: AtomicU32::new(0),
        }
    }

    /// Takes one request of `kind` from `client`'s bucket, or refuses it.
    pub(crate) fn check(&self, kind: Kind, client: IpAddr) -> Result<(), ApiError> {
        let (limiter, rate) = match kind {
            Kind::Create => (&self.create, self.rates[0]),
            Kind::Play => (&self.play, self.rates[1]),
            Kind::Upload => (&self.upload, self.rates[2]),
            Kind::Read => (&self.read, self.rates[3]),
            Kind::Helper => (&self.helper, self.rates[4]),
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            for l in [
                &self.create,
                &self.play,
                &self.upload,
                &self.read,
                &self.helper,
            ] {
                l.retain_recent();
                l.shrink_to_fit();
            }
        }
        limiter.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            rate_limited(kind.what(), rate, wait)
        })
    }
}

fn rate_limited(what: &str, rate: Rate, wait: Duration) -> ApiError {
    let secs = wait.as_secs_f64().max(0.001);
    ApiError::new(
        "rate_limited",
        format!(
            "too many {what} from your address: at most {} at once, then one every {}; try again in {:.1} s",
            rate.burst,
            human_duration(rate.every),
            secs
        ),
    )
    .retry_after(wait)
}

fn human_duration(d: Duration) -> String {
    if d >= Duration::from_secs(1) {
        format!("{:.0} s", d.as_secs_f64())
    } else {
        format!("{:.0} ms", d.as_secs_f64() * 1000.0)
    }
}

/// One WebSocket's bucket: messages beyond it are refused without being
/// read further, and a client that keeps sending into an empty bucket is
/// disconnected.
pub(crate) struct ConnLimit {
    bucket: DefaultDirectRateLimiter,
    rate: Rate,
    /// Refusals in a row; reset by any accepted message.
    refused: u32,
}

/// Refusals in a row after which a connection is closed: a client that
/// reads its errors slows down long before.
pub(crate) const CONN_REFUSALS_BEFORE_CLOSE: u32 = 200;

impl ConnLimit {
    pub(crate) fn new(rate: Rate) -> ConnLimit {
        ConnLimit {
            bucket: RateLimiter::direct(rate.quota()),
            rate,
            refused: 0,
        }
    }

    /// Takes one message, or says why not; `Err(None)`: close the connection.
    pub(crate) fn check(&mut self) -> Result<(), Option<ApiError>> {
        match self.bucket.check() {
            Ok(()) => {
                self.refused = 0;
                Ok(())
            }
            Err(not_until) => {
                self.refused += 1;
                if self.refused > CONN_REFUSALS_BEFORE_CLOSE {
                    return Err(None);
                }
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                Err(Some(rate_limited(
                    "messages on this connection",
                    self.rate,
                    wait,
                )))
            }
        }
    }
}

/// One WebSocket's chat bucket: lines and reactions beyond it are refused
/// (`rate_limited`); the connection stays open (its other messages draw
/// on [`ConnLimit`] as before).
pub(crate) struct ChatLimit {
    bucket: DefaultDirectRateLimiter,
    rate: Rate,
}

impl ChatLimit {
    pub(crate) fn new(rate: Rate) -> ChatLimit {
        ChatLimit {
            bucket: RateLimiter::direct(rate.quota()),
            rate,
        }
    }

    /// Takes one chat message, or says when to try again.
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        self.bucket.check().map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            rate_limited("chat messages on this connection", self.rate, wait)
        })
    }
}

/// The client's address, by which it is metered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Client(pub IpAddr);

impl FromRequestParts<crate::hub::Hub> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        hub: &crate::hub::Hub,
    ) -> Result<Self, ApiError> {
        if let Some(name) = hub.settings().client_ip_header.as_deref() {
            // The proxy appends the address it saw: the last one is the
            // only one a client cannot forge (an unreadable one is not
            // skipped for an earlier one).
            let last = parts
                .headers
                .get_all(name)
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|a| a.trim().parse::<IpAddr>().ok());
            if let Some(ip) = last {
                return Ok(Client(metered(ip)));
            }
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .unwrap_or(IpAddr::from([0, 0, 0, 0]));
        Ok(Client(metered(peer)))
    }
}

/// The address a client is metered by: IPv4 as it is, IPv6 by its /64.
fn metered(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(rate: Rate) -> ClientLimits {
        let s = crate::Settings {
            rate_create: rate,
            ..crate::Settings::default()
        };
        ClientLimits::new(&s)
    }

    #[test]
    fn a_burst_passes_then_a_flood_is_refused_per_client() {
        let l = limits(Rate::per_minute(3, 1));
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        for _ in 0..3 {
            l.check(Kind::Create, a).unwrap();
        }
        let e = l.check(Kind::Create, a).unwrap_err();
        assert_eq!(e.code, "rate_limited");
        assert!(e.message.contains("games created"), "{}", e.message);
        assert!(e.retry_after.is_some());
        // Another client, and another kind of request, are not affected.
        l.check(Kind::Create, b).unwrap();
        l.check(Kind::Play, a).unwrap();
    }

    #[test]
    fn ipv6_clients_are_metered_by_their_64_prefix() {
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let two: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(metered(one), metered(two));
        assert_ne!(metered(one), metered(other));
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(metered(mapped), IpAddr::from([10, 1, 2, 3]));
    }

    #[test]
    fn chat_past_its_bucket_is_refused_with_when_to_come_back() {
        let c = ChatLimit::new(Rate::per_minute(3, 1));
        for _ in 0..3 {
            c.check().unwrap();
        }
        let e = c.check().unwrap_err();
        assert_eq!(e.code, "rate_limited");
        assert!(e.message.contains("chat messages"), "{}", e.message);
        assert!(e.retry_after.is_some());
    }

    #[test]
    fn a_connection_that_keeps_flooding_is_closed() {
        let mut c = ConnLimit::new(Rate::per_minute(2, 1));
        assert!(c.check().is_ok());
        assert!(c.check().is_ok());
        for _ in 0..CONN_REFUSALS_BEFORE_CLOSE {
            assert!(matches!(c.check(), Err(Some(_))));
        }
        assert!(matches!(c.check(), Err(None)));
    }
}
