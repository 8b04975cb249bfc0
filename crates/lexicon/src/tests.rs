use super::*;
use proptest::prelude::*;

fn lex(words: &[&str]) -> Lexicon {
    Lexicon::from_words("test", words).unwrap().0
}

// ---- embedded lists -------------------------------------------------------

#[test]
fn embedded_counts() {
    // Counts from scripts/build-lexicons with Debian scowl 2020.12.07-2.
    let en = Lexicon::embedded("en").unwrap();
    assert_eq!(en.len(), 111_593);
    assert_eq!(en.name(), "en");
    let large = Lexicon::embedded("en-large").unwrap();
    assert_eq!(large.len(), 242_844);
    assert_eq!(large.name(), "en-large");
    assert_eq!(Lexicon::embedded(DEFAULT).unwrap().len(), 111_593);
    // en is a subset of en-large.
    assert!(en.words().all(|w| large.contains(w)));
}

#[test]
fn embedded_text_is_canonical() {
    for (name, text) in EMBEDDED.iter().zip(EMBEDDED_TEXT) {
        let (lex, report) = Lexicon::from_bytes(*name, text.as_bytes()).unwrap();
        assert_eq!((report.skipped, report.duplicates), (0, 0), "{name}");
        assert_eq!(lex.inner.text, text, "{name} is not sorted, unique, a-z");
    }
}

#[test]
fn compiled_fsts_match_the_text() {
    for (i, name) in EMBEDDED.iter().enumerate() {
        let (runtime, _) = Lexicon::from_bytes(*name, EMBEDDED_TEXT[i].as_bytes()).unwrap();
        let embedded = Lexicon::embedded(name).unwrap();
        assert!(matches!(embedded.inner.fst.as_inner(), Cow::Borrowed(_)));
        assert!(matches!(runtime.inner.fst.as_inner(), Cow::Owned(_)));
        assert_eq!(
            runtime.inner.fst.as_bytes(),
            embedded.inner.fst.as_bytes(),
            "{name}: build.rs made a different FST"
        );
        assert_eq!(runtime.fingerprint(), embedded.fingerprint());
    }
}

#[test]
fn embedded_is_shared_and_unknown_is_an_error() {
    let a = Lexicon::embedded("en").unwrap();
    let b = Lexicon::embedded("en").unwrap();
    assert!(Arc::ptr_eq(&a.inner, &b.inner));
    let err = Lexicon::embedded("EN").unwrap_err();
    assert_eq!(
        err,
        LexiconError::UnknownEmbedded {
            name: "EN".into(),
            known: vec!["en", "en-large"]
        }
    );
    assert_eq!(
        err.to_string(),
        "unknown embedded word list `EN`; the embedded lists are `en`, `en-large` \
         (or load your own list, one word per line)"
    );
}

#[test]
fn golden_examples_en() {
    let en = Lexicon::embedded("en").unwrap();
    assert!(en.contains("tomato") && en.contains("quiz") && en.contains("a"));
    assert!(!en.contains("Tomato") && !en.contains("") && !en.contains("tomatoe"));
    assert!(en.has_substring("omat"));
    let omat = en.words_containing("omat");
    assert!(omat.contains(&"tomato") && omat.contains(&"automatic"));
    assert!(omat.iter().all(|w| w.contains("omat")));
    // Large results take the bit-set path; compare with a scan.
    for s in ["e", "ing", "q"] {
        let want: Vec<&str> = en.words().filter(|w| w.contains(s)).collect();
        assert_eq!(en.words_containing(s), want, "{s}");
    }
    assert!(!en.has_substring("qzx"));
    assert!(en.words_containing("qzx").is_empty());
    assert!(en.formable("retain", 0).contains(&"retina"));
    assert!(en.matching("c?t").unwrap().contains(&"cat"));
    assert!(en.longest().len() >= 20);
    let walk = en.prefix("tomat").unwrap();
    assert!(!walk.is_word() && walk.has_children() && walk.depth() == 5);
    assert!(walk.child(b'o').unwrap().is_word());
    assert!(en.prefix("xq").is_none());
    // Any word of the list is reachable from the root.
    for w in en.words().step_by(997) {
        assert!(en.prefix(w).unwrap().is_word(), "{w}");
    }
}

#[test]
fn fingerprint_is_fnv1a_of_joined_words() {
    let l = lex(&["b", "a"]);
    assert_eq!(l.fingerprint(), fnv1a64(b"a\nb"));
    // Reference value of FNV-1a 64 for "a" (from the FNV test suite).
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_ne!(
        Lexicon::embedded("en").unwrap().fingerprint(),
        Lexicon::embedded("en-large").unwrap().fingerprint()
    );
    // The name plays no part.
    assert_eq!(
        Lexicon::from_words("x", ["a", "b"])
            .unwrap()
            .0
            .fingerprint(),
        l.fingerprint()
    );
}

// ---- loading ---------------------------------------------------------------

#[test]
fn empty_lists_are_errors() {
    let err = Lexicon::from_bytes("blank.txt", b"\n# only a comment\n  \n").unwrap_err();
    assert_eq!(
        err,
        LexiconError::Empty {
            name: "blank.txt".into(),
            skipped: 0,
            capitalised: 0
        }
    );
    let err = Lexicon::from_bytes("bad.txt", b"o'clock\n42\n").unwrap_err();
    assert_eq!(
        err,
        LexiconError::Empty {
            name: "bad.txt".into(),
            skipped: 2,
            capitalised: 0
        }
    );
    assert!(err.to_string().contains("2 lines skipped"));
    assert!(!err.to_string().contains("written in capitals"));
    // A list all in capitals, read by default, says how to read it.
    let err = Lexicon::from_bytes(
        "caps.txt",
        b"CAT
DOG
",
    )
    .unwrap_err();
    assert!(matches!(err, LexiconError::Empty { capitalised: 2, .. }));
    assert!(err.to_string().contains("written in capitals"), "{err}");
    assert!(Lexicon::from_words("none", Vec::<String>::new()).is_err());
}

/// Proper nouns (capitalised entries) are skipped and counted by default;
/// folding reads them, and a list all in capitals loads with folding.
#[test]
fn capitalised_entries() {
    let words = |l: &Lexicon| l.words().map(String::from).collect::<Vec<_>>();
    let list = b"Oslo\nXXL\noslo\ncat\n";
    let (l, report) = Lexicon::from_bytes("t", list).unwrap();
    assert_eq!(words(&l), ["cat", "oslo"]);
    assert_eq!((report.capitalised, report.skipped), (2, 0));
    let (l, report) = Lexicon::from_bytes_with_case("t", list, Case::Fold).unwrap();
    assert_eq!(words(&l), ["cat", "oslo", "xxl"]);
    assert_eq!((report.capitalised, report.duplicates), (0, 1));
    let (l, _) =
        Lexicon::from_words_with_case("t", ["Oslo", "XXL", "oslo", "cat"], Case::Fold).unwrap();
    assert_eq!(words(&l), ["cat", "oslo", "xxl"]);
    let caps = b"CAT\nDOG\nO'CLOCK\n";
    let (l, report) = Lexicon::from_bytes_with_case("t", caps, Case::Fold).unwrap();
    assert_eq!(words(&l), ["cat", "dog"]);
    assert_eq!(report.skipped, 1);
    let (l, _) = Lexicon::from_bytes_with_case("t", caps, Case::Auto).unwrap();
    assert_eq!(words(&l), ["cat", "dog"]);
    // The embedded lists are all lower case: nothing changes for them.
    for (i, name) in EMBEDDED.iter().enumerate() {
        let (_, report) = Lexicon::from_bytes(*name, EMBEDDED_TEXT[i].as_bytes()).unwrap();
        assert_eq!(report.capitalised, 0, "{name}");
    }
}

#[test]
fn load_report_and_names() {
    let (l, report) =
        Lexicon::from_bytes("my.txt", "Cat\ncat\ndog\ncafé\ndog\n".as_bytes()).unwrap();
    assert_eq!(l.name(), "my.txt");
    assert_eq!(l.len(), 2);
    assert!(!l.is_empty());
    assert_eq!(
        report,
        LoadReport {
            words: 2,
            skipped: 1,
            capitalised: 1,
            duplicates: 1,
            first_skipped: Some("café".into()),
            first_capitalised: Some("Cat".into()),
        }
    );
    assert_eq!(
        format!("{l:?}").split(',').next(),
        Some("Lexicon { name: \"my.txt\"")
    );
}

#[test]
fn longest_is_first_in_order() {
    let l = lex(&["zzz", "abc", "ab", "x"]);
    assert_eq!(l.longest(), "abc");
}

// ---- queries on small lists -----------------------------------------------

#[test]
fn cursor_children_are_ascending() {
    let l = lex(&["ab", "ac", "b", "abd"]);
    let root = l.root();
    assert_eq!(root.depth(), 0);
    assert!(!root.is_word() && root.has_children());
    let letters: Vec<u8> = root.children().map(|(b, _)| b).collect();
    assert_eq!(letters, b"ab");
    let a = root.child(b'a').unwrap();
    let kids: Vec<(u8, bool)> = a.children().map(|(b, c)| (b, c.is_word())).collect();
    assert_eq!(kids, [(b'b', true), (b'c', true)]);
    let abd = a.walk(b"bd").unwrap();
    assert!(abd.is_word() && !abd.has_children() && abd.depth() == 3);
    assert!(root.child(b'A').is_none() && root.child(0).is_none());
}

#[test]
fn substring_queries() {
    let l = lex(&["tomato", "potato", "automat", "mat"]);
    assert_eq!(l.words_containing("omat"), ["automat", "tomato"]);
    assert_eq!(
        l.words_containing("at"),
        ["automat", "mat", "potato", "tomato"]
    );
    assert_eq!(l.words_containing("").len(), 4);
    assert_eq!(l.words_containing("tomatoes"), Vec::<&str>::new());
    assert!(l.has_substring("tato"));
    assert!(!l.has_substring("Tato"));
    assert!(!l.has_substring("ta\nto"));
}

#[test]
fn formable_counts_multiplicity() {
    let l = lex(&["a", "aa", "aaa", "ab", "abc", "b"]);
    assert_eq!(l.formable("aa", 0), ["a", "aa"]);
    assert_eq!(l.formable("a", 1), ["a", "aa", "ab", "b"]);
    assert_eq!(l.formable("AB!", 0), ["a", "ab", "b"]);
    assert_eq!(l.formable("", 3).len(), 6);
    assert_eq!(l.formable("", 0), Vec::<&str>::new());
    assert_eq!(l.formable("..", 0), ["a", "aa", "ab", "b"]);
    assert_eq!(l.formable("a", usize::MAX).len(), 6);
}

#[test]
fn matching_patterns() {
    let l = lex(&["cat", "cot", "cut", "coat", "act"]);
    assert_eq!(l.matching("c?t").unwrap(), ["cat", "cot", "cut"]);
    assert_eq!(l.matching("C.T").unwrap(), ["cat", "cot", "cut"]);
    assert_eq!(l.matching("???").unwrap(), ["act", "cat", "cot", "cut"]);
    assert_eq!(l.matching("").unwrap(), Vec::<&str>::new());
    assert_eq!(l.matching("??????????").unwrap(), Vec::<&str>::new());
    let err = l.matching("c_té").unwrap_err();
    assert_eq!(
        err,
        LexiconError::BadPattern {
            pattern: "c_té".into(),
            index: 1,
            found: '_'
        }
    );
    assert_eq!(
        err.to_string(),
        "bad pattern `c_té`: '_' (character 2) is neither a letter nor a joker; \
         use a-z for a fixed letter and `?` or `.` for any letter"
    );
    assert!(matches!(
        l.matching("cat\u{e9}"),
        Err(LexiconError::BadPattern {
            index: 3,
            found: '\u{e9}',
            ..
        })
    ));
}

#[test]
fn lexicon_is_send_sync_and_cheap_to_clone() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Lexicon>();
    fn assert_copy<T: Copy + Send + Sync>() {}
    assert_copy::<Cursor<'static>>();
    let l = lex(&["a"]);
    let m = l.clone();
    assert!(Arc::ptr_eq(&l.inner, &m.inner));
    // The substring index is built once and shared by clones and threads.
    std::thread::scope(|s| {
        s.spawn(|| assert!(m.has_substring("a")));
    });
    assert!(l.inner.suffixes.get().is_some());
}

// ---- properties: every query against a naive scan ------------------------

/// Small lists over a small alphabet, so that queries often hit.
fn small_words() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[a-e]{1,6}", 1..40)
}

fn naive(words: &[String]) -> Vec<String> {
    let mut w = words.to_vec();
    w.sort();
    w.dedup();
    w
}

fn naive_formable(word: &str, letters: &str, blanks: usize) -> bool {
    let mut have = [0usize; 26];
    for b in letters.bytes() {
        have[usize::from(b - b'a')] += 1;
    }
    let mut missing = 0;
    for b in word.bytes() {
        let k = usize::from(b - b'a');
        if have[k] > 0 {
            have[k] -= 1;
        } else {
            missing += 1;
        }
    }
    missing <= blanks
}

proptest! {
    #[test]
    fn words_and_membership_match_naive(words in small_words(), probe in "[a-f]{0,7}") {
        let (l, report) = Lexicon::from_words("p", &words).unwrap();
        let want = naive(&words);
        prop_assert_eq!(l.words().collect::<Vec<_>>(), want.iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(report.words, want.len());
        prop_assert_eq!(report.duplicates, words.len() - want.len());
        prop_assert_eq!(l.contains(&probe), want.contains(&probe));
        for w in &want {
            prop_assert!(l.contains(w));
        }
        let longest = want.iter().fold(&want[0], |a, w| if w.len() > a.len() { w } else { a });
        prop_assert_eq!(l.longest(), longest.as_str());
        prop_assert_eq!(l.fingerprint(), fnv1a64(want.join("\n").as_bytes()));
    }

    #[test]
    fn cursor_matches_naive(words in small_words(), probe in "[a-f]{0,7}") {
        let l = lex(&words.iter().map(String::as_str).collect::<Vec<_>>());
        let want = naive(&words);
        let mut cursor = Some(l.root());
        for (depth, end) in (0..=probe.len()).enumerate() {
            let prefix = &probe[..end];
            let starts = want.iter().any(|w| w.starts_with(prefix));
            prop_assert_eq!(cursor.is_some(), starts, "prefix {:?}", prefix);
            let Some(c) = cursor else { break };
            prop_assert_eq!(c.depth(), depth);
            prop_assert_eq!(c.is_word(), want.iter().any(|w| w == prefix));
            prop_assert_eq!(c.has_children(), want.iter().any(|w| w.len() > prefix.len() && w.starts_with(prefix)));
            let kids: Vec<u8> = c.children().map(|(b, _)| b).collect();
            let mut naive_kids: Vec<u8> = want.iter()
                .filter(|w| w.len() > prefix.len() && w.starts_with(prefix))
                .map(|w| w.as_bytes()[prefix.len()]).collect();
            naive_kids.dedup();
            prop_assert_eq!(kids, naive_kids);
            cursor = probe.as_bytes().get(end).and_then(|&b| c.child(b));
        }
    }

    #[test]
    fn substrings_match_naive(words in small_words(), probe in "[a-f]{0,4}") {
        let l = lex(&words.iter().map(String::as_str).collect::<Vec<_>>());
        let want: Vec<String> = naive(&words).into_iter().filter(|w| w.contains(&probe)).collect();
        prop_assert_eq!(l.has_substring(&probe), !want.is_empty());
        prop_assert_eq!(l.count_words_containing(&probe), want.len());
        prop_assert_eq!(l.words_containing(&probe), want);
    }

    #[test]
    fn formable_matches_naive(words in small_words(), letters in "[a-f]{0,6}", blanks in 0usize..3) {
        let l = lex(&words.iter().map(String::as_str).collect::<Vec<_>>());
        let want: Vec<String> = naive(&words).into_iter().filter(|w| naive_formable(w, &letters, blanks)).collect();
        prop_assert_eq!(l.formable(&letters, blanks), want);
    }

    #[test]
    fn matching_matches_naive(words in small_words(), pattern in "[a-e?.]{0,6}") {
        let l = lex(&words.iter().map(String::as_str).collect::<Vec<_>>());
        let want: Vec<String> = naive(&words).into_iter().filter(|w| {
            w.len() == pattern.len()
                && w.bytes().zip(pattern.bytes()).all(|(c, p)| p == b'?' || p == b'.' || p == c)
        }).collect();
        prop_assert_eq!(l.matching(&pattern).unwrap(), want);
    }

    /// Loading never panics on arbitrary bytes, and what it keeps is canonical.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_arbitrary(&bytes)?;
    }

    /// `from_words` never panics on arbitrary strings either, and agrees
    /// with `from_bytes` on the same lines (but for a leading byte order
    /// mark, which only `from_bytes` drops).
    #[test]
    fn arbitrary_words_never_panic(items in prop::collection::vec(any::<String>(), 0..20)) {
        let lines: Vec<String> = items
            .iter()
            .filter(|s| !s.contains('\n') && !s.starts_with('\u{feff}'))
            .cloned()
            .collect();
        let by_words = Lexicon::from_words("w", &lines);
        let by_bytes = Lexicon::from_bytes("w", lines.join("\n").as_bytes());
        match (by_words, by_bytes) {
            (Ok((a, ra)), Ok((b, rb))) => {
                prop_assert_eq!(a.fingerprint(), b.fingerprint());
                prop_assert_eq!(ra, rb);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "from_words {:?} but from_bytes {:?}", a, b),
        }
    }

    /// The same with bytes biased towards letters, new lines and comments, so
    /// that words are actually kept.
    #[test]
    fn wordy_bytes_never_panic(bytes in prop::collection::vec(
        prop::sample::select(b"abcAB#\n\r \t'\xFF\xC3\xA9".to_vec()), 0..200)) {
        check_arbitrary(&bytes)?;
    }
}

fn check_arbitrary(bytes: &[u8]) -> Result<(), TestCaseError> {
    let lines = bytes.split(|&b| b == b'\n' || b == b'\r').count();
    match Lexicon::from_bytes("fuzz", bytes) {
        Ok((l, report)) => {
            let words: Vec<&str> = l.words().collect();
            prop_assert!(!words.is_empty());
            prop_assert!(words.windows(2).all(|p| p[0] < p[1]));
            prop_assert!(words
                .iter()
                .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())));
            prop_assert_eq!(report.words, words.len());
            prop_assert!(
                report.words + report.skipped + report.capitalised + report.duplicates <= lines
            );
            prop_assert_eq!(report.skipped > 0, report.first_skipped.is_some());
            prop_assert_eq!(report.capitalised > 0, report.first_capitalised.is_some());
            for w in words {
                prop_assert!(l.contains(w) && l.has_substring(w));
            }
        }
        Err(LexiconError::Empty {
            skipped,
            capitalised,
            ..
        }) => prop_assert!(skipped + capitalised <= lines),
        Err(e) => prop_assert!(false, "unexpected error {e}"),
    }
    Ok(())
}

#[test]
fn every_line_ending_reads_the_same_words() {
    for text in [
        &b"cat\ndog\nbird\n"[..],
        b"cat\r\ndog\r\nbird\r\n",
        b"cat\rdog\rbird\r",
        b"\xEF\xBB\xBFcat\r\n\r\ndog\rbird",
    ] {
        let (lex, report) = Lexicon::from_bytes("t", text).unwrap();
        assert_eq!(
            lex.words().collect::<Vec<_>>(),
            ["bird", "cat", "dog"],
            "{text:?}"
        );
        assert_eq!(report.skipped, 0, "{text:?}");
    }
}
