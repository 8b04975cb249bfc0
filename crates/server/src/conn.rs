//! Accepting connections: a cap on how many are open, timeouts on requests
//! that arrive too slowly or not at all, TCP keepalive.
//!
//! `axum::serve` has none of these, so the server runs its own accept loop
//! over hyper's HTTP/1 connection (the same one `axum::serve` uses):
//!
//! - **cap**: at most `Connections::max_connections` connections are open at
//!   once (WebSockets included: the permit travels with the socket through
//!   the upgrade). Past it, a new connection is answered `503 busy` and
//!   closed as soon as it is accepted (reset without an answer when many
//!   are being refused at once), and one line says so at most every ten
//!   seconds.
//! - **per-address cap**: one client address (IPv6 by its /64) holds at
//!   most `Connections::max_connections_per_address` of them, never more
//!   than a quarter of the cap, so one address cannot take the room every
//!   other client needs. Past it, `429 rate_limited` and closed. A
//!   trusted proxy's connections are not counted here (it carries many
//!   clients): the `meter` middleware counts each request's forwarded
//!   client instead, for the request's life (a WebSocket's whole life).
//! - **header timeout**: a connection waiting for a request head (a new
//!   one, or a keep-alive one after its last response) must deliver the
//!   whole head within `Connections::header_timeout`, or it is closed. This is
//!   also the idle keep-alive timeout.
//! - **body timeout**: a request body must arrive whole within
//!   `Connections::body_timeout` of the request head; a late one is refused
//!   with `too_slow` (408) and the connection closed.
//! - **write timeout**: a write that makes no progress for
//!   `Connections::write_timeout` (a client that sends requests but does
//!   not read the answers) fails, and hyper closes the connection and
//!   drops the answer it held. Progress restarts the clock, as nginx's
//!   `send_timeout` does: what is bounded is the memory held for a
//!   reader that stopped, not the time a slow one takes.
//! - **TCP keepalive** on every accepted socket, so a peer that vanished
//!   (a phone off the network) is noticed even on a connection with
//!   nothing to send. WebSockets have their own pings (`ws/mod.rs`).

use crate::error::Code;
use crate::Settings;
use axum::Router;
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// File descriptors kept free for the database, word lists and the like
/// when the connection cap is sized from the process's file limit.
const FD_RESERVE: u64 = 64;

/// Raises the soft limit on open files to the hard limit (where the
/// system allows) and returns the soft limit now in force, if known.
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct we own; setrlimit reads it.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
            return None;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            // SAFETY: as above.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
                lim.rlim_cur = lim.rlim_max;
            }
        }
        // `rlim_t` is u64 on Linux, not on every Unix.
        #[allow(clippy::unnecessary_cast)]
        Some(lim.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The connection cap in force: the configured one, lowered to three
/// quarters of the file limit (less a reserve) where that is smaller, so
/// that connections alone can never exhaust the process's files.
pub(crate) fn effective_cap(configured: usize, fd_limit: Option<u64>) -> usize {
    let by_fds = fd_limit
        .map(|n| (n.saturating_sub(FD_RESERVE) / 4 * 3) as usize)
        .unwrap_or(usize::MAX);
    configured.min(by_fds).max(1)
}

/// The per-address cap in force: the configured one, at most a quarter
/// of the connection cap (at least one), so that the cap always keeps a
/// reserve that one address cannot take.
pub(crate) fn per_address_cap(configured: usize, cap: usize) -> usize {
    configured.min(cap / 4).max(1)
}

/// The connections open now, and each address's share of them.
pub(crate) struct Open {
    permits: Arc<Semaphore>,
    cap: usize,
    by_address: Arc<AddressCounts>,
}

impl Open {
    pub(crate) fn new(cap: usize, per_address: usize) -> Arc<Open> {
        Arc::new(Open {
            permits: Arc::new(Semaphore::new(cap)),
            cap,
            by_address: Arc::new(AddressCounts {
                counts: Mutex::new(HashMap::new()),
                cap: per_address,
            }),
        })
    }

    /// Connections open now (WebSockets included).
    pub(crate) fn count(&self) -> usize {
        self.cap - self.permits.available_permits()
    }
}

/// How many connections (or, behind a trusted proxy, requests) each client
/// address holds: only addresses holding one are kept.
pub(crate) struct AddressCounts {
    counts: Mutex<HashMap<IpAddr, usize>>,
    cap: usize,
}

impl AddressCounts {
    /// A place for `ip`, or None if it holds its cap already.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        // The cap is at least one, so a refused address already has an
        // entry: none is left at zero.
        let n = counts.entry(ip).or_insert(0);
        if *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            counts: self.clone(),
            ip,
        })
    }

    /// The most one address may hold.
    pub(crate) fn cap(&self) -> usize {
        self.cap
    }
}

/// One connection's (or request's) place in its address's count, given
/// back when dropped.
pub(crate) struct AddressSlot {
    counts: Arc<AddressCounts>,
    ip: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// What the accept loop tells every request about its connection: the
/// per-address counts (the `meter` middleware counts a trusted proxy's
/// clients there).
#[derive(Clone)]
pub(crate) struct ConnCounts(pub Arc<AddressCounts>);

/// The refusal of a connection the server has no room for, as raw HTTP
/// (no request has been read: the answer goes out first).
fn refusal(status: &str, e: &crate::ApiError) -> Vec<u8> {
    let body = e.body().to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n\
         x-content-type-options: nosniff\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Refusals answered at once; past them a refused connection is reset
/// without an answer (a flood must not cost more than the cap saves).
const REFUSALS_AT_ONCE: usize = 64;

/// How long a refused connection's request is read and dropped after the
/// answer (closing a socket with unread bytes resets it, and the reset
/// can overtake the answer).
const REFUSAL_DRAIN: Duration = Duration::from_secs(1);

/// Answers `tcp` with `answer` and closes it, within [`REFUSALS_AT_ONCE`];
/// past them resets it.
fn refuse(tcp: TcpStream, answer: Vec<u8>, refusing: &Arc<Semaphore>) {
    let Ok(permit) = refusing.clone().try_acquire_owned() else {
        // Closed at once: a reset, so the client does not wait.
        let _ = socket2::SockRef::from(&tcp).set_linger(Some(Duration::ZERO));
        drop(tcp);
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let mut tcp = tcp;
        // A fresh socket's send buffer takes the whole answer at once.
        let _ = tcp.try_write(&answer);
        let _ = socket2::SockRef::from(&tcp).shutdown(std::net::Shutdown::Write);
        let mut buf = [0u8; 1024];
        let drain = async {
            let mut left = 64 * 1024usize;
            while left > 0 {
                match tcp.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => left = left.saturating_sub(n),
                }
            }
        };
        let _ = tokio::time::timeout(REFUSAL_DRAIN, drain).await;
    });
}

/// Serves `app` on `listener` until `stop` turns true.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    settings: Settings,
    open: Arc<Open>,
    mut stop: watch::Receiver<bool>,
) {
    let permits = open.permits.clone();
    let cap = open.cap;
    let by_address = open.by_address.clone();
    let per_address = settings.rates.rate_limits;
    let trusted = settings.connections.trusted_proxies.clone();
    let refusing = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let refused = Refusals::default();
    let refused_address = Refusals::default();
    let accept_errors = Refusals::default();
    let header_timeout = settings.connections.header_timeout;
    let body_timeout = settings.connections.body_timeout;
    let write_timeout = settings.connections.write_timeout;
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(settings.connections.tcp_keepalive)
        .with_interval(
            settings
                .connections
                .tcp_keepalive
                .div_f64(4.0)
                .max(Duration::from_secs(1)),
        );
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = stop.changed() => break,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of files (or another passing failure): say so, and
                // give connections a moment to close before trying again.
                if !is_connection_error(&e) {
                    accept_errors
                        .note(|n| tracing::warn!("cannot accept connections ({n} failures): {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            refused.note(|n| {
                tracing::warn!(
                    "{cap} connections open, the most allowed: refusing new ones \
                     ({n} refused since the last such line; see max_connections)"
                )
            });
            let e = crate::ApiError::new(
                Code::Busy,
                "the server has as many connections open as it allows; try again in a moment",
            );
            refuse(tcp, refusal("503 Service Unavailable", &e), &refusing);
            continue;
        };
        let client = crate::limits::metered(peer.ip());
        let proxy = crate::limits::is_trusted(&trusted, peer.ip());
        let slot = if per_address && !proxy {
            match by_address.take(client) {
                Some(slot) => Some(slot),
                None => {
                    let at_most = by_address.cap();
                    refused_address.note(|n| {
                        tracing::warn!(
                            "{client} holds {at_most} connections, the most one address may: \
                             refusing its new ones ({n} refused since the last such line; \
                             see max_connections_per_address)"
                        )
                    });
                    drop(permit);
                    refuse(
                        tcp,
                        refusal("429 Too Many Requests", &too_many_connections(at_most)),
                        &refusing,
                    );
                    continue;
                }
            }
        } else {
            None
        };
        let sock = socket2::SockRef::from(&tcp);
        let _ = sock.set_tcp_keepalive(&keepalive);
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(Counted {
            tcp,
            _permit: permit,
            _slot: slot,
            write_limit: write_timeout,
            stalled: None,
        });
        // Only a proxy's requests are counted per request (`meter`).
        let counts = proxy.then(|| ConnCounts(by_address.clone()));
        let service = app
            .clone()
            .map_request(move |req: axum::http::Request<Incoming>| {
                let mut req =
                    req.map(|body| axum::body::Body::new(Deadline::new(body, body_timeout)));
                // The peer, by which the client is metered (`crate::limits`).
                req.extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                if let Some(counts) = &counts {
                    req.extensions_mut().insert(counts.clone());
                }
                req
            });
        let service = TowerToHyperService::new(service);
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(io, service).with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stop.changed() => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(header_timeout, conn).await;
        });
    }
}

/// The refusal of one address's connection (or, behind a trusted proxy,
/// request) past its cap.
pub(crate) fn too_many_connections(at_most: usize) -> crate::ApiError {
    crate::ApiError::rate_limited(
        format!(
            "too many connections from your address: at most {at_most} open at once; \
             close some (other tabs, other games) and try again"
        ),
        Duration::from_secs(1),
    )
}

/// Errors of one connection that `accept` reports but that say nothing
/// about the listener (the peer gave up before we took it).
fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

/// Counts events and lets one log line through every ten seconds.
#[derive(Default)]
struct Refusals {
    count: AtomicU64,
    last: Mutex<Option<Instant>>,
}

impl Refusals {
    const EVERY: Duration = Duration::from_secs(10);

    fn note(&self, log: impl FnOnce(u64)) {
        let n = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_none_or(|t| t.elapsed() >= Self::EVERY) {
            *last = Some(Instant::now());
            self.count.store(0, Ordering::Relaxed);
            log(n);
        }
    }
}

/// An accepted socket holding its place under the cap until it closes
/// (after an upgrade too: hyper hands this same object to the WebSocket).
struct Counted {
    tcp: TcpStream,
    _permit: OwnedSemaphorePermit,
    _slot: Option<AddressSlot>,
    /// How long a write may make no progress.
    write_limit: Duration,
    /// Set when a write found the socket full; cleared by any progress.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Counted {
    /// A write found the socket full: pending until the client reads, an
    /// error once it has not for the write limit.
    fn stall<T>(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<T>> {
        let limit = self.write_limit;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the client read nothing for {} s", limit.as_secs_f64()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progress<T>(
        &mut self,
        r: Poll<std::io::Result<T>>,
        cx: &mut Context<'_>,
    ) -> Poll<std::io::Result<T>> {
        match r {
            Poll::Pending => self.stall(cx),
            done => {
                self.stalled = None;
                done
            }
        }
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.tcp).poll_write(cx, buf);
        this.progress(r, cx)
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.tcp).poll_write_vectored(cx, bufs);
        this.progress(r, cx)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// The error a request body gives when it has not arrived in time
/// (the JSON body extractor turns it into `too_slow`).
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {} s", .0.as_secs_f64())]
pub(crate) struct BodyTimeout(pub Duration);

/// A request body that must arrive whole within a time limit of the
/// request head. The timer is set only when the body is read, so bodiless
/// requests cost nothing.
struct Deadline {
    inner: Incoming,
    start: tokio::time::Instant,
    limit: Duration,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Deadline {
    fn new(inner: Incoming, limit: Duration) -> Self {
        Deadline {
            inner,
            start: tokio::time::Instant::now(),
            limit,
            sleep: None,
        }
    }
}

impl HttpBody for Deadline {
    type Data = hyper::body::Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|r| r.map_err(Into::into)));
        }
        let (start, limit) = (this.start, this.limit);
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(start + limit)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout(limit))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Whether `e` (from reading a request body) is a [`BodyTimeout`].
pub(crate) fn is_body_timeout(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if err.is::<BodyTimeout>() {
            return true;
        }
        cur = err.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_never_holds_more_than_a_quarter_of_the_cap() {
        assert_eq!(per_address_cap(32, 16_384), 32);
        assert_eq!(per_address_cap(32, 100), 25);
        assert_eq!(per_address_cap(32, 4), 1);
        assert_eq!(per_address_cap(0, 100), 1);
    }

    #[test]
    fn an_address_gets_its_places_back_as_they_are_dropped() {
        let open = Open::new(100, 2);
        let a = IpAddr::from([10, 0, 0, 1]);
        let b = IpAddr::from([10, 0, 0, 2]);
        let one = open.by_address.take(a).unwrap();
        let two = open.by_address.take(a).unwrap();
        assert!(open.by_address.take(a).is_none());
        let other = open.by_address.take(b).unwrap();
        drop(one);
        let three = open.by_address.take(a).unwrap();
        drop((two, three, other));
        // Nothing is kept for addresses that hold nothing.
        assert!(open.by_address.counts.lock().unwrap().is_empty());
    }
}
