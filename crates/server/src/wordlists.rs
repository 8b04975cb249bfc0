//! Word lists that players upload (`POST /api/word-lists`), kept in the
//! database and handed to games like the server's own lists.
//!
//! An upload is read like `--dict` (one word per line, `#` and blank lines
//! ignored, lines that are not a-z or are longer than 64 letters skipped
//! and counted, capitalised words skipped and counted as proper nouns),
//! except that a list whose words are all in capitals is read in lower
//! case ([`parlor_lexicon::Case::Auto`]): an uploader cannot pass
//! `--fold-case`, and in such a list a capital marks nothing. Its id is `upload-` and the
//! list's [`Lexicon::fingerprint`], so the same words uploaded twice get
//! the same id and are stored once; the list is stored under that id as
//! its canonical text (its distinct words, sorted, one per line) and built
//! again from it, named by its id, which is what a game's rules name
//! (`"lexicon": "upload-..."`) and what its record stamps.
//!
//! A game whose settings declare an uploaded list among the word lists
//! they need ([`parlor_core::Needs`]) or whose
//! record stamps one is given [`Resources`] made of the server's own plus
//! that list. Those are built once per list and kept in a small cache
//! (bounded by lists and by bytes; a game keeps its own copy while it is
//! live), so the games on one list share its derived data (Word Sprout's
//! language, Gobble's trie) and any process on the same database finds a
//! list it never saw uploaded.

use crate::error::ApiError;
use crate::error::Code;
use crate::storage::{Store, WordListRow, Write};
use parlor_core::Resources;
use parlor_lexicon::Lexicon;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// What an uploaded list's id starts with.
pub(crate) const ID_PREFIX: &str = "upload-";

/// Uploads read at once (each holds its body, up to the byte limit, and
/// the list being built): beyond, `busy`.
const UPLOADS_AT_ONCE: usize = 2;

/// The id of the list with this fingerprint.
pub(crate) fn id_of(fingerprint: u64) -> String {
    format!("{ID_PREFIX}{fingerprint:016x}")
}

/// The fingerprint an id names, if it is an uploaded list's id.
pub(crate) fn parse_id(id: &str) -> Option<u64> {
    let hex = id.strip_prefix(ID_PREFIX)?;
    if hex.len() != 16 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// Limits on uploaded lists (from [`crate::Settings`]).
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    pub max_bytes: usize,
    pub max_words: usize,
    pub max_total_bytes: u64,
    pub cache_lists: usize,
    pub cache_bytes: usize,
    pub in_memory: usize,
}

/// The server's lists plus the uploaded ones, loaded on demand.
pub(crate) struct WordLists {
    base: Resources,
    limits: Limits,
    cache: Mutex<Cache>,
    uploads: Arc<tokio::sync::Semaphore>,
    /// One list is read from the database and built at a time: the room
    /// check and the list taking its place are one step, and a list asked
    /// for by many games at once is built once.
    loads: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Cache {
    /// (id, list, resources with it, bytes of words), most recently used last.
    entries: Vec<(String, Arc<Lexicon>, Resources, usize)>,
    /// Every uploaded list built here that may still be in memory (in the
    /// cache or held by a live game): the bound on lists in memory.
    alive: Vec<(String, std::sync::Weak<Lexicon>)>,
}

/// An accepted upload.
pub(crate) struct Uploaded {
    /// Whether this upload stored it (false: it was there already).
    pub new: bool,
    /// The stored list (without its text).
    pub row: WordListRow,
    /// What this upload's text held.
    pub report: parlor_lexicon::LoadReport,
}

impl WordLists {
    pub(crate) fn new(base: Resources, limits: Limits) -> WordLists {
        WordLists {
            base,
            limits,
            cache: Mutex::new(Cache::default()),
            uploads: Arc::new(tokio::sync::Semaphore::new(UPLOADS_AT_ONCE)),
            loads: tokio::sync::Mutex::new(()),
        }
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A permit to read an upload, or `busy`.
    pub(crate) fn upload_permit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        self.uploads.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                Code::Busy,
                format!("{UPLOADS_AT_ONCE} word lists are being uploaded; try again in a moment"),
            )
        })
    }

    fn cached(&self, id: &str) -> Option<(Arc<Lexicon>, Resources)> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let i = cache.entries.iter().position(|e| e.0 == id)?;
        let entry = cache.entries.remove(i);
        let found = (entry.1.clone(), entry.2.clone());
        cache.entries.push(entry);
        Some(found)
    }

    fn remember(&self, id: &str, lexicon: Arc<Lexicon>) -> (Arc<Lexicon>, Resources) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, l, r, _)) = cache.entries.iter().find(|e| e.0 == id) {
            return (l.clone(), r.clone());
        }
        let resources = self.base.clone().with_lexicon_as(id, lexicon.clone());
        let size = lexicon.words().map(|w| w.len() + 1).sum::<usize>();
        cache.alive.retain(|(k, w)| w.strong_count() > 0 && k != id);
        cache.alive.push((id.to_string(), Arc::downgrade(&lexicon)));
        cache
            .entries
            .push((id.to_string(), lexicon.clone(), resources.clone(), size));
        // Least recently used out first; the newest always stays.
        let mut bytes: usize = cache.entries.iter().map(|e| e.3).sum();
        while cache.entries.len() > 1
            && (cache.entries.len() > self.limits.cache_lists.max(1)
                || bytes > self.limits.cache_bytes)
        {
            bytes -= cache.entries.remove(0).3;
        }
        (lexicon, resources)
    }

    /// `busy` when as many uploaded lists as allowed are in memory (in the
    /// cache or held by live games).
    fn room_for_one(&self) -> Result<(), ApiError> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.alive.retain(|(_, w)| w.strong_count() > 0);
        if cache.alive.len() >= self.limits.in_memory.max(1) {
            // The cache lets go first: what live games hold stays alive.
            cache.entries.clear();
            cache.alive.retain(|(_, w)| w.strong_count() > 0);
        }
        if cache.alive.len() >= self.limits.in_memory.max(1) {
            return Err(ApiError::new(
                Code::Busy,
                format!(
                    "{} uploaded word lists are in use on this server, its limit; try again when a game ends",
                    cache.alive.len()
                ),
            ));
        }
        Ok(())
    }

    /// The uploaded list `id`: from the cache, else from the database.
    async fn lexicon(
        &self,
        store: &Store,
        id: &str,
    ) -> Result<(Arc<Lexicon>, Resources), ApiError> {
        if let Some(found) = self.cached(id) {
            return Ok(found);
        }
        let fingerprint = parse_id(id).ok_or_else(|| unknown(id))?;
        let _loading = self.loads.lock().await;
        if let Some(found) = self.cached(id) {
            return Ok(found);
        }
        {
            // Still held by a live game: the same list, not a second copy.
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache.alive.retain(|(_, w)| w.strong_count() > 0);
            let held = cache
                .alive
                .iter()
                .find(|(k, _)| k == id)
                .and_then(|(_, w)| w.upgrade());
            drop(cache);
            if let Some(lexicon) = held {
                return Ok(self.remember(id, lexicon));
            }
            self.room_for_one()?;
        }
        let key = id.to_string();
        let row = store
            .read(move |s| s.word_list(&key, true))
            .await?
            .ok_or_else(|| unknown(id))?;
        let text = row.text.unwrap_or_default();
        let name = id.to_string();
        let lexicon =
            tokio::task::spawn_blocking(move || Lexicon::from_bytes(name, text.as_bytes()))
                .await
                .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?
                .map_err(|e| ApiError::new(Code::Internal, format!("stored word list {id}: {e}")))?
                .0;
        if lexicon.fingerprint() != fingerprint {
            return Err(ApiError::new(
                Code::Internal,
                format!("stored word list {id} does not have the fingerprint of its id"),
            ));
        }
        Ok(self.remember(id, Arc::new(lexicon)))
    }

    /// The resources for a game whose settings `needs`: the server's,
    /// plus every uploaded list they name (a name that is an upload id).
    pub(crate) async fn for_needs(
        &self,
        store: &Store,
        needs: &parlor_core::Needs,
    ) -> Result<Resources, ApiError> {
        self.for_ids(store, upload_ids(needs)).await
    }

    /// The resources to replay a record with these lexicon stamps
    /// (`[{"name", "words", "fingerprint"}]`): an uploaded list is found by
    /// its name (its id), or by its fingerprint for a name this server
    /// does not know.
    pub(crate) async fn for_stamps(
        &self,
        store: &Store,
        stamps: &Value,
    ) -> Result<Resources, ApiError> {
        let mut ids = Vec::new();
        for stamp in stamps.as_array().into_iter().flatten() {
            let name = stamp.get("name").and_then(Value::as_str).unwrap_or("");
            if parse_id(name).is_some() {
                ids.push(name.to_string());
            } else if self.base.lexicon(name).is_err() {
                if let Some(fp) = stamp
                    .get("fingerprint")
                    .and_then(Value::as_str)
                    .and_then(|f| u64::from_str_radix(f, 16).ok())
                {
                    if self.base.lexicon_by_fingerprint(fp).is_none() {
                        ids.push(id_of(fp));
                    }
                }
            }
        }
        self.for_ids(store, ids).await
    }

    async fn for_ids(&self, store: &Store, mut ids: Vec<String>) -> Result<Resources, ApiError> {
        ids.sort();
        ids.dedup();
        // A list the server itself offers under that name wins.
        ids.retain(|id| self.base.lexicon(id).is_err());
        match ids.as_slice() {
            [] => Ok(self.base.clone()),
            [one] => Ok(self.lexicon(store, one).await?.1),
            _ => {
                let mut resources = self.base.clone();
                for id in &ids {
                    let (lexicon, _) = self.lexicon(store, id).await?;
                    resources = resources.with_lexicon_as(id, lexicon);
                }
                Ok(resources)
            }
        }
    }

    /// Reads, checks and stores an upload (the caller holds a permit and
    /// has read at most `max_bytes`).
    pub(crate) async fn upload(
        &self,
        store: &Store,
        name: Option<String>,
        body: axum::body::Bytes,
    ) -> Result<Uploaded, ApiError> {
        if std::str::from_utf8(&body).is_err() {
            return Err(ApiError::new(
                Code::BadWordList,
                "the word list is not UTF-8 text: send one word per line",
            ));
        }
        let name = display_name(name)?;
        self.room_for_one()?;
        let max_words = self.limits.max_words;
        let parsed = tokio::task::spawn_blocking(move || {
            let (lexicon, report) =
                Lexicon::from_bytes_with_case("upload", &body, parlor_lexicon::Case::Auto)?;
            if report.words > max_words {
                return Ok(Err(report.words));
            }
            // The canonical text; the list is built again from it under
            // its id (the name every game and record will use).
            let mut text = String::with_capacity(lexicon.words().map(|w| w.len() + 1).sum());
            for w in lexicon.words() {
                text.push_str(w);
                text.push('\n');
            }
            let id = id_of(lexicon.fingerprint());
            drop(lexicon);
            let (lexicon, _) = Lexicon::from_bytes(id.clone(), text.as_bytes())?;
            Ok(Ok((id, lexicon, text, report)))
        })
        .await
        .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?
        .map_err(|e: parlor_lexicon::LexiconError| match e {
            parlor_lexicon::LexiconError::Empty {
                skipped,
                capitalised,
                ..
            } => ApiError::new(
                Code::BadWordList,
                format!(
                    "the word list has no words ({skipped} lines skipped{}): send one word per \
                     line, letters a-z (a list all in capitals is read in lower case), at most {} \
                     letters; blank lines and lines starting with # are ignored",
                    if capitalised > 0 {
                        format!(", {capitalised} capitalised skipped as proper nouns")
                    } else {
                        String::new()
                    },
                    parlor_lexicon::MAX_WORD_LEN
                ),
            ),
            e => ApiError::new(Code::BadWordList, e.to_string()),
        })?;
        let (id, lexicon, text, report) = parsed.map_err(|words| {
            ApiError::new(
                Code::TooLarge,
                format!("the word list has {words} words; this server takes at most {max_words}"),
            )
        })?;
        let row = WordListRow {
            id: id.clone(),
            fingerprint: format!("{:016x}", lexicon.fingerprint()),
            name,
            words: report.words,
            skipped: report.skipped,
            bytes: text.len(),
            created_ms: crate::now_ms(),
            text: None,
        };
        // The same list again: nothing to store.
        if let Some(stored) = self.same_stored(store, &id, &text).await? {
            return Ok(Uploaded {
                new: false,
                row: stored,
                report,
            });
        }
        let taken = store
            .try_write(Write::WordList {
                list: WordListRow {
                    text: Some(text.clone()),
                    ..row.clone()
                },
                max_total_bytes: self.limits.max_total_bytes,
            })
            .await?;
        if taken {
            self.remember(&id, Arc::new(lexicon));
            return Ok(Uploaded {
                new: true,
                row,
                report,
            });
        }
        // Stored meanwhile by another upload, or no room left.
        if let Some(stored) = self.same_stored(store, &id, &text).await? {
            return Ok(Uploaded {
                new: false,
                row: stored,
                report,
            });
        }
        Err(ApiError::new(
            Code::WordListsFull,
            format!(
                "the server's room for uploaded word lists ({} bytes) is full; use a list it already has",
                self.limits.max_total_bytes
            ),
        ))
    }

    /// The stored list `id` if it holds exactly `text` (without its
    /// text); an error if another list has the same fingerprint.
    async fn same_stored(
        &self,
        store: &Store,
        id: &str,
        text: &str,
    ) -> Result<Option<WordListRow>, ApiError> {
        let key = id.to_string();
        let Some(stored) = store.read(move |s| s.word_list(&key, true)).await? else {
            return Ok(None);
        };
        if stored.text.as_deref() != Some(text) {
            return Err(ApiError::new(
                Code::WordListConflict,
                format!(
                    "another word list with the same fingerprint is stored as {id}; \
                     add or remove a word and upload again"
                ),
            ));
        }
        Ok(Some(WordListRow {
            text: None,
            ..stored
        }))
    }

    /// The stored list `id`, without its words.
    pub(crate) async fn meta(&self, store: &Store, id: &str) -> Result<WordListRow, ApiError> {
        if parse_id(id).is_none() {
            return Err(unknown(id));
        }
        let key = id.to_string();
        store
            .read(move |s| s.word_list(&key, false))
            .await?
            .ok_or_else(|| unknown(id))
    }
}

/// The JSON of a stored list (`GET /api/word-lists/{id}`).
pub(crate) fn meta_json(row: &WordListRow) -> Value {
    json!({
        "id": row.id,
        "name": row.name,
        "words": row.words,
        "skipped": row.skipped,
        "bytes": row.bytes,
        "fingerprint": row.fingerprint,
        "created_ms": row.created_ms,
    })
}

fn unknown(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::new(
        Code::UnknownWordList,
        format!(
            "no uploaded word list {shown:?} on this server: upload the list with POST /api/word-lists \
             and use the id it answers"
        ),
    )
}

/// The display name: trimmed, control, invisible and bidirectional
/// characters dropped (see [`crate::shown`]), at most 80 characters;
/// "uploaded list" when none is given.
fn display_name(name: Option<String>) -> Result<String, ApiError> {
    let name: String = name
        .unwrap_or_default()
        .chars()
        .filter(|c| crate::shown::hidden_char(c.encode_utf8(&mut [0; 4])).is_none())
        .collect();
    let name = name.trim();
    if name.chars().count() > 80 {
        return Err(ApiError::bad_json(
            "name: a word list's name is at most 80 characters",
        ));
    }
    Ok(if name.is_empty() {
        "uploaded list".to_string()
    } else {
        name.to_string()
    })
}

/// The uploaded lists a game's settings name: the declared word lists
/// whose names are upload ids. Nothing else in the rules is looked at, so a
/// request cannot flush the cache with ids in fields the game ignores.
fn upload_ids(needs: &parlor_core::Needs) -> Vec<String> {
    needs
        .word_lists
        .iter()
        .filter(|w| parse_id(&w.name).is_some())
        .map(|w| w.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert_eq!(id_of(0xab), "upload-00000000000000ab");
        assert_eq!(parse_id("upload-00000000000000ab"), Some(0xab));
        for bad in [
            "upload-",
            "upload-00000000000000AB",
            "upload-00000000000000abc",
            "upload-0000000000000g0b",
            "en",
            "",
        ] {
            assert_eq!(parse_id(bad), None, "{bad}");
        }
        let needs = parlor_core::Needs::seats(2)
            .word_list("words", "upload-00000000000000ab")
            .word_list("openings", "en")
            .word_list("extra", "upload-0000000000000g0b");
        assert_eq!(
            upload_ids(&needs),
            ["upload-00000000000000ab"],
            "only declared lists whose names are upload ids"
        );
    }

    #[test]
    fn names() {
        assert_eq!(display_name(None).unwrap(), "uploaded list");
        assert_eq!(display_name(Some(" a\u{7}b ".into())).unwrap(), "ab");
        assert!(display_name(Some("x".repeat(81))).is_err());
    }
}
