//! External bots through the protocol of docs/PROTOCOL.md: the Python
//! example bots pass `check-bot` and play matches; bots that crash, hang,
//! send garbage or illegal moves forfeit, are logged and restarted, and the
//! run goes on; bad bot profiles are bad input. Needs `python3` on PATH
//! (`.ci/run` installs it).

use std::path::Path;

use crate::cmd::{ginlab, json_lines, succeeded};
use predicates::str::contains;

const GREEDY_BOT: &str = "exec:python3 examples/bots/greedy_bot.py";
const RANDOM_BOT: &str = "exec:python3 examples/bots/random_bot.py";

fn faulty(mode: &str) -> String {
    format!("exec:python3 tests/bots/faulty_bot.py {mode}")
}

/// `check-bot -- COMMAND...`, which must find the bot not compliant.
fn check_bot_fails(command: &[&str]) -> assert_cmd::assert::Assert {
    ginlab()
        .args(["check-bot", "--"])
        .args(command)
        .assert()
        .code(1)
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

/// `--cwd` runs the bot in a folder, as a profile's `cwd` does: the
/// script named relative to it is found only there, and a folder that is
/// not there is bad input.
#[test]
fn check_bot_runs_the_bot_in_its_working_directory() {
    ginlab()
        .args([
            "check-bot",
            "--cwd",
            "examples/bots",
            "--",
            "python3",
            "greedy_bot.py",
        ])
        .assert()
        .success()
        .stdout(contains("verdict    COMPLIANT"));
    ginlab()
        .args([
            "check-bot",
            "--cwd",
            "no/such/folder",
            "--",
            "python3",
            "greedy_bot.py",
        ])
        .assert()
        .code(2)
        .stderr(contains("its working directory (cwd)"));
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
        .stderr(contains("expected a JSON object, got an array"));
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
                .args(["greedy", "--games", "12", "--seed", "1", "-q"])
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
        .args(["greedy", "--games", "6", "--seed", "7", "-q"])
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
    let (_dir, profile, pids) = hung_bot_under_a_shell("hang-group", 200);
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

/// The rest of a `match` against the hung bot: with seed 7, two of the six
/// games (the first deal's) have the even seeds that make it hang.
const HUNG_MATCH: [&str; 8] = [
    "greedy",
    "--games",
    "6",
    "--seed",
    "7",
    "--threads",
    "1",
    "-q",
];

/// The fresh folder named `name` and, in it, a profile of a bot that hangs, started
/// through `sh -c` with a command after it, which keeps the shell from
/// exec'ing the bot; each bot process appends its pid to the returned file
/// (in the sandbox's `scratch` folder, which the bot may write).
fn hung_bot_under_a_shell(
    name: &str,
    timeout_ms: u64,
) -> (crate::jobs::Scratch, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile_dir(name);
    let pids = dir.join("pids");
    let profile = dir.join("hang.toml");
    std::fs::write(
        &profile,
        format!(
            "kind = \"external\"\nname = \"hanger\"\ncommand = [\"sh\", \"-c\", \"python3 tests/bots/faulty_bot.py hang '{}'; echo bot ended >&2\"]\ntimeout_ms = {timeout_ms}\n\
             scratch = {:?}\n",
            pids.display(),
            dir.display().to_string()
        ),
    )
    .unwrap();
    (dir, profile, pids)
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
    let (_dir, profile, pids) = hung_bot_under_a_shell("interrupt", 600_000);
    let mut run = crate::cmd::ginlab_process()
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

fn tempfile_dir(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("test", name)
}

/// The inverse of SplitMix64's finaliser (`ginlab::seed::mix`).
fn unmix(mut z: u64) -> u64 {
    // x ^ (x >> s) is undone by repeating the shift until it clears the word.
    let unshift = |z: u64, s: u32| {
        let mut x = z;
        let mut shift = s;
        while shift < 64 {
            x = z ^ (x >> s);
            shift += s;
        }
        x
    };
    // The multipliers' inverses modulo 2^64.
    let inverse = |a: u64| {
        let mut x = a;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
    };
    z = unshift(z, 31);
    z = z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
    z = unshift(z, 27);
    z = z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
    z = unshift(z, 30);
    z.wrapping_sub(0x9E37_79B9_7F4A_7C15)
}

/// Issue 15's attack by a bot in seat A on deal `index`'s hand: take the
/// 53 bits of its `game_start` seed, guess the 11 cut bits, invert the
/// finalisers of the old derivation `mix(mix(mix(master) ^ index) ^ 1)` to
/// `mix(mix(master) ^ index)`, go forward to the deck seed, shuffle, and keep
/// the decks that deal the bot exactly its ten cards. Returns them.
fn attack(told: u64, cards: &ginlab::CardSet) -> Vec<ginlab::Deck> {
    use rand::SeedableRng;
    let mut found = Vec::new();
    for cut in 0..1u64 << 11 {
        let seat_seed = told | cut << 53;
        let inner = unmix(seat_seed) ^ ginlab::seed::Stream::SeatA as u64;
        let deck_seed = ginlab::seed::mix(inner ^ ginlab::seed::Stream::Deal as u64);
        let deck = ginlab::Deck::shuffled(&mut rand_pcg::Pcg64Mcg::seed_from_u64(deck_seed));
        // The first 20 cards alternate between the players; the bot does
        // not need to know which half is its own.
        let dealt = |first: usize| -> ginlab::CardSet {
            deck.cards()[..20]
                .iter()
                .skip(first)
                .step_by(2)
                .copied()
                .collect()
        };
        if dealt(0) == *cards || dealt(1) == *cards {
            found.push(deck);
        }
    }
    found
}

#[test]
fn a_bot_cannot_rebuild_the_deck_from_its_seed() {
    use ginlab::seed::{Stream, seed_for};
    use rand::SeedableRng;
    let dir = tempfile_dir("spy");
    let spy = dir.join("spy.jsonl");
    let master = 0x5EED_F00D_0123_4567_u64;
    ginlab()
        .arg("match")
        .arg(format!("{} {}", faulty("spy"), spy.display()))
        // The bot writes a file the test names: outside the sandbox,
        // which would refuse it (tests/it/sandbox.rs tests the sandbox).
        .args(["--sandbox", "off"])
        .args(["greedy", "--hands", "8", "--no-duplicate", "--threads", "1"])
        .args(["--seed", &master.to_string(), "-q"])
        .assert()
        .success();
    let lines = json_lines(&spy);
    assert_eq!(lines.len(), 16, "a game_start and a hand_start per hand");
    for (index, pair) in lines.chunks(2).enumerate() {
        let index = index as u64;
        let told = pair[0]["seed"].as_u64().unwrap();
        let cards: ginlab::CardSet = pair[1]["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().parse::<ginlab::Card>().unwrap())
            .collect();
        let deck = ginlab::Deck::shuffled(&mut rand_pcg::Pcg64Mcg::seed_from_u64(seed_for(
            master,
            index,
            Stream::Deal,
        )));
        // Control: what ginlab used to send (the seat's strategy seed, cut
        // to 53 bits) gives the deck away...
        let old = seed_for(master, index, Stream::SeatA) & ((1 << 53) - 1);
        assert_eq!(attack(old, &cards), vec![deck.clone()], "deal {index}");
        // ...what it sends now does not.
        assert_ne!(told, old);
        assert!(attack(told, &cards).is_empty(), "deal {index}");
    }
}

/// The pids a bot wrote to `file` (one a line).
fn pids_in(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Issue 15: a bot's helper that double-forks and calls setsid() leaves
/// the bot's process group; ginlab adopts it (a child subreaper) and ends
/// it when `match` ends.
#[cfg(target_os = "linux")]
#[test]
fn a_daemonised_bot_helper_does_not_outlive_match() {
    let dir = tempfile_dir("daemon");
    let pids = dir.join("pids");
    ginlab()
        .arg("match")
        .arg(format!("{} {}", faulty("daemon"), pids.display()))
        // The bot writes a file the test names: outside the sandbox,
        // which would refuse it (tests/it/sandbox.rs tests the sandbox).
        .args(["--sandbox", "off"])
        .args([
            "greedy",
            "--games",
            "2",
            "--seed",
            "3",
            "--threads",
            "1",
            "-q",
        ])
        .assert()
        .success();
    let pids = pids_in(&pids);
    assert!(!pids.is_empty(), "the helper started");
    assert_gone(&pids);
}

/// Issue 15: when ginlab is killed (SIGKILL, no handler runs), its bots
/// get SIGKILL from the kernel (a parent-death signal).
#[cfg(target_os = "linux")]
#[test]
fn bots_die_when_ginlab_is_killed() {
    let dir = tempfile_dir("killed");
    let pids = dir.join("pids");
    // Inside the sandbox (the signal must survive the launcher's exec),
    // with the folder of the pid file writable.
    let profile = dir.join("busy.toml");
    std::fs::write(
        &profile,
        format!(
            "kind = \"external\"\ncommand = [\"python3\", \"tests/bots/faulty_bot.py\", \"busy\", {:?}]\n\
             scratch = {:?}\n",
            pids.display().to_string(),
            dir.display().to_string()
        ),
    )
    .unwrap();
    let mut run = crate::cmd::ginlab_process()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("match")
        .arg(&profile)
        .args(["greedy", "--games", "2", "--seed", "3", "-q"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while pids_in(&pids).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let bots = pids_in(&pids);
    assert!(!bots.is_empty(), "the bot did not start");
    run.kill().unwrap();
    run.wait().unwrap();
    assert_gone(&bots);
}

/// Issue 15: the default log folder has an unpredictable name and mode
/// 0700, is kept (and printed) when a bot failed, removed when none did,
/// and every process, of either seat, writes its own `bot-N.log`.
#[cfg(unix)]
#[test]
fn the_default_log_folder_is_private_and_each_process_has_its_own_log() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile_dir("logs-tmp");
    // Both seats are bots that crash in some games, with default logs.
    let output = ginlab()
        .env("TMPDIR", &tmp)
        .args(["match", &faulty("crash"), &faulty("crash")])
        .args(["--hands", "12", "--seed", "1", "--threads", "1", "-q"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let folders: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    let folder = &folders[0];
    let name = folder.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("ginlab-bots-"), "{name}");
    assert!(
        !name["ginlab-bots-".len()..]
            .chars()
            .all(|c| c.is_ascii_digit()),
        "{name}"
    );
    let meta = std::fs::symlink_metadata(folder).unwrap();
    assert!(meta.is_dir());
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    assert!(
        stdout.contains(&format!("stderr logs in {}", folder.display())),
        "{stdout}"
    );
    // One log per process: as many files as processes started, each
    // holding exactly one start note.
    let started: u64 = stdout
        .lines()
        .filter(|l| l.starts_with("bot "))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    let logs: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(started > 2, "{stdout}");
    assert_eq!(logs.len() as u64, started, "{stdout}");
    for log in &logs {
        assert_eq!(log.matches("== ginlab: starting").count(), 1, "{log}");
    }
    // Nothing failed: the folder is removed at the end.
    std::fs::remove_dir_all(folder).unwrap();
    ginlab()
        .env("TMPDIR", &tmp)
        .args([
            "match", GREEDY_BOT, "greedy", "--games", "2", "--seed", "1", "-q",
        ])
        .assert()
        .success()
        .stdout(contains("stderr logs removed at exit"));
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
}

/// Issue 15: `--record` streams to FIFOs, devices and `-`, replaces a
/// link's target (the link stays), and refuses what it cannot write safely
/// before playing.
#[cfg(unix)]
#[test]
fn record_never_replaces_what_is_not_a_regular_file() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile_dir("record-targets");
    let game = [
        "match", "greedy", "simple", "--hands", "4", "--seed", "2", "-q",
    ];
    // A device stays a device.
    ginlab()
        .args(game)
        .args(["--record", "/dev/null"])
        .assert()
        .success();
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // A FIFO is streamed to and stays a FIFO.
    let fifo = dir.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    ginlab()
        .args(game)
        .arg("--record")
        .arg(&fifo)
        .assert()
        .success();
    assert_eq!(reader.join().unwrap().lines().count(), 4);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A link: its target is replaced, the link stays.
    let target = dir.join("target.jsonl");
    std::fs::write(&target, "old\n").unwrap();
    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    ginlab()
        .args(game)
        .arg("--record")
        .arg(&link)
        .assert()
        .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap().lines().count(), 4);
    // `-`: the records on stdout, the report on stderr.
    let output = ginlab()
        .args(game)
        .args(["--record", "-"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(stdout.lines().all(|l| l.starts_with('{')), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("A = greedy"));
    // Refused, exit 2: a folder, a socket, a dangling link, a missing folder.
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(dir.join("nowhere/x"), &dangling).unwrap();
    for (path, message) in [
        (dir.to_path_buf(), "is a directory"),
        (socket.clone(), "is a socket"),
        (
            dangling.clone(),
            "symbolic link whose target cannot be reached",
        ),
        (dir.join("no/such/folder.jsonl"), "no folder"),
    ] {
        ginlab()
            .args(game)
            .arg("--record")
            .arg(&path)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(message));
    }
    assert!(
        std::fs::symlink_metadata(&socket)
            .unwrap()
            .file_type()
            .is_socket()
    );
}

/// Issue 15: a move is one of the `legal` strings exactly, as PROTOCOL.md
/// says; "  knock   KS\t" is not.
#[test]
fn check_bot_refuses_a_move_not_written_exactly() {
    check_bot_fails(&["python3", "tests/bots/faulty_bot.py", "loose"])
        .stdout(contains("must be one of the `legal` strings exactly"))
        .stdout(contains("NOT COMPLIANT"));
}

/// Issue 15: options JSON cannot carry are refused, naming the key; a bad
/// `--options` gives the parser's reason.
#[test]
fn options_without_a_json_form_are_refused() {
    let dir = tempfile_dir("options");
    for (value, message) in [
        ("nan", "options.a = nan: JSON has no nan or infinity"),
        ("-inf", "options.a = -inf: JSON has no nan or infinity"),
        ("{ b = [1, inf] }", "options.a.b[1] = inf"),
        (
            "1979-05-27",
            "options.a = 1979-05-27: a TOML date or time has no JSON form",
        ),
    ] {
        let profile = dir.join("bot.toml");
        std::fs::write(
            &profile,
            format!(
                "kind = \"external\"\ncommand = \"python3 bot.py\"\noptions = {{ a = {value} }}\n"
            ),
        )
        .unwrap();
        ginlab()
            .arg("match")
            .arg(&profile)
            .args(["greedy", "--games", "2"])
            .assert()
            .code(2)
            .stderr(contains(message));
    }
    ginlab()
        .args([
            "check-bot",
            "--options",
            r#"{"a": 1e999}"#,
            "--",
            "python3",
            "x.py",
        ])
        .assert()
        .code(2)
        .stderr(contains("not valid JSON: number out of range"));
}

/// Issue 15: a bot that cannot start shows the end of its stderr and its
/// log's path, in `match` and in `check-bot`.
#[test]
fn a_bot_that_cannot_start_shows_its_stderr_and_log() {
    ginlab()
        .args([
            "match",
            "exec:python3 no/such/bot.py",
            "greedy",
            "--games",
            "2",
        ])
        .assert()
        .code(2)
        .stderr(contains("failed the handshake"))
        .stderr(contains("its stderr ends:"))
        .stderr(contains("no/such/bot.py"))
        .stderr(contains("  log: "));
    check_bot_fails(&["python3", "no/such/bot.py"])
        .stdout(contains("its stderr ends:"))
        .stdout(contains("  log: "));
}

/// Issue 15: reports call an inline bot by its hello name; two different
/// bots with one name are told apart by their commands.
#[test]
fn reports_name_bots_by_their_hello() {
    ginlab()
        .args([
            "match", RANDOM_BOT, "greedy", "--games", "2", "--seed", "1", "-q",
        ])
        .assert()
        .success()
        .stdout(contains("A = python-random, B = greedy"));
    let dir = tempfile_dir("same-name");
    let other = dir.join("bot.py");
    std::fs::copy("examples/bots/random_bot.py", &other).unwrap();
    std::fs::copy("examples/bots/ginbot.py", dir.join("ginbot.py")).unwrap();
    let other = format!("exec:python3 {}", other.display());
    ginlab()
        .args([
            "match", RANDOM_BOT, &other, "--games", "2", "--seed", "1", "-q",
        ])
        .assert()
        .success()
        .stdout(contains(format!(
            "A = python-random (python3 examples/bots/random_bot.py), B = python-random ({})",
            &other["exec:".len()..]
        )));
}

/// Issue 15: a seed chosen for a match with a bot gets one warning; the
/// default seed is random (two runs differ) and printed.
#[test]
fn a_chosen_seed_with_a_bot_is_warned_of_and_the_default_is_random() {
    let game = ["greedy", "--hands", "2", "-q"];
    let output = ginlab()
        .args(["match", RANDOM_BOT])
        .args(game)
        .args(["--seed", "1"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr
            .matches("warning: --seed 1 with an external bot")
            .count(),
        1,
        "{stderr}"
    );
    let seed = |output: std::process::Output| {
        assert!(output.status.success());
        assert!(!String::from_utf8_lossy(&output.stderr).contains("warning"));
        // With a bot the seed comes at the end (tests/it/attacks.rs).
        let stdout = String::from_utf8(output.stdout).unwrap();
        let line = stdout.lines().last().unwrap();
        line.strip_prefix("seed")
            .unwrap()
            .trim()
            .parse::<u64>()
            .unwrap()
    };
    let run = || {
        ginlab()
            .args(["match", RANDOM_BOT])
            .args(game)
            .output()
            .unwrap()
    };
    assert_ne!(seed(run()), seed(run()));
}

/// Issue 15: chart names are built from the players' names, which for two
/// bots of one hello name are their whole commands; a long command made a
/// name the file system refused ("File name too long") after every game
/// was played. Long names are cut and end in a digest, so they stay
/// distinct.
#[test]
fn bots_with_long_commands_get_chart_names_that_fit() {
    let dir = tempfile_dir("long-names");
    let pad = "x".repeat(300);
    let output = ginlab()
        .args([
            "match",
            &format!("{RANDOM_BOT} {pad}"),
            &format!("{RANDOM_BOT} {pad}y"),
            "--hands",
            "2",
            "-q",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    succeeded(&output);
    let charted = ginlab().arg("chart").arg(&dir).output().unwrap();
    succeeded(&charted);
    let charts: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    assert_eq!(charts.len(), 1, "{charts:?}");
    assert!(charts[0].len() < 100, "{}", charts[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 15: `run`, `sweep` and `balance` always play from a fixed seed
/// (the spec's, or `--seed` and its default), so with an external bot they
/// warn once, as `match --seed` does.
#[test]
fn fixed_seeds_of_specs_and_studies_with_a_bot_are_warned_of() {
    let dir = tempfile_dir("fixed-seed");
    let spec = dir.join("bot.toml");
    std::fs::write(
        &spec,
        format!("seed = 7\nhands = 2\nplayers = [\"{RANDOM_BOT}\", \"greedy\"]\n"),
    )
    .unwrap();
    let warned = |args: &[&str], needle: &str| {
        let output = ginlab().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {stderr}");
        assert_eq!(stderr.matches(needle).count(), 1, "{args:?}: {stderr}");
    };
    let out = dir.join("out");
    let (spec, out) = (spec.to_str().unwrap(), out.to_str().unwrap());
    warned(
        &["run", spec, "--out", out, "-q"],
        "warning: the spec's seed 7 with an external bot",
    );
    warned(
        &["balance", RANDOM_BOT, "--hands", "2", "--out", out, "-q"],
        "warning: --seed 1 with an external bot",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
