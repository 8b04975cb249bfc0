//! `--dict PATH` / `--lexicon NAME`: which word list a command uses.

use anyhow::{bail, Context, Result};
use parlor_lexicon::{Case, Lexicon};
use std::path::PathBuf;
use std::sync::Arc;

/// Word-list options shared by every command that checks words.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DictArgs {
    /// A word list file: one word per line, `#` lines and blank lines
    /// skipped; words with a capital letter (proper nouns: `Oslo`, `XXL`)
    /// skipped and counted unless --fold-case; words with characters
    /// outside a-z (or longer than 64 letters) skipped and counted.
    #[arg(long, value_name = "PATH", global = true, conflicts_with = "lexicon")]
    pub dict: Option<PathBuf>,
    /// Read the --dict file's capitalised words as lower case (for a list
    /// written in capitals, where a capital does not mark a proper noun).
    #[arg(long, global = true, requires = "dict")]
    pub fold_case: bool,
    /// An embedded word list: `en` (default, 111,593 words) or `en-large`
    /// (242,844 words).
    #[arg(long, value_name = "NAME", global = true)]
    pub lexicon: Option<String>,
}

impl DictArgs {
    /// Loads the chosen list, reporting skipped lines on stderr.
    pub fn load(&self) -> Result<Arc<Lexicon>> {
        if let Some(path) = &self.dict {
            let bytes = std::fs::read(path)
                .with_context(|| format!("cannot read word list {}", path.display()))?;
            if bytes.is_empty() {
                bail!(
                    "word list {} is empty: expected one word per line",
                    path.display()
                );
            }
            let name = path.display().to_string();
            let (lexicon, report) = Lexicon::from_bytes_with_case(name, &bytes, self.case())
                .with_context(|| format!("cannot use word list {}", path.display()))?;
            let first = |w: &Option<String>| {
                w.as_deref()
                    .map(|w| format!(" (first: {w:?})"))
                    .unwrap_or_default()
            };
            if report.skipped > 0 {
                eprintln!(
                    "parlor: {}: skipped {} line(s) with characters outside a-z{}",
                    path.display(),
                    report.skipped,
                    first(&report.first_skipped)
                );
            }
            if report.capitalised > 0 {
                eprintln!(
                    "parlor: {}: skipped {} capitalised line(s) as proper nouns{}; \
                     --fold-case reads them as lower case",
                    path.display(),
                    report.capitalised,
                    first(&report.first_capitalised)
                );
            }
            return Ok(Arc::new(lexicon));
        }
        let name = self.lexicon.as_deref().unwrap_or(parlor_lexicon::DEFAULT);
        Ok(Arc::new(Lexicon::embedded(name)?))
    }

    /// How the --dict file's capitalised words are read.
    pub fn case(&self) -> Case {
        if self.fold_case {
            Case::Fold
        } else {
            Case::SkipCapitalised
        }
    }

    /// The resources a game is created with: the embedded lists plus the
    /// chosen list, and the name a config should use for it.
    pub fn resources(&self) -> Result<(parlor_core::Resources, String)> {
        let lexicon = self.load()?;
        let name = lexicon.name().to_string();
        Ok((
            parlor_core::Resources::embedded().with_lexicon(lexicon),
            name,
        ))
    }
}
