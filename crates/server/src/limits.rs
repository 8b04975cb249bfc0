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
//! prefix (one household, one phone network customer). Behind a reverse
//! proxy the peer is the proxy: only when the operator names it
//! ([`crate::Connections::trusted_proxies`]) are its requests' clients read
//! from the headers it sets ([`client_address`]); never by default, since
//! any client can send those headers.

use crate::error::ApiError;
use axum::extract::ConnectInfo;
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
    /// Rate limits are on (`rate_limits`): off, [`ClientLimits::meter`]
    /// grants everything.
    on: bool,
}

/// How many checks pass between two sweeps of full (quiet) buckets: the
/// maps hold only clients seen lately, whatever the number of addresses.
const SWEEP_EVERY: u32 = 4096;

impl ClientLimits {
    pub(crate) fn new(s: &crate::Settings) -> ClientLimits {
        ClientLimits {
            create: RateLimiter::keyed(s.rates.rate_create.quota()),
            play: RateLimiter::keyed(s.rates.rate_play.quota()),
            upload: RateLimiter::keyed(s.rates.rate_upload.quota()),
            read: RateLimiter::keyed(s.rates.rate_read.quota()),
            helper: RateLimiter::keyed(s.rates.rate_helper.quota()),
            rates: [
                s.rates.rate_create,
                s.rates.rate_play,
                s.rates.rate_upload,
                s.rates.rate_read,
                s.rates.rate_helper,
            ],
            checks: AtomicU32::new(0),
            on: s.rates.rate_limits,
        }
    }

    /// As [`ClientLimits::check`], but always granted with rate limits off.
    pub(crate) fn meter(&self, kind: Kind, client: IpAddr) -> Result<(), ApiError> {
        if !self.on {
            return Ok(());
        }
        self.check(kind, client)
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
    ApiError::rate_limited(
        format!(
            "too many {what} from your address: at most {} at once, then one every {}; try again in {:.1} s",
            rate.burst,
            human_duration(rate.every),
            secs
        ),
        wait,
    )
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

/// Who sent a request, as the meters see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClientAddress {
    /// The client's metered address.
    pub ip: IpAddr,
    /// Whether the peer was a trusted proxy: the connection was not
    /// counted as the client's, the request is.
    pub via_proxy: bool,
}

/// The address a request came from: the peer's, or, when the peer is a
/// trusted proxy, the right-most address in `X-Forwarded-For` (or, with
/// none, `Forwarded`'s `for=`) that is not a trusted proxy itself:
/// each proxy appends the address it saw, so what lies left of the first
/// untrusted one may be forged. An entry that cannot be read stops the
/// walk, and the request is metered as the proxy's own.
pub(crate) fn client_address(
    headers: &axum::http::HeaderMap,
    extensions: &axum::http::Extensions,
    trusted: &[ipnet::IpNet],
) -> ClientAddress {
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_canonical())
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    if !is_trusted(trusted, peer) {
        return ClientAddress {
            ip: metered(peer),
            via_proxy: false,
        };
    }
    let mut chain = forwarded_chain(headers);
    let mut client = Some(peer);
    while let Some(entry) = chain.pop() {
        match entry {
            Some(ip) if is_trusted(trusted, ip) => client = Some(ip),
            Some(ip) => {
                client = Some(ip);
                break;
            }
            None => {
                client = None;
                break;
            }
        }
    }
    ClientAddress {
        ip: metered(client.unwrap_or(peer)),
        via_proxy: true,
    }
}

/// Whether `ip` is one of the operator's proxies.
pub(crate) fn is_trusted(trusted: &[ipnet::IpNet], ip: IpAddr) -> bool {
    let ip = ip.to_canonical();
    trusted.iter().any(|net| net.contains(&ip))
}

/// Most forwarded addresses read from one request: a chain longer than
/// any real one of proxies is read from its right end only.
const CHAIN_MAX: usize = 32;

/// The addresses a request passed through, left to right (None: an entry
/// that is not an address), from `X-Forwarded-For`, or from `Forwarded`
/// if there is no `X-Forwarded-For`.
fn forwarded_chain(headers: &axum::http::HeaderMap) -> Vec<Option<IpAddr>> {
    let mut chain: Vec<Option<IpAddr>> = Vec::new();
    let mut push = |entry: Option<IpAddr>| {
        if chain.len() == CHAIN_MAX {
            chain.remove(0);
        }
        chain.push(entry);
    };
    let xff = headers.get_all("x-forwarded-for");
    if xff.iter().next().is_some() {
        for v in xff {
            let Ok(v) = v.to_str() else {
                push(None);
                continue;
            };
            for entry in v.split(',') {
                push(
                    entry
                        .trim()
                        .parse::<IpAddr>()
                        .ok()
                        .map(|ip| ip.to_canonical()),
                );
            }
        }
        return chain;
    }
    for v in headers.get_all(axum::http::header::FORWARDED) {
        let Ok(v) = v.to_str() else {
            push(None);
            continue;
        };
        for element in v.split(',') {
            let node = element.split(';').find_map(|pair| {
                let (k, v) = pair.trim().split_once('=')?;
                k.trim().eq_ignore_ascii_case("for").then_some(v.trim())
            });
            // An element without `for=` says nothing of its client.
            if let Some(node) = node {
                push(forwarded_node(node));
            }
        }
    }
    chain
}

/// A `Forwarded` header's node (RFC 7239 §6): `192.0.2.60`,
/// `"192.0.2.60:8080"`, `"[2001:db8::1]:443"`; `unknown` and obfuscated
/// names are not addresses.
fn forwarded_node(node: &str) -> Option<IpAddr> {
    let node = node.trim_matches('"');
    if let Some(rest) = node.strip_prefix('[') {
        let (v6, _) = rest.split_once(']')?;
        return v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    // A bare IPv6 address (not as the RFC writes it, but unambiguous),
    // else an IPv4 address with or without its port.
    node.parse::<IpAddr>()
        .ok()
        .or_else(|| node.split_once(':')?.0.parse::<IpAddr>().ok())
        .map(|ip| ip.to_canonical())
}

/// The address a client is metered by: IPv4 as it is, IPv6 by its /64.
pub(crate) fn metered(ip: IpAddr) -> IpAddr {
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
    use crate::error::Code;

    fn limits(rate: Rate) -> ClientLimits {
        let s = crate::Settings {
            rates: crate::Rates {
                rate_create: rate,
                ..crate::Settings::default().rates
            },
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
        assert_eq!(e.code, Code::RateLimited);
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
        assert_eq!(e.code, Code::RateLimited);
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

    fn client_address(
        parts: &axum::http::request::Parts,
        trusted: &[ipnet::IpNet],
    ) -> ClientAddress {
        super::client_address(&parts.headers, &parts.extensions, trusted)
    }

    fn request(peer: &str, headers: &[(&str, &str)]) -> axum::http::request::Parts {
        let mut b = axum::http::Request::builder();
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        let (mut parts, _) = b.body(()).unwrap().into_parts();
        let peer = SocketAddr::new(peer.parse().unwrap(), 5000);
        parts.extensions.insert(ConnectInfo(peer));
        parts
    }

    fn nets(list: &[&str]) -> Vec<ipnet::IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarded_headers_are_read_only_from_a_trusted_proxy() {
        let xff = [("x-forwarded-for", "10.0.0.9")];
        // No proxy named: the header is not read, whoever sends it.
        let got = client_address(&request("127.0.0.1", &xff), &[]);
        assert_eq!(
            got,
            ClientAddress {
                ip: ip("127.0.0.1"),
                via_proxy: false
            }
        );
        // A proxy named, but this peer is not it.
        let got = client_address(&request("192.0.2.7", &xff), &nets(&["127.0.0.1/32"]));
        assert_eq!(
            got,
            ClientAddress {
                ip: ip("192.0.2.7"),
                via_proxy: false
            }
        );
        // From the proxy: the client it saw.
        let got = client_address(&request("127.0.0.1", &xff), &nets(&["127.0.0.1/32"]));
        assert_eq!(
            got,
            ClientAddress {
                ip: ip("10.0.0.9"),
                via_proxy: true
            }
        );
    }

    #[test]
    fn the_right_most_untrusted_forwarded_address_is_the_client() {
        let trusted = nets(&["127.0.0.1/32", "10.1.0.0/16"]);
        let from =
            |headers: &[(&str, &str)]| client_address(&request("127.0.0.1", headers), &trusted).ip;
        // What the client wrote itself (left) is skipped; inner proxies too.
        assert_eq!(
            from(&[("x-forwarded-for", "6.6.6.6, 203.0.113.5, 10.1.2.3")]),
            ip("203.0.113.5")
        );
        // Several header lines read as one list, in order.
        assert_eq!(
            from(&[
                ("x-forwarded-for", "6.6.6.6"),
                ("x-forwarded-for", "203.0.113.8")
            ]),
            ip("203.0.113.8")
        );
        // An unreadable entry is not skipped for a forgeable one left of it.
        assert_eq!(
            from(&[("x-forwarded-for", "203.0.113.5, garbage")]),
            ip("127.0.0.1")
        );
        // No header: the proxy itself.
        assert_eq!(from(&[]), ip("127.0.0.1"));
        // Forwarded, when there is no X-Forwarded-For.
        assert_eq!(
            from(&[(
                "forwarded",
                "for=6.6.6.6, for=\"[2001:db8:1:2::7]:443\";proto=https"
            )]),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            from(&[("forwarded", "for=198.51.100.4:8080;by=10.1.0.1")]),
            ip("198.51.100.4")
        );
        assert_eq!(from(&[("forwarded", "for=unknown")]), ip("127.0.0.1"));
        // IPv4-mapped peers are their IPv4 address.
        let got = client_address(
            &request("::ffff:127.0.0.1", &[("x-forwarded-for", "10.0.0.9")]),
            &trusted,
        );
        assert_eq!(got.ip, ip("10.0.0.9"));
    }
}
