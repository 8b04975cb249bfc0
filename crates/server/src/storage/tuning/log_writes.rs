//! A commit's log frames in one write.
//!
//! SQLite writes each frame of its write-ahead log with two system calls
//! (the frame's 24-byte header, then its page): about 40 `pwrite`s per
//! group commit of nim's load, a quarter of the writer's time, most of it
//! each call's own cost in the kernel rather than the copy. This VFS,
//! over SQLite's own, gathers consecutive writes to a log file and hands
//! them to SQLite's VFS as one write once the transaction's commit frame
//! is written: before `COMMIT` syncs the log (or, without syncs, before
//! the commit is published to readers through the shared index, which
//! happens only after the commit frame is written). Any other call on the
//! file (a read, a sync, its size, a lock, closing it) writes what is
//! gathered first, so SQLite sees the file as if every write had been
//! made at once; an error of the gathered write is the error of the call
//! that made it. Files other than logs pass through untouched.
//!
//! The WAL format is SQLite's documented file format: frames follow a
//! 32-byte header, each a 24-byte header whose second big-endian word is
//! the database's size in pages for a commit frame and zero otherwise.

use rusqlite::ffi;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The name connections open the VFS by.
pub(crate) const NAME: &CStr = c"parlor-log-writes";

/// The most gathered into one write: SQLite's unix VFS writes at most
/// 128 KiB - 1 in one call (it masks the length to 17 bits, and a
/// remainder of exactly 128 KiB would be written as nothing: `SQLITE_FULL`).
/// A larger transaction's frames go out in several writes.
const MOST_GATHERED: usize = 0x1ffff;

/// The size of a frame header: the only writes of that size to a log.
const FRAME_HEADER: c_int = 24;

/// Writes to logs that joined another (so no system call of their own).
static JOINED: AtomicU64 = AtomicU64::new(0);

static REGISTERED: OnceLock<bool> = OnceLock::new();

/// Registers the VFS (once; SQLite's default VFS stays the default).
/// Returns whether it is there to open connections with.
pub(crate) fn register() -> bool {
    *REGISTERED.get_or_init(|| {
        // SAFETY: `sqlite3_vfs_find` returns SQLite's default VFS, which
        // lives as long as the process; the VFS registered here is leaked
        // on purpose (SQLite keeps the pointer for ever) and copies the
        // default's sizes. `sqlite3_vfs_register` is thread-safe.
        unsafe {
            let base = ffi::sqlite3_vfs_find(std::ptr::null());
            if base.is_null() || (*base).xOpen.is_none() {
                return false;
            }
            let b = &*base;
            let vfs = Box::leak(Box::new(ffi::sqlite3_vfs {
                iVersion: b.iVersion,
                szOsFile: (INNER_AT + b.szOsFile as usize) as c_int,
                mxPathname: b.mxPathname,
                pNext: std::ptr::null_mut(),
                zName: NAME.as_ptr(),
                pAppData: base as *mut c_void,
                xOpen: Some(open),
                xDelete: b.xDelete.map(|_| delete as _),
                xAccess: b.xAccess.map(|_| access as _),
                xFullPathname: b.xFullPathname.map(|_| full_pathname as _),
                // Loading extensions and replacing system calls: SQLite's
                // unix VFS ignores the VFS argument of these.
                xDlOpen: b.xDlOpen,
                xDlError: b.xDlError,
                xDlSym: b.xDlSym,
                xDlClose: b.xDlClose,
                xRandomness: b.xRandomness.map(|_| randomness as _),
                xSleep: b.xSleep.map(|_| sleep as _),
                xCurrentTime: b.xCurrentTime.map(|_| current_time as _),
                xGetLastError: b.xGetLastError.map(|_| last_error as _),
                xCurrentTimeInt64: b.xCurrentTimeInt64.map(|_| current_time_64 as _),
                xSetSystemCall: b.xSetSystemCall,
                xGetSystemCall: b.xGetSystemCall,
                xNextSystemCall: b.xNextSystemCall,
            }));
            ffi::sqlite3_vfs_register(vfs, 0) == ffi::SQLITE_OK
        }
    })
}

/// How many log writes were gathered into another so far.
#[cfg(test)]
fn joined() -> u64 {
    JOINED.load(Ordering::Relaxed)
}

/// An open file: SQLite's `sqlite3_file` first (its methods are ours),
/// then what is gathered, then (at [`INNER_AT`]) the default VFS's file.
#[repr(C)]
struct File {
    base: ffi::sqlite3_file,
    inner: *mut ffi::sqlite3_file,
    /// Whether this is a log (writes are gathered).
    log: bool,
    /// Consecutive writes not made yet, starting at `gathered_at`.
    gathered: Vec<u8>,
    gathered_at: i64,
    /// The last write was a commit frame's header: its page ends the
    /// commit, and the gathered writes go out with it.
    commit_next: bool,
}

/// Where the default VFS's file starts in ours (aligned for it).
const INNER_AT: usize = std::mem::size_of::<File>().next_multiple_of(16);

unsafe fn base_vfs(vfs: *mut ffi::sqlite3_vfs) -> *mut ffi::sqlite3_vfs {
    (*vfs).pAppData as *mut ffi::sqlite3_vfs
}

// SAFETY (every function below): SQLite calls these as its VFS and file
// interfaces define, with a VFS registered by `register` and files opened
// by `open` (a `File` written there, with the default VFS's file at
// `INNER_AT` of the same allocation, `szOsFile` bytes long). Each passes
// its arguments on to the default VFS's method of the same name, which
// `register` checked is present (or, for a file's methods, is the default
// VFS's file's, present once it opened). A file is used by one connection
// at a time, under SQLite's locks.

unsafe extern "C" fn open(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let base = base_vfs(vfs);
    let inner = (file as *mut u8).add(INNER_AT) as *mut ffi::sqlite3_file;
    (*inner).pMethods = std::ptr::null();
    (*file).pMethods = std::ptr::null();
    let Some(base_open) = (*base).xOpen else {
        return ffi::SQLITE_CANTOPEN;
    };
    let rc = base_open(base, name, inner, flags, out_flags);
    if rc != ffi::SQLITE_OK {
        // A file the default VFS opened half way is closed by it.
        if let Some(close) = (*inner).pMethods.as_ref().and_then(|m| m.xClose) {
            close(inner);
        }
        return rc;
    }
    std::ptr::write(
        file as *mut File,
        File {
            base: ffi::sqlite3_file { pMethods: &METHODS },
            inner,
            log: flags & ffi::SQLITE_OPEN_WAL != 0,
            gathered: Vec::new(),
            gathered_at: 0,
            commit_next: false,
        },
    );
    rc
}

unsafe fn this<'a>(file: *mut ffi::sqlite3_file) -> &'a mut File {
    &mut *(file as *mut File)
}

unsafe fn methods<'a>(f: &File) -> &'a ffi::sqlite3_io_methods {
    &*(*f.inner).pMethods
}

/// Writes what is gathered, as one write of the default VFS.
unsafe fn flush(f: &mut File) -> c_int {
    if f.gathered.is_empty() {
        return ffi::SQLITE_OK;
    }
    let Some(write) = methods(f).xWrite else {
        return ffi::SQLITE_IOERR_WRITE;
    };
    let rc = write(
        f.inner,
        f.gathered.as_ptr() as *const c_void,
        f.gathered.len() as c_int,
        f.gathered_at,
    );
    f.gathered.clear();
    rc
}

/// Flushes, then calls the default VFS's method `$m` with `$args` (or
/// answers `$none` if it has none).
macro_rules! after_flush {
    ($file:ident, $m:ident, $none:expr $(, $arg:expr)*) => {{
        let f = this($file);
        let rc = flush(f);
        if rc != ffi::SQLITE_OK {
            return rc;
        }
        match methods(f).$m {
            Some(m) => m(f.inner $(, $arg)*),
            None => $none,
        }
    }};
}

unsafe extern "C" fn close(file: *mut ffi::sqlite3_file) -> c_int {
    let f = this(file);
    let flushed = flush(f);
    let rc = match methods(f).xClose {
        Some(close) => close(f.inner),
        None => ffi::SQLITE_OK,
    };
    std::ptr::drop_in_place(file as *mut File);
    (*file).pMethods = std::ptr::null();
    if flushed != ffi::SQLITE_OK {
        flushed
    } else {
        rc
    }
}

unsafe extern "C" fn read(
    file: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    amount: c_int,
    offset: i64,
) -> c_int {
    after_flush!(file, xRead, ffi::SQLITE_IOERR_READ, buf, amount, offset)
}

unsafe extern "C" fn write(
    file: *mut ffi::sqlite3_file,
    buf: *const c_void,
    amount: c_int,
    offset: i64,
) -> c_int {
    let f = this(file);
    let Ok(len) = usize::try_from(amount) else {
        return ffi::SQLITE_IOERR_WRITE;
    };
    if !f.log || len > MOST_GATHERED {
        // Not a log (nothing is gathered), or more than one gathered write
        // may hold (never from SQLite's log: a page at most): written as
        // it comes.
        return after_flush!(file, xWrite, ffi::SQLITE_IOERR_WRITE, buf, amount, offset);
    }
    let bytes = std::slice::from_raw_parts(buf as *const u8, len);
    if !f.gathered.is_empty() {
        if offset == f.gathered_at + f.gathered.len() as i64
            && f.gathered.len() + len <= MOST_GATHERED
        {
            JOINED.fetch_add(1, Ordering::Relaxed);
        } else {
            let rc = flush(f);
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
    }
    if f.gathered.is_empty() {
        f.gathered_at = offset;
    }
    f.gathered.extend_from_slice(bytes);
    // This write is a commit frame's page when the last was its header.
    let ends_commit = std::mem::replace(
        &mut f.commit_next,
        amount == FRAME_HEADER && bytes[4..8] != [0; 4],
    );
    if ends_commit {
        return flush(f);
    }
    ffi::SQLITE_OK
}

unsafe extern "C" fn truncate(file: *mut ffi::sqlite3_file, size: i64) -> c_int {
    after_flush!(file, xTruncate, ffi::SQLITE_IOERR_TRUNCATE, size)
}

unsafe extern "C" fn sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    after_flush!(file, xSync, ffi::SQLITE_IOERR_FSYNC, flags)
}

unsafe extern "C" fn file_size(file: *mut ffi::sqlite3_file, size: *mut i64) -> c_int {
    after_flush!(file, xFileSize, ffi::SQLITE_IOERR_FSTAT, size)
}

unsafe extern "C" fn lock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    after_flush!(file, xLock, ffi::SQLITE_IOERR_LOCK, level)
}

unsafe extern "C" fn unlock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    after_flush!(file, xUnlock, ffi::SQLITE_IOERR_UNLOCK, level)
}

unsafe extern "C" fn check_reserved_lock(file: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    after_flush!(
        file,
        xCheckReservedLock,
        ffi::SQLITE_IOERR_CHECKRESERVEDLOCK,
        out
    )
}

unsafe extern "C" fn file_control(
    file: *mut ffi::sqlite3_file,
    op: c_int,
    arg: *mut c_void,
) -> c_int {
    after_flush!(file, xFileControl, ffi::SQLITE_NOTFOUND, op, arg)
}

unsafe extern "C" fn sector_size(file: *mut ffi::sqlite3_file) -> c_int {
    match methods(this(file)).xSectorSize {
        Some(m) => m(this(file).inner),
        None => 4096,
    }
}

unsafe extern "C" fn device_characteristics(file: *mut ffi::sqlite3_file) -> c_int {
    match methods(this(file)).xDeviceCharacteristics {
        Some(m) => m(this(file).inner),
        None => 0,
    }
}

unsafe extern "C" fn shm_map(
    file: *mut ffi::sqlite3_file,
    page: c_int,
    size: c_int,
    extend: c_int,
    out: *mut *mut c_void,
) -> c_int {
    after_flush!(
        file,
        xShmMap,
        ffi::SQLITE_IOERR_SHMMAP,
        page,
        size,
        extend,
        out
    )
}

unsafe extern "C" fn shm_lock(
    file: *mut ffi::sqlite3_file,
    at: c_int,
    n: c_int,
    flags: c_int,
) -> c_int {
    after_flush!(file, xShmLock, ffi::SQLITE_IOERR_SHMLOCK, at, n, flags)
}

unsafe extern "C" fn shm_barrier(file: *mut ffi::sqlite3_file) {
    let f = this(file);
    // Nothing is gathered here: shared memory belongs to the database
    // file, whose writes are never gathered.
    if let Some(m) = methods(f).xShmBarrier {
        m(f.inner)
    }
}

unsafe extern "C" fn shm_unmap(file: *mut ffi::sqlite3_file, delete: c_int) -> c_int {
    after_flush!(file, xShmUnmap, ffi::SQLITE_OK, delete)
}

unsafe extern "C" fn fetch(
    file: *mut ffi::sqlite3_file,
    offset: i64,
    amount: c_int,
    out: *mut *mut c_void,
) -> c_int {
    let f = this(file);
    let rc = flush(f);
    if rc != ffi::SQLITE_OK {
        return rc;
    }
    let m = methods(f);
    match m.xFetch.filter(|_| m.iVersion >= 3) {
        Some(m) => m(f.inner, offset, amount, out),
        None => {
            *out = std::ptr::null_mut();
            ffi::SQLITE_OK
        }
    }
}

unsafe extern "C" fn unfetch(file: *mut ffi::sqlite3_file, offset: i64, p: *mut c_void) -> c_int {
    let f = this(file);
    let m = methods(f);
    match m.xUnfetch.filter(|_| m.iVersion >= 3) {
        Some(m) => m(f.inner, offset, p),
        None => ffi::SQLITE_OK,
    }
}

static METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 3,
    xClose: Some(close),
    xRead: Some(read),
    xWrite: Some(write),
    xTruncate: Some(truncate),
    xSync: Some(sync),
    xFileSize: Some(file_size),
    xLock: Some(lock),
    xUnlock: Some(unlock),
    xCheckReservedLock: Some(check_reserved_lock),
    xFileControl: Some(file_control),
    xSectorSize: Some(sector_size),
    xDeviceCharacteristics: Some(device_characteristics),
    xShmMap: Some(shm_map),
    xShmLock: Some(shm_lock),
    xShmBarrier: Some(shm_barrier),
    xShmUnmap: Some(shm_unmap),
    xFetch: Some(fetch),
    xUnfetch: Some(unfetch),
};

unsafe extern "C" fn delete(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    sync_dir: c_int,
) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xDelete {
        Some(m) => m(base, name, sync_dir),
        None => ffi::SQLITE_IOERR_DELETE,
    }
}

unsafe extern "C" fn access(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    flags: c_int,
    out: *mut c_int,
) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xAccess {
        Some(m) => m(base, name, flags, out),
        None => ffi::SQLITE_IOERR_ACCESS,
    }
}

unsafe extern "C" fn full_pathname(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    n: c_int,
    out: *mut c_char,
) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xFullPathname {
        Some(m) => m(base, name, n, out),
        None => ffi::SQLITE_CANTOPEN,
    }
}

unsafe extern "C" fn randomness(vfs: *mut ffi::sqlite3_vfs, n: c_int, out: *mut c_char) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xRandomness {
        Some(m) => m(base, n, out),
        None => 0,
    }
}

unsafe extern "C" fn sleep(vfs: *mut ffi::sqlite3_vfs, micros: c_int) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xSleep {
        Some(m) => m(base, micros),
        None => 0,
    }
}

unsafe extern "C" fn current_time(vfs: *mut ffi::sqlite3_vfs, out: *mut f64) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xCurrentTime {
        Some(m) => m(base, out),
        None => ffi::SQLITE_ERROR,
    }
}

unsafe extern "C" fn last_error(vfs: *mut ffi::sqlite3_vfs, n: c_int, out: *mut c_char) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xGetLastError {
        Some(m) => m(base, n, out),
        None => 0,
    }
}

unsafe extern "C" fn current_time_64(vfs: *mut ffi::sqlite3_vfs, out: *mut i64) -> c_int {
    let base = base_vfs(vfs);
    match (*base).xCurrentTimeInt64 {
        Some(m) => m(base, out),
        None => ffi::SQLITE_ERROR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::ScratchDir;
    use rusqlite::{Connection, OpenFlags};

    fn dir(name: &str) -> ScratchDir {
        ScratchDir::new(&format!("log-writes-{name}"))
    }

    fn connect(path: &std::path::Path) -> Connection {
        assert!(register());
        let name = NAME.to_str().unwrap();
        let c = Connection::open_with_flags_and_vfs(path, OpenFlags::default(), name).unwrap();
        c.pragma_update(None, "journal_mode", "WAL").unwrap();
        c
    }

    /// Every commit is read back at once by another connection, with
    /// and without a sync at each commit (without, readers learn of a
    /// commit from the shared index alone: its frames must be in the
    /// file by then).
    fn commits_are_seen_at_once(synchronous: &str) {
        let d = dir(synchronous);
        let path = d.0.join("t.db");
        let mut w = connect(&path);
        w.pragma_update(None, "synchronous", synchronous).unwrap();
        w.execute_batch("CREATE TABLE t (k TEXT PRIMARY KEY, v BLOB NOT NULL)")
            .unwrap();
        let r = connect(&path);
        let before = joined();
        for round in 0..100u64 {
            let tx = w.transaction().unwrap();
            for i in 0..20u64 {
                let k = format!(
                    "{:016x}",
                    (round * 20 + i).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                );
                tx.execute("INSERT INTO t VALUES (?1, ?2)", (k, vec![round as u8; 300]))
                    .unwrap();
            }
            tx.commit().unwrap();
            let n: i64 = r
                .query_row("SELECT COUNT(*) FROM t", [], |x| x.get(0))
                .unwrap();
            assert_eq!(n as u64, (round + 1) * 20, "commit {round} not seen");
        }
        assert!(joined() > before, "no write was gathered");
        r.execute_batch("PRAGMA wal_checkpoint(RESTART)").unwrap();
        let ok: String = r
            .query_row("PRAGMA integrity_check", [], |x| x.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
        drop((w, r));
        // And from a plain connection after both closed.
        let plain = Connection::open(&path).unwrap();
        let n: i64 = plain
            .query_row("SELECT COUNT(*) FROM t", [], |x| x.get(0))
            .unwrap();
        assert_eq!(n, 2_000);
    }

    #[test]
    fn commits_are_seen_at_once_with_syncs() {
        commits_are_seen_at_once("FULL");
    }

    #[test]
    fn commits_are_seen_at_once_without_syncs() {
        commits_are_seen_at_once("OFF");
    }

    #[test]
    fn a_commit_larger_than_one_write_goes_out_whole() {
        // Frames past SQLite's largest single write (128 KiB - 1) in one
        // commit: written in several pieces, every piece whole.
        let d = dir("large");
        let path = d.0.join("t.db");
        let w = connect(&path);
        w.execute_batch("CREATE TABLE t (v BLOB NOT NULL)").unwrap();
        for pages in [31, 32, 33, 64, 300] {
            w.execute_batch("BEGIN").unwrap();
            for _ in 0..pages {
                w.execute("INSERT INTO t VALUES (zeroblob(4000))", [])
                    .unwrap();
            }
            w.execute_batch("COMMIT").unwrap();
        }
        let r = connect(&path);
        let n: i64 = r
            .query_row("SELECT COUNT(*) FROM t", [], |x| x.get(0))
            .unwrap();
        assert_eq!(n, 31 + 32 + 33 + 64 + 300);
        r.execute_batch("PRAGMA wal_checkpoint(RESTART)").unwrap();
        let ok: String = r
            .query_row("PRAGMA integrity_check", [], |x| x.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }

    #[test]
    fn a_rolled_back_transaction_leaves_nothing() {
        let d = dir("rollback");
        let path = d.0.join("t.db");
        let mut w = connect(&path);
        w.execute_batch("CREATE TABLE t (v BLOB NOT NULL)").unwrap();
        // Large enough to spill pages into the log before its end.
        w.pragma_update(None, "cache_size", 10).unwrap();
        let tx = w.transaction().unwrap();
        for _ in 0..500 {
            tx.execute("INSERT INTO t VALUES (?1)", [vec![7u8; 2000]])
                .unwrap();
        }
        drop(tx);
        w.execute("INSERT INTO t VALUES (?1)", [vec![1u8; 10]])
            .unwrap();
        let r = connect(&path);
        let n: i64 = r
            .query_row("SELECT COUNT(*) FROM t", [], |x| x.get(0))
            .unwrap();
        assert_eq!(n, 1);
        let ok: String = r
            .query_row("PRAGMA integrity_check", [], |x| x.get(0))
            .unwrap();
        assert_eq!(ok, "ok");
    }
}
