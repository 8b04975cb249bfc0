//! Text that other people are shown (display names, chat lines, a word
//! list's name): what it may not hold.
//!
//! A character that changes how the text around it is drawn without
//! being seen itself lets one name pass for another: a right-to-left
//! override (U+202E) shows `Ann\u{202E}gnp.exe` as `Annexe.png`, a zero
//! width space (U+200B) or a byte order mark (U+FEFF) makes two names
//! that look the same differ, a line separator (U+2028) breaks a line
//! where a name should be one. So such characters are refused, where
//! they are given, with a message naming the first one found:
//!
//! - controls (general category Cc: line breaks, tabs, escapes);
//! - format characters (Cf): the bidirectional marks, embeddings,
//!   overrides and isolates (U+061C, U+200E-U+200F, U+202A-U+202E,
//!   U+2066-U+2069), zero width characters (U+200B-U+200D, U+2060-U+2064,
//!   U+FEFF), the soft hyphen, tag characters;
//! - the line and paragraph separators (Zl, Zp: U+2028, U+2029);
//! - private use characters (Co), which draw as whatever a font puts there;
//! - the invisible letters and marks that are default ignorable without
//!   being format characters (the Hangul fillers, U+034F, U+17B4-U+17B5,
//!   U+180B-U+180F).
//!
//! One exception: a zero width joiner (U+200D) between two emoji is how
//! emoji such as 👩‍💻 are written, and it is allowed there (and only there).
//!
//! The general categories come from the `unicode-properties` crate's
//! tables, so they follow the Unicode version it was built from.

use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};

/// The first character of `text` that is not allowed in text shown to
/// others (see the module's documentation), with its position in
/// characters.
pub(crate) fn hidden_char(text: &str) -> Option<(usize, char)> {
    let mut prev: Option<char> = None;
    let mut chars = text.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        if c == '\u{200D}' && prev.is_some_and(joins) && next.is_some_and(is_emoji) {
            prev = Some(c);
            continue;
        }
        if refused(c) {
            return Some((i, c));
        }
        prev = Some(c);
    }
    None
}

/// A one-line description of a refused character: its code point, what
/// it is when it has a well-known name, and where it stands.
pub(crate) fn describe(at: usize, c: char) -> String {
    let what = match c {
        '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{061C}' => " (a bidirectional control)",
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' => {
            " (an invisible character)"
        }
        '\u{2028}' | '\u{2029}' => " (a line or paragraph separator)",
        c if c.is_control() => " (a control character)",
        _ => "",
    };
    format!(
        "U+{:04X}{what} at character {}",
        u32::from(c),
        at.saturating_add(1)
    )
}

fn refused(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
    ) || matches!(
        c,
        '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'
            ..='\u{180F}' | '\u{3164}' | '\u{FFA0}'
    )
}

/// Whether an emoji sequence can go on after `c` with a joiner: an emoji,
/// a skin tone (an emoji itself) or a presentation selector after one.
fn joins(c: char) -> bool {
    is_emoji(c) || c == '\u{FE0F}'
}

/// An emoji proper: not the digits, `#` and `*` that are emoji only when
/// a selector follows them.
fn is_emoji(c: char) -> bool {
    !c.is_ascii() && c.is_emoji_char()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_controls_and_invisible_characters_are_found() {
        for (text, at, c) in [
            ("Ann\u{202E}gnp.exe", 3, '\u{202E}'),
            ("\u{2067}Bea\u{2069}", 0, '\u{2067}'),
            ("Bea\u{2069}", 3, '\u{2069}'),
            ("Be\u{200B}a", 2, '\u{200B}'),
            ("\u{FEFF}Bea", 0, '\u{FEFF}'),
            ("Bea\u{2028}Cy", 3, '\u{2028}'),
            ("Bea\u{2029}", 3, '\u{2029}'),
            ("B\u{200E}ea", 1, '\u{200E}'),
            ("Be\u{00AD}a", 2, '\u{00AD}'),
            ("\u{3164}", 0, '\u{3164}'),
            ("Bea\u{E000}", 3, '\u{E000}'),
            ("Bea\n", 3, '\n'),
            ("a\u{200D}b", 1, '\u{200D}'),
            ("👩\u{200D}", 1, '\u{200D}'),
        ] {
            assert_eq!(hidden_char(text), Some((at, c)), "{text:?}");
        }
    }

    #[test]
    fn ordinary_names_and_emoji_sequences_pass() {
        for text in [
            "Bea",
            "Zoë Ångström",
            "Łukasz",
            "שלום",
            "مرحبا",
            "日本語",
            "👍",
            "👩\u{200D}💻 coder",
            "👨\u{200D}👩\u{200D}👧",
            "❤\u{FE0F}\u{200D}🔥",
            "👋🏽",
            "e\u{0301}",
        ] {
            assert_eq!(hidden_char(text), None, "{text:?}");
        }
    }

    #[test]
    fn a_refusal_says_what_and_where() {
        assert_eq!(
            describe(3, '\u{202E}'),
            "U+202E (a bidirectional control) at character 4"
        );
        assert_eq!(
            describe(0, '\u{FEFF}'),
            "U+FEFF (an invisible character) at character 1"
        );
    }
}
