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
    let result = match args.cmd {
        Cmd::Info(a) => info(&a, &mut out),
        Cmd::Check(a) => check(&a, &mut out),
        Cmd::Contains(a) => contains(&a, &mut out),
        Cmd::Pattern(a) => pattern(&a, &mut out),
        Cmd::Formable(a) => formable(&a, &mut out),
    }
    .and_then(|code| {
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

/// Loads the list; from a file, keeps the load report instead of printing it.
fn load_with_report(dict: &DictArgs) -> Result<(Arc<Lexicon>, Option<LoadReport>)> {
    let Some(path) = &dict.dict else {
        return Ok((dict.load()?, None));
    };
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read word list {}", path.display()))?;
    let (lexicon, report) = Lexicon::from_bytes(path.display().to_string(), &bytes)
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
            v["duplicates"] = json!(r.duplicates);
            v["first_skipped"] = json!(r.first_skipped);
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
