//! The one error type of this crate.

/// What went wrong when loading a word list or parsing a query.
///
/// Every message says what was wrong and what is accepted instead.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LexiconError {
    /// [`Lexicon::embedded`](crate::Lexicon::embedded) was asked for a list
    /// that is not compiled in.
    #[error(
        "unknown embedded word list `{name}`; the embedded lists are {} \
         (or load your own list, one word per line)",
        known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
    )]
    UnknownEmbedded {
        /// The name asked for.
        name: String,
        /// The names that exist, [`EMBEDDED`](crate::EMBEDDED).
        known: Vec<&'static str>,
    },

    /// The list had no usable word at all.
    #[error(
        "word list `{name}` has no words ({skipped} lines skipped because they \
         hold characters other than letters or are longer than {} letters, \
         {capitalised} skipped because they have a capital letter); \
         expected one word per line, letters a-z, blank lines and \
         lines starting with `#` ignored{}",
        crate::MAX_WORD_LEN,
        if *capitalised > 0 { " (a list written in capitals can be loaded with case folded)" } else { "" }
    )]
    Empty {
        /// The name the list was loaded under.
        name: String,
        /// Lines that were skipped because they were not a word of a-z of at
        /// most [`MAX_WORD_LEN`](crate::MAX_WORD_LEN) letters (blank lines and
        /// `#` comments are not counted).
        skipped: usize,
        /// Lines skipped because they have an upper-case letter.
        capitalised: usize,
    },

    /// A pattern given to [`Lexicon::matching`](crate::Lexicon::matching)
    /// held something other than a letter or a joker.
    #[error(
        "bad pattern `{pattern}`: {found:?} (character {}) is neither a letter nor a joker; \
         use a-z for a fixed letter and `?` or `.` for any letter",
        .index + 1
    )]
    BadPattern {
        /// The whole pattern as given.
        pattern: String,
        /// Index (0-based, in characters) of the first bad character.
        index: usize,
        /// The bad character.
        found: char,
    },

    /// The words of the list do not fit the 32-bit offsets used inside.
    #[error(
        "word list `{name}` is too large: {bytes} bytes of words, at most {} are supported",
        u32::MAX
    )]
    TooLarge {
        /// The name the list was loaded under.
        name: String,
        /// Bytes of normalised words (letters plus one separator per word).
        bytes: usize,
    },
}
