//! `ginlab compare`: two records of the same deals with one player changed,
//! compared game by game. Its figures are checked against the records
//! read here (per-deal differences, their t interval), and every way two
//! files can fail to be a pair is refused with exit code 2.

use std::path::Path;

use crate::cmd::{ginlab, json_lines, succeeds};
use serde_json::Value;

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("compare", name)
}

/// `ginlab match` with `args` and `--record file -q`.
fn record(file: &Path, args: &[&str]) {
    succeeds(
        ginlab()
            .arg("match")
            .args(args)
            .arg("--record")
            .arg(file)
            .arg("-q"),
    );
}

/// `ginlab compare base arm --json`.
fn compare(base: &Path, arm: &Path) -> Value {
    let out = succeeds(ginlab().arg("compare").arg(base).arg(arm).arg("--json"));
    serde_json::from_str(out.trim()).unwrap()
}

/// `ginlab compare` with `args`: (exit code, standard error).
fn refused(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let output = ginlab().arg("compare").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The match's first player's half points in each game of a record (2
/// won, 0 lost), summed by deal.
fn by_deal(file: &Path) -> Vec<f64> {
    let mut deals: Vec<f64> = Vec::new();
    for game in json_lines(file) {
        let first = if game["swapped"] == true { "B" } else { "A" };
        let won = game["end"]["winner"] == first;
        let deal = game["deal"].as_u64().unwrap() as usize;
        if deals.len() <= deal {
            deals.resize(deal + 1, 0.0);
        }
        deals[deal] += if won { 2.0 } else { 0.0 };
    }
    deals
}

#[test]
fn the_difference_is_the_mean_of_the_deals_with_its_t_interval() {
    let dir = scratch("figures");
    let (base, arm) = (dir.join("base.jsonl"), dir.join("arm.jsonl"));
    let common = ["simple", "--rules", "eaai", "--games", "120", "--seed", "3"];
    record(&base, &[&["greedy"][..], &common].concat());
    record(&arm, &[&["greedy:knock_at=5"][..], &common].concat());
    let got = compare(&base, &arm);
    assert_eq!(got["mode"], "games");
    assert_eq!(got["base_player"], "greedy");
    assert_eq!(got["arm_player"], "greedy:knock_at=5");
    assert_eq!(got["all"], Value::Null, "one row: nothing to pool");
    let row = &got["rows"][0];
    assert_eq!(
        (row["variant"].as_str(), row["opponent"].as_str()),
        (Some("eaai"), Some("simple"))
    );
    assert_eq!(
        (row["deals"].as_u64(), row["games"].as_u64()),
        (Some(60), Some(120))
    );
    // Each deal's two games are 4 half points at most: its score over 4.
    let (b, a) = (by_deal(&base), by_deal(&arm));
    let rate = |d: &[f64]| d.iter().sum::<f64>() / (4.0 * d.len() as f64);
    assert!((row["base"].as_f64().unwrap() - rate(&b)).abs() < 1e-12);
    assert!((row["arm"].as_f64().unwrap() - rate(&a)).abs() < 1e-12);
    let diffs: Vec<f64> = a.iter().zip(&b).map(|(a, b)| (a - b) / 4.0).collect();
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let half = ginlab::stats::t_quantile(0.975, 59) * sd / n.sqrt();
    assert!((row["difference"].as_f64().unwrap() - mean).abs() < 1e-12);
    assert!(
        (row["lo"].as_f64().unwrap() - (mean - half)).abs() < 1e-9,
        "{row}"
    );
    assert!(
        (row["hi"].as_f64().unwrap() - (mean + half)).abs() < 1e-9,
        "{row}"
    );
    assert!(half > 0.01, "the players differ on some deals: {half}");
    // A record against itself: no difference and no spread.
    let same = compare(&base, &base);
    let row = &same["rows"][0];
    assert_eq!(
        (
            row["difference"].as_f64(),
            row["lo"].as_f64(),
            row["hi"].as_f64()
        ),
        (Some(0.0), Some(0.0), Some(0.0))
    );
    // The table says the same.
    let table = succeeds(ginlab().arg("compare").arg(&base).arg(&arm));
    assert!(
        table.starts_with("base greedy\narm  greedy:knock_at=5\ngames won"),
        "{table}"
    );
    assert!(
        table.contains("eaai against simple  60 deals (120 games)"),
        "{table}"
    );
}

#[test]
fn hands_and_several_rows_are_compared_row_by_row_and_pooled() {
    let dir = scratch("rows");
    let write = |players: &str| {
        format!(
            "seed = 8\nhands = 300\nplayers = [{players}]\npairing = \"gauntlet\"\n\n\
             [[variant]]\nname = \"standard\"\n\n[[variant]]\nname = \"eaai\"\n"
        )
    };
    let mut files = Vec::new();
    for (name, first) in [("base", "\"greedy\""), ("arm", "\"tracker\"")] {
        let spec_file = dir.join(format!("{name}.toml"));
        std::fs::write(
            &spec_file,
            write(&format!("{first}, \"simple\", \"random\"")),
        )
        .unwrap();
        let file = dir.join(format!("{name}.jsonl"));
        succeeds(
            ginlab()
                .arg("run")
                .arg(&spec_file)
                .arg("--out")
                .arg(dir.join(name))
                .arg("--record")
                .arg(&file)
                .arg("-q"),
        );
        files.push(file);
    }
    let got = compare(&files[0], &files[1]);
    assert_eq!(got["mode"], "hands");
    let rows = got["rows"].as_array().unwrap();
    let names: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["variant"].to_string(), r["opponent"].to_string()))
        .collect();
    assert_eq!(rows.len(), 4, "{names:?}");
    let pooled = &got["all"];
    let deals: u64 = rows.iter().map(|r| r["deals"].as_u64().unwrap()).sum();
    assert_eq!(pooled["deals"].as_u64(), Some(deals));
    assert_eq!(deals, 4 * 150);
    // The pooled rates weigh each row by its deals (all equal here).
    let mean = |key: &str| rows.iter().map(|r| r[key].as_f64().unwrap()).sum::<f64>() / 4.0;
    for key in ["base", "arm", "difference"] {
        assert!(
            (pooled[key].as_f64().unwrap() - mean(key)).abs() < 1e-12,
            "{key}"
        );
    }
}

#[test]
fn files_that_are_not_a_pair_are_refused() {
    let dir = scratch("refused");
    let path = |name: &str| dir.join(name);
    let common = ["--games", "6", "--rules", "eaai"];
    record(
        &path("base"),
        &[&["greedy", "simple", "--seed", "1"][..], &common].concat(),
    );
    record(
        &path("seed"),
        &[&["greedy", "simple", "--seed", "2"][..], &common].concat(),
    );
    record(
        &path("opponent"),
        &[&["greedy", "random", "--seed", "1"][..], &common].concat(),
    );
    record(
        &path("longer"),
        &[
            "greedy", "simple", "--seed", "1", "--games", "8", "--rules", "eaai",
        ],
    );
    record(
        &path("hands"),
        &[
            "greedy", "simple", "--seed", "1", "--hands", "6", "--rules", "eaai",
        ],
    );
    record(
        &path("three"),
        &["greedy", "simple", "random", "--seed", "1", "--games", "3"],
    );
    let text = std::fs::read_to_string(path("base")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{not json";
    std::fs::write(path("broken"), lines.join("\n") + "\n").unwrap();
    std::fs::write(path("binary"), b"\xff\xfe{}\n").unwrap();
    let cases: [(&str, &str); 8] = [
        ("binary", "line 1: not UTF-8 text"),
        ("seed", "the seed is 1 in the first but 2 in the second"),
        (
            "opponent",
            "the opponent is simple in the first but random in the second",
        ),
        ("longer", "ends after 6 lines but"),
        (
            "hands",
            "the mode is games in the first but hands in the second",
        ),
        ("three", "three-player or partnership game"),
        ("broken", "line 3"),
        ("missing", "reading record file"),
    ];
    for (name, says) in cases {
        let (code, stderr) = refused(&[path("base").as_os_str(), path(name).as_os_str()]);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
    }
    let empty = path("empty");
    std::fs::write(&empty, "").unwrap();
    let (code, stderr) = refused(&[empty.as_os_str(), empty.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no game records"), "{stderr}");
}
