//! Bad input of every kind (issue 15, items 4, 13, 14, 16 and 17): where
//! output may go, how much ginlab reads, how messages quote what they
//! were given, and what the help and the errors say.

use std::process::Output;

use crate::cmd::ginlab;

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("inputs", name)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `args` with `stdin` fails with exit code 2, writes nothing to stdout,
/// and says every one of `needles`; returns stderr.
fn refused(args: &[&str], stdin: impl Into<Vec<u8>>, needles: &[&str]) -> String {
    let output = ginlab().args(args).write_stdin(stdin).output().unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
    assert!(output.stdout.is_empty(), "{args:?} wrote stdout");
    for needle in needles {
        assert!(
            message.contains(needle),
            "{args:?}: {message:?} lacks {needle:?}"
        );
    }
    message
}

/// 15.4: a spec whose file name gives no folder name (`...toml` gave
/// `results/..`) is refused before anything is played or written.
#[test]
fn a_spec_file_name_cannot_point_outside_results() {
    let dir = scratch("spec-name");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    for name in ["...toml", "..toml", "a b.toml"] {
        std::fs::write(
            work.join(name),
            "seed = 1\ngames = 2\nplayers = [\"greedy\", \"simple\"]\n",
        )
        .unwrap();
        let output = ginlab()
            .current_dir(&work)
            .args(["run", name, "-q"])
            .output()
            .unwrap();
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{name}: {message}");
        assert!(
            message.contains(&format!("its file name `{name}` gives no results folder"))
                && message.contains("set `name` or rename the file"),
            "{message}"
        );
        std::fs::remove_file(work.join(name)).unwrap();
    }
    // Nothing was written, inside or beside the working folder.
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 15.13: every kind of input is read up to its cap, then refused with a
/// message naming the input and the cap.
#[cfg(unix)]
#[test]
fn inputs_are_read_up_to_a_cap() {
    let dir = scratch("caps");
    refused(
        &["rules", "/dev/zero"],
        "",
        &["/dev/zero: more than 1 MiB, the rules file limit"],
    );
    refused(
        &[
            "match",
            "greedy",
            "simple",
            "--rules",
            "/dev/zero",
            "--hands",
            "2",
        ],
        "",
        &["more than 1 MiB, the rules file limit"],
    );
    refused(
        &["match", "greedy", "simple", "--decks", "/dev/zero"],
        "",
        &["/dev/zero: more than 64 MiB, the decks file limit"],
    );
    refused(
        &["replay", "/dev/zero"],
        "",
        &["record file /dev/zero line 1: more than 64 MiB, the record line limit"],
    );
    refused(
        &["run", "/dev/zero"],
        "",
        &["/dev/zero: more than 1 MiB, the experiment spec limit"],
    );
    let profile = dir.join("big.toml");
    std::fs::write(
        &profile,
        format!("kind = \"greedy\"\n{}", "#\n".repeat(600_000)),
    )
    .unwrap();
    refused(
        &["match", profile.to_str().unwrap(), "simple", "--hands", "2"],
        "",
        &["big.toml: more than 1 MiB, the profile limit"],
    );
    for command in ["solve", "showdown"] {
        let output = crate::cmd::ginlab_process()
            .args([command, "--batch"])
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).contains("standard input: more than 64 MiB, the batch input limit"),
            "{}",
            stderr(&output)
        );
    }
    // One answer to `play`.
    let output = ginlab()
        .args(["play", "--vs", "random", "--seed", "1"])
        .write_stdin("x".repeat(5000))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("standard input line 1: more than 4 KiB, the answer limit"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 15.14: a batch line that is not UTF-8 is named; a huge bad line is cut
/// with a marker; control characters are escaped wherever input is echoed.
#[test]
fn messages_name_the_line_cut_long_input_and_escape_controls() {
    refused(
        &["solve", "--batch"],
        b"AS 2S 3S\n\xff\xfe\n".to_vec(),
        &["standard input line 2: not UTF-8 text"],
    );
    refused(
        &["showdown", "--batch"],
        b"knocker,defender\n\xff,AS\n".to_vec(),
        &["standard input line 2: not UTF-8 text"],
    );
    let huge = format!("AS {}\n", "Z".repeat(9_000_000));
    let message = refused(&["solve", "--batch"], huge, &["more characters)"]);
    assert!(message.len() < 1000, "{} bytes of message", message.len());
    let message = refused(
        &["solve", "--batch"],
        "\u{1b}[2J\u{1b}[31mZZ\n",
        &["line 1: `\\u{1b}[2J\\u{1b}[31mZZ`"],
    );
    assert!(!message.contains('\u{1b}'), "{message:?}");
    for args in [
        &["rules", "--rule", "gin_bonus=\u{1b}[31m"][..],
        &["rules", "--rule", "\u{1b}[31m=1"],
        &["rules", "\u{1b}[31m"],
        &["solve", "A\u{1b}[31m"],
        &["match", "\u{1b}[31m", "simple", "--hands", "2"],
    ] {
        let message = refused(args, "", &["\\u{1b}[31m"]);
        assert!(!message.contains('\u{1b}'), "{args:?}: {message:?}");
    }
    // `play` echoes an answer read from a pipe, and quotes it when it is
    // not an answer.
    let output = ginlab()
        .args(["play", "--vs", "random", "--seed", "1"])
        .write_stdin("\u{1b}[31mred\nquit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
    assert!(stdout.contains("> \\u{1b}[31mred\n"), "{stdout}");
    assert!(stdout.contains("! `\\u{1b}[31mred`: "), "{stdout}");
}

/// 15.16: a knob given twice, `--dealer` without `--decks`, upcard knobs
/// without an upcard.
#[test]
fn contradictory_flags_and_knobs_are_refused() {
    refused(
        &["rules", "--rule", "gin_bonus=5", "--rule", "gin_bonus=6"],
        "",
        &["--rule gin_bonus=6: `gin_bonus` is given twice: give each knob once"],
    );
    refused(
        &["match", "greedy", "simple", "--hands", "2", "--dealer", "a"],
        "",
        &["--dealer goes with --decks only"],
    );
    for knob in ["ace_upcard_gin_only", "spade_upcard_doubles"] {
        refused(
            &[
                "rules",
                "standard",
                "--rule",
                "deal=eleven_cards",
                "--rule",
                &format!("{knob}=true"),
            ],
            "",
            &[&format!(
                "{knob} = true is about the upcard, but deal = \"eleven_cards\" deals none"
            )],
        );
    }
    // Oklahoma's boxes count without an upcard.
    let output = ginlab()
        .args([
            "rules",
            "--rule",
            "deal=eleven_cards",
            "--rule",
            "oklahoma_boxes=true",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

/// 15.16: `solve` says "1 card", and a hand with no deadwood prints no
/// empty parentheses (nor an empty melds line).
#[test]
fn solve_wording() {
    let out =
        |args: &[&str]| String::from_utf8(ginlab().args(args).output().unwrap().stdout).unwrap();
    assert_eq!(
        out(&["solve", "AS"]),
        "hand      AS (1 card)\nmelds     none\ndeadwood  1 (AS)\n"
    );
    assert_eq!(
        out(&["solve", "AS 2S 3S"]),
        "hand      AS 2S 3S (3 cards)\nmelds     [AS 2S 3S]\ndeadwood  0\n"
    );
}

/// 15.16: `values = ""` is called empty.
#[test]
fn an_empty_spec_value_is_called_empty() {
    let dir = scratch("empty-values");
    let spec = dir.join("sweep.toml");
    std::fs::write(
        &spec,
        "seed = 1\ngames = 2\nstudy = \"sweep\"\nstrategy = \"greedy\"\nparam = \"knock_at\"\nvalues = \"\"\nvs = \"simple\"\n",
    )
    .unwrap();
    refused(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            dir.join("out").to_str().unwrap(),
        ],
        "",
        &["`values` is empty: it needs a value"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// 15.17: the help lists every kind of strategy; balance's help speaks of
/// variants and has no --no-duplicate (which is refused).
#[test]
fn help_texts_tell_the_truth() {
    let help =
        |args: &[&str]| String::from_utf8(ginlab().args(args).output().unwrap().stdout).unwrap();
    let kinds = "random, simple, greedy, tracker, mc";
    let matches = help(&["match", "--help"]);
    assert!(
        matches.contains(kinds) && matches.contains("exec:COMMAND"),
        "{matches}"
    );
    assert!(help(&["play", "--help"]).contains(kinds));
    assert!(help(&["sweep", "--help"]).contains(kinds));
    let balance = help(&["balance", "--help"]);
    assert!(balance.contains(kinds), "{balance}");
    assert!(!balance.contains("grid point"), "{balance}");
    assert!(balance.contains("Hands per variant"), "{balance}");
    assert!(!balance.contains("--no-duplicate"), "{balance}");
    refused(
        &["balance", "greedy", "--hands", "2", "--no-duplicate"],
        "",
        &["--no-duplicate: a balance study plays every deal once already"],
    );
}

/// 15.17: a missing count names every way to give one; a negative count
/// gets a plain message, not clap's `-- -5` tip.
#[test]
fn counts_are_explained() {
    let message = refused(
        &["match", "greedy", "simple"],
        "",
        &["--hands <HANDS>|--games <GAMES>|--decks <FILE>"],
    );
    assert!(message.contains("required"), "{message}");
    refused(
        &["balance", "greedy"],
        "",
        &["--hands <HANDS>|--games <GAMES>"],
    );
    for args in [
        &["match", "greedy", "simple", "--hands", "-5"][..],
        &["match", "greedy", "simple", "--games", "0"],
        &[
            "sweep", "greedy", "--param", "knock_at", "--values", "1", "--vs", "simple", "--hands",
            "-5",
        ],
    ] {
        let message = refused(args, "", &["must be a positive whole number"]);
        assert!(!message.contains("-- -5"), "{message}");
    }
}

/// 15.17: typos get a suggestion; a missing profile file is called missing.
#[test]
fn typos_get_a_suggestion() {
    refused(
        &["match", "gredy", "simple", "--hands", "2"],
        "",
        &["`gredy` is not a built-in kind", "did you mean `greedy`?"],
    );
    refused(
        &["match", "greedy:knock_at=3", "trakcer:x=1", "--hands", "2"],
        "",
        &["unknown strategy `trakcer`", "did you mean `tracker`?"],
    );
    refused(&["rules", "oaklahoma"], "", &["did you mean `oklahoma`?"]);
    refused(
        &["rules", "--rule", "gin_bonsu=3"],
        "",
        &["unknown knob `gin_bonsu`", "did you mean `gin_bonus`?"],
    );
    refused(
        &["match", "profiles/mine.toml", "simple", "--hands", "2"],
        "",
        &["strategy A: the profile file `profiles/mine.toml` is missing (no such file)"],
    );
}

/// 15.17: `rules --explain` prints every knob's meaning from the knob
/// table, with the values of the rules asked for.
#[test]
fn rules_explain() {
    let output = ginlab()
        .args(["rules", "oklahoma", "--explain"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for knob in ginlab::rules::KNOBS {
        assert!(text.contains(&format!("{} = ", knob.name)), "{}", knob.name);
    }
    assert!(
        text.contains("knock_limit = \"upcard\"\n    The most deadwood"),
        "{text}"
    );
    assert!(text.contains("game_target = 150\n"), "{text}");
}
