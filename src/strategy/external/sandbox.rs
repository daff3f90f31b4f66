//! The sandbox an external bot runs in (docs/PROTOCOL.md, "The sandbox"):
//! what a bot may read and write, whether it may use the network, its
//! resource limits, and the command line that starts it through the
//! launcher ([`super::launcher`]).
//!
//! The launcher is a hidden mode of the host program (the `ginlab` binary
//! registers itself with [`BotHost::set_launcher`]): it sets the limits,
//! drops every capability, restricts itself with Landlock and then executes
//! the bot, which inherits all of it. A host with no launcher (a library
//! user that set none) runs bots without a sandbox, and says so in
//! [`BotHost::sandbox_notice`].

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;

use super::BotError;
use super::host::{BotHost, lock};
use super::pids::PidsGroup;

/// The argument that makes the host program the launcher.
pub const LAUNCHER_ARG: &str = "__sandbox-exec";

/// Whether bots run in the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SandboxMode {
    /// Enforce what the system allows; say once what it cannot.
    #[default]
    Auto,
    /// Refuse to start a bot where the sandbox cannot be enforced.
    Strict,
    /// No sandbox (a trusted bot).
    Off,
}

impl FromStr for SandboxMode {
    type Err = String;

    fn from_str(text: &str) -> Result<SandboxMode, String> {
        match text.trim() {
            "auto" => Ok(SandboxMode::Auto),
            "strict" => Ok(SandboxMode::Strict),
            "off" => Ok(SandboxMode::Off),
            _ => Err(SANDBOX_MODES.to_owned()),
        }
    }
}

impl fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SandboxMode::Auto => "auto",
            SandboxMode::Strict => "strict",
            SandboxMode::Off => "off",
        })
    }
}

/// What a sandbox mode may be, for messages.
pub const SANDBOX_MODES: &str = "auto, strict or off";

/// Default address-space limit of a bot process: a JVM with its default
/// heap sizing starts under it (docs/DESIGN.md has the measurement).
pub const DEFAULT_MEMORY_MB: u64 = 8192;
/// Default limit on processes and threads (Linux counts every process of
/// the user against it, not the bot's alone).
pub const DEFAULT_PROCESSES: u64 = 4096;
/// Default limit on a bot's open files.
pub const DEFAULT_OPEN_FILES: u64 = 1024;
/// Default cap on a bot's stderr log: the rest is dropped and counted.
pub const DEFAULT_LOG_BYTES: u64 = 16 * 1024 * 1024;

/// A profile's sandbox keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxSpec {
    /// The profile's `sandbox` key (the `--sandbox` flag wins over it).
    pub mode: Option<SandboxMode>,
    /// More folders or files the bot may read (`read`).
    pub read: Vec<PathBuf>,
    /// One folder the bot may write (`scratch`).
    pub scratch: Option<PathBuf>,
    /// Whether the bot may open TCP connections (`network`).
    pub network: bool,
    /// Address-space limit in MiB (`max_memory_mb`).
    pub memory_mb: u64,
    /// Processes and threads (`max_processes`).
    pub processes: u64,
    /// Open files (`max_open_files`).
    pub open_files: u64,
}

impl Default for SandboxSpec {
    fn default() -> SandboxSpec {
        SandboxSpec {
            mode: None,
            read: Vec::new(),
            scratch: None,
            network: false,
            memory_mb: DEFAULT_MEMORY_MB,
            processes: DEFAULT_PROCESSES,
            open_files: DEFAULT_OPEN_FILES,
        }
    }
}

/// Settings for every bot of the process, from the command line: they win
/// over a profile's keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotOptions {
    /// `--sandbox`.
    pub sandbox: Option<SandboxMode>,
    /// `--handshake-ms`.
    pub handshake_ms: Option<u64>,
    /// `--first-move-ms`.
    pub first_move_ms: Option<u64>,
}

impl BotHost {
    /// Sets the command line's [`BotOptions`] for every bot started after.
    pub fn set_bot_options(&self, options: BotOptions) {
        *lock(&self.options) = options;
    }

    /// The command line's [`BotOptions`].
    #[must_use]
    pub fn bot_options(&self) -> BotOptions {
        *lock(&self.options)
    }

    /// Registers `command` (a program and its first arguments) as the
    /// launcher: run with [`LAUNCHER_ARG`] and the policy after it, it calls
    /// [`super::launcher::run`] with the arguments after [`LAUNCHER_ARG`].
    /// The `ginlab` binary registers itself (`[ginlab]`); another front end
    /// registers whatever command reaches that library function (an
    /// interpreter and a module of its own).
    ///
    /// # Panics
    /// If `command` is empty.
    pub fn set_launcher(&self, command: Vec<OsString>) {
        assert!(!command.is_empty(), "a launcher command names a program");
        *lock(&self.launcher) = Some(command);
    }

    /// The registered launcher command, if any.
    #[must_use]
    pub fn launcher(&self) -> Option<Vec<OsString>> {
        lock(&self.launcher).clone()
    }

    /// The line saying what the sandbox could not enforce for the bots
    /// started so far, the first time there is one; `None` after that, or
    /// when all was enforced. Front ends print it (`auto` mode says it once).
    #[must_use]
    pub fn sandbox_notice(&self) -> Option<String> {
        let mut notice = lock(&self.notice);
        if notice.1 {
            return None;
        }
        let text = notice.0.take();
        notice.1 = text.is_some();
        text
    }

    fn notice(&self, text: String) {
        let mut notice = lock(&self.notice);
        if notice.0.is_none() && !notice.1 {
            notice.0 = Some(text);
        }
    }

    /// The mode in force for a bot whose profile says `mode`.
    #[must_use]
    pub fn mode_for(&self, profile: Option<SandboxMode>) -> SandboxMode {
        self.bot_options().sandbox.or(profile).unwrap_or_default()
    }
}

/// Landlock features, by the ABI that brought them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Level {
    /// Files (ABI 1 to 3).
    Files = 1,
    /// TCP bind and connect (ABI 4).
    Tcp = 4,
    /// Signals and abstract unix sockets outside the sandbox (ABI 6).
    Scope = 6,
    /// Connecting to unix sockets by path (ABI 9).
    UnixPaths = 9,
    /// UDP (ABI 10).
    Udp = 10,
}

/// The highest Landlock level the kernel enforces, probed once by
/// creating (never applying) a ruleset that requires each level.
fn kernel_level() -> Option<Level> {
    static LEVEL: OnceLock<Option<Level>> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        #[cfg(target_os = "linux")]
        {
            use landlock::{
                ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
                Scope,
            };
            let creates = |abi: ABI, net: bool, scope: bool| {
                let ruleset = Ruleset::default().set_compatibility(CompatLevel::HardRequirement);
                let ruleset = ruleset.handle_access(AccessFs::from_all(abi));
                let ruleset = if net {
                    ruleset.and_then(|r| r.handle_access(AccessNet::from_all(abi)))
                } else {
                    ruleset
                };
                let ruleset = if scope {
                    ruleset.and_then(|r| r.scope(Scope::from_all(abi)))
                } else {
                    ruleset
                };
                ruleset.and_then(Ruleset::create).is_ok()
            };
            [
                (Level::Udp, ABI::V10, true, true),
                (Level::UnixPaths, ABI::V9, true, true),
                (Level::Scope, ABI::V6, true, true),
                (Level::Tcp, ABI::V4, true, false),
                (Level::Files, ABI::V1, false, false),
            ]
            .into_iter()
            .find(|&(_, abi, net, scope)| creates(abi, net, scope))
            .map(|(level, ..)| level)
        }
        #[cfg(not(target_os = "linux"))]
        None
    })
}

/// Whether the kernel applies seccomp filters that return an error
/// (`/proc/sys/kernel/seccomp/actions_avail`, Linux 4.14), which the
/// launcher uses to refuse sockets without the network.
fn seccomp_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        cfg!(all(
            target_os = "linux",
            any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "riscv64")
        )) && std::fs::read_to_string("/proc/sys/kernel/seccomp/actions_avail")
            .is_ok_and(|actions| actions.split_whitespace().any(|a| a == "errno"))
    })
}

/// The least level `strict` accepts: files, TCP, signals.
const STRICT_LEVEL: Level = Level::Scope;

/// What the sandbox cannot enforce on this system, as short phrases, with
/// seccomp filters (`seccomp`) or without; `root` when ginlab runs as root
/// and cannot make pids cgroups (`super::pids`).
fn missing(level: Option<Level>, seccomp: bool, root: bool) -> Vec<&'static str> {
    let mut gaps = Vec::new();
    match level {
        None => gaps.push("file access, network, signals (no Landlock in this kernel)"),
        Some(level) => {
            if level < Level::Tcp {
                gaps.push("TCP (Landlock ABI < 4)");
            }
            if level < Level::Scope {
                gaps.push("signals and abstract sockets (Landlock ABI < 6)");
            }
            if level < Level::UnixPaths && !seccomp {
                gaps.push("connecting to unix sockets by path (Landlock ABI < 9, no seccomp)");
            }
            if level < Level::Udp && !seccomp {
                gaps.push("UDP (Landlock ABI < 10, no seccomp)");
            }
        }
    }
    if root {
        gaps.push(
            "the process limit (ginlab runs as root, which RLIMIT_NPROC exempts, and can make \
             no pids cgroup)",
        );
    }
    gaps
}

/// Whether this process runs as root.
fn is_root() -> bool {
    #[cfg(unix)]
    {
        rustix::process::geteuid().is_root()
    }
    #[cfg(not(unix))]
    false
}

/// How a bot is started: its command wrapped in the launcher, or as is.
#[derive(Debug)]
pub(super) struct Launch {
    /// The program and arguments to run.
    pub argv: Vec<OsString>,
    /// Lines for the bot's log: what was granted or left out.
    pub notes: Vec<String>,
    /// The bot's pids cgroup (as root), to remove once it has ended.
    pub pids: Option<PidsGroup>,
}

/// Folders every bot may read: the system's programs and libraries.
const SYSTEM_READ: &[&str] = &[
    "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
    // What runtimes read in /etc (the dynamic linker, users, time, TLS
    // roots, Java's and Python's settings), not all of /etc.
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/ld.so.preload",
    "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/localtime", "/etc/timezone",
    "/etc/alternatives", "/etc/java-17-openjdk", "/etc/java-21-openjdk", "/etc/java",
    "/etc/ssl", "/etc/ca-certificates", "/etc/python3", "/etc/os-release", "/etc/mime.types",
    "/etc/locale.alias", "/etc/host.conf", "/etc/hosts", "/etc/resolv.conf", "/etc/gai.conf",
    // What runtimes read about the machine (CPUs, memory, cgroup limits).
    "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/sys", "/proc/filesystems",
    "/sys/devices/system/cpu", "/sys/fs/cgroup", "/dev/urandom", "/dev/random", "/dev/zero",
];

/// Files every bot may write.
const SYSTEM_WRITE: &[&str] = &["/dev/null", "/dev/full"];

/// Whether `dir` holds (or is) a folder the bot must not see whole: the
/// root, the working directory or one above it (results are usually
/// written there), or the home folder or one above it.
fn too_wide(dir: &Path, cwd: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    dir.parent().is_none()
        || cwd.starts_with(dir)
        || home.is_some_and(|h| h.starts_with(dir))
}

/// The folders of the bot's own program: for each word of the command (and
/// each `:`-separated part, for class paths) that names an existing file,
/// its folder, and an existing folder itself; for the program found on
/// `PATH`, its installation (the folder above its own). Relative paths are
/// taken from `dir`, the bot's working directory.
fn program_paths(command: &[String], dir: &Path, cwd: &Path, notes: &mut Vec<String>) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let mut grant = |path: PathBuf, is_file: bool, notes: &mut Vec<String>| {
        let folder = if is_file {
            path.parent().map_or_else(|| path.clone(), Path::to_path_buf)
        } else {
            path.clone()
        };
        if !too_wide(&folder, cwd) {
            paths.push(folder);
        } else if is_file {
            notes.push(format!(
                "sandbox: only the file {} is readable, not its folder (the working directory, \
                 the home folder or above); name the folder in the profile's `read` to allow it",
                path.display()
            ));
            paths.push(path);
        } else {
            notes.push(format!(
                "sandbox: the folder {} is not readable (the working directory, the home folder \
                 or above); name it in the profile's `read` to allow it",
                path.display()
            ));
        }
    };
    if let Some(found) = command.first().and_then(|p| on_path(p)) {
        // The installation the program belongs to: the folder above its
        // own (`X/bin/java` → `X`; a version manager's `shims` → its root,
        // which holds the versions), else its own folder.
        for path in [found.clone(), found.canonicalize().unwrap_or(found)] {
            let folder = path.parent().unwrap_or(&path);
            match folder.parent() {
                Some(root) if !too_wide(root, cwd) => grant(root.to_path_buf(), false, notes),
                _ => grant(folder.to_path_buf(), false, notes),
            }
        }
    }
    // A program named by its path (a virtual environment's
    // `venv/bin/python`, a link into an installation) in a `bin` folder:
    // its installation too, and the installation the link leads to, as for
    // one found on `PATH`. Only for `bin`: the folder above any other
    // program's folder may be a shared one such as /tmp.
    if let Some(first) = command.first().filter(|p| p.contains('/')) {
        let path = dir.join(first);
        if path.is_file() {
            for path in [path.clone(), path.canonicalize().unwrap_or(path)] {
                if let Some(folder) = path.parent()
                    && folder.file_name().is_some_and(|n| n == "bin")
                    && let Some(root) = folder.parent()
                    && !too_wide(root, cwd)
                {
                    grant(root.to_path_buf(), false, notes);
                }
            }
        }
    }
    // Words, the words of a shell command (`sh -c "python3 bot.py"`), and
    // the entries of class paths.
    let parts = command.iter().flat_map(|word| {
        word.split(|c: char| c.is_whitespace() || c == ':' || c == ';')
            .map(|part| part.trim_matches(|c| c == '\'' || c == '"'))
    });
    for part in parts {
        {
            if part.is_empty() || part.starts_with('-') {
                continue;
            }
            let part = part.strip_suffix("/*").unwrap_or(part);
            let path = dir.join(part);
            if let Ok(meta) = path.metadata() {
                let path = path.canonicalize().unwrap_or(path);
                grant(path, meta.is_file(), notes);
            }
        }
    }
    paths
}

/// The program `name` (without a `/`) on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return None;
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// How to start `command` under `spec` in `dir` (the bot's working
/// directory); `name` names the bot in messages.
///
/// # Errors
/// The program does not exist (as starting it would say), or `strict`
/// where the sandbox cannot be enforced.
pub(super) fn launch(
    host: &BotHost,
    command: &[String],
    spec: &SandboxSpec,
    dir: &Path,
    name: &str,
) -> Result<Launch, BotError> {
    let program = command.first().map_or("", String::as_str);
    let exists = if program.contains('/') {
        dir.join(program).is_file()
    } else {
        on_path(program).is_some()
    };
    if !exists {
        // The launcher would fail to exec it, after the handshake began.
        return Err(BotError::Spawn {
            command: name.to_owned(),
            reason: std::io::Error::from_raw_os_error(2).to_string(),
        });
    }
    let plain = Launch {
        argv: command.iter().map(OsString::from).collect(),
        notes: Vec::new(),
        pids: None,
    };
    let mode = host.mode_for(spec.mode);
    if mode == SandboxMode::Off {
        return Ok(plain);
    }
    let launcher = lock(&host.launcher).clone();
    let level = kernel_level();
    let root = is_root();
    let seccomp = seccomp_available();
    let mut gaps = missing(level, seccomp, root && super::pids::base().is_none());
    if launcher.is_none() {
        gaps = vec!["anything (this program has no sandbox launcher; the ginlab command has)"];
    }
    let weak = launcher.is_none() || level.is_none_or(|l| l < STRICT_LEVEL) || !seccomp;
    if mode == SandboxMode::Strict && weak {
        return Err(BotError::Sandbox {
            reason: format!(
                "--sandbox strict: cannot sandbox bot `{name}` here: it needs Landlock ABI 6 or \
                 later (Linux 6.12), seccomp filters and the ginlab command; not enforceable: {}",
                gaps.iter()
                    .copied()
                    .chain((!seccomp).then_some("seccomp filters (the kernel has none)"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    if !gaps.is_empty() {
        host.notice(format!(
            "sandbox ({mode}): not enforced on this system: {} (docs/PROTOCOL.md, \"The sandbox\")",
            gaps.join("; ")
        ));
    }
    let (Some(launcher), Some(_)) = (launcher, level) else {
        return Ok(plain);
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let mut notes = Vec::new();
    let mut read: BTreeSet<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    read.extend(program_paths(command, dir, &cwd, &mut notes));
    if dir != cwd {
        // A profile's `cwd`: the bot's data files are there.
        if too_wide(dir, &cwd) {
            notes.push(format!(
                "sandbox: the working directory {} is not readable (it holds the one ginlab \
                 runs in, or the home folder); name it in `read` to allow it",
                dir.display()
            ));
        } else {
            read.insert(dir.to_path_buf());
        }
    }
    read.extend(spec.read.iter().map(|p| dir.join(p)));
    let mut argv: Vec<OsString> = launcher;
    argv.push(LAUNCHER_ARG.into());
    for path in &read {
        argv.extend(["--read".into(), path.clone().into()]);
    }
    for path in SYSTEM_WRITE {
        argv.extend(["--write".into(), (*path).into()]);
    }
    if let Some(scratch) = &spec.scratch {
        let scratch = dir.join(scratch);
        if !scratch.is_dir() {
            return Err(BotError::Spawn {
                command: name.to_owned(),
                reason: format!("its scratch folder {} is not a folder", scratch.display()),
            });
        }
        argv.extend(["--write".into(), scratch.into()]);
    }
    if spec.network {
        argv.push("--network".into());
    } else if seccomp {
        argv.push("--no-sockets".into());
    }
    for (flag, value) in [
        ("--memory-mb", spec.memory_mb),
        ("--processes", spec.processes),
        ("--open-files", spec.open_files),
    ] {
        argv.extend([flag.into(), value.to_string().into()]);
    }
    // Root is not bound by `--processes` (RLIMIT_NPROC); a pids cgroup is.
    let pids = if root {
        PidsGroup::new(spec.processes).map_err(|e| BotError::Spawn {
            command: name.to_owned(),
            reason: format!("cannot make its pids cgroup (the process limit as root): {e}"),
        })?
    } else {
        None
    };
    if let Some(group) = &pids {
        argv.extend(["--pids-cgroup".into(), group.path().into()]);
    }
    if mode == SandboxMode::Strict {
        argv.extend(["--require".into(), (STRICT_LEVEL as u8).to_string().into()]);
    }
    argv.push("--".into());
    argv.extend(command.iter().map(OsString::from));
    Ok(Launch { argv, notes, pids })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_back() {
        for mode in [SandboxMode::Auto, SandboxMode::Strict, SandboxMode::Off] {
            assert_eq!(mode.to_string().parse::<SandboxMode>(), Ok(mode));
        }
        assert_eq!("on".parse::<SandboxMode>(), Err(SANDBOX_MODES.to_owned()));
    }

    /// A program that registered no launcher (this test binary, a library
    /// user) cannot sandbox: `strict` refuses with the reason.
    #[test]
    fn strict_refuses_where_there_is_no_launcher() {
        let strict = SandboxSpec {
            mode: Some(SandboxMode::Strict),
            ..SandboxSpec::default()
        };
        let here = std::env::current_dir().unwrap();
        let host = BotHost::new();
        let err = launch(&host, &["sh".into()], &strict, &here, "sh").unwrap_err();
        assert!(
            err.to_string().contains("--sandbox strict: cannot sandbox bot `sh` here"),
            "{err}"
        );
        let off = SandboxSpec {
            mode: Some(SandboxMode::Off),
            ..SandboxSpec::default()
        };
        let plain = launch(&host, &["sh".into()], &off, &here, "sh").unwrap();
        assert_eq!(plain.argv, [OsString::from("sh")]);
    }

    /// Without seccomp, a kernel before Landlock ABI 9 and 10 leaves unix
    /// sockets by path and UDP open, and `auto` names them; with it,
    /// nothing of the network is missing. As root without a pids cgroup,
    /// the process limit is.
    #[test]
    fn what_is_missing_names_sockets_without_seccomp() {
        let abi7 = Some(Level::Scope);
        let without = missing(abi7, false, false).join("; ");
        assert!(without.contains("UDP (Landlock ABI < 10, no seccomp)"), "{without}");
        assert!(without.contains("unix sockets by path"), "{without}");
        assert!(missing(abi7, true, false).is_empty());
        assert!(missing(Some(Level::Udp), false, false).is_empty());
        let root = missing(abi7, true, true).join("; ");
        assert!(root.contains("the process limit"), "{root}");
    }

    #[test]
    fn the_working_directory_and_home_are_never_granted_whole() {
        let cwd = Path::new("/work/project");
        assert!(too_wide(Path::new("/work/project"), cwd));
        assert!(too_wide(Path::new("/work"), cwd));
        assert!(too_wide(Path::new("/"), cwd));
        assert!(!too_wide(Path::new("/work/project/bots"), cwd));
        let mut notes = Vec::new();
        let paths = program_paths(
            &["python3".into(), "Cargo.toml".into()],
            &std::env::current_dir().unwrap(),
            &std::env::current_dir().unwrap(),
            &mut notes,
        );
        // The file in the working directory, not the directory.
        let file = std::env::current_dir().unwrap().join("Cargo.toml");
        assert!(paths.contains(&file.canonicalize().unwrap()), "{paths:?}");
        assert!(!paths.contains(&std::env::current_dir().unwrap()), "{paths:?}");
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    /// A program named by its path in a `bin` folder brings its
    /// installation, and that of the file a link leads to (a virtual
    /// environment's python and the interpreter it links to); a program in
    /// any other folder brings that folder only.
    #[test]
    fn a_program_named_by_path_brings_its_installation() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let install = root.join("install");
        let venv = root.join("venv");
        std::fs::create_dir_all(install.join("bin")).unwrap();
        std::fs::create_dir_all(install.join("lib")).unwrap();
        std::fs::create_dir_all(venv.join("bin")).unwrap();
        std::fs::write(install.join("bin/python3.11"), "").unwrap();
        std::os::unix::fs::symlink(install.join("bin/python3.11"), venv.join("bin/python")).unwrap();
        std::fs::create_dir_all(root.join("bots")).unwrap();
        std::fs::write(root.join("bots/bot"), "").unwrap();
        let cwd = root.join("elsewhere");
        let mut notes = Vec::new();
        let python = venv.join("bin/python").display().to_string();
        let paths = program_paths(&[python, "bot.py".into()], &root, &cwd, &mut notes);
        assert!(paths.contains(&venv), "{paths:?}");
        assert!(paths.contains(&install), "{paths:?}");
        let bot = root.join("bots/bot").display().to_string();
        let paths = program_paths(&[bot], &root, &cwd, &mut notes);
        assert_eq!(paths, [root.join("bots")]);
    }
}
