//! The EAAI-21 adapter (adapters/eaai): its Java unit test, `check-bot` with the
//! adapter's test player on ginlab's stand-in framework, players that break the
//! framework's rules forfeit with the reason logged, and a run gives the same
//! output for any thread count. Needs a JDK (`javac`, `java`); without one each
//! test says so and passes, and `.ci/run` installs one.

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::sync::OnceLock;

use crate::cmd::ginlab;
use predicates::str::contains;

/// The compiled adapter, stand-in framework and test players (built once, with the
/// Java unit test run), or None without a JDK.
fn build() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            if Process::new("javac").arg("-version").output().is_err() {
                eprintln!("no javac on PATH: the EAAI adapter tests are skipped");
                return None;
            }
            let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("eaai");
            let run = Process::new("sh")
                .arg("adapters/eaai/build.sh")
                .arg("--test")
                .env("EAAI_BUILD", &out)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&run.stdout);
            assert!(
                run.status.success() && stdout.contains(", 0 failed"),
                "adapters/eaai/build.sh --test failed:\n{stdout}\n{}",
                String::from_utf8_lossy(&run.stderr)
            );
            Some(out)
        })
        .as_deref()
}

/// The adapter's command line for a test player, with JVM options first.
fn adapter(out: &Path, jvm: &[&str], player: &str) -> Vec<String> {
    let classes = |d: &str| out.join(d).display().to_string();
    let mut cmd = vec!["java".to_owned()];
    cmd.extend(jvm.iter().map(|s| (*s).to_owned()));
    cmd.extend([
        "-cp".to_owned(),
        classes("adapter"),
        "ginlab.eaai.Adapter".to_owned(),
        "--classpath".to_owned(),
        format!("{}:{}", classes("framework"), classes("player")),
        "--player".to_owned(),
        player.to_owned(),
    ]);
    cmd
}

fn summary_field(dir: &Path, field: &str) -> String {
    let text = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let i = header.iter().position(|h| *h == field).unwrap();
    row[i].to_owned()
}

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("eaai-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Plays `games` games of the adapter (through a profile file: an `exec:`
/// name this long would not fit in a report's file name) against `simple`;
/// returns ginlab's stdout and the bot's log text.
fn play(cmd: &[String], games: &str, rules: &str, dir: &Path, threads: &str) -> (String, String) {
    play_profile(cmd, "", games, rules, dir, threads)
}

/// [`play`] with more lines in the profile.
fn play_profile(
    cmd: &[String],
    extra: &str,
    games: &str,
    rules: &str,
    dir: &Path,
    threads: &str,
) -> (String, String) {
    let profile = dir.with_extension("toml");
    let command: Vec<String> = cmd
        .iter()
        .map(|word| serde_json::to_string(word).unwrap())
        .collect();
    // Logs kept on purpose (a log_dir): the default folder goes when no bot
    // failed, and these tests read the adapter's warnings.
    let logs = dir.with_extension("logs");
    let _ = std::fs::remove_dir_all(&logs);
    let text = format!(
        "kind = \"external\"\nname = \"eaai\"\ncommand = [{}]\nlog_dir = {}\n{extra}",
        command.join(", "),
        serde_json::to_string(&logs.display().to_string()).unwrap()
    );
    std::fs::write(&profile, text).unwrap();
    let output = ginlab()
        .args(["match", &profile.display().to_string(), "simple"])
        .args(["--rules", rules, "--games", games, "--seed", "5", "--quiet"])
        .args(["--threads", threads, "--out"])
        .arg(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let logs = stdout
        .split("stderr logs in ")
        .nth(1)
        .expect("the log folder is printed")
        .lines()
        .next()
        .expect("a folder after the words")
        .trim();
    let mut text = String::new();
    for entry in std::fs::read_dir(logs).unwrap() {
        text += &std::fs::read_to_string(entry.unwrap().path()).unwrap();
    }
    (stdout, text)
}

#[test]
fn the_adapter_with_a_java_player_is_compliant() {
    let Some(out) = build() else { return };
    // ContractPlayer throws on any call that breaks the framework's contract and
    // prints to System.out, so a translation slip or a leak into the protocol
    // fails this check.
    ginlab()
        .arg("check-bot")
        .arg("--")
        .args(adapter(out, &[], "ContractPlayer"))
        .assert()
        .success()
        .stdout(contains("scenarios  19 passed, 0 failed"))
        .stdout(contains("quit       exited by itself"))
        .stdout(contains("verdict    COMPLIANT"));
}

#[test]
fn players_that_break_the_framework_rules_forfeit_with_the_reason_logged() {
    let Some(out) = build() else { return };
    for (fault, reason) in [
        (
            "foreign-discard",
            "which is not one of the framework's Card objects",
        ),
        ("illegal-melds", "getFinalMelds returned an illegal spread"),
        (
            "throw-on-report",
            "reportDiscard threw java.lang.IllegalStateException",
        ),
        ("exit", "== ginlab: forfeit"),
    ] {
        let jvm = format!("-Dginlab.eaai.fault={fault}");
        let dir = out_dir(fault);
        let (_, log) = play(
            &adapter(out, &[&jvm], "FaultyPlayer"),
            "2",
            "eaai",
            &dir,
            "1",
        );
        assert_eq!(summary_field(&dir, "a_forfeits"), "2", "{fault}:\n{log}");
        assert!(
            log.contains(reason),
            "{fault}: no `{reason}` in the log:\n{log}"
        );
    }
}

#[test]
fn other_rules_are_warned_of_and_strict_rules_forfeits_them() {
    let Some(out) = build() else { return };
    let dir = out_dir("standard");
    let (_, log) = play(
        &adapter(out, &[], "ContractPlayer"),
        "2",
        "standard",
        &dir,
        "1",
    );
    assert_eq!(summary_field(&dir, "a_forfeits"), "0", "{log}");
    assert!(
        log.contains("warning: these rules are not the EAAI framework's")
            && log.contains("gin_bonus=20 (framework: 25)"),
        "{log}"
    );
    let mut strict = adapter(out, &[], "ContractPlayer");
    strict.push("--strict-rules".to_owned());
    let dir = out_dir("strict");
    let (_, log) = play(&strict, "2", "standard", &dir, "1");
    assert_eq!(summary_field(&dir, "a_forfeits"), "2", "{log}");
    let dir = out_dir("strict-eaai");
    play(&strict, "2", "eaai", &dir, "1");
    assert_eq!(summary_field(&dir, "a_forfeits"), "0");
}

#[test]
fn a_deterministic_java_player_gives_the_same_output_for_any_thread_count() {
    let Some(out) = build() else { return };
    let cmd = adapter(out, &[], "ContractPlayer");
    let one = out_dir("threads-1");
    let two = out_dir("threads-2");
    play(&cmd, "12", "eaai", &one, "1");
    play(&cmd, "12", "eaai", &two, "2");
    for file in ["summary.csv", "tallies.json"] {
        assert_eq!(
            std::fs::read(one.join(file)).unwrap(),
            std::fs::read(two.join(file)).unwrap(),
            "{file}"
        );
    }
    assert_eq!(summary_field(&one, "a_forfeits"), "0");
}

/// Issue 31: many published players are in the default package with their
/// own copy of the framework there, and some read a data file from the
/// working directory in their static initialiser. TablePlayer has both
/// shapes (adapters/eaai/test/default).
#[test]
fn a_default_package_player_loads_and_reads_its_data_file_from_the_profiles_cwd() {
    let Some(out) = build() else { return };
    let dir = out_dir("table");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("table.txt"), "discard lowest\n").unwrap();
    let classes = |d: &str| out.join(d).display().to_string();
    let cmd: Vec<String> = [
        "java",
        "-cp",
        &classes("adapter"),
        "ginlab.eaai.Adapter",
        "--classpath",
        &classes("default"),
        "--player",
        "TablePlayer",
    ]
    .map(str::to_owned)
    .to_vec();
    // Run where table.txt is not: the adapter says the player's loading
    // printed an error, and where it looked.
    let (stdout, log) = play(&cmd, "2", "eaai", &dir.join("nocwd"), "1");
    assert!(stdout.contains("games won"), "{stdout}");
    assert!(log.contains("NoSuchFileException: table.txt"), "{log}");
    assert!(
        log.contains("TablePlayer printed an error while it loaded"),
        "{log}"
    );
    // With the profile's cwd it reads the file (through the sandbox, which
    // lets a bot read its working directory).
    let cwd = format!(
        "cwd = {}\n",
        serde_json::to_string(&data.display().to_string()).unwrap()
    );
    let (_, log) = play_profile(&cmd, &cwd, "2", "eaai", &dir.join("cwd"), "1");
    assert!(log.contains("TablePlayer: table loaded (1 lines)"), "{log}");
    assert!(!log.contains("printed an error"), "{log}");
}
