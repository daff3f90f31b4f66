//! The CLI contract of `shared/DESIGN.md` (`solve`, `showdown`): output
//! shapes, CSV headers, exit codes, and that a failed run writes nothing to
//! stdout.

use crate::cmd::{ginlab, succeeded};
use predicates::prelude::*;
use predicates::str::contains;

/// Runs with `stdin` and asserts exit code 2, empty stdout, and an stderr
/// containing every one of `needles`.
fn rejects(args: &[&str], stdin: &str, needles: &[&str]) {
    let output = ginlab().args(args).write_stdin(stdin).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} wrote stdout");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} lacks {needle:?}"
        );
    }
}

#[test]
fn solve_prints_arrangement_and_deadwood() {
    ginlab()
        .args(["solve", "7C 8C 9C TC 6D 9D TD 6H 6S TS"])
        .assert()
        .success()
        .stdout(contains("melds     [7C 8C 9C] [TC TD TS] [6D 6H 6S]"))
        .stdout(contains("deadwood  9 (9D)"));
    // Cards as separate arguments, in the other accepted spellings.
    ginlab()
        .args([
            "solve", "as", "2♠", "3S", "10h", "jh", "QH", "kc", "kd", "ks", "5d", "9c",
        ])
        .assert()
        .success()
        .stdout(contains("[TH JH QH]"))
        .stdout(contains("discard   9C leaves deadwood 5"));
}

#[test]
fn solve_big_gin() {
    ginlab()
        .args(["solve", "AS 2S 3S 4S 2H 3H 4H KC KD KH KS"])
        .assert()
        .success()
        .stdout(contains("big gin"));
}

#[test]
fn solve_errors() {
    rejects(&["solve", "AS 2S 1X"], "", &["`1X`", "unknown suit"]);
    rejects(&["solve", "AS 2S ZS"], "", &["`ZS`", "unknown rank"]);
    rejects(&["solve", "AS 2S AS"], "", &["duplicate card AS"]);
    rejects(
        &["solve", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"],
        "",
        &["1 to 11 cards", "12"],
    );
    rejects(&["solve", ","], "", &["1 to 11 cards"]);
}

#[test]
fn solve_batch_header_and_rows() {
    let ten = "7C 8C 9C TC 6D 9D TD 6H 6S TS";
    ginlab()
        .args(["solve", "--batch"])
        .write_stdin(format!("{ten}\n"))
        .assert()
        .success()
        .stdout(format!(
            "hand,deadwood,melds\n{ten},9,[7C 8C 9C] [TC TD TS] [6D 6H 6S]\n"
        ));
    let eleven = "AS 2S 3S 4S 7H 7D 7C KC QC 5H 9D";
    ginlab()
        .args(["solve", "--batch"])
        .write_stdin(format!("# comment\n{ten}\n\n{eleven}\n"))
        .assert()
        .success()
        .stdout(
            "hand,deadwood,melds,discard,discard_deadwood\n\
             7C 8C 9C TC 6D 9D TD 6H 6S TS,9,[7C 8C 9C] [TC TD TS] [6D 6H 6S],,\n\
             7C QC KC 7D 9D 5H 7H AS 2S 3S 4S,34,[7C 7D 7H] [AS 2S 3S 4S],KC,24\n",
        );
}

#[test]
fn solve_batch_errors_name_the_line_and_write_nothing() {
    rejects(
        &["solve", "--batch"],
        "AS 2S 3S\n\nAS 2S QQ\n",
        &["line 3", "`QQ`"],
    );
    rejects(
        &["solve", "--batch"],
        "AS 2S 3S\nKS KS\n",
        &["line 2", "duplicate"],
    );
}

/// The vectors' deadwood column through `solve --batch`.
#[test]
fn solve_batch_matches_vectors() {
    let text = std::fs::read_to_string("tests/data/vectors/deadwood.csv").unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let input: String = rows.iter().map(|r| format!("{}\n", r[0])).collect();
    let output = ginlab()
        .args(["solve", "--batch"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("hand,deadwood,melds,discard,discard_deadwood")
    );
    for (row, line) in rows.iter().zip(lines) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[1], row[1], "deadwood of {}", row[0]);
        assert_eq!(fields[4], row[2], "discard_deadwood of {}", row[0]);
    }
}

const KNOCKER: &str = "[5S 6S 7S] [2H 3H 4H] [KC KD KH] 3D";
const DEFENDER: &str = "8S 9S TS QD QH 4C 4D 7H 9C JC";

#[test]
fn showdown_prints_both_sides_and_score() {
    ginlab()
        .args(["showdown", "--knocker", KNOCKER, "--defender", DEFENDER])
        .assert()
        .success()
        .stdout(contains("[KC KD KH] [2H 3H 4H] [5S 6S 7S] 3D"))
        .stdout(contains("deadwood 54"))
        .stdout(contains("lay-offs  8S 9S TS"))
        .stdout(contains("result    knock: knocker scores 51"));
}

#[test]
fn showdown_presets_and_upcard() {
    let knocker = "AS 2S 3S 4S 2H 3H 4H AC 2C 3D";
    let defender = "5S QD QH 4C 4D 7H 9C JC 8D 2D";
    // Standard: the knocker leaves 4S dead to keep the 5S off (10 vs 69).
    ginlab()
        .args(["showdown", "--knocker", knocker, "--defender", defender])
        .assert()
        .success()
        .stdout(contains("knocker scores 59"));
    // Oklahoma, 9S up: limit 9 (so 4S must meld), and the spade doubles.
    ginlab()
        .args(["showdown", "--knocker", knocker, "--defender", defender])
        .args(["--rules", "oklahoma", "--upcard", "9S"])
        .assert()
        .success()
        .stdout(contains("knocker scores 116"));
    // Oklahoma, ace up: only gin may end the hand.
    rejects(
        &[
            "showdown",
            "--knocker",
            knocker,
            "--defender",
            defender,
            "--rules",
            "oklahoma",
            "--upcard",
            "AH",
        ],
        "",
        &["knock limit 0"],
    );
    rejects(
        &[
            "showdown",
            "--knocker",
            knocker,
            "--defender",
            defender,
            "--rules",
            "oklahoma",
        ],
        "",
        &["--upcard"],
    );
}

#[test]
fn showdown_undercut_and_hoyle_bonus() {
    let knocker = "[AS 2S 3S] [2H 3H 4H] [KC KD KH] 5D";
    let defender = "7C 8C 9C TD JD QD QC QH QS 4C";
    ginlab()
        .args([
            "showdown",
            "--knocker",
            knocker,
            "--defender",
            defender,
            "--rules",
            "hoyle",
        ])
        .assert()
        .success()
        .stdout(contains("undercut: defender scores 26"));
}

#[test]
fn showdown_errors() {
    let s = |k: &str, d: &str, needles: &[&str]| {
        rejects(&["showdown", "--knocker", k, "--defender", d], "", needles)
    };
    s(
        KNOCKER,
        "8S 9S TS QD QH 4C 4D 7H 9C",
        &["defender must hold 10 cards, not 9"],
    );
    s(
        "[5S 6S 7S] [2H 3H 4H] KC KD 3D",
        DEFENDER,
        &["knocker must hold 10 cards"],
    );
    s(KNOCKER, "3D 9S TS QD QH 4C 4D 7H 9C JC", &["both hold 3D"]);
    s(
        "[5S 6S 8S] [2H 3H 4H] [KC KD KH] 3D",
        DEFENDER,
        &["[5S 6S 8S] is not a meld"],
    );
    s(
        "[5S 6S 7S [2H 3H 4H] [KC KD KH] 3D",
        DEFENDER,
        &["brackets"],
    );
    s(
        "[5S 6S 7S] [2H 3H 4H] KC KD KH 3D",
        DEFENDER,
        &["deadwood 33 exceeds the knock limit 10"],
    );
    s(
        "[5S 6S 7S] [2H 3H 4H] [KC KD KH] 3D AD",
        DEFENDER,
        &["big gin"],
    );
    s(
        KNOCKER,
        "8S 9S TS QD QH 4C 4D 7H 9C XX",
        &["defender", "`XX`"],
    );
    rejects(
        &[
            "showdown",
            "--knocker",
            KNOCKER,
            "--defender",
            DEFENDER,
            "--rules",
            "vegas",
        ],
        "",
        &[
            "--rules vegas",
            "not a preset (standard, hoyle, oklahoma, eaai)",
        ],
    );
}

#[test]
fn showdown_batch_contract() {
    let input = format!("knocker,defender\n{KNOCKER},{DEFENDER}\n");
    ginlab()
        .args(["showdown", "--batch"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(
            "knocker,defender,knocker_deadwood,defender_deadwood,layoffs,winner,points\n\
             [KC KD KH] [2H 3H 4H] [5S 6S 7S] 3D,4C 9C JC 4D QD 7H QH,3,54,8S 9S TS,knocker,51\n",
        );
}

#[test]
fn showdown_batch_errors_name_the_line() {
    let good = format!("{KNOCKER},{DEFENDER}");
    rejects(
        &["showdown", "--batch"],
        &format!("{good}\n{good},extra\n"),
        &["line 2", "expected 2 fields"],
    );
    rejects(
        &["showdown", "--batch"],
        &format!("knocker,defender\n{good}\n{KNOCKER},8S 9S\n"),
        &["line 3", "defender must hold 10 cards"],
    );
}

/// The vectors with a 10-card knocker, through `showdown --batch`.
#[test]
fn showdown_batch_matches_vectors() {
    let text = std::fs::read_to_string("tests/data/vectors/showdown.csv").unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader
        .records()
        .map(Result::unwrap)
        .filter(|r| r[0].replace(['[', ']'], " ").split_whitespace().count() == 10)
        .collect();
    assert!(rows.len() >= 200);
    let mut input = csv::Writer::from_writer(Vec::new());
    for r in &rows {
        input.write_record([&r[0], &r[1]]).unwrap();
    }
    let output = ginlab()
        .args(["showdown", "--batch"])
        .write_stdin(input.into_inner().unwrap())
        .output()
        .unwrap();
    succeeded(&output);
    let mut out = csv::Reader::from_reader(output.stdout.as_slice());
    for (row, got) in rows.iter().zip(out.records()) {
        let got = got.unwrap();
        assert_eq!((&got[2], &got[3]), (&row[2], &row[3]), "{row:?}");
    }
}

#[test]
fn help_lists_the_commands() {
    ginlab()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("solve").and(contains("showdown")));
    ginlab().arg("frobnicate").assert().code(2);
}

#[test]
fn rules_prints_every_knob_as_toml() {
    let output = ginlab().args(["rules", "hoyle"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for knob in ginlab::rules::KNOBS {
        assert!(text.contains(&format!("\n{} = ", knob.name)) || text.starts_with(knob.name));
    }
    assert!(text.contains("gin_bonus = 25") && text.contains("big_gin_bonus = 31"));
    // What it prints loads back as the same rules.
    let dir = std::env::temp_dir().join(format!("ginlab-rules-{}", std::process::id()));
    std::fs::write(&dir, &text).unwrap();
    let again = ginlab()
        .args(["rules", dir.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_file(&dir).unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    ginlab()
        .args([
            "rules",
            "--rule",
            "knock_limit=upcard",
            "--rule",
            "gin_bonus=30",
        ])
        .assert()
        .success()
        .stdout(contains("knock_limit = \"upcard\"").and(contains("gin_bonus = 30")));
}

#[test]
fn rules_errors() {
    rejects(&["rules", "vegas"], "", &["vegas", "not a preset"]);
    rejects(
        &["rules", "--rule", "gin_bonus=lots"],
        "",
        &["gin_bonus", "an integer"],
    );
    rejects(
        &["rules", "--rule", "gin_bonsu=3"],
        "",
        &["unknown knob `gin_bonsu`", "knock_limit"],
    );
    rejects(
        &["rules", "--rule", "deal=eleven_cards", "oklahoma"],
        "",
        &["eleven_cards"],
    );
    rejects(
        &[
            "showdown",
            "--knocker",
            KNOCKER,
            "--defender",
            DEFENDER,
            "--rule",
            "shutout=sometimes",
        ],
        "",
        &["shutout", "double_total"],
    );
}

/// `match` output without the timing line, which varies.
fn match_summary(args: &[&str]) -> String {
    let output = ginlab().arg("match").args(args).output().unwrap();
    succeeded(&output);
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("hands/s"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn match_summary_is_seeded() {
    let one = match_summary(&["greedy", "simple", "--hands", "300", "--seed", "5"]);
    assert!(one.contains("A = greedy, B = simple, rules standard, seed 5"));
    for needle in [
        "hands won",
        "non-dealer",
        "gin",
        "undercut",
        "void",
        "turns/hand",
    ] {
        assert!(one.contains(needle), "{one}");
    }
    assert_eq!(
        one,
        match_summary(&["greedy", "simple", "--hands", "300", "--seed", "5"])
    );
    assert_ne!(
        one,
        match_summary(&["greedy", "simple", "--hands", "300", "--seed", "6"])
    );
    let games = match_summary(&[
        "greedy:knock_at=5",
        "random",
        "--games",
        "3",
        "--seed",
        "1",
        "--rules",
        "eaai",
    ]);
    assert!(
        games.contains("games won") && games.contains("A = greedy:knock_at=5"),
        "{games}"
    );
}

/// `--budget-ms` gives every mc player the worlds that time buys at the
/// fixed rate, replacing its own count (0.0625 ms: 24 worlds), names it by
/// the resolved profile, and leaves other kinds alone.
#[test]
fn match_budget_ms_gives_search_players_equal_time() {
    let args = |a: &str| {
        vec![
            a.to_owned(),
            "simple".into(),
            "--games".into(),
            "2".into(),
            "--seed".into(),
            "3".into(),
            "--rules".into(),
            "eaai".into(),
        ]
    };
    let mut budgeted = args("mc:samples=8,calibrate=false");
    budgeted.extend(["--budget-ms".into(), "0.0625".into()]);
    let budgeted = match_summary(&budgeted.iter().map(String::as_str).collect::<Vec<_>>());
    let plain = args("mc:samples=24,calibrate=false");
    let plain = match_summary(&plain.iter().map(String::as_str).collect::<Vec<_>>());
    let (head, rest) = budgeted.split_once('\n').unwrap();
    assert!(
        head.starts_with(
            "A = mc:budget_ms=0.0625,samples=24,calibrate=false, B = simple, rules eaai"
        ),
        "{head}"
    );
    assert_eq!(rest, plain.split_once('\n').unwrap().1);
    rejects(
        &["match", "mc", "simple", "--games", "2", "--budget-ms", "0"],
        "",
        &["--budget-ms", "above 0, at most 256"],
    );
    rejects(
        &[
            "match",
            "mc",
            "simple",
            "--games",
            "2",
            "--budget-ms",
            "fast",
        ],
        "",
        &["--budget-ms", "milliseconds"],
    );
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--games",
            "2",
            "--budget-ms",
            "2",
        ],
        "",
        &["--budget-ms", "none of `greedy`, `simple`", "mc"],
    );
    // Tables take it as two players do (tests/it/tables.rs plays one).
}

#[test]
fn match_plays_dealt_decks() {
    let deck = |first: &str| {
        let rest: Vec<String> = ginlab::Card::all()
            .map(|c| c.to_string())
            .filter(|c| c != first)
            .collect();
        format!("{first} {}", rest.join(" "))
    };
    let path = std::env::temp_dir().join(format!("ginlab-decks-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        format!("# two decks\n{}\n\n{}\n", deck("KS"), deck("AC")),
    )
    .unwrap();
    ginlab()
        .args([
            "match",
            "greedy",
            "greedy",
            "--decks",
            path.to_str().unwrap(),
            "--no-duplicate",
        ])
        .assert()
        .success()
        .stdout(contains("\n2 hands in "));
    // With duplicate deals (the default) each deck is played twice.
    ginlab()
        .args([
            "match",
            "greedy",
            "greedy",
            "--decks",
            path.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout(contains("\n4 hands in "));
    std::fs::write(&path, format!("{}\n{}\n", deck("KS"), "AS 2S")).unwrap();
    rejects(
        &[
            "match",
            "greedy",
            "greedy",
            "--decks",
            path.to_str().unwrap(),
        ],
        "",
        &["line 2", "52 cards"],
    );
    std::fs::remove_file(&path).unwrap();
    rejects(
        &[
            "match",
            "greedy",
            "greedy",
            "--decks",
            "/nonexistent/decks.txt",
        ],
        "",
        &["decks file"],
    );
}

#[test]
fn match_errors() {
    rejects(
        &["match", "greedy", "gredy", "--hands", "5"],
        "",
        &["strategy B", "random, simple, greedy"],
    );
    rejects(
        &["match", "greedy:knock_at=12", "simple", "--hands", "5"],
        "",
        &["strategy A", "0 to 10"],
    );
    rejects(
        &[
            "match",
            "greedy:knock_at=1,knock_at=2",
            "simple",
            "--hands",
            "5",
        ],
        "",
        &["strategy A", "gives `knock_at` twice"],
    );
    rejects(
        &["match", "greedy", "simple", "--hands", "5", "--games", "5"],
        "",
        &["--games"],
    );
    rejects(&["match", "greedy", "simple"], "", &["--hands"]);
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--hands",
            "5",
            "--rule",
            "knock_limit=11",
        ],
        "",
        &["knock_limit"],
    );
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--games",
            "0",
            "--out",
            "/tmp/ginlab-zero",
        ],
        "",
        &["--games", "0"],
    );
    rejects(
        &["balance", "greedy", "--hands", "0"],
        "",
        &["--hands", "0"],
    );
    assert!(!std::path::Path::new("/tmp/ginlab-zero").exists());
}

#[test]
fn match_out_is_byte_identical_for_any_thread_count() {
    let base = std::env::temp_dir().join(format!("ginlab-out-{}", std::process::id()));
    let run = |threads: &str, dir: &str| {
        let out = base.join(dir);
        ginlab()
            .args([
                "match",
                "greedy:knock_at=7",
                "simple",
                "--games",
                "60",
                "--seed",
                "11",
            ])
            .args([
                "--rules",
                "oklahoma",
                "--threads",
                threads,
                "--out",
                out.to_str().unwrap(),
            ])
            .assert()
            .success();
        out
    };
    let (one, two) = (run("1", "one"), run("2", "two"));
    for name in ["summary.csv", "distribution.csv"] {
        let (x, y) = (
            std::fs::read(one.join(name)).unwrap(),
            std::fs::read(two.join(name)).unwrap(),
        );
        assert!(x == y, "{name} differs between thread counts");
    }
    let summary = std::fs::read_to_string(one.join("summary.csv")).unwrap();
    let header = summary.lines().next().unwrap();
    for column in [
        "variant",
        "player_a",
        "player_b",
        "hands",
        "games",
        "a_hand_wins",
        "b_hand_wins",
        "voids",
        "a_hand_win_rate",
        "a_hand_win_lo",
        "a_hand_win_hi",
        "a_points_per_hand",
        "a_points_per_hand_lo",
        "a_points_per_hand_hi",
        "a_game_wins",
        "a_game_win_rate",
        "a_game_win_lo",
        "a_game_win_hi",
        "a_margin_per_game",
        "gin_rate",
        "undercut_rate",
        "knock_rate",
        "void_rate",
        "mean_turns",
        "elo",
        "elo_lo",
        "elo_hi",
        "seed",
    ] {
        assert!(
            header.split(',').any(|c| c == column),
            "summary.csv lacks {column}"
        );
    }
    assert!(summary.contains("oklahoma,greedy:knock_at=7,simple,"));
    let distribution = std::fs::read_to_string(one.join("distribution.csv")).unwrap();
    assert!(distribution.starts_with("variant,player_a,player_b,metric,value,count\n"));
    for metric in [
        "hand_score",
        "game_margin",
        "hand_turns",
        "knocker_deadwood",
        "hand_end",
    ] {
        assert!(distribution.contains(&format!(",{metric},")), "no {metric}");
    }
    let manifest = std::fs::read_to_string(one.join("manifest.toml")).unwrap();
    assert!(manifest.contains("seed = 11") && manifest.contains("knock_limit = \"upcard\""));
    // No temporary files are left behind.
    assert!(
        std::fs::read_dir(&one).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with('.'))
    );
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn match_takes_profile_names_and_files() {
    // Tests run from the package root, where strategies/ is.
    ginlab()
        .args([
            "match",
            "greedy-k7",
            "strategies/simple.toml",
            "--hands",
            "20",
            "--seed",
            "1",
        ])
        .assert()
        .success()
        .stdout(contains("A = greedy-k7, B = simple,"));
    let bad = std::env::temp_dir().join(format!("ginlab-profile-{}.toml", std::process::id()));
    std::fs::write(&bad, "kind = \"greedy\"\nknock_at = 3\nspeed = 9\n").unwrap();
    rejects(
        &["match", bad.to_str().unwrap(), "simple", "--hands", "5"],
        "",
        &["profile", "no parameter `speed`", "knock_at, schedule"],
    );
    // Values have their types, as in a rules file: a number is not a string.
    std::fs::write(&bad, "kind = \"greedy\"\nknock_at = \"7\"\n").unwrap();
    rejects(
        &["match", bad.to_str().unwrap(), "simple", "--hands", "5"],
        "",
        &[
            "profile",
            "bad value `\"7\"` for `greedy:knock_at`",
            "an integer from 0 to 10",
        ],
    );
    std::fs::remove_file(&bad).unwrap();
    rejects(
        &["match", "greedy-k8", "simple", "--hands", "5"],
        "",
        &["greedy-k8", "greedy-k7", "built-in kind"],
    );
}

#[test]
fn sweep_overrides_a_parameter_the_profile_sets() {
    // greedy-k7 sets knock_at; each grid point replaces it (it used to be
    // appended as a second knock_at, which inline profiles now refuse).
    let dir = out_dir("sweep-k7");
    ginlab()
        .args([
            "sweep",
            "greedy-k7",
            "--param",
            "knock_at",
            "--values",
            "3..=4",
        ])
        .args(["--vs", "simple", "--hands", "20", "--seed", "1", "--quiet"])
        .arg("--out")
        .arg(&dir)
        .assert()
        .success();
    let sweep = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    assert!(
        sweep.contains(",knock_at,3,greedy:knock_at=3,simple,")
            && sweep.contains(",knock_at,4,greedy:knock_at=4,simple,"),
        "{sweep}"
    );
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("ginlab-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn run_writes_every_variant_and_pairing() {
    let spec = temp_file(
        "rr.toml",
        "seed = 4\ngames = 10\nplayers = [\"greedy\", \"simple\", \"random:knock_prob=1\"]\n\
         pairing = \"round_robin\"\n[[variant]]\nname = \"standard\"\n[[variant]]\nname = \"flat\"\n\
         preset = \"oklahoma\"\nspade_upcard_doubles = false\n",
    );
    let out = std::env::temp_dir().join(format!("ginlab-run-{}", std::process::id()));
    let run = |threads: &str, dir: &str| {
        let dir = out.join(dir);
        ginlab()
            .args([
                "run",
                spec.to_str().unwrap(),
                "--quiet",
                "--threads",
                threads,
                "--out",
                dir.to_str().unwrap(),
            ])
            .assert()
            .success()
            .stdout(contains("6 rows in"));
        dir
    };
    let (one, two) = (run("1", "one"), run("2", "two"));
    let summary = std::fs::read_to_string(one.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 2 * 3);
    assert!(
        summary.contains("\nflat,greedy,simple,")
            && summary.contains("\nstandard,simple,random:knock_prob=1,")
    );
    assert_eq!(
        summary,
        std::fs::read_to_string(two.join("summary.csv")).unwrap()
    );
    let manifest = std::fs::read_to_string(one.join("manifest.toml")).unwrap();
    assert!(
        manifest.contains("experiment = ") && manifest.contains("spade_upcard_doubles = false")
    );
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_file(&spec).unwrap();
}

#[test]
fn run_errors() {
    let bad = temp_file(
        "bad.toml",
        "seed = 1\ngames = 5\nplayers = [\"greedy\", \"simple\"]\npairing = \"swiss\"\n",
    );
    rejects(
        &["run", bad.to_str().unwrap()],
        "",
        &["bad.toml", "pairing", "round_robin"],
    );
    std::fs::write(
        &bad,
        "seed = 1\ngames = 5\nplayers = [\"greedy\", \"gredy\"]\n",
    )
    .unwrap();
    rejects(
        &["run", bad.to_str().unwrap()],
        "",
        &["gredy", "built-in kind"],
    );
    std::fs::write(&bad, "seed = 1\ngames = 5\nplayers = [\"greedy\", \"simple\"]\n[[variant]]\nname = \"x\"\nknock_limit = 12\n").unwrap();
    rejects(
        &["run", bad.to_str().unwrap()],
        "",
        &["variant `x`", "knock_limit", "0 to 10"],
    );
    std::fs::remove_file(&bad).unwrap();
    rejects(
        &["run", "/nonexistent/spec.toml"],
        "",
        &["reading experiment"],
    );
}

/// Spec mistakes that used to run with wrong results: a misspelt preset as a
/// variant name (ran standard), head_to_head with three players (dropped the
/// third), a key of another kind of spec (ignored).
#[test]
fn run_refuses_specs_that_would_silently_run_something_else() {
    let bad = temp_file("silent.toml", "");
    let players = "seed = 1\nhands = 20\nplayers = [\"greedy\", \"simple\"]\n";
    let balance = "seed = 1\nhands = 20\nstudy = \"balance\"\nstrategy = \"greedy\"\n";
    let cases: [(String, &[&str]); 5] = [
        (
            format!("{players}[[variant]]\nname = \"oklahom\"\n"),
            &[
                "variant `oklahom`",
                "not a preset (standard, hoyle, oklahoma, eaai)",
                "preset = \"NAME\"",
            ],
        ),
        (
            "seed = 1\nhands = 20\nplayers = [\"greedy\", \"simple\", \"random\"]\npairing = \"head_to_head\"\n".into(),
            &["pairing = \"head_to_head\"", "exactly 2 players", "lists 3", "round_robin"],
        ),
        (
            format!("{players}strategy = \"mc\"\n"),
            &["unknown key `strategy`", "a match spec takes", "players, pairing"],
        ),
        (
            format!("{balance}param = \"knock_at\"\n"),
            &["unknown key `param`", "a balance study takes", "study, strategy and"],
        ),
        (
            format!("{balance}pairing = \"gauntlet\"\n"),
            &["unknown key `pairing`", "a balance study takes"],
        ),
    ];
    for (text, needles) in cases {
        std::fs::write(&bad, &text).unwrap();
        let out = out_dir("silent");
        rejects(
            &["run", bad.to_str().unwrap(), "--out", out.to_str().unwrap()],
            "",
            needles,
        );
        assert!(!out.exists(), "{text}: wrote {}", out.display());
    }
    std::fs::remove_file(&bad).unwrap();
}

/// A value or variant given twice would make duplicate rows whose charts
/// and histograms overwrite each other.
#[test]
fn studies_refuse_a_value_or_variant_given_twice() {
    let out = out_dir("twice");
    let dir = out.to_str().unwrap();
    let sweep = [
        "sweep", "greedy", "--param", "knock_at", "--vs", "simple", "--hands", "10", "-q", "--out",
        dir, "--values",
    ];
    let args = |extra: &[&'static str]| [&sweep[..], extra].concat();
    rejects(
        &args(&["1,1"]),
        "",
        &["--values 1 is given twice: give each once"],
    );
    rejects(
        &args(&["3,1,03"]),
        "",
        &["--values 3 and 03 make the same player `greedy:knock_at=3`"],
    );
    rejects(
        &args(&["1,2", "--rules", "hoyle", "--rules", "hoyle"]),
        "",
        &["--rules hoyle is given twice: give each once"],
    );
    let rules_dir = out_dir("twice-rules");
    std::fs::create_dir_all(&rules_dir).unwrap();
    let hoyle_file = rules_dir.join("hoyle.toml");
    std::fs::write(&hoyle_file, "preset = \"hoyle\"\ngin_bonus = 30\n").unwrap();
    rejects(
        &[
            "balance",
            "greedy",
            "--hands",
            "10",
            "--out",
            dir,
            "--rules",
            "hoyle",
            "--rules",
            hoyle_file.to_str().unwrap(),
        ],
        "",
        &["make the same variant `hoyle`"],
    );
    let spec = rules_dir.join("twice.toml");
    std::fs::write(
        &spec,
        "seed = 1\nhands = 10\nstudy = \"sweep\"\nstrategy = \"greedy\"\nparam = \"knock_at\"\nvalues = \"2,5,2\"\nvs = \"simple\"\n",
    )
    .unwrap();
    rejects(
        &["run", spec.to_str().unwrap(), "--out", dir],
        "",
        &["2 is given twice"],
    );
    assert!(!out.exists(), "nothing is written");
    ginlab()
        .args(args(&["1,2", "--rules", "hoyle", "--rules", "standard"]))
        .assert()
        .success();
    let table = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert_eq!(table.lines().count(), 1 + 2 * 2, "{table}");
}

fn out_dir(name: &str) -> crate::jobs::Scratch {
    crate::jobs::scratch("cli", name)
}

/// Makes the manifest of `dir` record the digest of its (edited)
/// `tallies.json`, as someone covering an edit would.
fn sign(dir: &std::path::Path) {
    let tallies = std::fs::read(dir.join("tallies.json")).unwrap();
    let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    let signed: String = manifest
        .lines()
        .map(|line| {
            if line.starts_with("tallies_blake3 = ") {
                format!("tallies_blake3 = \"{}\"\n", blake3::hash(&tallies).to_hex())
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert_ne!(signed, manifest, "the manifest records a digest");
    std::fs::write(dir.join("manifest.toml"), signed).unwrap();
}

fn same_results(x: &std::path::Path, y: &std::path::Path) {
    for name in ["summary.csv", "distribution.csv", "tallies.json"] {
        let (a, b) = (
            std::fs::read(x.join(name)).unwrap(),
            std::fs::read(y.join(name)).unwrap(),
        );
        assert!(
            a == b,
            "{name} differs between {} and {}",
            x.display(),
            y.display()
        );
    }
}

#[test]
fn shards_merge_into_the_single_run() {
    let base = out_dir("shards");
    let args = [
        "match", "greedy", "simple", "--games", "90", "--seed", "21", "--quiet", "--out",
    ];
    let whole = base.join("whole");
    ginlab().args(args).arg(&whole).assert().success();
    let shards: Vec<_> = (1..=3).map(|k| base.join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        ginlab()
            .args(args)
            .arg(dir)
            .args(["--shard", &format!("{}/3", k + 1)])
            .assert()
            .success();
    }
    let merged = base.join("merged");
    ginlab()
        .arg("merge")
        .args([&shards[2], &shards[0], &shards[1]])
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    same_results(&whole, &merged);
    // A missing or foreign shard is refused.
    rejects(
        &[
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
            "--out",
            base.join("m").to_str().unwrap(),
        ],
        "",
        &["shard 3/3 is missing"],
    );
    let other = base.join("other");
    ginlab()
        .args([
            "match", "greedy", "simple", "--games", "90", "--seed", "22", "--quiet", "--shard",
            "3/3", "--out",
        ])
        .arg(&other)
        .assert()
        .success();
    rejects(
        &[
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
            other.to_str().unwrap(),
            "--out",
            base.join("m").to_str().unwrap(),
        ],
        "",
        &["not a shard of the same run"],
    );
    // The merged result may not overwrite one of its shards.
    let before = std::fs::read(shards[0].join("tallies.json")).unwrap();
    let args_into_shard: Vec<&str> = ["merge"]
        .into_iter()
        .chain(shards.iter().map(|s| s.to_str().unwrap()))
        .chain(["--out", shards[0].to_str().unwrap()])
        .collect();
    rejects(&args_into_shard, "", &["--out", "is the shard"]);
    assert_eq!(
        std::fs::read(shards[0].join("tallies.json")).unwrap(),
        before
    );
    // A tallies.json whose shard is not K/N with 1 ≤ K ≤ N (edited, or from
    // --shard with a huge N) is refused, not a crash.
    let text = String::from_utf8(before).unwrap();
    for (bad, needle) in [
        (
            "\"shard\":{\"index\":0,\"count\":3}",
            "shard 0/3 is not a shard",
        ),
        (
            "\"shard\":{\"index\":9,\"count\":3}",
            "shard 9/3 is not a shard",
        ),
    ] {
        let edited = base.join("edited");
        std::fs::create_dir_all(&edited).unwrap();
        std::fs::copy(
            shards[0].join("manifest.toml"),
            edited.join("manifest.toml"),
        )
        .unwrap();
        let tallies = text.replace("\"shard\":{\"index\":1,\"count\":3}", bad);
        assert_ne!(
            tallies, text,
            "the shard field is where the test expects it"
        );
        std::fs::write(edited.join("tallies.json"), tallies).unwrap();
        sign(&edited);
        rejects(
            &[
                "merge",
                edited.to_str().unwrap(),
                shards[1].to_str().unwrap(),
                "--out",
                base.join("m").to_str().unwrap(),
            ],
            "",
            &[needle],
        );
    }
    let huge = base.join("huge");
    ginlab()
        .args(args)
        .arg(&huge)
        // The last shard: it holds the last deal (the first holds none,
        // which is refused).
        .args(["--shard", "1000000000000/1000000000000"])
        .assert()
        .success();
    rejects(
        &[
            "merge",
            huge.to_str().unwrap(),
            "--out",
            base.join("m").to_str().unwrap(),
        ],
        "",
        &["shard 1/1000000000000 is missing"],
    );
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--games",
            "9",
            "--shard",
            "4/3",
            "--out",
            base.join("x").to_str().unwrap(),
        ],
        "",
        &["K/N"],
    );
    rejects(
        &[
            "match", "greedy", "simple", "--games", "9", "--shard", "1/3",
        ],
        "",
        &["--out"],
    );
}

#[test]
fn a_killed_run_resumes_to_the_same_output() {
    let base = out_dir("resume");
    let args = [
        "match",
        "greedy",
        "random:knock_prob=1",
        "--hands",
        "120000",
        "--seed",
        "3",
        "--quiet",
        "--threads",
        "2",
        "--out",
    ];
    let whole = base.join("whole");
    ginlab().args(args).arg(&whole).assert().success();
    let cut = base.join("cut");
    let mut child = crate::cmd::ginlab_process()
        .args(args)
        .arg(&cut)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it has checkpointed at least one block.
    let checkpoint = cut.join("checkpoint.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !checkpoint.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(checkpoint.exists(), "no checkpoint was written");
    assert!(
        !cut.join("summary.csv").exists(),
        "the run finished before it was killed"
    );
    // Without --resume the unfinished run is not silently overwritten.
    rejects(
        &[&args[..], &[cut.to_str().unwrap()]].concat(),
        "",
        &["--resume"],
    );
    ginlab()
        .args(args)
        .arg(&cut)
        .arg("--resume")
        .assert()
        .success();
    same_results(&whole, &cut);
    assert!(!checkpoint.exists());
}

#[test]
fn sprt_decides_when_a_loses_or_wins_every_unit() {
    // random never beats greedy in a whole game: every unit is lost, which
    // no variance-based formula can weigh; the test must still decide, at
    // the unit where the exact likelihood ratio of such a sample crosses
    // its bound (101 lost units, 104 won: see stats::sprt), H0 one way
    // round and H1 the other. The figures cover the whole block of deals
    // it decided in (64..128).
    for (a, b, verdict) in [
        (
            "random",
            "greedy",
            "LLR -2.95 after 101 units (stops below -2.94 or above 2.94): H0 accepted",
        ),
        (
            "greedy",
            "random",
            "LLR 2.95 after 104 units (stops below -2.94 or above 2.94): H1 accepted",
        ),
    ] {
        for duplicate in [true, false] {
            let mut args = vec![
                "match",
                a,
                b,
                "--games",
                "5000",
                "--seed",
                "1",
                "--quiet",
                "--sprt",
                "elo0=0,elo1=10,alpha=0.05,beta=0.05",
            ];
            if !duplicate {
                args.push("--no-duplicate");
            }
            let output = ginlab().args(&args).output().unwrap();
            assert!(output.status.success());
            let text = String::from_utf8(output.stdout).unwrap();
            assert!(text.contains(verdict), "{args:?}: {text}");
            assert!(
                text.contains("the figures above are over all 128 units played"),
                "{text}"
            );
        }
    }
}

#[test]
fn sprt_stops_early_and_ignores_the_thread_count() {
    let run = |threads: &str| {
        let output = ginlab()
            .args([
                "match",
                "greedy-gin",
                "simple",
                "--games",
                "200000",
                "--seed",
                "1",
                "--rules",
                "eaai",
                "--quiet",
            ])
            .args([
                "--sprt",
                "elo0=0,elo1=10,alpha=0.05,beta=0.05",
                "--threads",
                threads,
            ])
            .output()
            .unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        text.lines()
            .filter(|l| !l.contains("hands/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = run("1");
    assert!(one.contains("H1 accepted"), "{one}");
    // Decided long before the 200,000-game limit (units are pairs of games).
    let units: u64 = one
        .split("after ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(units < 100_000, "{units}");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("4"));
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--games",
            "10",
            "--sprt",
            "elo0=5,elo1=0",
        ],
        "",
        &["--sprt", "E0 < E1"],
    );
    // Non-finite values, repeated keys and chances outside (0, 0.5) too,
    // each named in the message.
    for (spec, problem) in [
        ("elo0=-inf,elo1=inf", "elo0 = `-inf` is not a finite number"),
        ("elo0=0,elo1=NaN", "elo1 = `NaN` is not a finite number"),
        ("elo0=0,elo1=9000", "elo1 = 9000 is outside -800..800"),
        // Bounds no match resolves: the first unit would decide alone.
        ("elo0=-3600,elo1=3600", "elo0 = -3600 is outside -800..800"),
        ("elo0=0,elo0=5,elo1=10", "elo0 is given twice"),
        (
            "elo0=0,elo1=5,beta=0.5",
            "beta = 0.5 is not between 0 and 0.5",
        ),
    ] {
        rejects(
            &["match", "greedy", "simple", "--games", "10", "--sprt", spec],
            "",
            &[spec, problem, "E0 < E1"],
        );
    }
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--games",
            "10",
            "--sprt",
            "elo0=0,elo1=5",
            "--shard",
            "1/2",
            "--out",
            "/tmp/x",
        ],
        "",
        &["--shard"],
    );
    // With --out the files cover exactly the deals played: to the end of
    // the block the test decided in (blocks of 64, 64, 128, 256, 512, then
    // 1024 deals).
    let dir = out_dir("sprt");
    ginlab()
        .args([
            "match",
            "greedy-gin",
            "simple",
            "--games",
            "200000",
            "--seed",
            "1",
            "--rules",
            "eaai",
            "--quiet",
        ])
        .args(["--sprt", "elo0=0,elo1=10,alpha=0.05,beta=0.05", "--out"])
        .arg(&dir)
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let games: u64 = summary
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    let played = [64, 128, 256, 512, 1024]
        .into_iter()
        .find(|&end| end >= units)
        .unwrap_or(units.div_ceil(1024) * 1024);
    assert!(units < 1024, "{units}");
    assert_eq!(games, 2 * played);
}

fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_result_folder_holds_one_run() {
    let base = out_dir("reuse");
    let dir = base.join("r");
    let run = |a: &str, b: &str| {
        ginlab()
            .args(["match", a, b, "--hands", "40", "--seed", "3", "-q", "--out"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    assert!(run("greedy", "simple").status.success());
    assert!(
        ginlab()
            .arg("chart")
            .arg(&dir)
            .output()
            .unwrap()
            .status
            .success()
    );
    assert!(
        dir.join("hand_score-standard-greedy-vs-simple.svg")
            .exists()
    );
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    assert!(run("tracker", "random").status.success());
    // The second run's files, and the file that is not ginlab's; the chart
    // made of the first run is gone.
    assert_eq!(
        file_names(&dir),
        [
            "distribution.csv",
            "manifest.toml",
            "notes.txt",
            "summary.csv",
            "tallies.json",
        ]
    );
    // A folder where the summary goes is refused before play (exit 2), and
    // the folder is left as it was.
    let kept: Vec<Vec<u8>> = ["tallies.json", "manifest.toml", "distribution.csv"]
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    std::fs::remove_file(dir.join("summary.csv")).unwrap();
    std::fs::create_dir(dir.join("summary.csv")).unwrap();
    let failed = run("greedy", "simple");
    assert_eq!(failed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("summary.csv"));
    for (name, bytes) in ["tallies.json", "manifest.toml", "distribution.csv"]
        .iter()
        .zip(&kept)
    {
        assert_eq!(&std::fs::read(dir.join(name)).unwrap(), bytes, "{name}");
    }
    assert!(
        file_names(&dir).iter().all(|n| !n.starts_with('.')),
        "no temporary file is left: {:?}",
        file_names(&dir)
    );
}

#[test]
fn bad_output_paths_and_amounts_are_refused_before_playing() {
    let base = out_dir("paths");
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("afile");
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("sub");
    let hands = ["match", "greedy", "simple", "--hands", "10", "-q"];
    for (extra, needle) in [
        (vec!["--record", base.to_str().unwrap()], "is a directory"),
        (
            vec!["--out", under_file.to_str().unwrap()],
            "cannot write a result folder",
        ),
        (
            vec![
                "--out",
                under_file.to_str().unwrap(),
                "--sprt",
                "elo0=0,elo1=10",
            ],
            "cannot write a result folder",
        ),
        (vec!["--threads", "100000"], "0 (one per core) to 1024"),
    ] {
        let args: Vec<&str> = hands.iter().copied().chain(extra).collect();
        rejects(&args, "", &[needle]);
    }
    rejects(
        &[
            "sweep",
            "greedy",
            "--param",
            "knock_at",
            "--values=-9223372036854775808..=9223372036854775807",
            "--vs",
            "simple",
            "--hands",
            "10",
        ],
        "",
        &["A ≤ B ≤ A + 1000"],
    );
}

/// An error message that cannot be written (stderr on a full device) still
/// ends with the error's exit code, not a panic.
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_stderr_keeps_the_exit_code() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let status = crate::cmd::ginlab_process()
        .args(["solve", "ZZ"])
        .stderr(full)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

/// Ctrl-C during a run leaves no temporary file beside its outputs (and the
/// outputs as they were: here, none).
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_run_removes_its_temporary_files() {
    interrupt_a_run(rustix::process::Signal::INT, 130);
}

/// SIGTERM does the same, with the code a shell gives a process SIGTERM
/// ended (128 + 15), so a job system can tell it from Ctrl-C.
#[cfg(target_os = "linux")]
#[test]
fn a_terminated_run_exits_143() {
    interrupt_a_run(rustix::process::Signal::TERM, 143);
}

/// Sends `signal` to a recording run once it writes, and checks the exit
/// code and that no temporary file is left.
#[cfg(target_os = "linux")]
fn interrupt_a_run(signal: rustix::process::Signal, code: i32) {
    use rustix::process::{Pid, kill_process};
    let base = out_dir(&format!("interrupted-{code}"));
    std::fs::create_dir_all(&base).unwrap();
    let record = base.join("games.jsonl");
    let mut run = crate::cmd::ginlab_process()
        .args(["match", "greedy", "greedy", "--hands", "100000000", "-q"])
        .arg("--record")
        .arg(&record)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while file_names(&base).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let writing = file_names(&base);
    assert!(
        writing.len() == 1 && writing[0].starts_with(".games.jsonl.tmp-"),
        "{writing:?}"
    );
    kill_process(Pid::from_child(&run), signal).unwrap();
    assert_eq!(run.wait().unwrap().code(), Some(code));
    assert_eq!(file_names(&base), Vec::<String>::new());
}

/// A balance study plays every deal once: with one strategy in both seats a
/// seat-swapped replay repeats the hand, and counting it would count one
/// hand twice (intervals √2 too narrow).
#[test]
fn a_balance_study_counts_each_hand_once() {
    let base = out_dir("balance-once");
    let run = |name: &str, extra: &[&str]| {
        let dir = base.join(name);
        ginlab()
            .args([
                "balance", "greedy", "--hands", "400", "--seed", "9", "-q", "--out",
            ])
            .arg(&dir)
            .args(extra)
            .assert()
            .success();
        dir
    };
    // (`--no-duplicate`, which could change nothing here, is refused:
    // tests/it/inputs.rs.)
    let default = run("default", &[]);
    let manifest = std::fs::read_to_string(default.join("manifest.toml")).unwrap();
    assert!(manifest.contains("duplicate = false"), "{manifest}");
    // 400 deals, not 200 played twice: the number of distinct turn counts of
    // a doubled sample would all be even.
    let distribution = std::fs::read_to_string(default.join("distribution.csv")).unwrap();
    let odd_turn_count = distribution
        .lines()
        .filter(|l| l.contains(",hand_turns,"))
        .any(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap() % 2 == 1);
    assert!(odd_turn_count, "{distribution}");
    let spec = base.join("b.toml");
    std::fs::write(
        &spec,
        "study = \"balance\"\nstrategy = \"greedy\"\nhands = 10\nduplicate = true\n",
    )
    .unwrap();
    rejects(
        &["run", spec.to_str().unwrap()],
        "",
        &["`duplicate`", "plays every deal once"],
    );
}

// ---- Result folders: what issue 15 found (items 5, 8, 9, 11, 16, 17) ----

fn match_into(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    ginlab()
        .args([
            "match", "greedy", "simple", "--hands", "40", "--seed", "3", "-q",
        ])
        .arg("--out")
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn rows_that_would_share_a_file_are_refused_before_playing() {
    let base = out_dir("collide");
    std::fs::create_dir_all(&base).unwrap();
    let spec = base.join("twice.toml");
    std::fs::write(
        &spec,
        "seed = 1\nhands = 10\nplayers = [\"greedy\", \"greedy\", \"simple\"]\npairing = \"round_robin\"\n",
    )
    .unwrap();
    let out = base.join("out");
    rejects(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ],
        "",
        &["would both write", "greedy vs simple"],
    );
    assert!(!out.join("checkpoint.json").exists());
}

#[test]
fn a_record_among_the_result_files_is_refused() {
    let dir = out_dir("record-in-out");
    for name in ["summary.csv", "checkpoint.json", "tallies.json"] {
        let record = dir.join(name);
        let output = match_into(&dir, &["--record", record.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        assert!(output.stdout.is_empty());
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("is one of the files the run writes")
        );
    }
    assert!(!dir.join("summary.csv").exists());
    // Another name in the folder is fine.
    let output = match_into(
        &dir,
        &["--record", dir.join("games.jsonl").to_str().unwrap()],
    );
    assert!(output.status.success());
}

#[test]
fn an_empty_shard_is_refused() {
    // 2 duplicate hands are one deal: shard 1/3 holds none of it, and
    // would print a result of no hands.
    let dir = out_dir("empty-shard");
    let output = ginlab()
        .args([
            "match", "greedy", "simple", "--hands", "2", "--shard", "1/3", "-q", "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("--shard 1/3: the shard holds none of the 1 deal of row"),
        "{stderr}"
    );
    assert!(!dir.join("summary.csv").exists());
}

#[test]
fn a_rerun_that_reproduces_the_files_keeps_the_manifest() {
    let dir = out_dir("rerun");
    assert!(match_into(&dir, &["--threads", "1"]).status.success());
    let manifest = std::fs::read(dir.join("manifest.toml")).unwrap();
    // Another command line, the same results: nothing changes.
    assert!(match_into(&dir, &["--threads", "2"]).status.success());
    assert_eq!(std::fs::read(dir.join("manifest.toml")).unwrap(), manifest);
    // Other results: the manifest names the new command.
    let output = ginlab()
        .args([
            "match", "greedy", "simple", "--hands", "40", "--seed", "4", "-q", "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    assert!(text.contains("seed = 4"), "{text}");
}

#[test]
fn a_folder_in_use_is_refused_and_stale_temporaries_are_removed() {
    let dir = out_dir("locked");
    std::fs::create_dir_all(&dir).unwrap();
    let stale = dir.join(".summary.csv.tmp-4000000");
    std::fs::write(&stale, "half").unwrap();
    std::fs::write(dir.join(".notes.tmp-1"), "mine").unwrap();
    let held = std::fs::File::open(&dir).unwrap();
    held.lock().unwrap();
    let output = match_into(&dir, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("in use by another ginlab run"));
    held.unlock().unwrap();
    assert!(match_into(&dir, &[]).status.success());
    assert!(!stale.exists());
    assert!(dir.join(".notes.tmp-1").exists());
}

/// Issue 15 item 9: a run killed while putting its files in place (here:
/// after two of its renames) leaves its journal; the next run into the
/// folder finishes that commit first and says so, so the folder is never a
/// mix of two runs.
#[test]
fn a_write_killed_half_way_is_finished_by_the_next_run() {
    let base = out_dir("half-written");
    let (old, new) = (base.join("old"), base.join("new"));
    let run = |dir: &std::path::Path, seed: &str| {
        ginlab()
            .args([
                "match", "greedy", "simple", "--games", "6", "-q", "--seed", seed, "--out",
            ])
            .arg(dir)
            .output()
            .unwrap()
    };
    assert!(run(&old, "4").status.success());
    assert!(run(&new, "5").status.success());
    // What the killed run of seed 5 into `old` left: every new file beside
    // its target, two of them already renamed, and the journal.
    let mut names: Vec<String> = std::fs::read_dir(&new)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "manifest.toml")
        .collect();
    names.sort();
    names.push("manifest.toml".into());
    let mut journal = String::from("ginlab commit journal 1\n");
    for (i, name) in names.iter().enumerate() {
        let temp = format!(".{name}.tmp-77");
        let target = if i < 2 { name.clone() } else { temp.clone() };
        std::fs::copy(new.join(name), old.join(target)).unwrap();
        journal += &format!("put {temp} {name}\n");
    }
    std::fs::write(old.join(".ginlab-commit"), journal).unwrap();
    // The same run again: it finds the folder completed to the killed
    // run's result, reproduces it, and so keeps that run's manifest.
    let output = run(&old, "5");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("completed the result files of an earlier run that was interrupted"),
        "{stderr}"
    );
    for name in &names {
        assert_eq!(
            std::fs::read(old.join(name)).unwrap(),
            std::fs::read(new.join(name)).unwrap(),
            "{name}"
        );
    }
    let left: Vec<_> = std::fs::read_dir(&old)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn merge_and_resume_refuse_edited_state() {
    let base = out_dir("edited");
    let shards: Vec<_> = (1..=2).map(|k| base.join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        assert!(match_into(dir, &["--shard", &shard]).status.success());
    }
    let path = shards[1].join("tallies.json");
    let manifest = shards[1].join("manifest.toml");
    let honest = std::fs::read_to_string(&path).unwrap();
    let honest_manifest = std::fs::read_to_string(&manifest).unwrap();
    let digest = format!(
        "tallies_blake3 = \"{}\"",
        blake3::hash(honest.as_bytes()).to_hex()
    );
    assert!(honest_manifest.contains(&digest), "{honest_manifest}");
    // An edit the manifest's digest catches; then edits whose digest was
    // made to match, which the consistency checks catch.
    let edit = |f: &dyn Fn(&mut serde_json::Value), signed: bool| {
        let mut state: serde_json::Value = serde_json::from_str(&honest).unwrap();
        f(&mut state);
        std::fs::write(&path, state.to_string()).unwrap();
        std::fs::write(&manifest, &honest_manifest).unwrap();
        if signed {
            sign(&shards[1]);
        }
    };
    let merged = base.join("merged");
    let merge = |needle: &str| {
        rejects(
            &[
                "merge",
                shards[0].to_str().unwrap(),
                shards[1].to_str().unwrap(),
                "--out",
                merged.to_str().unwrap(),
            ],
            "",
            &[needle],
        );
    };
    edit(
        &|s| s["rows"][0]["tallies"]["a_hand_wins"] = 4900.into(),
        false,
    );
    merge("does not match the digest");
    edit(
        &|s| s["rows"][0]["tallies"]["a_hand_wins"] = 4900.into(),
        true,
    );
    merge("the hands won do not add up");
    edit(
        &|s| s["rows"][0]["covered"] = serde_json::json!([{"start": 0, "end": 20}]),
        true,
    );
    merge("not its slice");
    edit(&|s| s["rows"][0]["tallies"]["hands"] = 0.into(), true);
    merge("edited or damaged");
    std::fs::write(&path, &honest).unwrap();
    std::fs::write(&manifest, honest_manifest.replace(&digest, "")).unwrap();
    merge("records no digest of tallies.json");
    edit(
        &|s| s["rows"][0]["tallies"]["units"]["gins"]["x"] = 1000.into(),
        true,
    );
    merge("the per-unit figures do not add up to the totals");
    // A state file of format 1 (no version, no per-unit sums, no digest in
    // its manifest) is refused by merge and by --resume, asking for a new
    // run.
    let old_format = |s: &mut serde_json::Value| {
        let state = s.as_object_mut().unwrap();
        state.remove("version");
        for row in state["rows"].as_array_mut().unwrap() {
            row["tallies"].as_object_mut().unwrap().remove("units");
        }
    };
    let refusal = "tallies format 1 from an older ginlab; this one reads format 3";
    edit(&old_format, false);
    std::fs::write(&manifest, honest_manifest.replace(&digest, "")).unwrap();
    merge(refusal);
    merge("cannot be merged or resumed: run the job again");
    std::fs::rename(&path, shards[1].join("checkpoint.json")).unwrap();
    let output = match_into(&shards[1], &["--shard", "2/2", "--resume"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(refusal), "{stderr}");
    std::fs::remove_file(shards[1].join("checkpoint.json")).unwrap();
    std::fs::write(&path, &honest).unwrap();
    std::fs::write(&manifest, honest_manifest).unwrap();
    let output = ginlab()
        .args([
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
            "--out",
        ])
        .arg(&merged)
        .output()
        .unwrap();
    assert!(output.status.success());
}

#[test]
fn sprt_refuses_shards_with_the_reason() {
    let dir = out_dir("sprt-shard");
    rejects(
        &[
            "match",
            "greedy",
            "simple",
            "--hands",
            "100",
            "--sprt",
            "elo0=0,elo1=10",
            "--shard",
            "1/2",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
        &["whole sequence of deals"],
    );
}

#[test]
fn out_keeps_files_ginlab_did_not_write() {
    let dir = out_dir("users-files");
    std::fs::create_dir_all(&dir).unwrap();
    let mine = ["sweep.csv", "balance.csv", "hand_score-user.svg"];
    for name in mine {
        std::fs::write(dir.join(name), "mine").unwrap();
    }
    assert!(match_into(&dir, &[]).status.success());
    assert!(
        ginlab()
            .arg("chart")
            .arg(&dir)
            .output()
            .unwrap()
            .status
            .success()
    );
    // A second run of other rows removes the first run's charts only.
    let output = ginlab()
        .args(["match", "greedy", "random", "--hands", "10", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    for name in mine {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).unwrap(),
            "mine",
            "{name}"
        );
    }
    let names = file_names(&dir);
    assert!(names.contains(&"summary.csv".to_owned()));
    assert!(
        !names.contains(&"hand_score-standard-greedy-vs-simple.svg".to_owned()),
        "{names:?}"
    );
}
