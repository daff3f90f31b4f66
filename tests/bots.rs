//! External bots through the protocol of docs/PROTOCOL.md: the Python
//! example bots pass `check-bot` and play matches; bots that crash, hang,
//! send garbage or illegal moves forfeit, are logged and restarted, and the
//! run goes on; bad bot profiles are bad input. Needs `python3` on PATH
//! (`.ci/run` installs it).

use std::path::Path;

use assert_cmd::Command;
use predicates::str::contains;

fn ginlab() -> Command {
    let mut cmd = Command::cargo_bin("ginlab").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

const GREEDY_BOT: &str = "exec:python3 examples/bots/greedy_bot.py";
const RANDOM_BOT: &str = "exec:python3 examples/bots/random_bot.py";

fn faulty(mode: &str) -> String {
    format!("exec:python3 tests/bots/faulty_bot.py {mode}")
}

fn summary_field(dir: &Path, field: &str) -> String {
    let text = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let i = header.iter().position(|h| *h == field).unwrap();
    row[i].to_owned()
}

#[test]
fn example_bots_are_compliant() {
    for bot in ["examples/bots/greedy_bot.py", "examples/bots/random_bot.py"] {
        ginlab()
            .args(["check-bot", "--", "python3", bot])
            .assert()
            .success()
            .stdout(contains("verdict    COMPLIANT"))
            .stdout(contains("scenarios  19 passed, 0 failed"))
            .stdout(contains("quit       exited by itself"));
    }
}

#[test]
fn check_bot_reports_each_violation_with_the_lines() {
    let output = ginlab()
        .args([
            "check-bot",
            "--",
            "python3",
            "tests/bots/faulty_bot.py",
            "illegal",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("VIOLATION  in"), "{stdout}");
    assert!(stdout.contains("request: {\"decision\""), "{stdout}");
    assert!(stdout.contains("reply:   {\"type\": \"move\""), "{stdout}");
    assert!(stdout.contains("NOT COMPLIANT"), "{stdout}");
    // A bot that fails the handshake fails the check, with the line.
    ginlab()
        .args([
            "check-bot",
            "--",
            "python3",
            "tests/bots/faulty_bot.py",
            "nohello",
        ])
        .assert()
        .code(1)
        .stdout(contains("replied: hello there"));
    // A program that cannot start is bad input.
    ginlab()
        .args(["check-bot", "--", "./no/such/bot"])
        .assert()
        .code(2)
        .stderr(contains("cannot start bot `./no/such/bot`"));
    ginlab()
        .args(["check-bot", "--", "no-such-bot-program"])
        .assert()
        .code(2)
        .stderr(contains("cannot start bot `no-such-bot-program`"));
    ginlab()
        .args(["check-bot", "--options", "[1]", "--", "python3", "x.py"])
        .assert()
        .code(2)
        .stderr(contains("expected a JSON object"));
}

#[test]
fn python_bots_play_a_match() {
    let dir = tempfile_dir("bots-match");
    ginlab()
        .args([
            "match", GREEDY_BOT, RANDOM_BOT, "--games", "4", "--seed", "7",
        ])
        .args(["--threads", "2", "-q", "--out"])
        .arg(&dir)
        .assert()
        .success()
        .stdout(contains("bot A"))
        .stdout(contains("0 failed games"));
    assert_eq!(summary_field(&dir, "games"), "4");
    assert_eq!(
        summary_field(&dir, "a_game_wins"),
        "4",
        "greedy beats random"
    );
    assert_eq!(summary_field(&dir, "a_forfeits"), "0");
}

/// The faulty bot misbehaves in the games whose seed is even, whatever
/// process plays them, so forfeits and results repeat for any thread count.
#[test]
fn faults_forfeit_the_game_and_the_run_goes_on() {
    for mode in ["crash", "garbage", "illegal", "wrongid"] {
        let mut summaries = Vec::new();
        for threads in ["1", "2"] {
            let dir = tempfile_dir(&format!("faulty-{mode}-{threads}"));
            let logs = dir.join("logs");
            let profile = dir.join("faulty.toml");
            std::fs::write(
                &profile,
                format!(
                    "kind = \"external\"\ncommand = [\"python3\", \"tests/bots/faulty_bot.py\", \"{mode}\"]\nlog_dir = \"{}\"\n",
                    logs.display()
                ),
            )
            .unwrap();
            ginlab()
                .arg("match")
                .arg(&profile)
                .args(["greedy", "--games", "12", "--seed", "3", "-q"])
                .args(["--threads", threads, "--out"])
                .arg(dir.join("out"))
                .assert()
                .success()
                .stdout(contains("forfeits      A"));
            let forfeits: u64 = summary_field(&dir.join("out"), "a_forfeits")
                .parse()
                .unwrap();
            assert!(forfeits > 0 && forfeits < 12, "{mode}: {forfeits}");
            assert_eq!(summary_field(&dir.join("out"), "games"), "12");
            assert_eq!(summary_field(&dir.join("out"), "b_forfeits"), "0");
            // The bot's stderr and the reason are in its logs.
            let logs: String = std::fs::read_dir(&logs)
                .unwrap()
                .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
                .collect();
            assert!(logs.contains("faulty: misbehaving on purpose"), "{logs}");
            assert!(logs.contains("== ginlab: forfeit: "), "{logs}");
            summaries.push(std::fs::read(dir.join("out/summary.csv")).unwrap());
        }
        assert_eq!(
            summaries[0], summaries[1],
            "{mode}: same bytes for any --threads"
        );
    }
}

#[test]
fn a_hung_bot_times_out() {
    let dir = tempfile_dir("hang");
    let profile = dir.join("hang.toml");
    std::fs::write(
        &profile,
        "kind = \"external\"\nname = \"hanger\"\ncommand = \"python3 tests/bots/faulty_bot.py hang\"\ntimeout_ms = 300\n",
    )
    .unwrap();
    ginlab()
        .arg("match")
        .arg(&profile)
        .args(["greedy", "--games", "6", "--seed", "3", "-q"])
        .assert()
        .success()
        .stdout(contains("A = hanger"))
        .stdout(contains("forfeits      A 2"));
}

/// A bot started through a shell is the shell's child, not ginlab's: when
/// it hangs and forfeits, killing the shell alone would leave it running.
/// Ending a bot ends its whole process group.
#[cfg(target_os = "linux")]
#[test]
fn a_hung_bot_under_a_shell_leaves_no_process_behind() {
    let (profile, pids) = hung_bot_under_a_shell("hang-group", 200);
    ginlab()
        .arg("match")
        .arg(&profile)
        .args(HUNG_MATCH)
        .assert()
        .success()
        .stdout(contains("forfeits      A 2"));
    let pids: Vec<String> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(pids.len() >= 2, "a bot per forfeit: {pids:?}");
    assert_gone(&pids);
}

/// The rest of a `match` against the hung bot: with seed 3, two of the six
/// games have the even seeds that make it hang.
const HUNG_MATCH: [&str; 8] = [
    "greedy",
    "--games",
    "6",
    "--seed",
    "3",
    "--threads",
    "1",
    "-q",
];

/// A profile (in a fresh folder named `name`) of a bot that hangs, started
/// through `sh -c` with a command after it, which keeps the shell from
/// exec'ing the bot; each bot process appends its pid to the returned file.
fn hung_bot_under_a_shell(name: &str, timeout_ms: u64) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile_dir(name);
    let pids = dir.join("pids");
    let profile = dir.join("hang.toml");
    std::fs::write(
        &profile,
        format!(
            "kind = \"external\"\nname = \"hanger\"\ncommand = [\"sh\", \"-c\", \"python3 tests/bots/faulty_bot.py hang '{}'; echo bot ended >&2\"]\ntimeout_ms = {timeout_ms}\n",
            pids.display()
        ),
    )
    .unwrap();
    (profile, pids)
}

/// Waits up to 5 s for the processes `pids` to end; fails naming those
/// still running (a /proc entry that is not a zombie: an orphan's zombie
/// waits for whoever adopted it).
fn assert_gone(pids: &[String]) {
    let running = |pid: &&String| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| Some(stat.rsplit_once(')')?.1.trim_start().starts_with('Z')))
            .is_some_and(|zombie| !zombie)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while pids.iter().any(|p| running(&p)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let left: Vec<&String> = pids.iter().filter(running).collect();
    assert!(left.is_empty(), "bot processes still running: {left:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_run_ends_its_hung_bots() {
    use rustix::process::{Pid, Signal, kill_process};
    // A timeout far beyond the test.
    let (profile, pids) = hung_bot_under_a_shell("interrupt", 600_000);
    let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_ginlab"))
        .arg("match")
        .arg(&profile)
        .args(HUNG_MATCH)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the bot to start (and soon hang), then interrupt ginlab as a
    // terminal's Ctrl-C would, which no longer reaches the bot's group.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let started = || std::fs::read_to_string(&pids).is_ok_and(|t| !t.is_empty());
    while !started() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(started(), "the bot did not start");
    // The games before the hang take milliseconds; a second is ample.
    std::thread::sleep(std::time::Duration::from_secs(1));
    kill_process(Pid::from_child(&run), Signal::INT).unwrap();
    assert_eq!(run.wait().unwrap().code(), Some(130));
    let pids: Vec<String> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_gone(&pids);
}

#[test]
fn bad_bots_and_profiles_are_bad_input() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["match", &faulty("nohello"), "greedy", "--games", "2"],
            "failed the handshake",
        ),
        (
            &[
                "match",
                "exec:no-such-bot-program",
                "greedy",
                "--games",
                "2",
            ],
            "cannot start bot",
        ),
        (
            &["match", "exec:python3 'unclosed", "greedy", "--games", "2"],
            "quotes must close",
        ),
        (
            &["match", "exec:", "greedy", "--games", "2"],
            "a command line",
        ),
    ];
    for (args, needle) in cases {
        ginlab()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(needle));
    }
    let dir = tempfile_dir("bad-profiles");
    for (text, needle) in [
        ("kind = \"external\"\n", "needs command"),
        ("kind = \"external\"\ncommand = []\n", "needs command"),
        ("kind = \"external\"\ncommand = [1]\n", "array of strings"),
        (
            "kind = \"external\"\ncommand = [\"x\"]\ntimeout_ms = 0\n",
            "1 to 3600000",
        ),
        (
            "kind = \"external\"\ncommand = [\"x\"]\noptions = 3\n",
            "a table",
        ),
        (
            "kind = \"external\"\ncommand = [\"x\"]\nspeed = 3\n",
            "no parameter `speed`",
        ),
    ] {
        let path = dir.join("bad.toml");
        std::fs::write(&path, text).unwrap();
        ginlab()
            .arg("match")
            .arg(&path)
            .args(["greedy", "--games", "2"])
            .assert()
            .code(2)
            .stderr(contains(needle));
    }
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ginlab-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
