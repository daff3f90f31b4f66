//! The limits ginlab sets on an external bot, through the binary: the
//! handshake time (`--handshake-ms`, a profile's `handshake_ms`), the time
//! to exit after `quit` in `check-bot`, and the cap on a bot's stderr log
//! (`max_log_bytes`). Needs `python3` on PATH.

use std::path::Path;

use assert_cmd::Command;
use predicates::str::contains;

fn ginlab() -> Command {
    let mut cmd = Command::cargo_bin("ginlab").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

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
