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

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::engine::{
    DrawSource, Event, GameResult, HandOutcome, PlayerView, Seat, Strategy, TurnEnd,
};
use crate::protocol::{self, BotHello, MAX_LINE, Move};

/// The default time a bot has for one answer.
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;

/// The least time a bot has to start and answer `hello`.
const STARTUP_MS: u64 = 10_000;

/// How long an idle bot has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(1_000);

/// What starts a bot and how it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Milliseconds the bot has for each answer.
    pub timeout_ms: u64,
    /// Sent to the bot in `hello` as `options`.
    pub options: Map<String, Value>,
    /// Where the bot's stderr logs go (default: one private folder per
    /// ginlab process in the system's temporary directory, see
    /// [`Bot::log_dir`]).
    pub log_dir: Option<PathBuf>,
}

impl BotSpec {
    /// A spec for `command` with the default timeout and no options.
    #[must_use]
    pub fn new(command: Vec<String>) -> BotSpec {
        BotSpec {
            command,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            options: Map::new(),
            log_dir: None,
        }
    }

    /// The command as one line, arguments with spaces or quotes quoted, so
    /// that [`split_command`] reads it back.
    #[must_use]
    pub fn command_line(&self) -> String {
        self.command
            .iter()
            .map(|word| quote_word(word))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `word` as [`split_command`] reads it back: as is without white space or
/// quotes, else in single quotes, a `'` in it written `"'"` between them.
fn quote_word(word: &str) -> String {
    if word.is_empty() {
        return "''".to_owned();
    }
    if !word.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
        return word.to_owned();
    }
    word.split('\'')
        .map(|part| {
            if part.is_empty() {
                String::new()
            } else {
                format!("'{part}'")
            }
        })
        .collect::<Vec<_>>()
        .join("\"'\"")
}

/// Splits a command line into words: white space separates, and single or
/// double quotes keep spaces inside a word. `None` if a quote is not closed.
#[must_use]
pub fn split_command(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// Why a bot process could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The process did not start.
    #[error("cannot start bot `{command}`: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The log file could not be opened.
    #[error("cannot write the bot's log {path}: {reason}")]
    Log {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The handshake failed.
    #[error("bot `{command}` failed the handshake: {reason}")]
    Handshake {
        /// The command line.
        command: String,
        /// What was wrong.
        reason: String,
    },
}

/// A line from the bot, or why there is none.
type Incoming = Result<String, String>;

/// Lines of a bot's stderr shown when it fails to start.
const TAIL_LINES: usize = 8;

/// The last [`TAIL_LINES`] lines the bot wrote on stderr (ginlab's own
/// notes left out), from the last 4 KB of its log, control characters
/// escaped and long lines cut; "" if it wrote none.
fn stderr_tail(log: &Path) -> String {
    const TAIL_BYTES: u64 = 4096;
    const LINE_CHARS: usize = 200;
    let Ok(mut file) = fs::File::open(log) else {
        return String::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let mut bytes = Vec::new();
    if std::io::Seek::seek(
        &mut file,
        std::io::SeekFrom::Start(len.saturating_sub(TAIL_BYTES)),
    )
    .and_then(|_| file.read_to_end(&mut bytes))
    .is_err()
    {
        return String::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("== ginlab:") && !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n  its stderr ends:");
    for line in &lines[lines.len().saturating_sub(TAIL_LINES)..] {
        let mut escaped = String::new();
        for c in line.chars().take(LINE_CHARS) {
            if c.is_control() && c != '\t' {
                escaped.extend(c.escape_default());
            } else {
                escaped.push(c);
            }
        }
        out.push_str("\n    ");
        out.push_str(&escaped);
    }
    out
}

/// One running bot process.
pub struct BotProcess {
    child: Child,
    to_bot: Option<Sender<String>>,
    from_bot: Receiver<Incoming>,
    log: PathBuf,
    hello: BotHello,
    slot: u64,
}

impl fmt::Debug for BotProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotProcess")
            .field("name", &self.hello.name)
            .field("slot", &self.slot)
            .finish_non_exhaustive()
    }
}

fn writer(mut stdin: ChildStdin, lines: Receiver<String>) {
    for line in lines {
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

fn reader(stdout: impl Read, lines: &Sender<Incoming>) {
    let mut stdout = BufReader::new(stdout);
    loop {
        let mut buf = Vec::new();
        let read = (&mut stdout)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let incoming = match read {
            Ok(0) => Err("the bot closed its output (it exited or crashed)".to_owned()),
            Err(e) => Err(format!("reading the bot's output: {e}")),
            Ok(_) if buf.len() > MAX_LINE => {
                Err(format!("the bot sent a line longer than {MAX_LINE} bytes"))
            }
            Ok(_) => {
                while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    buf.pop();
                }
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                String::from_utf8(buf).map_err(|_| "the bot sent a line that is not UTF-8".into())
            }
        };
        let last = incoming.is_err();
        if lines.send(incoming).is_err() || last {
            return;
        }
    }
}

impl BotProcess {
    /// Starts the bot and shakes hands.
    ///
    /// # Errors
    /// The process does not start, the log cannot be written, or the bot's
    /// first line is not a valid `hello`.
    pub fn start(spec: &BotSpec, log: &Path, slot: u64) -> Result<BotProcess, BotError> {
        let command = spec.command_line();
        let log_error = |e: std::io::Error| BotError::Log {
            path: log.display().to_string(),
            reason: e.to_string(),
        };
        let mut file = OpenOptions::new()
            .append(true)
            .open(log)
            .map_err(log_error)?;
        writeln!(file, "== ginlab: starting `{command}` (slot {slot})").map_err(log_error)?;
        let (program, args) = spec.command.split_first().ok_or_else(|| BotError::Spawn {
            command: command.clone(),
            reason: "the command is empty".into(),
        })?;
        let mut bot = Command::new(program);
        own_group(&mut bot)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(file));
        let mut child = spawn_tied(bot).map_err(|e| BotError::Spawn {
            command: command.clone(),
            reason: e.to_string(),
        })?;
        running_groups().insert(child.id());
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (to_bot, lines) = mpsc::channel();
        thread::spawn(move || writer(stdin, lines));
        let (sender, from_bot) = mpsc::channel();
        thread::spawn(move || reader(stdout, &sender));
        let mut process = BotProcess {
            child,
            to_bot: Some(to_bot),
            from_bot,
            log: log.to_owned(),
            hello: BotHello {
                name: String::new(),
                author: None,
            },
            slot,
        };
        let hello = protocol::hello(&spec.options);
        process.send(hello.clone());
        let startup = Duration::from_millis(spec.timeout_ms.max(STARTUP_MS));
        let answer = process
            .receive(startup)
            .and_then(|line| {
                protocol::read_hello(&line)
                    .map_err(|e| format!("{e}\n  sent:    {hello}\n  replied: {line}"))
            })
            .map_err(|reason| {
                process.note(&format!("handshake failed: {reason}"));
                BotError::Handshake {
                    command: command.clone(),
                    reason: format!(
                        "{reason}\n  log: {}{}",
                        process.log.display(),
                        stderr_tail(&process.log)
                    ),
                }
            })?;
        process.hello = answer;
        Ok(process)
    }

    /// The bot's `hello`.
    #[must_use]
    pub fn hello(&self) -> &BotHello {
        &self.hello
    }

    /// The file holding the bot's stderr and ginlab's notes about it.
    #[must_use]
    pub fn log(&self) -> &Path {
        &self.log
    }

    /// Queues `line` for the bot (a dead bot's lines are dropped; the next
    /// [`BotProcess::receive`] reports it).
    pub fn send(&mut self, line: String) {
        if let Some(to_bot) = &self.to_bot {
            let _ = to_bot.send(line);
        }
    }

    /// The bot's next line, waiting at most `timeout`.
    ///
    /// # Errors
    /// A timeout, or the bot's output ended or broke, as a sentence.
    pub fn receive(&mut self, timeout: Duration) -> Result<String, String> {
        match self.from_bot.recv_timeout(timeout) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(why)) => Err(self.with_status(why)),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("no answer within {} ms", timeout.as_millis()))
            }
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.with_status("the bot's output is closed".into()))
            }
        }
    }

    fn with_status(&mut self, why: String) -> String {
        // The output closes just before the process ends; give it a moment.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("{why}; {status}");
            }
            thread::sleep(Duration::from_millis(5));
        }
        why
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Appends a note from ginlab to the bot's log.
    pub fn note(&self, text: &str) {
        if let Ok(mut file) = OpenOptions::new().append(true).open(&self.log) {
            let _ = writeln!(file, "== ginlab: {text}");
        }
    }

    /// Kills the process, and every process it started, at once.
    pub fn kill(mut self) {
        self.to_bot = None;
        end(&mut self.child);
    }
}

/// Starts the bot in a process group of its own (on unix), so that ending
/// it also ends what it started: the interpreter under `sh -c ...` or a
/// wrapper script, helper processes. Otherwise a bot that hangs leaves
/// them running after the run. The group also keeps a terminal's Ctrl-C
/// from reaching the bots directly: the CLI ends them with
/// [`end_running_bots`] when it is interrupted.
fn own_group(command: &mut Command) -> &mut Command {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(target_os = "linux")]
    die_with_parent(command);
    command
}

/// On Linux, the bot gets SIGKILL when ginlab dies, however it dies
/// (`PR_SET_PDEATHSIG`), so a `kill -9` of ginlab leaves no bot running.
/// The signal is set in the child between `fork` and `exec` (the one
/// `unsafe` of ginlab), and if ginlab died before it was set the child
/// does not start. The kernel sends it when the *thread* that forked the
/// child ends, so bots are forked by one thread that lives as long as the
/// process ([`spawn_tied`]), never by a worker thread of a run.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn die_with_parent(command: &mut Command) {
    use rustix::process::{Signal, getpid, getppid, set_parent_process_death_signal};
    use std::os::unix::process::CommandExt;
    let parent = getpid();
    // SAFETY: the closure runs in the forked child before `exec`. It makes
    // two system calls (prctl, getppid), both async-signal-safe, and
    // neither allocates nor takes a lock; its error is a plain errno.
    unsafe {
        command.pre_exec(move || {
            set_parent_process_death_signal(Some(Signal::KILL))?;
            if getppid() != Some(parent) {
                return Err(rustix::io::Errno::SRCH.into());
            }
            Ok(())
        });
    }
}

/// Whether this process ever started a bot (else [`end_orphans`] has
/// nothing to look for).
static SPAWNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Spawns `command` from a thread that lives as long as the process (on
/// Linux; see [`die_with_parent`]), else from the calling thread.
fn spawn_tied(command: Command) -> std::io::Result<Child> {
    SPAWNED.store(true, Ordering::Relaxed);
    #[cfg(target_os = "linux")]
    {
        type Request = (Command, Sender<std::io::Result<Child>>);
        static SPAWNER: Mutex<Option<Sender<Request>>> = Mutex::new(None);
        let (reply, answer) = mpsc::channel();
        SPAWNER
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_or_insert_with(|| {
                let (requests, incoming) = mpsc::channel::<Request>();
                // The static keeps the sender, so this thread never ends.
                thread::Builder::new()
                    .name("ginlab-bot-spawner".into())
                    .spawn(move || {
                        for (mut command, reply) in incoming {
                            let _ = reply.send(command.spawn());
                        }
                    })
                    .expect("starting the bot spawner thread");
                requests
            })
            .send((command, reply))
            .map_err(|_| std::io::Error::other("the bot spawner thread is gone"))?;
        answer
            .recv()
            .map_err(|_| std::io::Error::other("the bot spawner thread is gone"))?
    }
    #[cfg(not(target_os = "linux"))]
    {
        let mut command = command;
        command.spawn()
    }
}

/// Makes this process the reaper of every orphan among its descendants
/// (Linux's `PR_SET_CHILD_SUBREAPER`): a bot's helper that double-forks
/// and calls `setsid()` leaves the bot's process group, but stays a
/// descendant, so [`end_orphans`] can end it. For a program whose only
/// child processes are bots (the `ginlab` command): it changes the whole
/// process. Elsewhere it does nothing.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
}

/// Kills and reaps every child process of this process, and then the
/// orphans that this hands over (after [`adopt_orphans`]), until none is
/// left: what a program whose only child processes are bots calls when it
/// ends, once its bots are ended. (A child's id cannot name another
/// process before the child is reaped, so no stranger is signalled.)
/// Linux only; elsewhere it does nothing.
pub fn end_orphans() {
    #[cfg(target_os = "linux")]
    if SPAWNED.load(Ordering::Relaxed) {
        use rustix::process::{Signal, WaitOptions, kill_process, waitpid};
        // Each round ends one generation; 64 rounds end any chain of
        // forks a bot can make in that time.
        for _ in 0..64 {
            let children = children_of(std::process::id());
            if children.is_empty() {
                return;
            }
            for pid in children {
                let _ = kill_process(pid, Signal::KILL);
                let _ = waitpid(Some(pid), WaitOptions::empty());
            }
        }
    }
}

/// The processes whose parent is `parent`, from `/proc`.
#[cfg(target_os = "linux")]
fn children_of(parent: u32) -> Vec<rustix::process::Pid> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // "pid (command) state ppid ...": the command may hold spaces
            // and parentheses, so read after the last ')'.
            let ppid: u32 = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            (ppid == parent).then(|| rustix::process::Pid::from_raw(pid))?
        })
        .collect()
}

/// Kills the bot's process group (on unix; elsewhere the bot alone) and
/// reaps the bot. The group's id is the bot's pid, which the kernel keeps
/// from new processes while the bot is unreaped or any process of its
/// group lives: the signal reaches that group and nothing else. (Once
/// all are gone it fails harmlessly; a bot reaped just before by
/// `try_wait` would need the pids to wrap around in between for its id
/// to name another group.)
fn end(child: &mut Child) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal, kill_process_group};
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
    running_groups().remove(&child.id());
}

/// The process groups (the bots' pids) of the bots started and not yet
/// ended, for [`end_running_bots`].
fn running_groups() -> std::sync::MutexGuard<'static, std::collections::BTreeSet<u32>> {
    static GROUPS: Mutex<std::collections::BTreeSet<u32>> =
        Mutex::new(std::collections::BTreeSet::new());
    GROUPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills the process group of every bot still running (on unix): what an
/// interrupted run (Ctrl-C, SIGTERM) must do before it exits, since each bot
/// runs in a group of its own that the terminal's signal does not reach.
pub fn end_running_bots() {
    #[cfg(unix)]
    for &pid in running_groups().iter() {
        use rustix::process::{Pid, Signal, kill_process_group};
        if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
}

impl BotProcess {
    /// Sends `quit`, closes the bot's stdin and waits up to a second for it
    /// to exit; then kills it and what is left of its process group.
    /// Whether it exited by itself.
    fn quit(&mut self) -> bool {
        let mut exited = false;
        if let Some(to_bot) = self.to_bot.take() {
            let _ = to_bot.send(protocol::quit());
            drop(to_bot);
            let deadline = Instant::now() + QUIT_GRACE;
            while !exited && Instant::now() < deadline {
                exited = !matches!(self.child.try_wait(), Ok(None));
                if !exited {
                    thread::sleep(Duration::from_millis(5));
                }
            }
        }
        end(&mut self.child);
        exited
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.quit();
    }
}

/// The default log folder of this process: created on first use with an
/// unpredictable name, readable by its owner only (mode 0700), by the
/// `tempfile` crate (which never follows a link planted at the name), and
/// shared by every bot of the process.
static DEFAULT_LOGS: Mutex<Option<tempfile::TempDir>> = Mutex::new(None);

/// Whether the default log folder must outlive the process: a bot failed,
/// so its log holds the reason.
static KEEP_LOGS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The default log folder (see `DEFAULT_LOGS`), created if need be.
///
/// # Errors
/// The temporary directory cannot be written.
pub fn default_log_dir() -> Result<PathBuf, BotError> {
    let mut logs = DEFAULT_LOGS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if logs.is_none() {
        let mut builder = tempfile::Builder::new();
        builder.prefix("ginlab-bots-");
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
        let dir = builder.tempdir().map_err(|e| BotError::Log {
            path: std::env::temp_dir().display().to_string(),
            reason: format!("cannot create a log folder there: {e}"),
        })?;
        *logs = Some(dir);
    }
    Ok(logs.as_ref().expect("just created").path().to_owned())
}

/// Keeps the default log folder when the process ends (see
/// [`finish_logs`]): a bot failed and its log tells why.
pub fn keep_logs() {
    KEEP_LOGS.store(true, Ordering::Relaxed);
}

/// Whether the default log folder will be kept by [`finish_logs`].
#[must_use]
pub fn logs_kept() -> bool {
    KEEP_LOGS.load(Ordering::Relaxed)
}

/// At the end of a command: removes the default log folder unless
/// [`keep_logs`] was called; returns the folder if it is kept. (A folder
/// given in a profile's `log_dir` is the user's and always stays.)
pub fn finish_logs() -> Option<PathBuf> {
    let dir = DEFAULT_LOGS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()?;
    if logs_kept() {
        Some(dir.keep())
    } else {
        // Removal failing (someone else's file in it) leaves the folder.
        let _ = dir.close();
        None
    }
}

/// Creates the next free `bot-N.log` in `dir` (creating `dir` if need be),
/// with `create_new`, so that no two processes share a file, an earlier
/// run's log is never appended to, and a link planted at the name is
/// never followed. Returns the path, or the path and the error.
fn new_log_file(dir: &Path) -> Result<PathBuf, (PathBuf, std::io::Error)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    fs::create_dir_all(dir).map_err(|e| (dir.to_owned(), e))?;
    loop {
        let path = dir.join(format!("bot-{}.log", NEXT.fetch_add(1, Ordering::Relaxed)));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(_) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err((path, e)),
        }
    }
}

/// The shared side of an external profile: its spec and the idle processes.
pub struct Bot {
    spec: BotSpec,
    idle: Mutex<Vec<BotProcess>>,
    started: AtomicU64,
    failures: AtomicU64,
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Bot {
    fn eq(&self, other: &Bot) -> bool {
        self.spec == other.spec
    }
}

impl Bot {
    /// A bot for `spec`; no process starts (and no log folder is made)
    /// until one is needed.
    #[must_use]
    pub fn new(spec: BotSpec) -> Bot {
        Bot {
            spec,
            idle: Mutex::new(Vec::new()),
            started: AtomicU64::new(0),
            failures: AtomicU64::new(0),
        }
    }

    /// The spec.
    #[must_use]
    pub fn spec(&self) -> &BotSpec {
        &self.spec
    }

    /// Where the processes' logs are written: one file per process,
    /// `bot-N.log` (N unique in the folder, whichever bot or seat the
    /// process plays), holding the bot's stderr and ginlab's notes. The
    /// profile's `log_dir`, else the process's [`default_log_dir`].
    ///
    /// # Errors
    /// The default folder cannot be created.
    pub fn log_dir(&self) -> Result<PathBuf, BotError> {
        match &self.spec.log_dir {
            Some(dir) => Ok(dir.clone()),
            None => default_log_dir(),
        }
    }

    /// Processes started so far (restarts included).
    #[must_use]
    pub fn processes_started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }

    /// Games the bot failed so far (each killed its process).
    #[must_use]
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    fn start(&self) -> Result<BotProcess, BotError> {
        let slot = self.started.fetch_add(1, Ordering::Relaxed);
        let log = new_log_file(&self.log_dir()?).map_err(|(path, e)| {
            keep_logs();
            BotError::Log {
                path: path.display().to_string(),
                reason: e.to_string(),
            }
        })?;
        BotProcess::start(&self.spec, &log, slot).inspect_err(|_| keep_logs())
    }

    /// Starts one process and keeps it idle: a check that the bot runs and
    /// shakes hands, before a run relies on it.
    ///
    /// # Errors
    /// As [`BotProcess::start`].
    pub fn warm_up(&self) -> Result<BotHello, BotError> {
        let process = self.start()?;
        let hello = process.hello().clone();
        self.idle.lock().expect("the pool lock").push(process);
        Ok(hello)
    }

    /// Tells every idle process to quit: `Some(true)` if all exited by
    /// themselves within a second, `None` if none was idle.
    pub fn quit_idle(&self) -> Option<bool> {
        let idle: Vec<BotProcess> = std::mem::take(&mut *self.idle.lock().expect("the pool lock"));
        if idle.is_empty() {
            return None;
        }
        let mut clean = true;
        for mut process in idle {
            if !process.quit() {
                process.note("did not exit within a second of quit; killed");
                clean = false;
            }
        }
        Some(clean)
    }

    fn take_idle(&self) -> Option<BotProcess> {
        let mut idle = self.idle.lock().expect("the pool lock");
        while let Some(mut process) = idle.pop() {
            if process.alive() {
                return Some(process);
            }
            process.note("found dead while idle; starting another");
        }
        None
    }

    /// A player for one game: an idle process, or a new one. If none can be
    /// started the player forfeits at its first decision.
    #[must_use]
    pub fn checkout(self: &Arc<Bot>, seed: u64) -> External {
        let (process, failure) = match self.take_idle().map_or_else(|| self.start(), Ok) {
            Ok(process) => (Some(process), None),
            Err(e) => {
                self.failures.fetch_add(1, Ordering::Relaxed);
                keep_logs();
                (None, Some(e.to_string()))
            }
        };
        let name = process
            .as_ref()
            .map_or_else(|| self.spec.command_line(), |p| p.hello().name.clone());
        External {
            bot: Arc::clone(self),
            process,
            name,
            seed,
            failure,
            in_game: false,
            hands: 0,
            next_id: 1,
        }
    }
}

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
        keep_logs();
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
            let timeout = Duration::from_millis(self.bot.spec.timeout_ms);
            // Every failure names the request; a bad line also shows the reply.
            let answer = match process.receive(timeout) {
                Ok(line) => protocol::read_move(&line, id, &legal)
                    .map_err(|e| format!("{e}\n  request: {request}\n  reply:   {line}")),
                Err(why) => Err(format!("{why}\n  request: {request}")),
            };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        assert_eq!(
            split_command("python3  'my bot.py' --x \"a b\"c"),
            Some(vec![
                "python3".into(),
                "my bot.py".into(),
                "--x".into(),
                "a bc".into()
            ])
        );
        assert_eq!(split_command("a ''"), Some(vec!["a".into(), String::new()]));
        assert_eq!(split_command("a 'b"), None);
        assert_eq!(split_command("   "), Some(vec![]));
        let spec = BotSpec::new(vec!["python3".into(), "my bot.py".into()]);
        assert_eq!(spec.command_line(), "python3 'my bot.py'");
        assert_eq!(split_command(&spec.command_line()).unwrap(), spec.command);
        // Found by tests/fuzz.rs: a word with a single quote was written
        // bare, and the line did not read back (an unclosed quote).
        let spec = BotSpec::new(vec![
            "bot".into(),
            "it's".into(),
            "'".into(),
            "a 'b\"".into(),
        ]);
        assert_eq!(spec.command_line(), r#"bot 'it'"'"'s' "'" 'a '"'"'b"'"#);
        assert_eq!(split_command(&spec.command_line()).unwrap(), spec.command);
    }
}
