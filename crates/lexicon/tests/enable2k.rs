//! Loads ENABLE2K, the public-domain list most Boggle research uses, from
//! the shared test lists (`../shared/dicts/enable2k.txt` beside the
//! repository, or `$PARLOR_DICTS/enable2k.txt`). The list is not in the
//! repository; without it these tests pass with a note on stderr.

use parlor_lexicon::Lexicon;
use std::path::PathBuf;

fn enable2k() -> Option<Vec<u8>> {
    let dir = std::env::var_os("PARLOR_DICTS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/dicts"),
        PathBuf::from,
    );
    let path = dir.join("enable2k.txt");
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("skipping: cannot read {}: {e}", path.display());
            None
        }
    }
}

#[test]
fn loads_enable2k_with_crlf_line_ends() {
    let Some(bytes) = enable2k() else { return };
    let (lex, report) = Lexicon::from_bytes("enable2k", &bytes).unwrap();
    // 173,528 lines, every one a lowercase word, `\r\n` line ends.
    assert_eq!(report.words, 173_528);
    assert_eq!((report.skipped, report.duplicates), (0, 0));
    assert_eq!(lex.len(), 173_528);
    assert_eq!(lex.words().next(), Some("aa"));
    assert_eq!(lex.longest().len(), 28);
    assert!(
        lex.contains("quiz")
            && !lex.contains("qi")
            && lex.contains("tomato")
            && !lex.contains("tomatoe")
    );
}

#[test]
fn enable2k_queries_agree_with_a_scan() {
    let Some(bytes) = enable2k() else { return };
    let (lex, _) = Lexicon::from_bytes("enable2k", &bytes).unwrap();
    let words: Vec<&str> = lex.words().collect();
    for s in ["omat", "qu", "zz", "ing", "x"] {
        let want: Vec<&str> = words.iter().copied().filter(|w| w.contains(s)).collect();
        assert_eq!(lex.words_containing(s), want, "{s}");
        assert_eq!(lex.has_substring(s), !want.is_empty());
    }
    for pattern in ["q??", "..a..e", "?????????????????"] {
        let want: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| {
                w.len() == pattern.len()
                    && w.bytes()
                        .zip(pattern.bytes())
                        .all(|(c, p)| p == b'?' || p == b'.' || c == p)
            })
            .collect();
        assert_eq!(lex.matching(pattern).unwrap(), want, "{pattern}");
    }
    let cat = lex.formable("cat", 0);
    assert_eq!(cat, ["act", "at", "cat", "ta"]);
}
