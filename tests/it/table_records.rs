//! Game records of three-player and partnership games (`--record` with
//! `match A B C`, `match --teams`, and `run` with a `format`): they replay
//! through the engine's own game flow, agree with the run's results, do
//! not depend on the thread count, and a tampered record is rejected with
//! exit code 2 and a message naming the line and the fault.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::cmd::{ginlab, json_lines};
use serde_json::Value;

/// A fresh folder for one test's files.
fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("table-records", name)
}

/// Runs ginlab with `args`, which must succeed; its standard output.
fn ok(dir: &Path, args: &[&str]) -> String {
    let output = ginlab().current_dir(dir).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// `ginlab replay` with `args`: (exit code, stdout, stderr).
fn replay(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = ginlab()
        .current_dir(dir)
        .arg("replay")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

const THREE: [&str; 3] = ["greedy", "simple", "random"];
const TEAMS: [&str; 4] = ["--teams", "greedy,simple", "--vs", "random,greedy"];

/// Per side of the summary (a player, or a team `A+B`): games, wins,
/// summed final score, hands played, hands won, as the records say.
fn sides_of(records: &[Value]) -> BTreeMap<String, [u64; 5]> {
    let mut sides: BTreeMap<String, [u64; 5]> = BTreeMap::new();
    for record in records {
        let names: Vec<String> = record["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect();
        let end = &record["end"];
        assert_eq!(end["type"], "game_end", "{end}");
        // A seat's side: the player (three), or its team named as the
        // row names it (partnership: the team's names in row order).
        let side = |seat: usize| -> String {
            if record["format"] == "three" {
                return names[seat].clone();
            }
            let team: BTreeSet<&str> = [&names[seat % 2], &names[seat % 2 + 2]]
                .into_iter()
                .map(String::as_str)
                .collect();
            ["greedy+simple", "random+greedy#2"]
                .into_iter()
                .find(|t| t.split('+').collect::<BTreeSet<_>>() == team)
                .unwrap_or_else(|| panic!("no team of {team:?}"))
                .to_owned()
        };
        let three = record["format"] == "three";
        let scores = if three {
            &end["final_scores"]
        } else {
            &end["team_points"]
        };
        let winner = if three {
            end["winner"].as_u64().unwrap() as usize
        } else {
            end["winning_team"].as_u64().unwrap() as usize
        };
        let sides_here: Vec<usize> = if three { vec![0, 1, 2] } else { vec![0, 1] };
        for s in sides_here {
            let t = sides.entry(side(s)).or_default();
            t[0] += 1;
            t[1] += u64::from(s == winner);
            t[2] += scores[s].as_u64().unwrap();
        }
        for hand in record["hands"].as_array().unwrap() {
            for (letter, seat) in [("A", &hand["seats"]["A"]), ("B", &hand["seats"]["B"])] {
                let t = sides
                    .entry(side(seat.as_u64().unwrap() as usize))
                    .or_default();
                t[3] += 1;
                t[4] += u64::from(hand["end"]["winner"] == letter);
            }
        }
    }
    sides
}

/// The same figures from `--json`'s summary.
fn sides_of_summary(json: &str) -> BTreeMap<String, [u64; 5]> {
    let value: Value = serde_json::from_str(json).unwrap();
    value["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let games = row["games"].as_u64().unwrap();
            let score = (row["score_per_game"].as_f64().unwrap() * games as f64).round() as u64;
            (
                row["side"].as_str().unwrap().to_owned(),
                [
                    games,
                    row["wins"].as_u64().unwrap(),
                    score,
                    row["hands"].as_u64().unwrap(),
                    row["hands_won"].as_u64().unwrap(),
                ],
            )
        })
        .collect()
}

#[test]
fn table_records_replay_and_agree_with_the_results() {
    let dir = scratch("agree");
    let cases: [(&str, Vec<&str>, usize); 2] = [
        ("three", THREE.to_vec(), 3),
        ("partnership", TEAMS.to_vec(), 4),
    ];
    for (format, players, seats) in cases {
        let file = format!("{format}.jsonl");
        let args = [
            &["match"][..],
            &players,
            &["--games", "12", "--seed", "5", "--json", "-q"],
            &["--record", &file],
        ]
        .concat();
        let json = ok(&dir, &args);
        let records = json_lines(&dir.join(&file));
        assert_eq!(records.len(), 12, "{format}");
        for (k, record) in records.iter().enumerate() {
            assert_eq!(record["format"], format);
            assert_eq!(record["ginlab_record"], 1);
            assert_eq!(record["players"].as_array().unwrap().len(), seats);
            // Rotation on: every deal played once per seat.
            assert_eq!(record["deal"], (k / seats) as u64);
            assert_eq!(record["rotation"], (k % seats) as u64);
            assert!(record.get("swapped").is_none() && record.get("mode").is_none());
        }
        assert_eq!(sides_of(&records), sides_of_summary(&json), "{format}");
        let (code, out, err) = replay(&dir, &[&file]);
        assert_eq!(code, Some(0), "{format}: {err}");
        assert!(
            out.ends_with(&format!(
                "replayed 12 games ({} hands) of {file}: every result matches the record\n",
                records
                    .iter()
                    .map(|r| r["hands"].as_array().unwrap().len())
                    .sum::<usize>()
            )),
            "{out}"
        );
        assert!(out.contains("game over: "), "{out}");
        let (code, out, err) = replay(&dir, &[&file, "--game", "5"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.starts_with(&format!("game 5 · {format} · deal 1 rotation ")));
    }
}

#[test]
fn table_records_do_not_depend_on_threads_or_the_folder() {
    let dir = scratch("threads");
    let spec = "seed = 9\ngames = 8\nformat = \"partnership\"\nplayers = [\"greedy\", \"simple\", \"random\", \"greedy\"]\n\n[[variant]]\nname = \"standard\"\n\n[[variant]]\nname = \"hoyle\"\n";
    std::fs::write(dir.join("p.toml"), spec).unwrap();
    let three = [
        &["match"][..],
        &THREE,
        &["--games", "9", "--seed", "2", "-q"],
    ]
    .concat();
    let teams = [
        &["match"][..],
        &TEAMS,
        &["--games", "8", "--seed", "2", "-q"],
    ]
    .concat();
    let run = ["run", "p.toml", "-q"];
    for (name, args) in [("three", &three[..]), ("teams", &teams), ("run", &run)] {
        let mut files = Vec::new();
        for (k, extra) in [
            &["--threads", "1"][..],
            &["--threads", "2"],
            &["--threads", "2", "--out", "o"],
        ]
        .iter()
        .enumerate()
        {
            let file = format!("{name}-{k}.jsonl");
            let _ = std::fs::remove_dir_all(dir.join("o"));
            ok(&dir, &[args, extra, &["--record", &file]].concat());
            files.push(std::fs::read(dir.join(&file)).unwrap());
        }
        assert!(!files[0].is_empty());
        assert!(files.iter().all(|f| *f == files[0]), "{name}");
        let (code, _, err) = replay(&dir, &[&format!("{name}-0.jsonl"), "--check"]);
        assert_eq!(code, Some(0), "{name}: {err}");
    }
    // The run's rows one after the other: both variants, each from deal 0.
    let variants: Vec<String> = json_lines(&dir.join("run-0.jsonl"))
        .iter()
        .map(|r| r["variant"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(variants.len(), 16);
    assert!(variants[..8].iter().all(|v| v == "standard"));
    assert!(variants[8..].iter().all(|v| v == "hoyle"));
}

/// Writes `records` (edited) as a file and replays it: exit code 2, no
/// summary line, and a message naming the file and the line.
fn refused(dir: &Path, records: &[Value], line: usize, message: &str) {
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join("edited.jsonl"), text).unwrap();
    let (code, out, err) = replay(dir, &["edited.jsonl", "--check"]);
    assert_eq!(code, Some(2), "{message}: {err}");
    assert!(!out.contains("every result matches"), "{out}");
    assert!(
        err.contains(&format!("edited.jsonl line {line}: ")) && err.contains(message),
        "expected line {line}: {message}\ngot: {err}"
    );
}

/// The first hand of `record` whose actions include a discard, and that
/// action's index.
fn a_discard(record: &Value) -> (usize, usize) {
    for (h, hand) in record["hands"].as_array().unwrap().iter().enumerate() {
        for (a, action) in hand["actions"].as_array().unwrap().iter().enumerate() {
            if action[1].as_str().unwrap().starts_with("discard ") {
                return (h, a);
            }
        }
    }
    panic!("no discard in {record}")
}

#[test]
fn tampered_table_records_fail_with_the_line() {
    let dir = scratch("tampered");
    ok(
        &dir,
        &[
            &["match"][..],
            &THREE,
            &[
                "--games",
                "6",
                "--seed",
                "4",
                "-q",
                "--record",
                "three.jsonl",
            ],
        ]
        .concat(),
    );
    ok(
        &dir,
        &[
            &["match"][..],
            &TEAMS,
            &[
                "--games",
                "4",
                "--seed",
                "4",
                "-q",
                "--record",
                "teams.jsonl",
            ],
        ]
        .concat(),
    );
    for name in ["three.jsonl", "teams.jsonl"] {
        let good = json_lines(&dir.join(name));
        let edit = |line: usize, change: &dyn Fn(&mut Value)| {
            let mut records = good.clone();
            change(&mut records[line - 1]);
            records
        };
        // An action changed: a discard of another card of the hand (the
        // card discarded two actions later is held then, so the move is
        // legal text but not the one played: the replay differs or breaks).
        let (h, a) = a_discard(&good[1]);
        let changed = edit(2, &|r| {
            r["hands"][h]["actions"][a][1] = Value::from("discard XX");
        });
        refused(
            &dir,
            &changed,
            2,
            &format!("hand {}: action {} (`", h + 1, a + 1),
        );
        let changed = edit(2, &|r| {
            let actions = r["hands"][h]["actions"].as_array_mut().unwrap();
            actions.truncate(a);
        });
        refused(&dir, &changed, 2, &format!("hand {}: ", h + 1));
        // A hand's points changed.
        let changed = edit(3, &|r| {
            let end = &mut r["hands"][0]["end"];
            if !end["points"].is_null() {
                end["points"] = Value::from(end["points"].as_u64().unwrap() + 1);
            } else {
                end["result"] = Value::from("knock");
            }
        });
        refused(&dir, &changed, 3, "hand 1: the result differs: ");
        // A hand's scores changed.
        let changed = edit(1, &|r| {
            let scores = &mut r["hands"][0]["end"]["scores"];
            scores["A"] = Value::from(scores["A"].as_u64().unwrap() + 5);
        });
        refused(&dir, &changed, 1, "hand 1: the result differs: `scores` is");
        // The game's result changed.
        let key = if name == "three.jsonl" {
            "final_scores"
        } else {
            "team_points"
        };
        let changed = edit(2, &|r| {
            r["end"][key][0] = Value::from(r["end"][key][0].as_u64().unwrap() + 1);
        });
        refused(
            &dir,
            &changed,
            2,
            &format!("the game result differs: `{key}` is"),
        );
        // Another dealer, other seats, another deck.
        let changed = edit(1, &|r| {
            let d = r["hands"][1]["dealer"].as_u64().unwrap();
            r["hands"][1]["dealer"] = Value::from((d + 1) % 3);
        });
        refused(&dir, &changed, 1, "hand 2: `dealer` is player");
        let changed = edit(1, &|r| {
            let seats = r["hands"][0]["seats"].clone();
            r["hands"][0]["seats"]["A"] = seats["B"].clone();
            r["hands"][0]["seats"]["B"] = seats["A"].clone();
        });
        refused(&dir, &changed, 1, "hand 1: `seats` are");
        let changed = edit(2, &|r| {
            let deck = r["hands"][0]["deck"].as_str().unwrap().to_owned();
            let mut cards: Vec<&str> = deck.split(' ').collect();
            cards.swap(50, 51);
            r["hands"][0]["deck"] = Value::from(cards.join(" "));
        });
        refused(
            &dir,
            &changed,
            2,
            "hand 1: the deck is not the one dealt for deal ",
        );
        // A hand removed at the end, or one added after the game was won.
        let changed = edit(1, &|r| {
            r["hands"].as_array_mut().unwrap().pop();
        });
        refused(&dir, &changed, 1, "but the game goes on");
        let changed = edit(1, &|r| {
            let first = r["hands"][0].clone();
            r["hands"].as_array_mut().unwrap().push(first);
        });
        refused(&dir, &changed, 1, "but the record goes on");
        // Lines out of order, or missing.
        let mut swapped = good.clone();
        swapped.swap(1, 2);
        refused(
            &dir,
            &swapped,
            2,
            "lines are missing, repeated or out of order",
        );
        let mut missing = good.clone();
        missing.pop();
        let text: String = missing.iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(dir.join("short.jsonl"), text).unwrap();
        let (code, _, err) = replay(&dir, &["short.jsonl", "--check"]);
        assert_eq!(code, Some(2), "{err}");
        let ends = format!("ends on line {} with deal", good.len() - 1);
        assert!(
            err.contains("short.jsonl: the row of ")
                && err.contains(&ends)
                && err.contains("without the deal's other rotations"),
            "{err}"
        );
        // A relabelled format.
        let changed = edit(1, &|r| {
            r["format"] = Value::from(if name == "three.jsonl" {
                "partnership"
            } else {
                "three"
            });
        });
        refused(&dir, &changed, 1, "`players` names ");
        // Fields missing or of the wrong kind.
        let changed = edit(1, &|r| {
            r["hands"][0].as_object_mut().unwrap().remove("seats");
        });
        refused(
            &dir,
            &changed,
            1,
            "not a game record: missing field `seats`",
        );
        let changed = edit(1, &|r| r["format"] = Value::from("four"));
        refused(
            &dir,
            &changed,
            1,
            "not a game record: unknown variant `four`",
        );
    }
    // The untouched files replay.
    for name in ["three.jsonl", "teams.jsonl"] {
        let (code, _, err) = replay(&dir, &[name, "--check"]);
        assert_eq!(code, Some(0), "{name}: {err}");
    }
}

#[test]
fn a_file_holds_one_format() {
    let dir = scratch("mixed");
    ok(
        &dir,
        &[
            "match",
            "greedy",
            "simple",
            "--games",
            "2",
            "--seed",
            "1",
            "-q",
            "--record",
            "two.jsonl",
        ],
    );
    ok(
        &dir,
        &[
            &["match"][..],
            &THREE,
            &[
                "--games",
                "3",
                "--seed",
                "1",
                "-q",
                "--record",
                "three.jsonl",
            ],
        ]
        .concat(),
    );
    let two = json_lines(&dir.join("two.jsonl"));
    // Two-player lines have no `format` and keep their fields.
    assert!(
        two.iter()
            .all(|r| r.get("format").is_none() && r.get("swapped").is_some())
    );
    let three = json_lines(&dir.join("three.jsonl"));
    let mixed: Vec<Value> = two.iter().chain(&three).cloned().collect();
    refused(
        &dir,
        &mixed,
        3,
        "the record of a three-player or partnership game, but the lines before hold a two-player game",
    );
}

/// Every leaf of a table record changed (a number moved by one or made
/// huge or negative, a string, a flag, a null) gives a replay error or a
/// replay, never a panic; a changed hand or game figure is always an error.
#[test]
fn every_field_changed_replays_or_fails_cleanly() {
    let dir = scratch("leaves");
    for (name, players) in [
        ("three.jsonl", THREE.to_vec()),
        ("teams.jsonl", TEAMS.to_vec()),
    ] {
        let args = [
            &["match"][..],
            &players,
            &[
                "--games",
                "1",
                "--no-duplicate",
                "--seed",
                "6",
                "-q",
                "--record",
                name,
            ],
        ]
        .concat();
        ok(&dir, &args);
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let record: Value = serde_json::from_str(text.trim()).unwrap();
        ginlab::sim::replay(text.trim(), 1).unwrap();
        let mut paths = Vec::new();
        leaves(&record, &mut Vec::new(), &mut paths);
        assert!(paths.len() > 100, "{}", paths.len());
        for path in &paths {
            let changes: [&dyn Fn(&Value) -> Value; 5] = [
                &|v| match v {
                    Value::Number(n) => Value::from(n.as_u64().map_or(0, |n| n + 1)),
                    Value::String(s) => Value::from(format!("{s}X")),
                    Value::Bool(b) => Value::from(!b),
                    _ => Value::from(1),
                },
                &|_| Value::from(u64::MAX),
                &|_| Value::from(-1),
                &|_| Value::from("A"),
                &|_| Value::Null,
            ];
            for change in changes {
                let mut edited = record.clone();
                let leaf = path.iter().fold(&mut edited, |v, key| match key {
                    Key::Field(k) => &mut v[k.as_str()],
                    Key::Index(i) => &mut v[*i],
                });
                let new = change(leaf);
                if *leaf == new {
                    continue;
                }
                *leaf = new;
                let result = ginlab::sim::replay(&edited.to_string(), 1);
                // What decides the play or its result may not change
                // (`rotation` only seats the players the line names, so
                // the file's sequence check catches it, not the line).
                let decides = path.iter().any(|k| {
                    matches!(k, Key::Field(f) if ["hands", "end", "seed", "deal", "format"].contains(&f.as_str()))
                });
                if decides {
                    assert!(result.is_err(), "{path:?} edited, still replays");
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Key {
    Field(String),
    Index(usize),
}

/// The path of every leaf of `value`.
fn leaves(value: &Value, at: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                at.push(Key::Field(k.clone()));
                leaves(v, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                at.push(Key::Index(i));
                leaves(v, at, out);
                at.pop();
            }
        }
        _ => out.push(at.clone()),
    }
}
