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

use super::profile::{Given, KeyError, Keys, Kind, ParamError, Params, keys};

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

    /// A bot can crash, time out or answer wrongly.
    fn can_forfeit(&self) -> bool {
        true
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
pub(in crate::strategy) const KIND: Kind = Kind::of::<BotKeys>("external", Some("exec"));

keys! {
    /// The keys of an external profile, read into its [`BotSpec`] (see
    /// there for what each does).
    #[derive(Default)]
    struct BotKeys {
        /// The command line: words, or one line split as a shell would.
        command: Option<Command> => Toml "a non-empty array of strings, e.g. [\"python3\", \"bot.py\"]",
        /// [`BotSpec::timeout_ms`].
        timeout_ms: Option<u64> => Integer "an integer from 1 to 3600000",
        /// [`BotSpec::options`].
        options: Option<toml::Table> => Toml "a table, sent to the bot in hello",
        /// [`BotSpec::log_dir`].
        log_dir: Option<String> => Text "a folder path",
        /// [`BotSpec::cwd`].
        cwd: Option<String> => Text "a folder path: the bot's working directory",
        /// [`BotSpec::handshake_ms`].
        handshake_ms: Option<u64> => Integer "an integer from 1 to 3600000",
        /// [`BotSpec::first_move_ms`].
        first_move_ms: Option<u64> => Integer "an integer from 1 to 3600000",
        /// [`BotSpec::max_log_bytes`].
        max_log_bytes: Option<u64> => Integer "an integer from 0 up",
        /// [`SandboxSpec::mode`].
        sandbox: Option<String> => Text "auto, strict or off",
        /// [`SandboxSpec::read`].
        read: Option<Vec<String>> => Toml "an array of paths the bot may read",
        /// [`SandboxSpec::scratch`].
        scratch: Option<String> => Text "a folder path the bot may write",
        /// [`SandboxSpec::network`].
        network: Option<bool> => Boolean "true or false",
        /// [`SandboxSpec::memory_mb`].
        max_memory_mb: Option<u64> => Integer "an integer from 16 up (MiB of address space)",
        /// [`SandboxSpec::processes`].
        max_processes: Option<u64> => Integer "an integer from 1 up",
        /// [`SandboxSpec::open_files`].
        max_open_files: Option<u64> => Integer "an integer from 16 up",
    }
}

/// The `command` key: a line (inline, or a string in a file) or words.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Command {
    /// One line, split as a shell would.
    Line(String),
    /// The words.
    Words(Vec<String>),
}

/// What an inline `exec:` command must be.
const INLINE_COMMAND: &str =
    "a command line naming a program, e.g. exec:python3 bot.py (quotes must close)";

/// An external profile is its bot, with a host of its own until it is
/// bound to a lab ([`Params::bind`]).
impl Keys for BotKeys {
    const PARAMS: &'static [super::profile::Param] = BotKeys::KEY_LIST;
    type Params = Arc<Bot>;

    fn resolve(self, given: &Given) -> Result<Arc<Bot>, KeyError> {
        let invalid = |key| (key, ParamError::Invalid);
        let within = |key, value: Option<u64>, low: u64, high: u64| match value {
            Some(t) if !(low..=high).contains(&t) => Err(invalid(key)),
            _ => Ok(value),
        };
        let path = |key, dir: Option<String>| match dir {
            Some(dir) if dir.is_empty() => Err(invalid(key)),
            dir => Ok(dir.map(PathBuf::from)),
        };
        let mut spec = BotSpec::new(Vec::new());
        match self.command {
            Some(Command::Line(line)) if given.inline => {
                spec.command = split_command(&line)
                    .filter(|w| w.first().is_some_and(|program| !program.is_empty()))
                    .ok_or(("command", ParamError::Expected(INLINE_COMMAND)))?;
            }
            Some(Command::Line(line)) => {
                spec.command = split_command(&line).ok_or(invalid("command"))?;
            }
            Some(Command::Words(words)) => spec.command = words,
            None => {}
        }
        if let Some(t) = within("timeout_ms", self.timeout_ms, 1, 3_600_000)? {
            spec.timeout_ms = t;
        }
        if let Some(table) = &self.options {
            spec.options = protocol::options_from_toml(table)
                .map_err(|message| ("options", ParamError::Message(message)))?;
        }
        spec.log_dir = self.log_dir.map(PathBuf::from);
        spec.cwd = path("cwd", self.cwd)?;
        spec.handshake_ms = within("handshake_ms", self.handshake_ms, 1, 3_600_000)?;
        spec.first_move_ms = within("first_move_ms", self.first_move_ms, 1, 3_600_000)?;
        if let Some(bytes) = self.max_log_bytes {
            spec.max_log_bytes = bytes;
        }
        if let Some(mode) = self.sandbox {
            spec.sandbox.mode = Some(mode.parse().map_err(|_| invalid("sandbox"))?);
        }
        if let Some(paths) = self.read {
            spec.sandbox.read = paths
                .into_iter()
                .map(|p| (!p.is_empty()).then(|| PathBuf::from(p)))
                .collect::<Option<Vec<_>>>()
                .ok_or(invalid("read"))?;
        }
        spec.sandbox.scratch = path("scratch", self.scratch)?;
        if let Some(allowed) = self.network {
            spec.sandbox.network = allowed;
        }
        if let Some(m) = within("max_memory_mb", self.max_memory_mb, 16, u64::MAX)? {
            spec.sandbox.memory_mb = m;
        }
        if let Some(n) = within("max_processes", self.max_processes, 1, u64::MAX)? {
            spec.sandbox.processes = n;
        }
        if let Some(n) = within("max_open_files", self.max_open_files, 16, u64::MAX)? {
            spec.sandbox.open_files = n;
        }
        if spec.command.first().is_none_or(String::is_empty) {
            return Err(("", ParamError::Conflict("needs command = [\"PROGRAM\", \"ARG\", ...]")));
        }
        Ok(Arc::new(Bot::new(spec, &BotHost::new())))
    }
}

impl Params for Arc<Bot> {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    /// The bot starts its processes from the lab's host.
    fn bind(&mut self, lab: &crate::lab::Lab) {
        if !Arc::ptr_eq(self.host(), lab.bots()) {
            *self = Arc::new(Bot::new(self.spec().clone(), lab.bots()));
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
