//! The sandbox of external bots (docs/PROTOCOL.md, "The sandbox"), through
//! the binary: a bot that plays legally but tries to read ginlab's command
//! line, the run's checkpoint, the repository and the home folder, to
//! open a TCP connection, send a UDP datagram or connect to a unix socket
//! by its path, learns nothing (a socket pair stays allowed); with `--sandbox off` the same bot
//! learns them (so the test can fail). Needs `python3` and Linux with
//! Landlock ABI 6 or later; elsewhere the tests say why and pass.

use std::io::Read as _;
use std::net::{TcpListener, UdpSocket};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};

use crate::cmd::ginlab;

/// Whether `--sandbox strict` can run here (else the test is skipped with
/// the reason, as on a kernel without Landlock).
fn strict_available() -> bool {
    let output = ginlab()
        .args([
            "check-bot",
            "--sandbox",
            "strict",
            "--",
            "python3",
            "examples/bots/random_bot.py",
        ])
        .output()
        .unwrap();
    if output.status.code() == Some(2) {
        eprintln!(
            "skipped: no strict sandbox here: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        return false;
    }
    true
}

/// Every bot log in `dir`, joined.
fn logs(dir: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "log") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    text
}

struct Attack {
    _dir: tempfile::TempDir,
    out: PathBuf,
    logs: PathBuf,
    listener: TcpListener,
    udp: UdpSocket,
    unix: UnixListener,
    assert: assert_cmd::assert::Assert,
}

/// Plays the attack bot against greedy with `flags`, the output folder and
/// the logs in a temporary folder outside the repository.
fn attack(flags: &[&str]) -> Attack {
    attack_with(flags, 300, "", &[])
}

/// [`attack`] for `games` games, with `keys` added to the bot's profile and
/// `env` to its environment.
fn attack_with(flags: &[&str], games: u32, keys: &str, env: &[(&str, &str)]) -> Attack {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let logs = dir.path().join("logs");
    let profile = dir.path().join("attack.toml");
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/attack_bot.py");
    std::fs::write(
        &profile,
        format!(
            "kind = \"external\"\nname = \"attack\"\ncommand = [\"python3\", {:?}]\nlog_dir = {:?}\n{keys}",
            bot.display().to_string(),
            logs.display().to_string()
        ),
    )
    .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let unix_path = dir.path().join("listener.sock");
    let unix = UnixListener::bind(&unix_path).unwrap();
    unix.set_nonblocking(true).unwrap();
    let targets = [
        out.join("checkpoint.json"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"),
    ];
    let assert = ginlab()
        .env(
            "GINLAB_ATTACK_PORT",
            listener.local_addr().unwrap().port().to_string(),
        )
        .env(
            "GINLAB_ATTACK_UDP",
            udp.local_addr().unwrap().port().to_string(),
        )
        .env("GINLAB_ATTACK_UNIX", &unix_path)
        .env(
            "GINLAB_ATTACK_FILES",
            targets.map(|t| t.display().to_string()).join(":"),
        )
        .envs(env.iter().copied())
        .arg("match")
        .arg(&profile)
        .args(["greedy", "--games", &games.to_string()])
        .args(["--threads", "1", "--seed", "7", "--quiet"])
        .arg("--out")
        .arg(&out)
        .args(flags)
        .assert()
        .success();
    Attack {
        _dir: dir,
        out,
        logs,
        listener,
        udp,
        unix,
        assert,
    }
}

/// Datagrams that reached `udp`, and connections `unix` accepted.
fn datagrams_and_unix_connections(udp: &UdpSocket, unix: &UnixListener) -> (usize, usize) {
    let mut buffer = [0; 64];
    let mut datagrams = 0;
    while udp.recv_from(&mut buffer).is_ok() {
        datagrams += 1;
    }
    let mut accepted = 0;
    while unix.accept().is_ok() {
        accepted += 1;
    }
    (datagrams, accepted)
}

fn connections(listener: &TcpListener) -> usize {
    let mut count = 0;
    while let Ok((mut stream, _)) = listener.accept() {
        let mut text = String::new();
        let _ = stream.read_to_string(&mut text);
        count += 1;
    }
    count
}

#[test]
fn a_sandboxed_bot_learns_nothing() {
    if !strict_available() {
        return;
    }
    let run = attack(&["--sandbox", "strict"]);
    let log = logs(&run.logs);
    let learned: Vec<&str> = log.lines().filter(|l| l.starts_with("LEARNED")).collect();
    assert!(
        learned.iter().all(|l| l.starts_with("LEARNED socketpair")),
        "{log}"
    );
    for attack in [
        "denied cmdline",
        "denied file0",
        "denied file1",
        "denied home",
        "denied tcp",
        "denied udp",
        "denied unix",
        "LEARNED socketpair",
    ] {
        assert!(log.contains(attack), "no `{attack}` in\n{log}");
    }
    assert_eq!(connections(&run.listener), 0);
    assert_eq!(datagrams_and_unix_connections(&run.udp, &run.unix), (0, 0));
    // The checkpoint was there to be read while the bot played.
    assert!(run.out.join("summary.csv").is_file());
}

#[test]
fn without_the_sandbox_the_same_bot_learns_them() {
    if !strict_available() {
        return;
    }
    let run = attack(&["--sandbox", "off"]);
    let log = logs(&run.logs);
    for learned in [
        "LEARNED cmdline",
        "LEARNED file1",
        "LEARNED tcp",
        "LEARNED udp",
        "LEARNED unix",
    ] {
        assert!(log.contains(learned), "no `{learned}` in\n{log}");
    }
    assert!(log.contains("--out"), "{log}");
    assert_eq!(connections(&run.listener), 1);
    assert_eq!(datagrams_and_unix_connections(&run.udp, &run.unix), (1, 1));
    let _ = run.assert;
}

/// `auto` says what it could not enforce once, on one line, however many
/// bots start (on a system where it enforces everything, nothing).
#[test]
fn auto_says_once_what_it_could_not_enforce() {
    let output = ginlab()
        .args(["match", "exec:python3 examples/bots/random_bot.py"])
        .args([
            "exec:python3 examples/bots/greedy_bot.py",
            "--games",
            "4",
            "--threads",
            "2",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let notes = stderr
        .lines()
        .filter(|l| l.starts_with("note: sandbox (auto)"))
        .count();
    assert!(notes <= 1, "{stderr}");
}

/// A front end other than the `ginlab` command (a library user, the Python
/// package) sandboxes bots by registering any command that reaches the
/// launcher function on its lab: here `sh -c 'exec "$0" "$@"' ginlab`, a
/// launcher of more than one word. The bot, bound to that lab and playing
/// through the library, cannot read a file outside its folder; a bot of a
/// lab without a launcher can (so the test can fail).
#[test]
fn a_library_front_end_sandboxes_bots_through_its_lab() {
    use ginlab::lab::Lab;
    use ginlab::sim::{Plan, Work};
    use ginlab::strategy::{BotOptions, Profile, SandboxMode};
    if !strict_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "hidden").unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    // The bot's targets are in its environment (set by its shell command,
    // as words no path check takes for a file of its own).
    let run = |launcher: Option<Vec<std::ffi::OsString>>, mode: SandboxMode| -> String {
        let lab = Lab::new();
        if let Some(command) = launcher {
            lab.bots().set_launcher(command);
        }
        lab.bots().set_bot_options(BotOptions {
            sandbox: Some(mode),
            ..BotOptions::default()
        });
        let log_dir = dir.path().join(format!("logs-{mode}"));
        let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/attack_bot.py");
        let text = format!(
            "kind = \"external\"\ncommand = [\"sh\", \"-c\", \
             \"GINLAB_ATTACK_PORT={} GINLAB_ATTACK_FILES={} exec python3 {}\"]\nlog_dir = {:?}\n",
            listener.local_addr().unwrap().port(),
            secret.display(),
            bot.display(),
            log_dir.display().to_string(),
        );
        let (profile, _) = Profile::from_toml(&text).unwrap();
        let plan = Plan {
            rules: ginlab::rules::Rules::standard(),
            profiles: [profile.in_lab(&lab), "greedy".parse().unwrap()],
            work: Work::Games(2),
            duplicate: false,
            seed: 5,
        };
        plan.run(0..plan.deals(), 1, &|_| {}).unwrap();
        drop(plan);
        logs(&log_dir)
    };
    let launcher = vec![
        "sh".into(),
        "-c".into(),
        "exec \"$0\" \"$@\"".into(),
        env!("CARGO_BIN_EXE_ginlab").into(),
    ];
    let sandboxed = run(Some(launcher), SandboxMode::Strict);
    assert!(sandboxed.contains("denied file0"), "{sandboxed}");
    assert!(!sandboxed.contains("LEARNED file0"), "{sandboxed}");
    let plain = run(None, SandboxMode::Auto);
    assert!(plain.contains("LEARNED file0"), "{plain}");
}

/// The process limit binds a bot started by root, whom Linux exempts from
/// RLIMIT_NPROC: each bot process gets a pids cgroup of its own. The attack
/// bot with `max_processes = 8` cannot have 20 processes at once in the
/// sandbox, and can with it off. Skipped (with the reason) where ginlab
/// runs as root and can make no pids cgroup, as `auto` says.
#[test]
fn a_bots_process_count_is_limited_even_as_root() {
    if !strict_available() {
        return;
    }
    let forks = [("GINLAB_ATTACK_FORKS", "20")];
    let run = attack_with(&["--sandbox", "strict"], 2, "max_processes = 8\n", &forks);
    let stderr = String::from_utf8_lossy(&run.assert.get_output().stderr).into_owned();
    if stderr.contains("the process limit") {
        eprintln!("skipped: the process limit is not enforced here: {stderr}");
        return;
    }
    let log = logs(&run.logs);
    assert!(log.contains("denied forks"), "{log}");
    assert!(!log.contains("LEARNED forks"), "{log}");
    let run = attack_with(&["--sandbox", "off"], 2, "max_processes = 8\n", &forks);
    let log = logs(&run.logs);
    assert!(log.contains("LEARNED forks: b'20 processes'"), "{log}");
}
