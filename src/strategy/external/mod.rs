//! [`External`]: a bot in another process, spoken to with the JSON-lines
//! protocol of `docs/PROTOCOL.md` ([`crate::protocol`]).
//!
//! A [`Bot`] is the shared side of a profile `kind = "external"` (or inline
//! `exec:CMD`): the command, the options, the timeout, and a pool of idle
//! processes. [`Bot::checkout`] hands a game a process (reusing an idle one,
//! else starting one), so a run keeps one process per game slot (per thread
//! and seat) and reuses it across games.
//!
//! A bot that crashes, times out, sends a line that is not the expected
//! message or answers with an illegal move has failed: the strategy reports
//! it through [`Strategy::forfeit`], the driver ends the game as a forfeit,
//! and the process is killed; the next game starts a fresh one. What went
//! wrong is appended to the process's log file, next to everything the bot
//! wrote on stderr.

pub mod check;
mod command;
mod host;
pub mod launcher;
mod logs;
mod pids;
mod pool;
mod process;
mod sandbox;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub use command::{BotSpec, DEFAULT_HANDSHAKE_MS, DEFAULT_TIMEOUT_MS, split_command};
pub use host::BotHost;
pub use pool::Bot;
pub use process::{BotError, BotProcess, adopt_orphans};
pub use sandbox::{BotOptions, LAUNCHER_ARG, SANDBOX_MODES, SandboxMode, SandboxSpec};

use crate::engine::{
    DrawSource, Event, GameResult, HandOutcome, PlayerView, Seat, Strategy, TurnEnd,
};
use crate::protocol::{self, Move};
use crate::seed::bot_seed;

use super::profile::{Kind, Param, ParamError, ParamType, ParamValue, Params};

/// A bot process playing one game (see the module docs).
#[derive(Debug)]
pub struct External {
    bot: Arc<Bot>,
    process: Option<BotProcess>,
    name: String,
    seed: u64,
    failure: Option<String>,
    in_game: bool,
    hands: u32,
    next_id: u64,
}

impl External {
    /// Decision requests sent in this game.
    #[must_use]
    pub fn decisions(&self) -> u64 {
        self.next_id - 1
    }

    fn send(&mut self, line: String) {
        if let Some(process) = &mut self.process {
            process.send(line);
        }
    }

    fn fail(&mut self, reason: String) {
        if let Some(process) = self.process.take() {
            process.note(&format!("forfeit: {reason}"));
            process.kill();
        }
        self.bot.failures.fetch_add(1, Ordering::Relaxed);
        self.bot.host.keep_logs();
        self.failure = Some(reason);
    }

    /// Asks for a decision; on any fault the player fails and the first
    /// legal move is returned (the driver does not play it).
    fn decide(&mut self, view: &PlayerView<'_>) -> Move {
        let legal = protocol::legal_moves(view);
        if let Some(process) = &mut self.process
            && self.failure.is_none()
        {
            let id = self.next_id;
            self.next_id += 1;
            let request = protocol::decide(id, view, &legal);
            process.send(request.clone());
            let spec = &self.bot.spec;
            // A fresh process's first decision has its own allowance (a
            // JVM loading classes and tables at first use).
            let first = !process.decided;
            let limit = if first {
                spec.first_move_limit(self.bot.host.bot_options())
            } else {
                spec.timeout_ms
            };
            // Every failure names the request; a bad line also shows the reply.
            let answer = match process.receive(Duration::from_millis(limit)) {
                Ok(line) => protocol::read_move(&line, id, &legal)
                    .map_err(|e| format!("{e}\n  request: {request}\n  reply:   {line}")),
                Err(why) if first && why.starts_with("no answer within") => Err(format!(
                    "bot `{}` made no first move within {limit} ms (a fresh process's \
                     allowance for its first decision; later ones have timeout_ms = {}; the \
                     profile's first_move_ms or --first-move-ms raise it)\n  request: {request}",
                    self.name, spec.timeout_ms
                )),
                Err(why) => Err(format!("{why}\n  request: {request}")),
            };
            process.decided = true;
            match answer {
                Ok(mv) => return mv,
                Err(reason) => self.fail(reason),
            }
        }
        legal[0]
    }
}

impl Strategy for External {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_hand(&mut self, view: &PlayerView<'_>) {
        if !self.in_game {
            self.in_game = true;
            self.send(protocol::game_start(view, self.seed));
        }
        self.hands += 1;
        self.send(protocol::hand_start(view, self.hands));
    }

    fn observe(&mut self, _view: &PlayerView<'_>, event: &Event) {
        self.send(protocol::event(event));
    }

    /// Every event goes to the bot.
    fn observes(&self) -> bool {
        true
    }

    fn take_upcard(&mut self, view: &PlayerView<'_>) -> bool {
        self.decide(view) == Move::Take
    }

    fn draw(&mut self, view: &PlayerView<'_>) -> DrawSource {
        match self.decide(view) {
            Move::Pile => DrawSource::Pile,
            _ => DrawSource::Stock,
        }
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        match self.decide(view) {
            Move::Knock(card) => TurnEnd::Knock(card),
            Move::BigGin => TurnEnd::BigGin,
            Move::Discard(card) => TurnEnd::Discard(card),
            // Only reached after a failure: any card, never played.
            _ => TurnEnd::Discard(view.hand.first().expect("11 cards")),
        }
    }

    fn end_hand(&mut self, view: &PlayerView<'_>, outcome: &HandOutcome) {
        self.send(protocol::hand_end(view, outcome));
    }

    fn end_game(&mut self, _seat: Seat, result: &GameResult) {
        self.in_game = false;
        self.send(protocol::game_end(result));
    }

    fn forfeit(&mut self) -> Option<String> {
        self.failure.clone()
    }
}

impl Drop for External {
    /// Returns a healthy process to the pool, telling it first when the
    /// game stopped before its end.
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            if self.in_game {
                process.send(protocol::game_stopped());
            }
            self.bot.idle.lock().expect("the pool lock").push(process);
        }
    }
}


/// The table's row of `external`: a profile file's `kind = "external"`,
/// inline `exec:COMMAND`.
pub(in crate::strategy) const KIND: Kind = Kind::of::<Arc<Bot>>(
    "external",
    &[
        Param::new("command", ParamType::Toml, "a non-empty array of strings, e.g. [\"python3\", \"bot.py\"]"),
        Param::new("timeout_ms", ParamType::Integer, "an integer from 1 to 3600000"),
        Param::new("options", ParamType::Toml, "a table, sent to the bot in hello"),
        Param::new("log_dir", ParamType::Text, "a folder path"),
        Param::new("cwd", ParamType::Text, "a folder path: the bot's working directory"),
        Param::new("handshake_ms", ParamType::Integer, "an integer from 1 to 3600000"),
        Param::new("first_move_ms", ParamType::Integer, "an integer from 1 to 3600000"),
        Param::new("max_log_bytes", ParamType::Integer, "an integer from 0 up"),
        Param::new("sandbox", ParamType::Text, "auto, strict or off"),
        Param::new("read", ParamType::Toml, "an array of paths the bot may read"),
        Param::new("scratch", ParamType::Text, "a folder path the bot may write"),
        Param::new("network", ParamType::Boolean, "true or false"),
        Param::new("max_memory_mb", ParamType::Integer, "an integer from 16 up (MiB of address space)"),
        Param::new("max_processes", ParamType::Integer, "an integer from 1 up"),
        Param::new("max_open_files", ParamType::Integer, "an integer from 16 up"),
    ],
    Some("exec"),
);

/// What an inline `exec:` command must be.
const INLINE_COMMAND: &str =
    "a command line naming a program, e.g. exec:python3 bot.py (quotes must close)";

impl Default for Bot {
    /// A bot with no command yet (a profile being read), with a host of
    /// its own until the profile is bound to a lab ([`Params::bind`]).
    fn default() -> Bot {
        Bot::new(BotSpec::new(Vec::new()), &BotHost::new())
    }
}

/// An external profile is its bot: profiles cloned from it share the pool.
/// A parameter set on it makes another bot, with a pool of its own.
impl Params for Arc<Bot> {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn set(&mut self, key: &str, value: ParamValue<'_>) -> Result<(), ParamError> {
        let mut spec = self.spec().clone();
        match (key, value) {
            ("command", ParamValue::Text(line)) => {
                spec.command = split_command(line)
                    .filter(|w| w.first().is_some_and(|program| !program.is_empty()))
                    .ok_or(ParamError::Expected(INLINE_COMMAND))?;
            }
            ("command", ParamValue::Toml(toml::Value::String(line))) => {
                spec.command = split_command(line).ok_or(ParamError::Invalid)?;
            }
            ("command", ParamValue::Toml(toml::Value::Array(words))) => {
                spec.command = words
                    .iter()
                    .map(|w| w.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .ok_or(ParamError::Invalid)?;
            }
            ("timeout_ms", value) => {
                spec.timeout_ms = value
                    .read()
                    .filter(|t| (1..=3_600_000).contains(t))
                    .ok_or(ParamError::Invalid)?;
            }
            ("options", ParamValue::Toml(toml::Value::Table(table))) => {
                spec.options = protocol::options_from_toml(table).map_err(ParamError::Message)?;
            }
            ("log_dir", ParamValue::Toml(toml::Value::String(dir))) => {
                spec.log_dir = Some(dir.into());
            }
            ("cwd", ParamValue::Toml(toml::Value::String(dir))) if !dir.is_empty() => {
                spec.cwd = Some(dir.into());
            }
            ("handshake_ms", value) => {
                spec.handshake_ms = Some(
                    value
                        .read()
                        .filter(|t| (1..=3_600_000).contains(t))
                        .ok_or(ParamError::Invalid)?,
                );
            }
            ("first_move_ms", value) => {
                spec.first_move_ms = Some(
                    value
                        .read()
                        .filter(|t| (1..=3_600_000).contains(t))
                        .ok_or(ParamError::Invalid)?,
                );
            }
            ("max_log_bytes", value) => {
                spec.max_log_bytes = value.read().ok_or(ParamError::Invalid)?;
            }
            ("sandbox", ParamValue::Toml(toml::Value::String(mode))) => {
                spec.sandbox.mode = Some(mode.parse().map_err(|_| ParamError::Invalid)?);
            }
            ("read", ParamValue::Toml(toml::Value::Array(paths))) => {
                spec.sandbox.read = paths
                    .iter()
                    .map(|p| p.as_str().filter(|p| !p.is_empty()).map(PathBuf::from))
                    .collect::<Option<Vec<_>>>()
                    .ok_or(ParamError::Invalid)?;
            }
            ("scratch", ParamValue::Toml(toml::Value::String(dir))) if !dir.is_empty() => {
                spec.sandbox.scratch = Some(dir.into());
            }
            ("network", ParamValue::Toml(toml::Value::Boolean(allowed))) => {
                spec.sandbox.network = *allowed;
            }
            ("max_memory_mb", value) => {
                spec.sandbox.memory_mb =
                    value.read().filter(|&m| m >= 16).ok_or(ParamError::Invalid)?;
            }
            ("max_processes", value) => {
                spec.sandbox.processes =
                    value.read().filter(|&n| n >= 1).ok_or(ParamError::Invalid)?;
            }
            ("max_open_files", value) => {
                spec.sandbox.open_files =
                    value.read().filter(|&n| n >= 16).ok_or(ParamError::Invalid)?;
            }
            _ => return Err(ParamError::Invalid),
        }
        *self = Arc::new(Bot::new(spec, self.host()));
        Ok(())
    }

    /// The bot starts its processes from the lab's host.
    fn bind(&mut self, lab: &crate::lab::Lab) {
        if !Arc::ptr_eq(self.host(), lab.bots()) {
            *self = Arc::new(Bot::new(self.spec().clone(), lab.bots()));
        }
    }

    fn check(&self) -> Result<(), &'static str> {
        match self.spec().command.first() {
            Some(program) if !program.is_empty() => Ok(()),
            _ => Err("needs command = [\"PROGRAM\", \"ARG\", ...]"),
        }
    }

    fn build(&self, seed: u64) -> Box<dyn Strategy> {
        // A bot is told a one-way function of the seed: the seed itself
        // would give the deck away (see `crate::seed`).
        Box::new(self.checkout(bot_seed(seed)))
    }
}

/// `exec:COMMAND`.
impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exec:{}", self.spec().command_line())
    }
}
