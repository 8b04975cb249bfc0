//! SQLite's own page cache, less one walk per commit.
//!
//! At the end of every transaction SQLite drops the cached pages past the
//! end of the database (`xTruncate`). Its cache skips that when no page
//! numbered that high was ever cached, but a B-tree split that puts its
//! new pages in ascending order swaps two pages through a temporary
//! number past a gigabyte (the lock-byte page, never a real page), and
//! from then on the cache believes a page that high may be there: the
//! next truncate walks its whole hash table. The writer's inserts land on
//! pages spread over the actions index, splits are frequent, and that
//! walk was a tenth of the writer's time (the 8 MiB cache has ~2,000
//! buckets to visit).
//!
//! This wraps SQLite's cache and remembers the highest page number really
//! cached (fetched, or moved to by a rekey other than that swap's); a
//! truncate past it has nothing to drop and is skipped. Every other call,
//! and every truncate that may drop a page, goes to SQLite's cache as
//! before.

use rusqlite::ffi;
use std::os::raw::{c_int, c_uint, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// SQLite's own cache methods, called by ours.
struct Inner(ffi::sqlite3_pcache_methods2);

// The methods are plain function pointers and SQLite's own argument
// (null for its built-in cache): shared by every thread, as SQLite does.
unsafe impl Send for Inner {}
unsafe impl Sync for Inner {}

/// SQLite's methods, set before ours are handed to SQLite.
static OWN: OnceLock<Inner> = OnceLock::new();
/// Whether ours are in place.
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// Truncates skipped that SQLite's cache would have answered with a walk
/// of its whole table (it believed a page that high might be there).
static WALKS_SAVED: AtomicU64 = AtomicU64::new(0);

/// The byte SQLite locks files at (`PENDING_BYTE`): the page holding it is
/// never a real page, and it is the number balance's swap borrows.
const PENDING_BYTE: u64 = 0x4000_0000;

/// One cache: SQLite's, and what we know of its page numbers.
struct Cache {
    inner: *mut ffi::sqlite3_pcache,
    /// No page numbered above this is in the cache (a bound: pages
    /// SQLite evicts are not subtracted).
    max_key: c_uint,
    /// The highest page number SQLite's cache believes it may hold
    /// (its own bound, the swap's borrowed number included).
    its_max_key: c_uint,
    /// The lock-byte page's number for this cache's page size.
    borrowed_key: c_uint,
}

/// Installs the wrapper, once, before the first connection opens SQLite
/// (afterwards SQLite refuses a new cache, and its own stays: nothing
/// breaks). Returns whether the wrapper is in place.
pub(crate) fn install() -> bool {
    *INSTALLED.get_or_init(|| {
        // SAFETY: `sqlite3_config` is called with the argument types its
        // options take (a pointer to a methods struct); SQLite copies the
        // struct it is given. Before initialisation it only reads or
        // writes its global configuration; after, it returns an error and
        // changes nothing.
        unsafe {
            let mut sqlites: ffi::sqlite3_pcache_methods2 = std::mem::zeroed();
            let got = ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_GETPCACHE2,
                &mut sqlites as *mut ffi::sqlite3_pcache_methods2,
            );
            if got != ffi::SQLITE_OK || sqlites.xCreate.is_none() || sqlites.xFetch.is_none() {
                return false;
            }
            let ours = ffi::sqlite3_pcache_methods2 {
                iVersion: sqlites.iVersion,
                pArg: std::ptr::null_mut(),
                xInit: Some(init),
                xShutdown: Some(shutdown),
                xCreate: Some(create),
                xCachesize: Some(cachesize),
                xPagecount: Some(pagecount),
                xFetch: Some(fetch),
                xUnpin: Some(unpin),
                xRekey: Some(rekey),
                xTruncate: Some(truncate),
                xDestroy: Some(destroy),
                xShrink: Some(shrink),
            };
            // Ours call SQLite's through OWN: known before SQLite can
            // call ours.
            if OWN.set(Inner(sqlites)).is_err() {
                return false;
            }
            let set = ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_PCACHE2,
                &ours as *const ffi::sqlite3_pcache_methods2,
            );
            set == ffi::SQLITE_OK
        }
    })
}

/// How many walks of a whole cache were saved so far (all connections).
#[cfg(test)]
fn walks_saved() -> u64 {
    WALKS_SAVED.load(Ordering::Relaxed)
}

fn own() -> &'static ffi::sqlite3_pcache_methods2 {
    match OWN.get() {
        Some(inner) => &inner.0,
        // Ours are handed to SQLite only once its own are known.
        None => unreachable!("the page cache wrapper runs only once installed"),
    }
}

// SAFETY (every function below): SQLite calls these with the pointers its
// cache interface defines: a cache made by `create` (a `Cache` we boxed)
// and pages that cache handed out. Each passes them on to SQLite's own
// method, which is present (SQLite's built-in cache defines all of them;
// `install` checks the two it must have and the others are optional in
// the interface only for `xShutdown` and `xShrink`, checked here). A
// cache is used by one connection at a time, under SQLite's locks, so
// its fields need no synchronisation of their own.

unsafe extern "C" fn init(_: *mut c_void) -> c_int {
    let o = own();
    match o.xInit {
        Some(f) => f(o.pArg),
        None => ffi::SQLITE_OK,
    }
}

unsafe extern "C" fn shutdown(_: *mut c_void) {
    let o = own();
    if let Some(f) = o.xShutdown {
        f(o.pArg)
    }
}

unsafe extern "C" fn create(
    size_page: c_int,
    size_extra: c_int,
    purgeable: c_int,
) -> *mut ffi::sqlite3_pcache {
    let Some(f) = own().xCreate else {
        return std::ptr::null_mut();
    };
    let inner = f(size_page, size_extra, purgeable);
    if inner.is_null() {
        return inner;
    }
    let borrowed_key = match u64::try_from(size_page) {
        Ok(size) if size > 0 => (PENDING_BYTE / size + 1).min(c_uint::MAX as u64) as c_uint,
        _ => c_uint::MAX,
    };
    Box::into_raw(Box::new(Cache {
        inner,
        max_key: 0,
        its_max_key: 0,
        borrowed_key,
    })) as *mut ffi::sqlite3_pcache
}

unsafe fn cache<'a>(p: *mut ffi::sqlite3_pcache) -> &'a mut Cache {
    &mut *(p as *mut Cache)
}

unsafe extern "C" fn cachesize(p: *mut ffi::sqlite3_pcache, n: c_int) {
    if let Some(f) = own().xCachesize {
        f(cache(p).inner, n)
    }
}

unsafe extern "C" fn pagecount(p: *mut ffi::sqlite3_pcache) -> c_int {
    match own().xPagecount {
        Some(f) => f(cache(p).inner),
        None => 0,
    }
}

unsafe extern "C" fn fetch(
    p: *mut ffi::sqlite3_pcache,
    key: c_uint,
    create: c_int,
) -> *mut ffi::sqlite3_pcache_page {
    let c = cache(p);
    let Some(f) = own().xFetch else {
        return std::ptr::null_mut();
    };
    let page = f(c.inner, key, create);
    if !page.is_null() {
        c.max_key = c.max_key.max(key);
        c.its_max_key = c.its_max_key.max(key);
    }
    page
}

unsafe extern "C" fn unpin(
    p: *mut ffi::sqlite3_pcache,
    page: *mut ffi::sqlite3_pcache_page,
    discard: c_int,
) {
    if let Some(f) = own().xUnpin {
        f(cache(p).inner, page, discard)
    }
}

unsafe extern "C" fn rekey(
    p: *mut ffi::sqlite3_pcache,
    page: *mut ffi::sqlite3_pcache_page,
    old: c_uint,
    new: c_uint,
) {
    let c = cache(p);
    if let Some(f) = own().xRekey {
        f(c.inner, page, old, new);
    }
    // The swap's borrowed number is left again at once (to a number
    // already fetched); any other move counts.
    if new != c.borrowed_key {
        c.max_key = c.max_key.max(new);
    }
    c.its_max_key = c.its_max_key.max(new);
}

unsafe extern "C" fn truncate(p: *mut ffi::sqlite3_pcache, limit: c_uint) {
    let c = cache(p);
    if limit > c.max_key {
        // Nothing numbered `limit` or more is cached.
        if limit <= c.its_max_key {
            WALKS_SAVED.fetch_add(1, Ordering::Relaxed);
        }
        return;
    }
    if let Some(f) = own().xTruncate {
        f(c.inner, limit);
    }
    c.max_key = limit.saturating_sub(1);
    c.its_max_key = c.max_key;
}

unsafe extern "C" fn destroy(p: *mut ffi::sqlite3_pcache) {
    let c = Box::from_raw(p as *mut Cache);
    if let Some(f) = own().xDestroy {
        f(c.inner)
    }
}

unsafe extern "C" fn shrink(p: *mut ffi::sqlite3_pcache) {
    if let Some(f) = own().xShrink {
        f(cache(p).inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::ScratchDir;
    use rusqlite::Connection;

    fn db(name: &str) -> (ScratchDir, Connection) {
        assert!(install(), "installed before SQLite's first connection");
        let dir = ScratchDir::new(&format!("page-cache-{name}"));
        let c = Connection::open(dir.0.join(name)).unwrap();
        c.pragma_update(None, "journal_mode", "WAL").unwrap();
        c.execute_batch("CREATE TABLE t (k TEXT NOT NULL, v INTEGER NOT NULL, PRIMARY KEY (k, v))")
            .unwrap();
        (dir, c)
    }

    /// A key spread over the index, as game ids are.
    fn key(i: u64) -> String {
        format!("{:016x}", i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    #[test]
    fn splits_across_an_index_skip_the_truncates_and_keep_the_data() {
        let (_dir, mut c) = db("splits.db");
        let before = walks_saved();
        for round in 0..200u64 {
            let tx = c.transaction().unwrap();
            for i in 0..50 {
                tx.execute(
                    "INSERT INTO t VALUES (?1, ?2)",
                    (key(round * 50 + i), i as i64),
                )
                .unwrap();
            }
            tx.commit().unwrap();
        }
        assert!(walks_saved() > before, "no walk of the cache was saved");
        let n: i64 = c
            .query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 10_000);
        let ok: String = c
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }

    #[test]
    fn a_rolled_back_growth_leaves_nothing_behind() {
        // A transaction grows the file, then rolls back (its pages past
        // the end leave the cache); the next growth holds its own rows
        // only.
        let (_dir, mut c) = db("rollback.db");
        let tx = c.transaction().unwrap();
        for i in 0..5_000 {
            tx.execute("INSERT INTO t VALUES (?1, ?2)", (key(i), 1))
                .unwrap();
        }
        drop(tx);
        let tx = c.transaction().unwrap();
        for i in 0..5_000 {
            tx.execute("INSERT INTO t VALUES (?1, ?2)", (key(i + 1_000_000), 2))
                .unwrap();
        }
        tx.commit().unwrap();
        let (n, ones): (i64, i64) = c
            .query_row(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE v = 1) FROM t",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((n, ones), (5_000, 0));
        let ok: String = c
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }
}
