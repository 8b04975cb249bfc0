//! `parlor wordsprout ...`: play, the helper, perfect play.

use crate::dict::DictArgs;
use anyhow::Result;
use parlor_wordsprout::rules::RuleSet;
use std::process::ExitCode;

mod analysis;
pub(crate) mod play;

/// Word Sprout commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Play in the terminal: hot-seat humans and computer players.
    Play(play::PlayArgs),
    /// Every legal one-letter insertion into STRING with its goal words.
    Hint(analysis::HintArgs),
    /// Solve the two-player game from the empty string.
    Solve(analysis::SolveArgs),
    /// Time the solver on a word list (cold start, median of runs).
    Bench(analysis::BenchArgs),
}

/// Runs a Word Sprout command.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.cmd {
        Cmd::Play(a) => play::run(a),
        Cmd::Hint(a) => analysis::hint(a),
        Cmd::Solve(a) => analysis::solve(a),
        Cmd::Bench(a) => analysis::bench(a),
    }
}

/// Word list and rule options shared by the Word Sprout commands.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RuleArgs {
    #[command(flatten)]
    pub dict: DictArgs,
    /// Turn a rule on (`--rule palindrome-lock`) or off (`--rule
    /// no-challenge`); `--rule core` clears every optional rule. Repeat or
    /// separate with commas. See docs/rules/wordsprout.md for the names.
    #[arg(long = "rule", value_name = "RULE", value_delimiter = ',')]
    pub rules: Vec<String>,
}

impl RuleArgs {
    /// The rule set: `base` with the switches applied in order.
    pub fn rule_set(&self, base: RuleSet) -> Result<RuleSet> {
        let mut set = base;
        for s in &self.rules {
            set.apply_switch(s)?;
        }
        Ok(set)
    }
}
