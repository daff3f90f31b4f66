//! What the attack rounds of issue 31 found, run through the binary: a bot
//! (or anyone sharing the machine) must not redirect ginlab's writes through
//! planted links, nor read the master seed from a result folder, a
//! checkpoint or ginlab's standard output while it plays.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::cmd::ginlab_process;

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("attacks", name)
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The names ginlab used to write through, `.NAME.tmp-PID`, for every file
/// a run writes into its folder and the probe of the folder.
fn predictable(pid: u32) -> Vec<String> {
    let mut names: Vec<String> = [
        "summary.csv",
        "distribution.csv",
        "tallies.json",
        "manifest.toml",
        "hand_score-standard-greedy-vs-simple.svg",
        "game_margin-standard-greedy-vs-simple.svg",
        "checkpoint.json",
        ".ginlab-commit",
    ]
    .iter()
    .map(|name| format!(".{name}.tmp-{pid}"))
    .collect();
    names.push(format!(".ginlab-probe-{pid}"));
    names
}

/// Issue 31 item 2: links planted at every name ginlab's temporary files
/// could be given (known from its PID, here before it starts writing: its
/// spec comes through a FIFO the test holds) are never written through; the
/// run writes its real files and its record.
#[test]
fn links_at_temporary_names_are_never_written_through() {
    let base = scratch("temporaries");
    let victim = base.join("victim.txt");
    fs::write(&victim, "precious").unwrap();
    let (out, rec) = (base.join("out"), base.join("rec"));
    fs::create_dir_all(&out).unwrap();
    fs::create_dir_all(&rec).unwrap();
    let spec = base.join("spec.toml");
    let made = Command::new("mkfifo").arg(&spec).status().unwrap();
    assert!(made.success());
    let run = ginlab_process()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .arg("--record")
        .arg(rec.join("games.jsonl"))
        .arg("-q")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = run.id();
    for name in predictable(pid) {
        symlink(&victim, out.join(name)).unwrap();
    }
    symlink(&victim, rec.join(format!(".games.jsonl.tmp-{pid}"))).unwrap();
    // ginlab waits on the FIFO until the spec comes.
    fs::write(
        &spec,
        "seed = 5\ngames = 6\nplayers = [\"greedy\", \"simple\"]\n",
    )
    .unwrap();
    let output = run.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    for name in ["summary.csv", "tallies.json", "manifest.toml"] {
        let path = out.join(name);
        assert!(!is_link(&path) && path.is_file(), "{name}");
    }
    assert!(
        fs::read_to_string(out.join("manifest.toml"))
            .unwrap()
            .contains("seed = 5")
    );
    assert!(!out.join("checkpoint.json").exists());
    let games = rec.join("games.jsonl");
    assert!(!is_link(&games));
    assert_eq!(fs::read_to_string(games).unwrap().lines().count(), 6);
    // The planted links are left as they were (not ginlab's to remove).
    for name in predictable(pid) {
        assert!(is_link(&out.join(&name)), "{name}");
    }
    fs::remove_dir_all(&base).unwrap();
}

fn match_into(dir: &Path, extra: &[&str]) -> std::process::Output {
    ginlab_process()
        .args([
            "match", "greedy", "simple", "--hands", "40", "--seed", "3", "-q", "--out",
        ])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

/// Issue 31 item 2: anything but a regular file at a name ginlab writes in
/// its folder (a link to a victim, a folder) is refused before play with
/// exit 2, as is a `--record` that is the journal or a link to a result
/// file; nothing is written through the link.
#[test]
fn links_and_folders_at_result_names_are_refused_before_play() {
    let base = scratch("results");
    let victim = base.join("victim.txt");
    fs::write(&victim, "precious").unwrap();
    let refused = |output: std::process::Output, needle: &str| {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(output.stdout.is_empty(), "{stderr}");
        assert!(stderr.contains(needle), "{stderr} lacks {needle}");
    };
    for (i, name) in [
        "summary.csv",
        "tallies.json",
        "manifest.toml",
        "checkpoint.json",
        ".ginlab-commit",
        "hand_score-standard-greedy-vs-simple.svg",
    ]
    .iter()
    .enumerate()
    {
        let out = base.join(format!("link-{i}"));
        fs::create_dir_all(&out).unwrap();
        symlink(&victim, out.join(name)).unwrap();
        refused(
            match_into(&out, &[]),
            &format!("{name}: is a symbolic link"),
        );
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        let folder = base.join(format!("folder-{i}"));
        fs::create_dir_all(folder.join(name)).unwrap();
        refused(match_into(&folder, &[]), &format!("{name}: is a folder"));
        // Refused before play: nothing was written beside it.
        assert_eq!(fs::read_dir(&folder).unwrap().count(), 1, "{name}");
    }
    // A record that would be the journal, or a link to a result file.
    let out = base.join("record");
    let journal = out.join(".ginlab-commit");
    refused(
        match_into(&out, &["--record", journal.to_str().unwrap()]),
        "is one of the files the run writes",
    );
    let link = base.join("games.jsonl");
    symlink(out.join("summary.csv"), &link).unwrap();
    assert!(match_into(&out, &[]).status.success());
    let summary = fs::read(out.join("summary.csv")).unwrap();
    refused(
        match_into(&out, &["--record", link.to_str().unwrap()]),
        "which is one of the files the run writes",
    );
    assert_eq!(fs::read(out.join("summary.csv")).unwrap(), summary);
    fs::remove_dir_all(&base).unwrap();
}

/// Issue 31 item 1: a result folder ginlab creates, its files and the
/// checkpoint of a run in progress are private to the user, whatever the
/// umask; a folder that exists (a committed `results/` folder) keeps its
/// mode.
#[test]
fn result_folders_and_checkpoints_are_private() {
    let base = scratch("private");
    let dir = base.join("new").join("deeper");
    assert!(match_into(&dir, &[]).status.success());
    assert_eq!(mode(&base.join("new")), 0o700);
    assert_eq!(mode(&dir), 0o700);
    for name in ["summary.csv", "tallies.json", "manifest.toml"] {
        assert_eq!(mode(&dir.join(name)), 0o600, "{name}");
    }
    let shared = base.join("shared");
    fs::create_dir_all(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(match_into(&shared, &[]).status.success());
    assert_eq!(mode(&shared), 0o755);
    assert_eq!(mode(&shared.join("tallies.json")), 0o600);
    // The checkpoint of a long run, as a bot would find it while it plays.
    let long = base.join("long");
    let mut run = ginlab_process()
        .args(["match", "greedy", "greedy", "--hands", "100000000", "-q"])
        .arg("--out")
        .arg(&long)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = long.join("checkpoint.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !checkpoint.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let seen = fs::metadata(&checkpoint).map(|m| m.permissions().mode() & 0o777);
    run.kill().unwrap();
    run.wait().unwrap();
    assert_eq!(seen.unwrap(), 0o600);
    assert_eq!(mode(&long), 0o700);
    fs::remove_dir_all(&base).unwrap();
}

/// A bot that, at its first decision, copies what ginlab has written to
/// its standard output so far (`/proc/PPID/fd/1`) to the file SPY.
const SPY_BOT: &str = r#"
import os, random, sys
sys.path.insert(0, sys.argv[2])
import ginbot

class Spy:
    def __init__(self):
        self.rng = random.Random(0)
        self.looked = False

    def on_message(self, msg):
        pass

    def decide(self, request):
        if not self.looked:
            self.looked = True
            try:
                with open("/proc/%d/fd/1" % os.getppid(), "rb") as f:
                    seen = f.read()
            except OSError as e:
                seen = repr(e).encode()
            with open(sys.argv[1], "ab") as out:
                out.write(seen + b"\n")
        return self.rng.choice(request["legal"])

ginbot.run(Spy(), "spy")
"#;

/// Issue 31 item 1: with an external bot, the seed line is not printed
/// before the run's end (a bot could read the file standard output goes
/// to); the report ends with it, and the manifest has it.
#[test]
fn the_seed_is_not_shown_to_a_bot_while_it_plays() {
    let base = scratch("seed");
    let bot = base.join("spy.py");
    fs::write(&bot, SPY_BOT).unwrap();
    let spy = base.join("seen.txt");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots");
    let stdout_file = base.join("stdout.txt");
    let out = base.join("out");
    let status = ginlab_process()
        .arg("match")
        .arg(format!(
            "exec:python3 {} {} {}",
            bot.display(),
            spy.display(),
            examples.display()
        ))
        .args(["greedy", "--games", "4", "-q", "--out"])
        .arg(&out)
        .stdout(fs::File::create(&stdout_file).unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(&stdout_file).unwrap();
    let manifest = fs::read_to_string(out.join("manifest.toml")).unwrap();
    let seed = manifest
        .lines()
        .find_map(|l| l.strip_prefix("seed = "))
        .expect("the manifest records the seed")
        .to_owned();
    let first = text.lines().next().unwrap();
    assert!(first.contains("seed shown at the end"), "{text}");
    assert!(!first.contains(&seed), "{text}");
    assert!(text.ends_with(&format!("seed          {seed}\n")), "{text}");
    // What the bot saw of standard output while it played (if it could
    // read it at all) does not hold the seed.
    if let Ok(seen) = fs::read_to_string(&spy) {
        assert!(
            seen.contains("seed shown at the end") || seen.contains("Error"),
            "{seen}"
        );
        assert!(!seen.contains(&seed), "{seen}");
    }
    fs::remove_dir_all(&base).unwrap();
}

// ---- Issue 31 item 6: the small ones ----

fn output_of(args: &[&str]) -> (Option<i32>, String, String) {
    let output = ginlab_process().args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A profile's name with control characters (an ESC that would clear the
/// terminal) is shown escaped, as every input ginlab echoes is.
#[test]
fn profile_names_with_control_characters_are_escaped() {
    let base = scratch("control");
    let profile = base.join("evil.toml");
    fs::write(
        &profile,
        "kind = \"greedy\"\nname = \"evil\\u001b[2Jname\"\n",
    )
    .unwrap();
    let (code, stdout, stderr) = output_of(&[
        "match",
        profile.to_str().unwrap(),
        "simple",
        "--hands",
        "10",
        "--seed",
        "1",
        "-q",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
    assert!(stdout.contains("A = evil\\u{1b}[2Jname"), "{stdout}");
    fs::remove_dir_all(&base).unwrap();
}

/// Two different profiles of one name are told apart, in the terminal and
/// in the files alike.
#[test]
fn two_profiles_of_one_name_are_told_apart() {
    let base = scratch("same-name");
    let (a, b) = (base.join("a.toml"), base.join("b.toml"));
    fs::write(&a, "kind = \"greedy\"\nname = \"greedy\"\nknock_at = 0\n").unwrap();
    fs::write(&b, "kind = \"greedy\"\nname = \"greedy\"\n").unwrap();
    let out = base.join("out");
    let (code, stdout, stderr) = output_of(&[
        "match",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--hands",
        "10",
        "--seed",
        "1",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let header = stdout.lines().next().unwrap();
    assert!(
        header.starts_with("A = greedy (greedy:knock_at=0), B = greedy, "),
        "{header}"
    );
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    let row = summary.lines().nth(1).unwrap();
    assert!(row.contains(",greedy (greedy:knock_at=0),greedy,"), "{row}");
    // The same profile twice is self-play, named once each.
    let (code, stdout, _) = output_of(&[
        "match", "greedy", "greedy", "--hands", "10", "--seed", "1", "-q",
    ]);
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("A = greedy, B = greedy, "), "{stdout}");
    fs::remove_dir_all(&base).unwrap();
}

/// Rules under which no game ends stop the run at ginlab's cap of a game's
/// length, and the error names the cap and where it is documented.
#[test]
fn the_cap_on_a_game_is_named() {
    let (code, stdout, stderr) = output_of(&[
        "match",
        "greedy",
        "greedy",
        "--games",
        "1",
        "--seed",
        "1",
        "-q",
        "--rule",
        "max_turns=1",
        "--rule",
        "knock_limit=0",
        "--rule",
        "game_target=10000",
    ]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stderr.contains("ginlab's cap of 10000 hands") && stderr.contains("docs/RULES.md"),
        "{stderr}"
    );
}

/// A mean every unit agreed on (the same deterministic player in both seats
/// of every duplicate pair nets 0 in each) says so, not "too few units".
#[test]
fn a_mean_every_unit_agrees_on_says_so() {
    let (code, stdout, stderr) = output_of(&[
        "match", "greedy", "greedy", "--hands", "200", "--seed", "1", "-q",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("A net points  +0.00 [no interval: every unit scored the same] per hand"),
        "{stdout}"
    );
    assert!(!stdout.contains("too few units"), "{stdout}");
}
