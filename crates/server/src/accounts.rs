//! Optional accounts: username + password, sessions in a cookie, ratings
//! and history (see `docs/api.md` "Accounts").
//!
//! Guests play as before (a display name, a player key, seat tokens); an
//! account only adds ownership: a seat taken while logged in (or claimed
//! later with its token) belongs to the account, so its games follow the
//! player to any browser, and games between accounts can be rated.
//!
//! - Passwords are hashed with Argon2id through the `argon2` crate at its
//!   default parameters (version 0x13, 19 MiB of memory, 2 passes, 1 lane:
//!   the OWASP minimum), a random 16-byte salt each, stored as a PHC
//!   string. At most [`HASHING_AT_ONCE`] hashes run at once (each takes
//!   19 MiB), at most [`HASHING_ADMITTED`] wait; beyond that `busy`.
//! - A login makes a session: 32 random bytes, sent once to the browser in
//!   the `parlor_session` cookie (HttpOnly, SameSite=Lax, Path=/, 30 days,
//!   Secure when the page is served over https), stored only as its
//!   SHA-256.
//! - Cross-site requests: every POST under `/api/account/` and every POST
//!   that carries the session cookie must come from this site: a
//!   `Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin`
//!   whose host is not the request's `Host`, is refused (`cross_site`,
//!   403). Other POSTs are authorised by seat tokens in their bodies, which
//!   another site cannot know.
//! - Login throttling (see [`Accounts::throttle_login`]), kept in this
//!   process's memory (with several processes behind a load balancer each
//!   keeps its own count): per client address, 20 tries at once then 10 a
//!   minute (sign-ups included); per username *and* address, 5 at once
//!   then one every 20 s; and per username, from all addresses together,
//!   50 wrong passwords at once then one every 10 s, past which only the
//!   addresses that gave a wrong password for it in the last 10 minutes
//!   are refused. So wrong passwords from elsewhere never lock an
//!   account's owner out: a correct password from an address that has
//!   not failed is not refused.

use crate::error::ApiError;
use crate::error::Code;
use crate::limits::Rate;
use crate::storage::{AccountRow, Store, Write};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::http::{header, HeaderMap, HeaderValue};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, RateLimiter};
use rand::RngCore;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The session cookie's name.
pub const COOKIE: &str = "parlor_session";
/// How long a session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 24 * 3600);
/// Username length bounds, in characters of A-Z a-z 0-9 _ -.
pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 3..=24;
/// Password length bounds, in characters (what a person counts as they
/// type), checked before any hashing: at most four bytes a character.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
/// Password hashes computed at once.
pub const HASHING_AT_ONCE: usize = 2;
/// Password checks admitted (running or waiting).
pub const HASHING_ADMITTED: usize = 16;
/// Login tries for one username from one client address.
pub const PER_USERNAME_AND_CLIENT: Rate = Rate::per_minute(5, 3);
/// Wrong passwords for one username from every address together, before
/// the addresses that gave one are refused (well above
/// [`PER_USERNAME_AND_CLIENT`]: it takes many addresses to reach).
pub const PER_USERNAME: Rate = Rate::per_minute(50, 6);
/// Login and sign-up tries per client address.
pub const PER_CLIENT: Rate = Rate::per_minute(20, 10);
/// How long a wrong password counts against the address that gave it,
/// once its username's [`PER_USERNAME`] bucket is empty.
pub const FAILURE_MEMORY: Duration = Duration::from_secs(600);
/// Most (username, address) failures remembered: wrong passwords come
/// no faster than the hashing slots check them (a few hundred a second at
/// most), so this holds the memory's worth; past it new ones are not
/// noted until old ones expire.
const FAILURES_MAX: usize = 200_000;

/// Throttles and hashing slots of one process.
pub(crate) struct Accounts {
    hashing: Arc<Semaphore>,
    admitted: Arc<Semaphore>,
    by_pair: DefaultKeyedRateLimiter<(String, IpAddr)>,
    by_name: DefaultKeyedRateLimiter<String>,
    by_client: DefaultKeyedRateLimiter<IpAddr>,
    failures: Mutex<Failures>,
    checks: AtomicU32,
}

/// Who gave wrong passwords lately, and which usernames' [`PER_USERNAME`]
/// buckets are empty (until when).
#[derive(Default)]
struct Failures {
    /// When each (lower-case username, address) last gave a wrong password.
    last: HashMap<(String, IpAddr), Instant>,
    /// Usernames whose bucket of wrong passwords is empty, until when.
    besieged: HashMap<String, Instant>,
}

impl Failures {
    fn sweep(&mut self, now: Instant) {
        self.last
            .retain(|_, at| now.duration_since(*at) < FAILURE_MEMORY);
        self.besieged.retain(|_, until| *until > now);
    }
}

fn refuse_login(what: &str, rate: Rate, wait: Duration) -> ApiError {
    ApiError::rate_limited(
        format!(
            "too many login attempts {what}: at most {} at once, then one every {} s; try again in {:.0} s",
            rate.burst,
            rate.every.as_secs(),
            wait.as_secs_f64().ceil().max(1.0)
        ),
        wait,
    )
}

impl Accounts {
    pub(crate) fn new() -> Accounts {
        Accounts {
            hashing: Arc::new(Semaphore::new(HASHING_AT_ONCE)),
            admitted: Arc::new(Semaphore::new(HASHING_ADMITTED)),
            by_pair: RateLimiter::keyed(PER_USERNAME_AND_CLIENT.quota()),
            by_name: RateLimiter::keyed(PER_USERNAME.quota()),
            by_client: RateLimiter::keyed(PER_CLIENT.quota()),
            failures: Mutex::new(Failures::default()),
            checks: AtomicU32::new(0),
        }
    }

    fn sweep_now_and_then(&self) {
        if self.checks.fetch_add(1, Ordering::Relaxed) % 1024 == 1023 {
            self.by_pair.retain_recent();
            self.by_name.retain_recent();
            self.by_client.retain_recent();
            self.failures().sweep(Instant::now());
        }
    }

    fn failures(&self) -> std::sync::MutexGuard<'_, Failures> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes one try from the client's bucket (a sign-up).
    pub(crate) fn throttle(&self, client: IpAddr) -> Result<(), ApiError> {
        self.sweep_now_and_then();
        self.by_client.check_key(&client).map_err(|n| {
            refuse_login(
                "from your address",
                PER_CLIENT,
                n.wait_time_from(DefaultClock::default().now()),
            )
        })
    }

    /// Takes one login try for `username` from `client`, before any
    /// hashing: from the client's bucket, then the (username, client)
    /// pair's; and refuses a client that gave a wrong password for
    /// `username` lately while the username's bucket of wrong passwords
    /// (from everywhere) is empty. A client that has not failed for it is
    /// never refused for what other addresses did.
    pub(crate) fn throttle_login(&self, client: IpAddr, username: &str) -> Result<(), ApiError> {
        self.throttle(client)?;
        let name = username.to_lowercase();
        self.by_pair
            .check_key(&(name.clone(), client))
            .map_err(|n| {
                refuse_login(
                    "for this account from your address",
                    PER_USERNAME_AND_CLIENT,
                    n.wait_time_from(DefaultClock::default().now()),
                )
            })?;
        let now = Instant::now();
        let failures = self.failures();
        let until = failures.besieged.get(&name).filter(|u| **u > now);
        let failed_here = failures
            .last
            .get(&(name.clone(), client))
            .is_some_and(|at| now.duration_since(*at) < FAILURE_MEMORY);
        if let (Some(until), true) = (until, failed_here) {
            return Err(refuse_login(
                "for this account from many addresses, yours among them",
                PER_USERNAME,
                until.duration_since(now),
            ));
        }
        Ok(())
    }

    /// Notes a wrong password for `username` from `client`.
    pub(crate) fn failed_login(&self, client: IpAddr, username: &str) {
        let name = username.to_lowercase();
        let now = Instant::now();
        let empty = self
            .by_name
            .check_key(&name)
            .err()
            .map(|n| n.wait_time_from(DefaultClock::default().now()));
        let mut failures = self.failures();
        if failures.last.len() >= FAILURES_MAX {
            failures.sweep(now);
        }
        if failures.last.len() < FAILURES_MAX {
            failures.last.insert((name.clone(), client), now);
        }
        if let Some(wait) = empty {
            failures.besieged.insert(name, now + wait);
        }
    }

    /// Runs `job` (hashing) on a blocking thread within the hashing slots.
    async fn hash_job<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Ok(_admitted) = self.admitted.clone().try_acquire_owned() else {
            return Err(ApiError::new(
                Code::Busy,
                "too many logins at once; try again in a moment",
            ));
        };
        let permit = self
            .hashing
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::gone())?;
        tokio::task::spawn_blocking(move || {
            let r = job();
            drop(permit);
            r
        })
        .await
        .map_err(|e| ApiError::new(Code::Internal, e.to_string()))
    }
}

/// Checks a username: [`USERNAME_LEN`] characters of A-Z a-z 0-9 _ -.
pub fn check_username(u: &str) -> Result<(), ApiError> {
    let ok = USERNAME_LEN.contains(&u.len())
        && u.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_json(format!(
            "username: {} to {} characters of A-Z a-z 0-9 _ -",
            USERNAME_LEN.start(),
            USERNAME_LEN.end()
        )))
    }
}

/// Checks a new password's length: [`PASSWORD_LEN`] characters.
pub fn check_password(p: &str) -> Result<(), ApiError> {
    let n = password_chars(p);
    if PASSWORD_LEN.contains(&n) {
        Ok(())
    } else {
        Err(ApiError::bad_json(format!(
            "password: {} to {} characters; this one has {}",
            PASSWORD_LEN.start(),
            PASSWORD_LEN.end(),
            if n > *PASSWORD_LEN.end() {
                format!("more than {}", PASSWORD_LEN.end())
            } else {
                n.to_string()
            }
        )))
    }
}

/// A password's length in characters, counted no further than one past
/// [`PASSWORD_LEN`]'s end (a megabyte costs no more than a long password).
fn password_chars(p: &str) -> usize {
    p.chars().take(PASSWORD_LEN.end() + 1).count()
}

/// The PHC string of `password`'s Argon2id hash with a fresh salt.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches the stored PHC string.
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash checked for usernames nobody has, so that a login for an
/// unknown name takes as long as one for a known name.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_password("decoy password").unwrap_or_default())
}

/// 32 random bytes in hex.
fn new_session_token() -> String {
    let mut b = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut b);
    crate::hex(&b)
}

/// The SHA-256 of a session token in hex: what the database keeps.
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    crate::hex(&sha2::Sha256::digest(token.as_bytes()))
}

/// The session token in the request's cookies, if any (well formed).
pub(crate) fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The logged-in account's username, if the request carries a live session.
pub(crate) async fn current(
    store: &Store,
    headers: &HeaderMap,
) -> Result<Option<String>, ApiError> {
    let Some(token) = session_token(headers) else {
        return Ok(None);
    };
    let hash = token_hash(&token);
    let now = crate::now_ms();
    Ok(store.read(move |s| s.session(&hash, now)).await?)
}

/// As [`current`], but an account is required.
pub(crate) async fn required(store: &Store, headers: &HeaderMap) -> Result<String, ApiError> {
    current(store, headers).await?.ok_or_else(|| {
        ApiError::new(
            Code::LoginRequired,
            "log in first: this needs an account (POST /api/account/login)",
        )
    })
}

/// Whether the page was served over https (directly or by a proxy that
/// says so): the cookie is then marked Secure.
fn https(headers: &HeaderMap) -> bool {
    let h = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("");
    h("x-forwarded-proto").eq_ignore_ascii_case("https") || h("origin").starts_with("https://")
}

fn set_cookie(value: &str, max_age: u64, secure: bool) -> HeaderValue {
    let s = format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{}",
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&s).unwrap_or(HeaderValue::from_static(""))
}

/// Refuses a state-changing request that another site made the browser
/// send (see the module's documentation).
pub(crate) fn same_site(headers: &HeaderMap) -> Result<(), ApiError> {
    let refuse = || {
        ApiError::new(
            Code::CrossSite,
            "this request came from another site; use parlor's own pages",
        )
    };
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if !matches!(site, "same-origin" | "none") {
            return Err(refuse());
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().map_err(|_| refuse())?;
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
        if origin == "null" || origin_host != host {
            return Err(refuse());
        }
    }
    Ok(())
}

/// Signs up: the account is made and logged in. Answers the account and
/// the session cookie.
pub(crate) async fn register(
    store: &Store,
    accounts: &Accounts,
    headers: &HeaderMap,
    client: IpAddr,
    username: String,
    password: String,
) -> Result<(String, HeaderValue), ApiError> {
    check_username(&username)?;
    check_password(&password)?;
    accounts.throttle(client)?;
    let name = username.clone();
    if store.read(move |s| s.account(&name)).await?.is_some() {
        return Err(username_taken(&username));
    }
    let name = username.clone();
    if let Some(like) = store.read(move |s| s.account_like(&name)).await? {
        return Err(username_too_like(&username, Some(&like)));
    }
    let phc = accounts
        .hash_job(move || hash_password(&password))
        .await?
        .map_err(|e| ApiError::new(Code::Internal, format!("cannot hash the password: {e}")))?;
    let taken = store
        .try_write(Write::NewAccount {
            account: AccountRow {
                username: username.clone(),
                password_hash: phc,
                created_ms: crate::now_ms(),
            },
        })
        .await?;
    if !taken {
        // Made meanwhile by another sign-up: the same name, or one too like it.
        let name = username.clone();
        if store.read(move |s| s.account(&name)).await?.is_some() {
            return Err(username_taken(&username));
        }
        return Err(username_too_like(&username, None));
    }
    let cookie = new_session(store, headers, &username).await?;
    Ok((username, cookie))
}

fn username_taken(u: &str) -> ApiError {
    ApiError::new(
        Code::UsernameTaken,
        format!("the username {u} is taken (names are compared ignoring case); choose another"),
    )
}

fn username_too_like(u: &str, like: Option<&str>) -> ApiError {
    ApiError::new(
        Code::UsernameTaken,
        format!(
            "the username {u} looks too much like {}: letters that look alike (l, I and 1; \
             O and 0; rn and m) count as the same, as does case; choose another",
            match like {
                Some(like) => format!("the existing account {like}"),
                None => "an existing account".to_string(),
            }
        ),
    )
}

/// Logs in. Answers the account's username (as its owner spelled it) and
/// the session cookie.
pub(crate) async fn login(
    store: &Store,
    accounts: &Accounts,
    headers: &HeaderMap,
    client: IpAddr,
    username: String,
    password: String,
) -> Result<(String, HeaderValue), ApiError> {
    // Bounded before anything else: no hashing of a megabyte.
    check_username(&username)?;
    if password_chars(&password) > *PASSWORD_LEN.end() {
        return Err(wrong_password());
    }
    accounts.throttle_login(client, &username)?;
    let name = username.clone();
    let account = store.read(move |s| s.account(&name)).await?;
    let phc = account
        .as_ref()
        .map(|a| a.password_hash.clone())
        .unwrap_or_else(|| decoy_hash().to_string());
    let ok = accounts
        .hash_job(move || verify_password(&password, &phc))
        .await?;
    let Some(account) = account.filter(|_| ok) else {
        accounts.failed_login(client, &username);
        return Err(wrong_password());
    };
    let cookie = new_session(store, headers, &account.username).await?;
    Ok((account.username, cookie))
}

fn wrong_password() -> ApiError {
    ApiError::new(
        Code::WrongPassword,
        "wrong username or password (from one address, 5 tries for a username, then one every 20 s)",
    )
}

async fn new_session(
    store: &Store,
    headers: &HeaderMap,
    username: &str,
) -> Result<HeaderValue, ApiError> {
    let token = new_session_token();
    store
        .write(Write::NewSession {
            token_hash: token_hash(&token),
            username: username.to_string(),
            expires_ms: crate::now_ms() + SESSION_TTL.as_millis() as i64,
        })
        .await?;
    Ok(set_cookie(&token, SESSION_TTL.as_secs(), https(headers)))
}

/// Logs out: the session ends; answers the cookie that clears it.
pub(crate) async fn logout(store: &Store, headers: &HeaderMap) -> Result<HeaderValue, ApiError> {
    if let Some(token) = session_token(headers) {
        store
            .write(Write::EndSession {
                token_hash: token_hash(&token),
            })
            .await?;
    }
    Ok(set_cookie("", 0, https(headers)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::username_skeleton;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        // Salted: the same password hashes differently each time.
        assert_ne!(h, hash_password("correct horse").unwrap());
    }

    #[test]
    fn usernames_and_passwords_are_bounded() {
        assert!(check_username("bea_2").is_ok());
        assert!(check_username("ab").is_err());
        assert!(check_username(&"a".repeat(25)).is_err());
        assert!(check_username("bea smith").is_err());
        assert!(check_username("<script>").is_err());
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"x".repeat(129)).is_err());
    }

    #[test]
    fn usernames_that_look_alike_have_one_skeleton() {
        let key = username_skeleton("Lilly0");
        for u in ["LiIly0", "LiIIy0", "LilIyO", "lilly0", "Li1ly0", "Lilly0"] {
            assert_eq!(username_skeleton(u), key, "{u}");
        }
        // Not a look-alike (a capital I is, a small i is not), but the same
        // name ignoring case: the username's own key refuses it.
        assert_ne!(username_skeleton("LILLY0"), key);
        assert_eq!(username_skeleton("modern"), username_skeleton("rnodern"));
        assert_eq!(username_skeleton("Mo"), username_skeleton("rno"));
        for u in ["Lily0", "Lilly8", "Billy0", "Ann", "Bea"] {
            assert_ne!(username_skeleton(u), key, "{u}");
        }
    }

    #[test]
    fn a_passwords_length_is_counted_in_characters_as_its_error_says() {
        // Eight bytes, four characters: too short, and the error says so
        // in the unit it counts in.
        let e = check_password("éééé").unwrap_err();
        assert_eq!(
            e.message, "password: 8 to 128 characters; this one has 4",
            "{e:?}"
        );
        // 128 characters of two bytes each: within the bound.
        assert!(check_password(&"é".repeat(128)).is_ok());
        assert!(check_password(&"🔑".repeat(8)).is_ok());
        let e = check_password(&"é".repeat(129)).unwrap_err();
        assert!(e.message.ends_with("this one has more than 128"), "{e:?}");
    }

    #[test]
    fn the_session_cookie_is_read_among_others_and_checked() {
        let mut h = HeaderMap::new();
        let t = "a".repeat(64);
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("x=1; {COOKIE}={t}; y=2")).unwrap(),
        );
        assert_eq!(session_token(&h), Some(t));
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{COOKIE}=short")).unwrap(),
        );
        assert_eq!(session_token(&h), None);
    }

    #[test]
    fn cross_site_requests_are_refused() {
        let mut h = HeaderMap::new();
        assert!(same_site(&h).is_ok(), "a client that is not a browser");
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(same_site(&h).is_ok());
        h.insert(header::ORIGIN, HeaderValue::from_static("http://evil.test"));
        assert_eq!(same_site(&h).unwrap_err().code, Code::CrossSite);
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert_eq!(same_site(&h).unwrap_err().code, Code::CrossSite);
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(same_site(&h).is_ok());
    }

    #[test]
    fn many_addresses_failing_shut_out_only_the_addresses_that_failed() {
        let a = Accounts::new();
        let ip = |n: u32| IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + n));
        // A spread attack: many addresses, a few wrong passwords each,
        // each within its own (username, address) budget.
        let mut n = 0;
        for _ in 0..=PER_USERNAME.burst {
            n += 1;
            a.throttle_login(ip(n), "Cat").unwrap();
            a.failed_login(ip(n), "Cat");
        }
        // The username's bucket ran dry: an address that failed is
        // refused even with room in its own budget ...
        let e = a.throttle_login(ip(n), "cat").unwrap_err();
        assert_eq!(e.code, Code::RateLimited);
        assert!(e.message.contains("many addresses"), "{}", e.message);
        assert!(e.retry_after.is_some());
        // ... an address that has not failed is not (its password decides),
        a.throttle_login(ip(100_000), "cat").unwrap();
        // and other accounts are not touched.
        a.throttle_login(ip(1), "dog").unwrap();
    }

    #[test]
    fn one_address_gets_five_tries_a_username_then_one_every_20_s() {
        let a = Accounts::new();
        let here = IpAddr::from([10, 0, 0, 1]);
        for _ in 0..PER_USERNAME_AND_CLIENT.burst {
            a.throttle_login(here, "cat").unwrap();
            a.failed_login(here, "cat");
        }
        let e = a.throttle_login(here, "cat").unwrap_err();
        assert!(e.message.contains("from your address"), "{}", e.message);
        // Another username from the same address, and the same username
        // from another address, are not affected.
        a.throttle_login(here, "dog").unwrap();
        a.throttle_login(IpAddr::from([10, 0, 0, 2]), "cat")
            .unwrap();
    }
}
