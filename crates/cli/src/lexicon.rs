//! `parlor lexicon`: look at a word list and ask it questions.
//!
//! Every subcommand takes the usual `--dict PATH` / `--lexicon NAME` options
//! (see [`crate::dict`]) and prints one result per line, or JSON with
//! `--json`.

use crate::dict::DictArgs;
use anyhow::{bail, Context, Result};
use parlor_lexicon::{Lexicon, LoadReport};
use serde_json::json;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

/// Word lists: information, membership, substring, pattern and anagram queries.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Name, word count, longest word and fingerprint of a word list
    /// (and the lines skipped when it is read from a file).
    Info(InfoArgs),
    /// Whether each WORD is in the list; exit status 1 if any is not.
    Check(CheckArgs),
    /// The words that contain SUBSTRING, one per line.
    Contains(ContainsArgs),
    /// The words that fit PATTERN: `?` or `.` for any letter, a-z for itself.
    Pattern(PatternArgs),
    /// The words that can be spelt from LETTERS (each used once), plus blanks.
    Formable(FormableArgs),
}

#[derive(clap::Args, Debug)]
struct InfoArgs {
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Words to look up (case does not matter).
    #[arg(value_name = "WORD", required = true)]
    words: Vec<String>,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct ContainsArgs {
    /// Letters a-z (case does not matter) to find inside words.
    #[arg(value_name = "SUBSTRING")]
    substring: String,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct PatternArgs {
    /// One character per letter: `?` or `.` for any letter, a-z for itself
    /// (e.g. `c?t` or `..a..e`).
    #[arg(value_name = "PATTERN")]
    pattern: String,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct FormableArgs {
    /// The letters available, each usable once (`?` counts as a blank).
    #[arg(value_name = "LETTERS")]
    letters: String,
    /// Blanks that stand for any letter, on top of LETTERS.
    #[arg(long, short = 'w', value_name = "N", default_value_t = 0)]
    wildcards: usize,
    #[command(flatten)]
    dict: DictArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `parlor lexicon ...`.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut out = io::stdout().lock();
    let result = dispatch(args.cmd, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        // A closed pipe (`parlor lexicon contains e | head`) ends quietly.
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        other => other,
    }
}

fn dispatch(cmd: Cmd, out: &mut impl Write) -> Result<ExitCode> {
    match cmd {
        Cmd::Info(a) => info(&a, out),
        Cmd::Check(a) => check(&a, out),
        Cmd::Contains(a) => contains(&a, out),
        Cmd::Pattern(a) => pattern(&a, out),
        Cmd::Formable(a) => formable(&a, out),
    }
}

/// Loads the list; from a file, keeps the load report instead of printing it.
fn load_with_report(dict: &DictArgs) -> Result<(Arc<Lexicon>, Option<LoadReport>)> {
    let Some(path) = &dict.dict else {
        return Ok((dict.load()?, None));
    };
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read word list {}", path.display()))?;
    let (lexicon, report) =
        Lexicon::from_bytes_with_case(path.display().to_string(), &bytes, dict.case())
            .with_context(|| format!("cannot use word list {}", path.display()))?;
    Ok((Arc::new(lexicon), Some(report)))
}

/// Lowercases `s` and checks it is made of a-z only.
fn letters(what: &str, s: &str) -> Result<String> {
    let lower = s.to_ascii_lowercase();
    if let Some(bad) = lower.chars().find(|c| !c.is_ascii_lowercase()) {
        bail!("{what} {s:?} holds {bad:?}; use the letters a-z only");
    }
    Ok(lower)
}

fn write_json(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

fn write_words(out: &mut impl Write, words: &[&str]) -> io::Result<()> {
    for w in words {
        writeln!(out, "{w}")?;
    }
    Ok(())
}

fn info(a: &InfoArgs, out: &mut impl Write) -> Result<ExitCode> {
    let (lex, report) = load_with_report(&a.dict)?;
    let fingerprint = format!("{:016x}", lex.fingerprint());
    if a.json {
        let mut v = json!({
            "name": lex.name(),
            "words": lex.len(),
            "longest": lex.longest(),
            "fingerprint": fingerprint,
        });
        if let Some(r) = &report {
            v["skipped"] = json!(r.skipped);
            v["capitalised"] = json!(r.capitalised);
            v["duplicates"] = json!(r.duplicates);
            v["first_skipped"] = json!(r.first_skipped);
            v["first_capitalised"] = json!(r.first_capitalised);
        }
        write_json(out, &v)?;
    } else {
        writeln!(out, "name:        {}", lex.name())?;
        writeln!(out, "words:       {}", lex.len())?;
        writeln!(
            out,
            "longest:     {} ({} letters)",
            lex.longest(),
            lex.longest().len()
        )?;
        writeln!(out, "fingerprint: {fingerprint}")?;
        if let Some(r) = &report {
            write!(out, "skipped:     {}", r.skipped)?;
            match &r.first_skipped {
                Some(first) => writeln!(out, " (first: {first:?})")?,
                None => writeln!(out)?,
            }
            write!(out, "capitalised: {}", r.capitalised)?;
            match &r.first_capitalised {
                Some(first) => writeln!(out, " skipped as proper nouns (first: {first:?})")?,
                None if a.dict.fold_case => writeln!(out, " (case folded)")?,
                None => writeln!(out)?,
            }
            writeln!(out, "duplicates:  {}", r.duplicates)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn check(a: &CheckArgs, out: &mut impl Write) -> Result<ExitCode> {
    let lex = a.dict.load()?;
    let results: Vec<(&str, bool)> = a
        .words
        .iter()
        .map(|w| (w.as_str(), lex.contains(&w.trim().to_ascii_lowercase())))
        .collect();
    if a.json {
        let v: Vec<_> = results
            .iter()
            .map(|&(word, found)| json!({ "word": word, "in_list": found }))
            .collect();
        write_json(out, &json!({ "lexicon": lex.name(), "results": v }))?;
    } else {
        for &(word, found) in &results {
            writeln!(out, "{word}\t{}", if found { "yes" } else { "no" })?;
        }
    }
    Ok(if results.iter().all(|&(_, found)| found) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn contains(a: &ContainsArgs, out: &mut impl Write) -> Result<ExitCode> {
    let s = letters("substring", &a.substring)?;
    let lex = a.dict.load()?;
    let words = lex.words_containing(&s);
    if a.json {
        write_json(
            out,
            &json!({ "lexicon": lex.name(), "substring": s, "count": words.len(), "words": words }),
        )?;
    } else {
        write_words(out, &words)?;
        if words.is_empty() {
            eprintln!("parlor: no word of {} contains {s:?}", lex.name());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn pattern(a: &PatternArgs, out: &mut impl Write) -> Result<ExitCode> {
    let lex = a.dict.load()?;
    let words = lex.matching(&a.pattern)?;
    if a.json {
        write_json(
            out,
            &json!({ "lexicon": lex.name(), "pattern": a.pattern, "count": words.len(), "words": words }),
        )?;
    } else {
        write_words(out, &words)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn formable(a: &FormableArgs, out: &mut impl Write) -> Result<ExitCode> {
    let rack: String = a
        .letters
        .chars()
        .filter(|&c| c != '?' && c != '.')
        .collect();
    let blanks = a.letters.len() - rack.len();
    let rack = letters("letters", &rack)?;
    let lex = a.dict.load()?;
    let words = lex.formable(&rack, a.wildcards.saturating_add(blanks));
    if a.json {
        write_json(
            out,
            &json!({
                "lexicon": lex.name(),
                "letters": rack,
                "wildcards": a.wildcards.saturating_add(blanks),
                "count": words.len(),
                "words": words,
            }),
        )?;
    } else {
        write_words(out, &words)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    /// Runs `parlor lexicon ARGS...` into a buffer: (exit code, stdout).
    fn lexicon(args: &[&str]) -> Result<(ExitCode, String)> {
        let cli = Cli::try_parse_from(std::iter::once("lexicon").chain(args.iter().copied()))?;
        let mut out = Vec::new();
        let code = dispatch(cli.args.cmd, &mut out)?;
        Ok((code, String::from_utf8(out)?))
    }

    #[test]
    fn info_text_and_json() {
        let (code, out) = lexicon(&["info"]).unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(out.contains("name:        en\n") && out.contains("words:       111593\n"));
        let (_, out) = lexicon(&["info", "--lexicon", "en-large", "--json"]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["words"], 242_844);
        assert_eq!(v["name"], "en-large");
    }

    #[test]
    fn info_from_a_file_reports_skipped_lines() {
        let path =
            std::env::temp_dir().join(format!("parlor-lexicon-test-{}.txt", std::process::id()));
        std::fs::write(&path, "zebra\napple\n# comment\nit's\napple\nOslo\nXXL\n").unwrap();
        let file = path.to_str().unwrap();
        let (_, out) = lexicon(&["info", "--dict", file, "--json"]).unwrap();
        let (_, text) = lexicon(&["info", "--dict", file]).unwrap();
        let (_, folded) = lexicon(&["info", "--dict", file, "--fold-case", "--json"]).unwrap();
        std::fs::remove_file(&path).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["words"], 2);
        assert_eq!(v["skipped"], 1);
        assert_eq!(v["capitalised"], 2);
        assert_eq!(v["duplicates"], 1);
        assert_eq!(v["first_skipped"], "it's");
        assert_eq!(v["first_capitalised"], "Oslo");
        assert_eq!(v["longest"], "apple");
        assert!(
            text.contains("capitalised: 2 skipped as proper nouns (first: \"Oslo\")\n"),
            "{text}"
        );
        let v: serde_json::Value = serde_json::from_str(&folded).unwrap();
        assert_eq!(
            (v["words"].as_u64(), v["capitalised"].as_u64()),
            (Some(4), Some(0))
        );
    }

    #[test]
    fn fold_case_needs_a_file() {
        assert!(lexicon(&["info", "--fold-case"]).is_err());
    }

    #[test]
    fn check_exit_status() {
        let (code, out) = lexicon(&["check", "Tomato", "cat"]).unwrap();
        assert_eq!(
            (code, out.as_str()),
            (ExitCode::SUCCESS, "Tomato\tyes\ncat\tyes\n")
        );
        let (code, out) = lexicon(&["check", "cat", "qzx"]).unwrap();
        assert_eq!(
            (code, out.as_str()),
            (ExitCode::from(1), "cat\tyes\nqzx\tno\n")
        );
        assert!(lexicon(&["check"]).is_err());
    }

    #[test]
    fn contains_pattern_formable() {
        let (_, out) = lexicon(&["contains", "OMAT"]).unwrap();
        assert!(out.lines().any(|w| w == "tomato"));
        assert!(out.lines().all(|w| w.contains("omat")));
        let err = lexicon(&["contains", "o'm"]).unwrap_err();
        assert!(
            err.to_string().contains("use the letters a-z only"),
            "{err}"
        );
        let (_, out) = lexicon(&["pattern", "qu?z"]).unwrap();
        assert_eq!(out, "quiz\n");
        assert!(lexicon(&["pattern", "qu*z"]).is_err());
        let (_, out) = lexicon(&["formable", "tac", "--json"]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["words"].as_array().unwrap().contains(&"cat".into()));
        let (_, one) = lexicon(&["formable", "tac", "-w", "1"]).unwrap();
        let (_, q) = lexicon(&["formable", "ta?c"]).unwrap();
        assert_eq!(one, q);
        assert!(one.lines().any(|w| w == "tact"));
    }
}
