//! Turning outside text into the canonical word list: one lowercase a-z word
//! per line, sorted byte-wise, no duplicates.

use std::fmt;

/// What loading does with an entry that has an upper-case letter (`Oslo`,
/// `XXL`, `CAT`).
///
/// The games' rules exclude proper nouns, and a list that marks them does
/// so with a capital: by default such entries are skipped and counted
/// ([`LoadReport::capitalised`]). A list written all in capitals has no
/// way to mark them; load it with [`Case::Fold`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Case {
    /// Skip every entry with an upper-case letter (the default).
    #[default]
    SkipCapitalised,
    /// Lowercase every entry (for a list written in capitals).
    Fold,
    /// Fold when every entry made of letters is all upper case (a list
    /// written in capitals), else skip the capitalised ones: what a host
    /// does with a list it cannot ask about.
    Auto,
}

impl Case {
    /// `Fold` or `SkipCapitalised`: what `Auto` means for these lines.
    pub(crate) fn resolve<'a>(self, lines: impl IntoIterator<Item = &'a [u8]>) -> Case {
        if self != Case::Auto {
            return self;
        }
        let mut any = false;
        for line in lines {
            let line = line.trim_ascii();
            if line.is_empty() || line[0] == b'#' || !line.iter().all(u8::is_ascii_alphabetic) {
                continue;
            }
            if line.iter().any(u8::is_ascii_lowercase) {
                return Case::SkipCapitalised;
            }
            any = true;
        }
        if any {
            Case::Fold
        } else {
            Case::SkipCapitalised
        }
    }
}

/// What happened while loading a word list.
///
/// Nothing is dropped silently: every line that was not blank, not a `#`
/// comment and not a word of a-z is counted, in `capitalised` when it is
/// letters only with a capital (skipped unless case is folded, see
/// [`Case`]), else in `skipped`, and the first of each is kept so that a
/// caller can show it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Distinct words in the loaded list (equals [`Lexicon::len`](crate::Lexicon::len)).
    pub words: usize,
    /// Lines skipped because, after trimming, they held something other
    /// than the letters A-Z and a-z (digits, apostrophes, spaces, accented
    /// letters, invalid UTF-8, ...) or more than [`MAX_WORD_LEN`] letters.
    pub skipped: usize,
    /// Lines of letters only with an upper-case letter (`Oslo`, `XXL`),
    /// skipped as proper nouns; 0 when case is folded ([`Case::Fold`]).
    pub capitalised: usize,
    /// Lines that repeated a word already seen (after folding case).
    pub duplicates: usize,
    /// The first skipped line, trimmed, lossily decoded as UTF-8 and cut to
    /// at most [`FIRST_SKIPPED_MAX`] characters.
    pub first_skipped: Option<String>,
    /// The first capitalised line skipped.
    pub first_capitalised: Option<String>,
}

/// The longest word a list may hold, in letters; longer lines are skipped
/// and counted like any other line that is not a word. (The longest word in
/// the embedded lists has 45 letters; the bound keeps every query, and the
/// suffix array build, linear in the size of the list whatever the input.)
pub const MAX_WORD_LEN: usize = 64;

/// Longest `first_skipped` kept in a [`LoadReport`], in characters.
pub const FIRST_SKIPPED_MAX: usize = 80;

impl fmt::Display for LoadReport {
    /// `"111593 words, 2 skipped (first: \"o'clock\"), 40 capitalised
    /// skipped (first: \"Oslo\"), 5 duplicates"`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} words", self.words)?;
        if self.skipped > 0 {
            write!(f, ", {} skipped", self.skipped)?;
            if let Some(first) = &self.first_skipped {
                write!(f, " (first: {first:?})")?;
            }
        }
        if self.capitalised > 0 {
            write!(f, ", {} capitalised skipped", self.capitalised)?;
            if let Some(first) = &self.first_capitalised {
                write!(f, " (first: {first:?})")?;
            }
        }
        if self.duplicates > 0 {
            write!(f, ", {} duplicates", self.duplicates)?;
        }
        Ok(())
    }
}

/// Collects normalised words line by line.
#[derive(Default)]
pub(crate) struct Builder {
    /// Normalised words back to back, without separators.
    buf: Vec<u8>,
    /// `(start, len)` of each accepted word in `buf`, in input order.
    spans: Vec<(usize, usize)>,
    /// Whether `spans` is strictly ascending so far (then no sort is needed).
    sorted: bool,
    /// Whether upper case is folded (else capitalised lines are skipped);
    /// `Auto` is resolved before lines are pushed.
    fold: bool,
    pub(crate) report: LoadReport,
}

/// The lines of a file: they end with `\n`, `\r\n` or a lone `\r` (old
/// Mac files; the empty piece between `\r` and `\n` is a blank line); a
/// UTF-8 byte order mark at the very start is ignored.
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.split(|&b| b == b'\n' || b == b'\r')
}

/// `line` trimmed, lossily decoded as UTF-8 and cut for a report.
fn shown(line: &[u8]) -> String {
    String::from_utf8_lossy(line)
        .chars()
        .take(FIRST_SKIPPED_MAX)
        .collect()
}

impl Builder {
    /// A builder that folds upper case when `case` is [`Case::Fold`] and
    /// skips capitalised lines otherwise (resolve [`Case::Auto`] first).
    pub(crate) fn new(case: Case) -> Self {
        Builder {
            sorted: true,
            fold: case == Case::Fold,
            ..Builder::default()
        }
    }

    /// Feeds a whole file, line by line (see [`lines`]).
    pub(crate) fn push_text(&mut self, bytes: &[u8]) {
        for line in lines(bytes) {
            self.push_line(line);
        }
    }

    /// Feeds one line (or one word): trims ASCII white space, ignores it when
    /// blank or a `#` comment, and keeps it if it is made of ASCII letters
    /// only, at most [`MAX_WORD_LEN`] of them, and either has no upper-case
    /// letter or case is folded (lowercased); otherwise counts it as
    /// skipped or capitalised.
    pub(crate) fn push_line(&mut self, line: &[u8]) {
        let line = line.trim_ascii();
        if line.is_empty() || line[0] == b'#' {
            return;
        }
        if line.len() > MAX_WORD_LEN || !line.iter().all(u8::is_ascii_alphabetic) {
            self.report.skipped += 1;
            if self.report.first_skipped.is_none() {
                self.report.first_skipped = Some(shown(line));
            }
            return;
        }
        if !self.fold && line.iter().any(u8::is_ascii_uppercase) {
            self.report.capitalised += 1;
            if self.report.first_capitalised.is_none() {
                self.report.first_capitalised = Some(shown(line));
            }
            return;
        }
        let start = self.buf.len();
        self.buf.extend(line.iter().map(u8::to_ascii_lowercase));
        let span = (start, line.len());
        if let Some(&(ps, pl)) = self.spans.last() {
            if self.sorted && self.buf[ps..ps + pl] > self.buf[start..] {
                self.sorted = false;
            }
        }
        self.spans.push(span);
    }

    /// The canonical text (`word\n` for every distinct word, ascending) and
    /// the report. Duplicates are counted here.
    pub(crate) fn finish(mut self) -> (String, LoadReport) {
        let buf = &self.buf;
        let word = |&(s, l): &(usize, usize)| &buf[s..s + l];
        if !self.sorted {
            self.spans.sort_unstable_by(|a, b| word(a).cmp(word(b)));
        }
        let mut text = Vec::with_capacity(buf.len() + self.spans.len());
        let mut previous: Option<&[u8]> = None;
        let mut duplicates = 0;
        let mut words = 0;
        for span in &self.spans {
            let w = word(span);
            if previous == Some(w) {
                duplicates += 1;
                continue;
            }
            previous = Some(w);
            text.extend_from_slice(w);
            text.push(b'\n');
            words += 1;
        }
        self.report.words = words;
        self.report.duplicates = duplicates;
        // Only a-z and '\n' were pushed.
        let text = String::from_utf8(text).expect("normalised words are ASCII");
        (text, self.report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_as(bytes: &[u8], case: Case) -> (String, LoadReport) {
        let mut b = Builder::new(case.resolve(lines(bytes)));
        b.push_text(bytes);
        b.finish()
    }

    fn load(bytes: &[u8]) -> (String, LoadReport) {
        load_as(bytes, Case::Fold)
    }

    #[test]
    fn normalises_sorts_and_counts() {
        let (text, report) = load(
            b"\xEF\xBB\xBF# a comment\r\nZebra\r\n  apple \n\n\tApple\nit's\nna\xC3\xAFve\nbad\xFF\nzebra\n   # indented comment\nCAT",
        );
        assert_eq!(text, "apple\ncat\nzebra\n");
        assert_eq!(
            report,
            LoadReport {
                words: 3,
                skipped: 3,
                duplicates: 2,
                first_skipped: Some("it's".to_string()),
                ..LoadReport::default()
            }
        );
        assert_eq!(
            report.to_string(),
            "3 words, 3 skipped (first: \"it's\"), 2 duplicates"
        );
    }

    #[test]
    fn capitalised_entries_are_skipped_unless_folded() {
        let list = b"Oslo\nXXL\noslo\ncat\nit's\n";
        let (text, report) = load_as(list, Case::SkipCapitalised);
        assert_eq!(text, "cat\noslo\n");
        assert_eq!((report.capitalised, report.skipped), (2, 1));
        assert_eq!(report.first_capitalised.as_deref(), Some("Oslo"));
        assert_eq!(
            report.to_string(),
            "2 words, 1 skipped (first: \"it's\"), 2 capitalised skipped (first: \"Oslo\")"
        );
        let (text, report) = load_as(list, Case::Fold);
        assert_eq!(text, "cat\noslo\nxxl\n");
        assert_eq!((report.capitalised, report.duplicates), (0, 1));
        // Auto: a list with a lower-case entry keeps the default.
        assert_eq!(load_as(list, Case::Auto).0, "cat\noslo\n");
        // Auto: a list all in capitals is folded.
        let (text, report) = load_as(b"# CAPS\nOSLO\nXXL\nCAT\nIT'S\n", Case::Auto);
        assert_eq!(text, "cat\noslo\nxxl\n");
        assert_eq!((report.capitalised, report.skipped), (0, 1));
    }

    #[test]
    fn invalid_utf8_is_reported_lossily() {
        let (text, report) = load(b"\xFFab\nok");
        assert_eq!(text, "ok\n");
        assert_eq!(report.skipped, 1);
        assert_eq!(report.first_skipped.as_deref(), Some("\u{FFFD}ab"));
    }

    #[test]
    fn first_skipped_is_cut() {
        let long = "x1".repeat(100);
        let (_, report) = load(long.as_bytes());
        assert_eq!(
            report.first_skipped.unwrap().chars().count(),
            FIRST_SKIPPED_MAX
        );
    }

    #[test]
    fn overlong_words_are_skipped() {
        let ok = "a".repeat(MAX_WORD_LEN);
        let long = "b".repeat(MAX_WORD_LEN + 1);
        let (text, report) = load(format!("{ok}\n{long}\n").as_bytes());
        assert_eq!(text, format!("{ok}\n"));
        assert_eq!(report.skipped, 1);
    }

    #[test]
    fn sorted_input_stays_sorted_and_dedups() {
        let (text, report) = load(b"a\na\nb\nc\nc\nc");
        assert_eq!(text, "a\nb\nc\n");
        assert_eq!(report.duplicates, 3);
    }
}
