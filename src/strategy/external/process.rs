//! A running bot process: started in a process group of its own, tied to
//! ginlab's life, spoken to through a reader and a writer thread, and
//! ended with its whole group.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::host::{BotHost, lock};
use super::logs::capped_copy;
use super::sandbox;
use super::BotSpec;
use crate::protocol::{self, BotHello, MAX_LINE};

/// The least time an idle bot has to exit after `quit` before it is
/// killed; a bot that took longer to start has as long to exit (a JVM on a
/// busy machine), unless the spec's `quit_ms` says otherwise.
const QUIT_GRACE: Duration = Duration::from_millis(2_000);

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
    /// The sandbox cannot be enforced and `strict` asks for it.
    #[error("{reason}")]
    Sandbox {
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
    /// Says when the copy of the bot's stderr to its log is done.
    stderr_done: Option<Receiver<()>>,
    /// How long the bot has to exit after `quit`.
    quit_grace: Duration,
    /// Whether it has answered a decision: until then it has the first
    /// move's allowance ([`BotSpec::first_move_limit`]).
    pub(super) decided: bool,
    /// Its pids cgroup (as root), removed once the process has ended.
    pids: Option<super::pids::PidsGroup>,
    /// The host that started it (and keeps its process group).
    host: Arc<BotHost>,
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
    /// Starts the bot from `host` and shakes hands.
    ///
    /// # Errors
    /// The process does not start, the log cannot be written, or the bot's
    /// first line is not a valid `hello`.
    pub fn start(
        host: &Arc<BotHost>,
        spec: &BotSpec,
        log: &Path,
        slot: u64,
    ) -> Result<BotProcess, BotError> {
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
        if spec.command.first().is_none_or(String::is_empty) {
            return Err(BotError::Spawn {
                command: command.clone(),
                reason: "the command is empty".into(),
            });
        }
        let here = std::env::current_dir().map_err(|e| BotError::Spawn {
            command: command.clone(),
            reason: format!("cannot read the working directory: {e}"),
        })?;
        let dir = spec.cwd.as_ref().map_or_else(|| here.clone(), |d| here.join(d));
        if !dir.is_dir() {
            return Err(BotError::Spawn {
                command: command.clone(),
                reason: format!("its working directory (cwd) {} is not a folder", dir.display()),
            });
        }
        let mut launch = sandbox::launch(host, &spec.command, &spec.sandbox, &dir, &command)?;
        let pids = launch.pids.take();
        for line in &launch.notes {
            writeln!(file, "{line}").map_err(log_error)?;
        }
        drop(file);
        let (program, args) = launch.argv.split_first().expect("a command");
        let mut bot = Command::new(program);
        own_group(&mut bot)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = host.spawn_tied(bot).map_err(|e| BotError::Spawn {
            command: command.clone(),
            reason: e.to_string(),
        })?;
        lock(&host.groups).insert(child.id());
        let stderr = child.stderr.take().expect("stderr is piped");
        let (done, stderr_done) = mpsc::channel();
        let (path, cap) = (log.to_owned(), spec.max_log_bytes);
        let counter = Arc::clone(host);
        thread::spawn(move || {
            capped_copy(stderr, &path, cap, &counter.dropped);
            let _ = done.send(());
        });
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
            stderr_done: Some(stderr_done),
            quit_grace: QUIT_GRACE,
            decided: false,
            pids,
            host: Arc::clone(host),
        };
        let started = Instant::now();
        let hello = protocol::hello(&spec.options);
        process.send(hello.clone());
        let startup_ms = spec.handshake_limit(host.bot_options());
        let answer = process
            .receive(Duration::from_millis(startup_ms))
            .map_err(|why| {
                if why.starts_with("no answer within") {
                    format!(
                        "no hello within {startup_ms} ms (the handshake limit: the profile's \
                         handshake_ms or --handshake-ms raise it)"
                    )
                } else {
                    why
                }
            })
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
        process.quit_grace = spec
            .quit_ms
            .map_or_else(|| QUIT_GRACE.max(started.elapsed()), Duration::from_millis);
        Ok(process)
    }

    /// The bot's `hello`.
    #[must_use]
    pub fn hello(&self) -> &BotHello {
        &self.hello
    }

    /// How long the bot has to exit after `quit` (see `BotProcess::quit`).
    #[must_use]
    pub fn quit_grace(&self) -> Duration {
        self.quit_grace
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
        self.host.end(&mut self.child);
        self.stderr_copied();
    }
}

/// Starts the bot in a process group of its own (on unix), so that ending
/// it also ends what it started: the interpreter under `sh -c ...` or a
/// wrapper script, helper processes. Otherwise a bot that hangs leaves
/// them running after the run. The group also keeps a terminal's Ctrl-C
/// from reaching the bots directly: the CLI ends them with
/// [`BotHost::end_running_bots`] when it is interrupted.
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

/// A bot to start, and where to send the child (see [`BotHost::spawn_tied`]).
pub(super) type SpawnRequest = (Command, Sender<std::io::Result<Child>>);

impl BotHost {
    /// Spawns `command` from a thread that lives as long as the host (on
    /// Linux; see [`die_with_parent`]), else from the calling thread. The
    /// host outlives its bots: each holds it.
    fn spawn_tied(&self, command: Command) -> std::io::Result<Child> {
        self.spawned.store(true, Ordering::Relaxed);
        #[cfg(target_os = "linux")]
        {
            let (reply, answer) = mpsc::channel();
            lock(&self.spawner)
                .get_or_insert_with(|| {
                    let (requests, incoming) = mpsc::channel::<SpawnRequest>();
                    // The host keeps the sender, so this thread ends with it.
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
}

/// Makes this process the reaper of every orphan among its descendants
/// (Linux's `PR_SET_CHILD_SUBREAPER`): a bot's helper that double-forks
/// and calls `setsid()` leaves the bot's process group, but stays a
/// descendant, so [`BotHost::end_orphans`] can end it. For a program whose only
/// child processes are bots (the `ginlab` command): it changes the whole
/// process. Elsewhere it does nothing.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
}

impl BotHost {
    /// Kills and reaps every child process of this process, and then the
    /// orphans that this hands over (after [`adopt_orphans`]), until none
    /// is left, if this host ever started a bot: what a program whose only
    /// child processes are bots calls when it ends, once its bots are
    /// ended. (A child's id cannot name another process before the child is
    /// reaped, so no stranger is signalled.) Linux only; elsewhere it does
    /// nothing.
    pub fn end_orphans(&self) {
        #[cfg(target_os = "linux")]
        if self.spawned.load(Ordering::Relaxed) {
            end_children();
        }
    }
}

/// See [`BotHost::end_orphans`].
#[cfg(target_os = "linux")]
fn end_children() {
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

impl BotHost {
    /// Kills the bot's process group (on unix; elsewhere the bot alone) and
    /// reaps the bot. The group's id is the bot's pid, which the kernel
    /// keeps from new processes while the bot is unreaped or any process of
    /// its group lives: the signal reaches that group and nothing else.
    /// (Once all are gone it fails harmlessly; a bot reaped just before by
    /// `try_wait` would need the pids to wrap around in between for its id
    /// to name another group.)
    fn end(&self, child: &mut Child) {
        #[cfg(unix)]
        {
            use rustix::process::{Pid, Signal, kill_process_group};
            let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
        }
        let _ = child.kill();
        let _ = child.wait();
        lock(&self.groups).remove(&child.id());
    }

    /// Kills the process group of every bot of this host still running (on
    /// unix): what an interrupted run (Ctrl-C, SIGTERM) must do before it
    /// exits, since each bot runs in a group of its own that the terminal's
    /// signal does not reach.
    pub fn end_running_bots(&self) {
        #[cfg(unix)]
        for &pid in lock(&self.groups).iter() {
            use rustix::process::{Pid, Signal, kill_process_group};
            if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                let _ = kill_process_group(pid, Signal::KILL);
            }
        }
    }
}

impl BotProcess {
    /// Sends `quit`, closes the bot's stdin and waits for it to exit (the
    /// spec's `quit_ms`, else the longer of two seconds and the time it
    /// took to start); then kills it and what is left of its process group.
    /// Whether it exited by itself.
    pub(super) fn quit(&mut self) -> bool {
        let mut exited = false;
        if let Some(to_bot) = self.to_bot.take() {
            let _ = to_bot.send(protocol::quit());
            drop(to_bot);
            let deadline = Instant::now() + self.quit_grace;
            while !exited && Instant::now() < deadline {
                exited = !matches!(self.child.try_wait(), Ok(None));
                if !exited {
                    thread::sleep(Duration::from_millis(5));
                }
            }
        }
        self.host.end(&mut self.child);
        drop(self.pids.take());
        self.stderr_copied();
        exited
    }

    /// Waits (a second at most: a helper that left the process group may
    /// hold the pipe) until the bot's stderr is in its log.
    fn stderr_copied(&mut self) {
        if let Some(done) = self.stderr_done.take() {
            let _ = done.recv_timeout(Duration::from_secs(1));
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.quit();
    }
}

