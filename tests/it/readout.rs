//! What a tester reads while and after a run: `--status N` lines and the
//! `--json` report, which must say what the CSV files say.

use std::path::Path;

use crate::cmd::ginlab;
use serde_json::Value;

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::scratch("readout", name)
}

/// Holds every row of the CSV file `path` to the JSON rows `rows`: the same
/// keys, and the same values (an empty cell is null,
/// numbers compared as numbers).
fn same_rows(path: &Path, rows: &Value) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = rows.as_array().unwrap();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), rows.len(), "{}", path.display());
    for (record, row) in records.iter().zip(rows) {
        let object = row.as_object().unwrap();
        // (serde_json's map sorts its keys: compare them as sets.)
        let mut columns: Vec<&String> = header.iter().collect();
        columns.sort();
        assert_eq!(object.keys().collect::<Vec<_>>(), columns);
        for (cell, key) in record.iter().zip(&header) {
            let value = &object[key];
            let same = match value {
                Value::Null => cell.is_empty(),
                Value::Number(n) => cell.parse::<f64>().ok() == n.as_f64(),
                Value::String(s) => cell == s,
                Value::Bool(b) => cell == b.to_string(),
                _ => false,
            };
            assert!(same, "{key}: CSV {cell:?}, JSON {value}");
        }
    }
}

fn json(stdout: &[u8]) -> Value {
    let text = std::str::from_utf8(stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    serde_json::from_str(text).unwrap()
}

#[test]
fn json_is_the_csv_rows() {
    let dir = scratch("json");
    let out = ginlab()
        .args([
            "match",
            "greedy",
            "simple",
            "--games",
            "40",
            "--seed",
            "4",
            "--quiet",
            "--json",
            "--sprt",
            "elo0=0,elo1=10",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let report = json(&out.stdout);
    same_rows(&dir.join("summary.csv"), &report["summary"]);
    assert_eq!(report["sprt"]["decision"], "undecided");
    assert_eq!(report["sprt"]["units"], 20);
    assert!(report.get("ratings").is_none());

    // A round robin adds its rating list.
    let spec = scratch("json-spec.toml");
    std::fs::write(
        &spec,
        "seed = 2\ngames = 20\nplayers = [\"random\", \"simple\", \"greedy\"]\npairing = \"round_robin\"\n",
    )
    .unwrap();
    let rr = scratch("json-rr");
    let out = ginlab()
        .args(["run", "--quiet", "--json", "--out"])
        .arg(&rr)
        .arg(&spec)
        .output()
        .unwrap();
    assert!(out.status.success());
    let report = json(&out.stdout);
    same_rows(&rr.join("summary.csv"), &report["summary"]);
    same_rows(&rr.join("ratings.csv"), &report["ratings"]);

    // A sweep: its table.
    let sweep = scratch("json-sweep");
    let out = ginlab()
        .args([
            "sweep", "greedy", "--param", "knock_at", "--values", "3,6", "--vs", "simple",
            "--hands", "40", "--quiet", "--json", "--out",
        ])
        .arg(&sweep)
        .output()
        .unwrap();
    assert!(out.status.success());
    same_rows(&sweep.join("sweep.csv"), &json(&out.stdout)["sweep"]);

    // With the records on standard output there is no room for it.
    let out = ginlab()
        .args([
            "match", "greedy", "simple", "--games", "2", "--json", "--record", "-",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json with --record -"));
    for d in [dir, rr, sweep] {
        std::fs::remove_dir_all(d).unwrap();
    }
    std::fs::remove_file(spec).unwrap();
}

#[test]
fn status_lines_come_every_n_games_and_change_nothing() {
    let args = [
        "match", "greedy", "simple", "--games", "400", "--seed", "8", "--quiet",
    ];
    let plain = ginlab().args(args).output().unwrap();
    let status = ginlab()
        .args(args)
        .args(["--status", "100"])
        .output()
        .unwrap();
    assert!(plain.status.success() && status.status.success());
    let strip = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| !l.contains(" in ") || !l.contains("/s"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    // The report is the same (its timing line aside).
    assert_eq!(strip(&plain.stdout), strip(&status.stdout));
    let stderr = String::from_utf8(status.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    for (k, line) in lines.iter().enumerate() {
        assert!(
            line.starts_with(&format!(
                "standard greedy v simple: {} games ",
                100 * (k + 1)
            )),
            "{line}"
        );
        assert!(
            line.contains(", Elo ") && line.contains(", pairs "),
            "{line}"
        );
    }
    // The last line's counts are the report's.
    let report = String::from_utf8(status.stdout).unwrap();
    let elo = report
        .lines()
        .find_map(|l| l.strip_prefix("A Elo         "))
        .unwrap();
    let elo = elo.split(" (").next().unwrap();
    assert!(
        lines[3].contains(&format!("Elo {elo}")),
        "{} vs {elo}",
        lines[3]
    );
    // Hands mode counts hands, with voids and ties as draws.
    let hands = ginlab()
        .args([
            "match",
            "greedy",
            "simple",
            "--hands",
            "60",
            "--seed",
            "8",
            "--quiet",
            "--status",
            "30",
            "--no-duplicate",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(hands.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(
        stderr.contains(": 60 hands ") && stderr.contains(", units "),
        "{stderr}"
    );
}

#[test]
fn a_sweep_shows_the_objective_asked_for() {
    let sweep = |extra: &[&str], amount: &[&str]| {
        let dir = scratch(&format!("objective-{}", extra.join("-")));
        let out = ginlab()
            .args([
                "sweep", "greedy", "--param", "knock_at", "--values", "2,8", "--vs", "simple",
                "--seed", "3", "--quiet", "--out",
            ])
            .arg(&dir)
            .args(amount)
            .args(extra)
            .output()
            .unwrap();
        let svg = std::fs::read_to_string(dir.join("sweep.svg")).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        (out, svg)
    };
    // Playing hands, the default is the points per hand, not the hands won
    // (knocking early wins hands and loses points).
    let (out, svg) = sweep(&[], &["--hands", "200"]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.lines().next().unwrap().contains("A points/hand"),
        "{table}"
    );
    assert!(svg.contains("greedy's net points per hand"), "{svg}");
    let (_, svg) = sweep(&["--objective", "hands"], &["--hands", "200"]);
    assert!(svg.contains("share of hands won by greedy"), "{svg}");
    // Playing games, the default stays the share of games won.
    let (out, svg) = sweep(&[], &["--games", "20"]);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("games won %")
    );
    assert!(svg.contains("share of games won by greedy"));
    let (_, svg) = sweep(&["--objective", "elo"], &["--games", "20"]);
    assert!(svg.contains("greedy's Elo per game"), "{svg}");
    // Games won cannot be read from hands; a misspelt objective is refused.
    let (out, _) = sweep(&["--objective", "games"], &["--hands", "20"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("this sweep plays hands"));
    let (out, _) = sweep(&["--objective", "point"], &["--hands", "20"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("games, hands, points or elo"));
}

#[test]
fn balance_reads_from_the_dealers_side() {
    let dir = scratch("balance");
    let out = ginlab()
        .args([
            "balance", "greedy", "--hands", "3000", "--seed", "6", "--rules", "standard",
            "--rules", "oklahoma", "--quiet", "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("dealer edge pts/hand") && table.contains("gin% D/ND"));
    let mut reader = csv::Reader::from_path(dir.join("balance.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |row: &csv::StringRecord, name: &str| -> f64 {
        let i = header.iter().position(|h| h == name).unwrap();
        row[i].parse().unwrap()
    };
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        // The seats' shares add up to the totals; the edge is the difference.
        let sum = |a: &str, b: &str| col(row, a) + col(row, b);
        assert!(
            (sum("dealer_gin_rate", "non_dealer_gin_rate") - col(row, "gin_rate")).abs() < 2e-6
        );
        assert!(
            (sum("dealer_undercut_rate", "non_dealer_undercut_rate") - col(row, "undercut_rate"))
                .abs()
                < 2e-6
        );
        let edge = col(row, "dealer_points_per_hand") - col(row, "non_dealer_points_per_hand");
        assert!((edge - col(row, "dealer_edge_per_hand")).abs() < 2e-6);
        for name in [
            "dealer_points_per_hand",
            "dealer_edge_per_hand",
            "dealer_gin_rate",
        ] {
            let (x, lo, hi) = (
                col(row, name),
                col(row, &name.replace("rate", "lo").replace("hand", "hand_lo")),
                col(row, &name.replace("rate", "hi").replace("hand", "hand_hi")),
            );
            assert!(lo < x && x < hi, "{name}: {lo} {x} {hi}");
        }
    }
    // The dealer's side, checked against the non-dealer's wins counted
    // apart: the dealer's histogram has that many losses, the rest wins.
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tallies.json")).unwrap()).unwrap();
    for row in state["rows"].as_array().unwrap() {
        let t = &row["tallies"];
        let (mut lost, mut won) = (0, 0);
        for (score, count) in t["dealer_hand_score"].as_object().unwrap() {
            let score: i64 = score.parse().unwrap();
            let count = count.as_u64().unwrap();
            if score < 0 {
                lost += count;
            } else if score > 0 {
                won += count;
            }
        }
        let decided = t["a_hand_wins"].as_u64().unwrap() + t["b_hand_wins"].as_u64().unwrap();
        assert_eq!(lost, t["non_dealer_wins"].as_u64().unwrap());
        assert_eq!(won + lost, decided);
    }
    let svg = std::fs::read_to_string(dir.join("balance.svg")).unwrap();
    assert!(svg.contains(">dealer<") && svg.contains(">non-dealer<") && svg.contains(">oklahoma<"));
    // Every row's histogram is made on demand, from the folder's tallies.
    assert!(
        !dir.join("hand_score-standard-greedy-vs-greedy.svg")
            .exists()
    );
    assert!(
        ginlab()
            .arg("chart")
            .arg(&dir)
            .output()
            .unwrap()
            .status
            .success()
    );
    let hist =
        std::fs::read_to_string(dir.join("hand_score-standard-greedy-vs-greedy.svg")).unwrap();
    assert!(hist.contains("from the dealer's side") && !hist.contains("A's side"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_decided_sprt_reports_the_unit_it_decided_at() {
    // greedy-gin is far stronger than simple under eaai: the test crosses
    // its upper bound at pair 121, inside the block of deals 64..128, which
    // is played to its end. The status line, the JSON and the last line
    // all give the LLR and unit of the decision; the figures are over all
    // 256 games played.
    let sprt = |extra: &[&str]| {
        let args = "match greedy-gin simple --games 200000 --seed 1 --rules eaai --quiet";
        ginlab()
            .args(args.split(' '))
            .args(["--sprt", "elo0=0,elo1=10", "--status", "100"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = sprt(&["--json"]);
    assert!(out.status.success());
    let report = json(&out.stdout);
    assert_eq!(report["sprt"]["decision"], "h1");
    assert_eq!(report["sprt"]["units"], 121);
    assert_eq!(report["sprt"]["llr"], 2.950317);
    assert_eq!(report["summary"][0]["games"], 256);
    // One line per block (64 deals, then 64 more): undecided, then decided.
    let status = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = status.lines().collect();
    assert_eq!(lines.len(), 2, "{status}");
    assert!(
        lines[0].starts_with("eaai greedy-gin v simple: 128 games 84-44, Elo +")
            && lines[0].ends_with(", LLR +1.25 (-2.94, 2.94), pairs 7 0 30 0 27"),
        "{status}"
    );
    assert!(
        lines[1].starts_with("eaai greedy-gin v simple: 256 games 172-84, Elo +")
            && lines[1]
                .ends_with(", LLR +2.95 (-2.94, 2.94) H1 after 121 pairs, pairs 9 0 66 0 53"),
        "{status}"
    );
    let text = String::from_utf8(sprt(&[]).stdout).unwrap();
    assert!(
        text.contains(
            "LLR 2.95 after 121 units (stops below -2.94 or above 2.94): H1 accepted: A is at least 10 Elo stronger\n              the figures above are over all 128 units played: the block of deals the test decided in was played to its end\n"
        ),
        "{text}"
    );
}
