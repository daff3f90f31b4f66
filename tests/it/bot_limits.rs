//! The limits ginlab sets on an external bot, through the binary: the
//! handshake time (`--handshake-ms`, a profile's `handshake_ms`), the time
//! to exit after `quit` in `check-bot`, the allowance for a process's
//! first decision (`--first-move-ms`, a profile's `first_move_ms`), the cap
//! on a bot's stderr log (`max_log_bytes`), and where the bots' flags are
//! taken. Needs `python3` on PATH.

use std::path::Path;

use crate::cmd::ginlab;
use predicates::str::contains;

/// A profile file for `faulty_bot.py MODE` with `extra` lines, in `dir`.
fn profile(dir: &Path, mode: &str, extra: &str) -> String {
    let path = dir.join(format!("{mode}.toml"));
    std::fs::write(
        &path,
        format!(
            "kind = \"external\"\nname = \"slow-{mode}\"\n\
             command = [\"python3\", \"tests/bots/faulty_bot.py\", \"{mode}\"]\n{extra}"
        ),
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn the_handshake_limit_is_a_flag_and_a_profile_key_and_names_the_slow_bot() {
    ginlab()
        .args([
            "match",
            "greedy",
            "exec:python3 tests/bots/faulty_bot.py slowhello",
        ])
        .args(["--games", "1", "--handshake-ms", "300"])
        .assert()
        .code(2)
        .stderr(contains(
            "strategy B: bot `python3 tests/bots/faulty_bot.py slowhello`",
        ))
        .stderr(contains("no hello within 300 ms"))
        .stderr(contains("--handshake-ms"));
    let dir = tempfile::tempdir().unwrap();
    let slow = profile(dir.path(), "slowhello", "handshake_ms = 250\n");
    ginlab()
        .args(["match", &slow, "greedy", "--games", "1"])
        .assert()
        .code(2)
        .stderr(contains(
            "strategy A: bot `python3 tests/bots/faulty_bot.py slowhello`",
        ))
        .stderr(contains("no hello within 250 ms"));
    // The flag wins over the profile.
    ginlab()
        .args([
            "match",
            &slow,
            "greedy",
            "--games",
            "1",
            "--handshake-ms",
            "400",
        ])
        .assert()
        .code(2)
        .stderr(contains("no hello within 400 ms"));
    let bad = profile(dir.path(), "crash", "handshake_ms = 0\n");
    ginlab()
        .args(["match", &bad, "greedy", "--games", "1"])
        .assert()
        .code(2)
        .stderr(contains("handshake_ms"));
}

#[test]
fn a_bot_slow_to_exit_after_quit_passes_check_bot_unless_quit_ms_is_shorter() {
    // 1.2 s to exit: over the old fixed second, within the default grace.
    ginlab()
        .args([
            "check-bot",
            "--",
            "python3",
            "tests/bots/faulty_bot.py",
            "slowquit",
        ])
        .assert()
        .success()
        .stdout(contains("quit       exited by itself"));
    ginlab()
        .args(["check-bot", "--quit-ms", "300", "--"])
        .args(["python3", "tests/bots/faulty_bot.py", "slowquit"])
        .assert()
        .code(1)
        .stdout(contains("VIOLATION: did not exit in time"))
        .stdout(contains("scenarios  19 passed, 0 failed"));
}

#[test]
fn a_bots_stderr_log_is_capped_and_the_excess_counted() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let chatty = profile(
        dir.path(),
        "chatty",
        &format!(
            "max_log_bytes = 10000\nlog_dir = {:?}\n",
            logs.display().to_string()
        ),
    );
    ginlab()
        .args([
            "match",
            &chatty,
            "greedy",
            "--games",
            "2",
            "--threads",
            "1",
            "-q",
        ])
        .assert()
        .success()
        .stderr(contains(
            "bots wrote 290000 bytes of stderr over their logs' cap (max_log_bytes)",
        ));
    // One process (started to check the bot, then reused by the run).
    let mut files = 0;
    for entry in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        if !text.contains("xxxx") {
            continue;
        }
        files += 1;
        assert!(text.len() < 11_000, "{} bytes", text.len());
        assert!(text.contains("290000 bytes of stderr dropped over the cap of 10000 bytes"));
    }
    assert_eq!(files, 1);
}

#[test]
fn bad_sandbox_keys_and_flags_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    for (extra, message) in [
        (
            "sandbox = \"on\"\n",
            "bad value `\"on\"` for `external:sandbox`: expected auto, strict or off",
        ),
        ("read = [1]\n", "bad value `[1]` for `external:read`"),
        ("max_memory_mb = 1\n", "`external:max_memory_mb`"),
        ("scratch = \"no/such/folder\"\n", "its scratch folder"),
        ("cwd = \"no/such/folder\"\n", "its working directory (cwd)"),
    ] {
        let bad = profile(dir.path(), "crash", extra);
        ginlab()
            .args(["match", &bad, "greedy", "--games", "1"])
            .assert()
            .code(2)
            .stderr(contains(message));
    }
    ginlab()
        .args([
            "match",
            "greedy",
            "random",
            "--games",
            "1",
            "--sandbox",
            "on",
        ])
        .assert()
        .code(2)
        .stderr(contains("the sandbox is auto, strict or off"));
}

/// A bot whose first answer in each process takes 1.5 s (a fresh JVM
/// loading a table) plays with `timeout_ms = 500`: its first decision has
/// the handshake's time. With a first-move allowance under 1.5 s (the
/// profile's key, or the flag, which wins) it forfeits every game, and the
/// reason names it and the knobs.
#[test]
fn a_slow_first_decision_has_its_own_allowance() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let keys = format!(
        "timeout_ms = 500\nlog_dir = {:?}\n",
        logs.display().to_string()
    );
    let forfeits = |profile: &str, flags: &[&str]| -> String {
        let run = ginlab()
            .args(["match", profile, "greedy", "--games", "2", "--threads", "1"])
            .args(flags)
            .assert()
            .success();
        let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
        let line = stdout
            .lines()
            .find(|l| l.starts_with("forfeits"))
            .unwrap_or("");
        line.to_owned()
    };
    let slow = profile(dir.path(), "slowfirst", &keys);
    assert_eq!(forfeits(&slow, &[]), "", "no forfeit within the allowance");
    // Under a second and a half: every game (each starts a fresh process).
    let short = profile(
        dir.path(),
        "slowfirst",
        &format!("{keys}first_move_ms = 800\n"),
    );
    assert!(forfeits(&short, &[]).starts_with("forfeits      A 2"));
    let logs_text = || -> String {
        std::fs::read_dir(&logs)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect()
    };
    let text = logs_text();
    assert!(
        text.contains(
            "forfeit: bot `faulty-slowfirst` made no first move within 800 ms (a fresh \
             process's allowance for its first decision; later ones have timeout_ms = 500; \
             the profile's first_move_ms or --first-move-ms raise it)"
        ),
        "{text}"
    );
    // The flag wins over the profile, both ways.
    assert_eq!(forfeits(&short, &["--first-move-ms", "20000"]), "");
    assert!(forfeits(&slow, &["--first-move-ms", "700"]).starts_with("forfeits      A 2"));
    assert!(logs_text().contains("made no first move within 700 ms"));
    let bad = profile(dir.path(), "crash", "first_move_ms = 0\n");
    ginlab()
        .args(["match", &bad, "greedy", "--games", "1"])
        .assert()
        .code(2)
        .stderr(contains("first_move_ms"));
}

/// The bots' flags show in the help of the commands that play bots only,
/// are read after the command's name or before it, and are refused (exit
/// 2) with a command that plays none.
#[test]
fn the_bots_flags_belong_to_the_commands_that_play_bots() {
    let help = |args: &[&str]| -> String {
        let run = ginlab().args(args).arg("--help").assert().success();
        String::from_utf8(run.get_output().stdout.clone()).unwrap()
    };
    let flags = ["--sandbox", "--handshake-ms", "--first-move-ms"];
    for command in [
        "match",
        "run",
        "sweep",
        "balance",
        "play",
        "check-bot",
        "tournament",
        "tune",
    ] {
        let text = help(&[command]);
        for flag in flags {
            assert!(
                text.contains(flag),
                "{command} --help lacks {flag}:\n{text}"
            );
        }
    }
    for command in [
        &[][..],
        &["solve"],
        &["showdown"],
        &["rules"],
        &["merge"],
        &["replay"],
        &["chart"],
    ] {
        let text = help(command);
        for flag in flags {
            assert!(
                !text.contains(flag),
                "{command:?} --help shows {flag}:\n{text}"
            );
        }
    }
    // Before the command's name, as when they were global flags.
    ginlab()
        .args([
            "--sandbox",
            "on",
            "match",
            "greedy",
            "random",
            "--games",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(contains("the sandbox is auto, strict or off"));
    ginlab()
        .args([
            "--sandbox",
            "off",
            "match",
            "greedy",
            "random",
            "--games",
            "1",
            "-q",
        ])
        .assert()
        .success();
    ginlab()
        .args(["--handshake-ms", "100", "solve", "AS 2S 3S"])
        .assert()
        .code(2)
        .stderr(contains(
            "--handshake-ms applies only to the commands that play bots (match, run,",
        ));
    ginlab()
        .args(["solve", "AS 2S 3S", "--sandbox", "off"])
        .assert()
        .code(2)
        .stderr(contains("unexpected argument '--sandbox'"));
}
