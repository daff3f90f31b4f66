//! The rating list of a run with three or more players: `ratings.csv`,
//! `crosstable.csv`, `ratings.svg` and the terminal's table, the anchor
//! (spec key and `--anchor`), and shards merging to the same files.

use std::path::{Path, PathBuf};

use crate::cmd::{ginlab, succeeded};

/// A fresh scratch folder holding the spec `spec.toml` with `text`.
fn scratch(name: &str, text: &str) -> (crate::jobs::Scratch, PathBuf) {
    let dir = crate::jobs::fresh("ratings", name);
    let spec = dir.join("spec.toml");
    std::fs::write(&spec, text).unwrap();
    (dir, spec)
}

const ROUND_ROBIN: &str = r#"
seed = 3
games = 40
players = ["random", "simple", "greedy"]
pairing = "round_robin"
[[variant]]
name = "eaai"
"#;

/// Runs `args`, expecting exit 2, no stdout, and `needle` in stderr.
fn refused(args: &[&std::ffi::OsStr], needle: &str) {
    let output = ginlab().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(stderr.contains(needle), "{stderr:?} lacks {needle:?}");
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn a_round_robin_gets_a_rating_list_that_shards_reproduce() {
    let (dir, spec) = scratch("rr", ROUND_ROBIN);
    let whole = dir.join("whole");
    let output = ginlab()
        .args(["run", "--quiet", "--out"])
        .arg(&whole)
        .arg(&spec)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("ratings (Elo by maximum likelihood over all pairings, simple = 0"),
        "{stdout}"
    );
    let ratings = read(&whole, "ratings.csv");
    let mut lines = ratings.lines();
    assert_eq!(
        lines.next().unwrap(),
        "variant,rank,player,elo,elo_lo,elo_hi,hands,games,score,los_next,note"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3);
    // simple is the anchor by default: 0, and noted.
    let simple = rows.iter().find(|r| r[2] == "simple").unwrap();
    assert_eq!(&simple[3..6], ["0.0", "", ""]);
    assert_eq!(simple[10], "anchor");
    // Each player played two pairings of 40 games.
    assert!(rows.iter().all(|r| r[7] == "80"), "{ratings}");
    // random never scores against the built-ins: no number, a reason,
    // last in the list, and the same reason on the terminal.
    let random = rows.last().unwrap();
    assert_eq!(random[2], "random");
    assert_eq!(&random[3..6], ["", "", ""]);
    assert!(random[10].starts_with("unbounded below: scored no point"));
    assert!(
        stdout.contains("(unbounded below: scored no point"),
        "{stdout}"
    );
    let cross = read(&whole, "crosstable.csv");
    assert_eq!(
        cross.lines().next().unwrap(),
        "variant,player,random,simple,greedy"
    );
    assert!(cross.contains("\neaai,random,,0.0,0.0\n"), "{cross}");
    // The crosstable agrees with the summary: A's score is the games won.
    let summary = read(&whole, "summary.csv");
    let sg = summary
        .lines()
        .find(|l| l.starts_with("eaai,simple,greedy,"))
        .unwrap();
    let won: f64 = sg.split(',').nth(15).unwrap().parse().unwrap();
    let cell: f64 = cross
        .lines()
        .find(|l| l.starts_with("eaai,simple,"))
        .unwrap()
        .split(',')
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(won, cell);
    let svg = read(&whole, "ratings.svg");
    assert!(svg.starts_with("<svg") && svg.contains("simple = 0 (unbounded: random)"));

    // Two shards, merged: the same files.
    let shards: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("s{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        ginlab()
            .args([
                "run",
                "--quiet",
                "--shard",
                &format!("{}/2", k + 1),
                "--out",
            ])
            .arg(shard)
            .arg(&spec)
            .assert()
            .success();
    }
    let merged = dir.join("merged");
    let output = ginlab()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("ratings (Elo"));
    for name in [
        "ratings.csv",
        "crosstable.csv",
        "ratings.svg",
        "summary.csv",
    ] {
        assert_eq!(read(&whole, name), read(&merged, name), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_anchor_is_chosen_by_flag_or_key_and_checked() {
    let (dir, spec) = scratch("anchor", ROUND_ROBIN);
    let out = dir.join("out");
    ginlab()
        .args(["run", "--quiet", "--anchor", "greedy", "--out"])
        .arg(&out)
        .arg(&spec)
        .assert()
        .success();
    let by_flag = read(&out, "ratings.csv");
    let greedy = by_flag.lines().find(|l| l.contains(",greedy,")).unwrap();
    assert!(greedy.contains(",greedy,0.0,,,") && greedy.ends_with(",anchor"));
    // The spec's key says the same.
    let keyed = dir.join("keyed.toml");
    std::fs::write(&keyed, format!("anchor = \"greedy\"\n{ROUND_ROBIN}")).unwrap();
    let out2 = dir.join("out2");
    ginlab()
        .args(["run", "--quiet", "--out"])
        .arg(&out2)
        .arg(&keyed)
        .assert()
        .success();
    assert_eq!(by_flag, read(&out2, "ratings.csv"));
    // A name that is not a player, or a match of two: refused, nothing written.
    let none = dir.join("none");
    refused(
        &[
            "run".as_ref(),
            "--anchor".as_ref(),
            "nobody".as_ref(),
            "--out".as_ref(),
            none.as_os_str(),
            spec.as_os_str(),
        ],
        "anchor `nobody` is not one of the players: random, simple, greedy",
    );
    let two = dir.join("two.toml");
    std::fs::write(
        &two,
        "seed = 1\ngames = 4\nplayers = [\"simple\", \"greedy\"]\nanchor = \"simple\"\n",
    )
    .unwrap();
    refused(
        &[
            "run".as_ref(),
            "--out".as_ref(),
            none.as_os_str(),
            two.as_os_str(),
        ],
        "a rating list is made for three or more players, and this match has 2",
    );
    assert!(!none.exists());
    // Shards rated at different anchors are not one run.
    for (k, anchor) in [(1, "simple"), (2, "greedy")] {
        ginlab()
            .args(["run", "--quiet", "--anchor", anchor, "--shard"])
            .arg(format!("{k}/2"))
            .arg("--out")
            .arg(dir.join(format!("s{k}")))
            .arg(&spec)
            .assert()
            .success();
    }
    refused(
        &[
            "merge".as_ref(),
            dir.join("s1").as_os_str(),
            dir.join("s2").as_os_str(),
            "--out".as_ref(),
            none.as_os_str(),
        ],
        "rating anchor",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gauntlet_of_hands_is_rated_per_hand() {
    let (dir, spec) = scratch(
        "hands",
        "seed = 9\nhands = 200\nplayers = [\"greedy\", \"simple\", \"greedy:knock_at=3\"]\npairing = \"gauntlet\"\n",
    );
    let out = dir.join("out");
    let output = ginlab()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&spec)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let header = stdout
        .lines()
        .find(|l| l.starts_with("variant        rank"))
        .unwrap();
    assert!(
        header.contains(" hands ") && !header.contains("games"),
        "{header}"
    );
    let ratings = read(&out, "ratings.csv");
    // greedy met both; the others only greedy.
    for line in ratings.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let hands: u64 = cells[6].parse().unwrap();
        assert_eq!(cells[7], "0", "no games: {line}");
        let expected = if cells[2] == "greedy" { 400 } else { 200 };
        assert!(hands >= expected && hands <= expected + 2, "{line}");
        assert!(!cells[3].is_empty(), "rated: {line}");
    }
    let cross = read(&out, "crosstable.csv");
    assert!(cross.contains("\nstandard,simple,"), "{cross}");
    let simple = cross
        .lines()
        .find(|l| l.starts_with("standard,simple,"))
        .unwrap();
    assert!(
        simple.ends_with(','),
        "simple never met greedy:knock_at=3: {simple}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cells of a CSV `text`'s rows (no quoting in these files).
fn cells(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// Three players and partnerships get a rating list of their sides by
/// Luce's model: `400·log10(W_i / W_anchor)` over the games won, with an
/// interval over the deals, and a crosstable of `W_i / (W_i + W_j)`.
#[test]
fn tables_get_a_rating_list_of_their_sides() {
    let three = "seed = 2\ngames = 90\nformat = \"three\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n[[variant]]\nname = \"standard\"\n";
    let teams = "seed = 2\ngames = 40\nformat = \"partnership\"\nanchor = \"greedy+simple\"\nplayers = [\"greedy\", \"simple\", \"tracker\", \"greedy:knock_at=9\"]\n[[variant]]\nname = \"standard\"\n";
    for (name, text, anchor, sides) in [
        ("three", three, "simple", 3),
        ("teams", teams, "greedy+simple", 2),
    ] {
        let (dir, spec) = scratch(&format!("table-{name}"), text);
        let out = dir.join("out");
        let output = ginlab()
            .args([
                "run".as_ref(),
                spec.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        succeeded(&output);
        assert!(
            stdout.contains(&format!(
                "ratings (Elo by maximum likelihood of Luce's model over the games won at the table, {anchor} = 0, 95 % intervals over the deals)"
            )),
            "{stdout}"
        );
        let wins: Vec<(String, f64)> = cells(&read(&out, "summary.csv"))
            .iter()
            .map(|r| (r[2].clone(), r[4].parse().unwrap()))
            .collect();
        let won = |side: &str| wins.iter().find(|(s, _)| s == side).unwrap().1;
        let ratings = cells(&read(&out, "ratings.csv"));
        assert_eq!(ratings.len(), sides, "{ratings:?}");
        for r in &ratings {
            if won(&r[2]) == 0.0 {
                // random wins no game against these.
                assert!(
                    r[3].is_empty() && r[10].starts_with("unbounded below"),
                    "{r:?}"
                );
                continue;
            }
            let elo: f64 = r[3].parse().unwrap();
            let expected = 400.0 * (won(&r[2]) / won(anchor)).log10();
            assert!((elo - expected).abs() < 1e-5, "{r:?}: {expected}");
            if r[2] == anchor {
                assert_eq!(r[10], "anchor");
            } else {
                let (lo, hi): (f64, f64) = (r[4].parse().unwrap(), r[5].parse().unwrap());
                assert!(lo < elo && elo < hi, "{r:?}");
            }
        }
        let cross = cells(&read(&out, "crosstable.csv"));
        let names: Vec<&String> = wins.iter().map(|(s, _)| s).collect();
        for row in &cross {
            for (j, cell) in row[2..].iter().enumerate() {
                if *names[j] == row[1] {
                    assert!(cell.is_empty());
                } else {
                    let share = won(&row[1]) / (won(&row[1]) + won(names[j]));
                    assert!(
                        (cell.parse::<f64>().unwrap() - share).abs() < 1e-6,
                        "{row:?}"
                    );
                }
            }
        }
        assert!(out.join("ratings.svg").is_file());
    }
    // The anchor is a side: a team by its `A+B` name.
    let (_dir, spec) = scratch("table-anchor", teams);
    refused(
        &[
            "run".as_ref(),
            spec.as_os_str(),
            "--anchor".as_ref(),
            "random".as_ref(),
        ],
        "anchor `random` is not one of the teams (a partnership's list rates teams): greedy+simple, tracker+greedy:knock_at=9",
    );
}
