//! Game records (`--record FILE`) and `ginlab replay`: records replay
//! through the engine under every preset, the file does not depend on the
//! thread count, tampered records are rejected with the file, line and
//! fault, and the transcript shows the hands, lay-offs and scores.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::cmd::{ginlab, json_lines, succeeded};
use ginlab::sim::{Labels, Plan, Work, replay};
use serde_json::Value;

/// A fresh folder for one test's files.
fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("records", name)
}

/// Runs `ginlab match` with `args` plus `--record file -q`, which must succeed.
fn record(file: &Path, args: &[&str]) {
    let output = ginlab()
        .arg("match")
        .args(args)
        .arg("--record")
        .arg(file)
        .arg("-q")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `ginlab replay` with `args`: (exit code, stdout, stderr).
fn replay_cli(args: &[&str]) -> (Option<i32>, String, String) {
    let output = ginlab().arg("replay").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The `result` of every hand in these records that has one.
fn hand_results(records: &[Value]) -> BTreeSet<String> {
    records
        .iter()
        .flat_map(|r| r["hands"].as_array().unwrap())
        .filter_map(|h| h["end"]["result"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn records_replay_under_every_preset() {
    let dir = scratch("presets");
    let mut results = BTreeSet::new();
    for preset in ginlab::rules::PRESETS {
        let file = dir.join(format!("{preset}.jsonl"));
        let args = ["greedy", "simple", "--games", "24", "--seed", "11"];
        record(&file, &[&args[..], &["--rules", preset]].concat());
        let games = json_lines(&file);
        assert_eq!(games.len(), 24, "{preset}");
        for (i, game) in games.iter().enumerate() {
            assert_eq!(game["ginlab_record"], 1);
            assert_eq!(game["mode"], "games");
            assert_eq!(game["deal"], i as u64 / 2, "{preset}: deal order");
            assert_eq!(game["swapped"], i % 2 == 1, "{preset}: unswapped first");
            assert_eq!(game["end"]["complete"], true, "{preset}");
        }
        let (code, stdout, stderr) = replay_cli(&["--check", path_str(&file)]);
        assert_eq!(code, Some(0), "{preset}: {stderr}");
        assert!(stdout.starts_with("replayed 24 games ("), "{stdout}");
        results.extend(hand_results(&games));
    }
    // Single hands that play for gin with the last-discard option: void
    // hands, and the `pass` of the last discard.
    let file = dir.join("voids.jsonl");
    let gin_only = "greedy:knock_at=0";
    let args = [gin_only, gin_only, "--hands", "30", "--seed", "5"];
    record(
        &file,
        &[&args[..], &["--rule", "last_discard_action=true"]].concat(),
    );
    let hands = json_lines(&file);
    assert!(hands.iter().all(|h| h["mode"] == "hands"));
    assert!(hands.iter().any(
        |h| h["hands"][0]["actions"].as_array().unwrap().last().unwrap()[1] == "pass"
            && h["hands"][0]["end"]["result"] == "void"
    ));
    results.extend(hand_results(&hands));
    let (code, stdout, stderr) = replay_cli(&[path_str(&file)]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("passes the last discard"), "{stdout}");
    assert!(stdout.contains("void: the stock is down to two cards"));
    for end in ["knock", "gin", "undercut", "void"] {
        assert!(results.contains(end), "no {end} among {results:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn record_files_do_not_depend_on_threads() {
    let dir = scratch("threads");
    // 1,500 deals: 12 chunks, so threads and record windows interleave.
    let hands = ["greedy", "simple", "--hands", "3000", "--seed", "3"];
    let games = ["greedy", "tracker", "--games", "300", "--seed", "3"];
    for (name, args) in [("hands", hands), ("games", games)] {
        let one = dir.join(format!("{name}-1.jsonl"));
        let three = dir.join(format!("{name}-3.jsonl"));
        record(&one, &[&args[..], &["--threads", "1"]].concat());
        // The job runner of --out writes the same records.
        let out = dir.join(format!("{name}-out"));
        let out = ["--threads", "3", "--out", path_str(&out)];
        record(&three, &[&args[..], &out[..]].concat());
        let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&three).unwrap());
        assert!(!a.is_empty());
        assert!(a == b, "{name}: the record files differ");
    }
    let lines = std::fs::read_to_string(dir.join("hands-1.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 3000);
    // No temporary file is left beside the records.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recorded run's tallies are the plain run's, and it writes one line per
/// game, each of which replays.
#[test]
fn recording_changes_no_result() {
    let plan = Plan {
        rules: ginlab::rules::Rules::oklahoma(),
        profiles: ["greedy".parse().unwrap(), "tracker".parse().unwrap()],
        work: Work::Games(40),
        duplicate: true,
        seed: 8,
    };
    let labels = Labels {
        variant: "oklahoma".into(),
        names: ["g".into(), "t".into()],
    };
    let mut out = Vec::new();
    let (recorded, units) = plan
        .run_recorded(0..plan.deals(), 2, &|_| {}, &labels, &mut out)
        .unwrap();
    assert_eq!(recorded, plan.run(0..plan.deals(), 2, &|_| {}).unwrap());
    // The unit scores in deal order, as the unrecorded run keeps them.
    let (_, scored) = plan.run_scored(0..plan.deals(), 3, &|_| {}).unwrap();
    assert_eq!(
        units.into_scores().collect::<Vec<_>>(),
        scored.into_scores().collect::<Vec<_>>()
    );
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 40);
    let mut hands = 0;
    for (i, line) in text.lines().enumerate() {
        hands += replay(line, i as u64 + 1).unwrap().hands as u64;
    }
    assert_eq!(hands, recorded.hands);
}

/// The cards each player is dealt in each hand of a recorded game: the
/// non-dealer gets cards 1, 3, … 19 of the deck and the dealer 2, 4, … 20;
/// player A sits in seat B in the swapped game.
fn dealt_cards(game: &Value) -> Vec<[Vec<String>; 2]> {
    let swapped = game["swapped"].as_bool().unwrap();
    let a_seat = if swapped { "B" } else { "A" };
    game["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hand| {
            let deck: Vec<String> = hand["deck"]
                .as_str()
                .unwrap()
                .split(' ')
                .map(String::from)
                .collect();
            let mut cards = [Vec::new(), Vec::new()];
            let a_deals = hand["dealer"] == a_seat;
            for (i, card) in deck[..20].iter().enumerate() {
                let to_dealer = i % 2 == 1;
                cards[usize::from(to_dealer != a_deals)].push(card.clone());
            }
            cards
        })
        .collect()
}

/// The swapped game of a duplicate pair deals each player, hand by hand,
/// the cards the other player got in the first game, under every dealer
/// rule (with `next_dealer = loser` it used to deal the same player the
/// same cards from the second hand on whenever a player won a hand in both
/// games).
#[test]
fn duplicate_games_mirror_every_hand() {
    for rules in [
        ginlab::rules::Rules::standard(),
        ginlab::rules::Rules::hoyle(),
        ginlab::rules::Rules::oklahoma(),
        ginlab::rules::Rules::eaai(),
    ] {
        let plan = Plan {
            rules,
            profiles: ["greedy".parse().unwrap(), "simple".parse().unwrap()],
            work: Work::Games(60),
            duplicate: true,
            seed: 17,
        };
        let labels = Labels {
            variant: "v".into(),
            names: ["g".into(), "s".into()],
        };
        let mut out = Vec::new();
        plan.run_recorded(0..plan.deals(), 1, &|_| {}, &labels, &mut out)
            .unwrap();
        let games: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut compared = 0;
        for pair in games.chunks(2) {
            let (first, second) = (dealt_cards(&pair[0]), dealt_cards(&pair[1]));
            for (k, (one, two)) in first.iter().zip(&second).enumerate() {
                assert_eq!(one[0], two[1], "deal {}, hand {}", pair[0]["deal"], k + 1);
                assert_eq!(one[1], two[0], "deal {}, hand {}", pair[0]["deal"], k + 1);
                compared += 1;
            }
            for (i, game) in pair.iter().enumerate() {
                replay(&game.to_string(), i as u64 + 1).unwrap();
            }
        }
        assert!(compared > 60 * 2, "{compared} hands compared");
    }
}

/// Record lines of a short game run, to tamper with.
fn sample(dir: &Path) -> (PathBuf, Vec<Value>) {
    let file = dir.join("sample.jsonl");
    record(
        &file,
        &[
            "greedy",
            "simple",
            "--games",
            "6",
            "--seed",
            "21",
            "--threads",
            "1",
        ],
    );
    let games = json_lines(&file);
    (file, games)
}

fn write_lines(path: &Path, games: &[Value]) {
    let text: String = games.iter().map(|g| format!("{g}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// Replaying `games` with line `line` (from 1) changed by `tamper` fails
/// with exit code 2, names the file and line and every one of `needles`,
/// and prints nothing of that game.
fn rejected(
    dir: &Path,
    games: &[Value],
    line: usize,
    tamper: impl Fn(&mut Value),
    needles: &[&str],
) {
    let mut games = games.to_vec();
    tamper(&mut games[line - 1]);
    let file = dir.join("tampered.jsonl");
    write_lines(&file, &games);
    let (code, stdout, stderr) = replay_cli(&[path_str(&file)]);
    assert_eq!(code, Some(2), "{stderr}");
    let place = format!("{} line {line}: ", file.display());
    assert!(stderr.contains(&place), "{stderr:?} lacks {place:?}");
    for needle in needles {
        assert!(stderr.contains(needle), "{stderr:?} lacks {needle:?}");
    }
    assert!(!stdout.contains(&format!("game {line} ·")), "{stdout}");
    assert!(!stdout.contains("every result matches"));
    if line > 1 {
        assert!(stdout.contains("game 1 ·"), "earlier games are printed");
    }
}

#[test]
fn tampered_records_are_rejected() {
    let dir = scratch("tamper");
    let (_, games) = sample(&dir);
    // An action that does not fit the decision.
    let first_action = |g: &mut Value| {
        g["hands"][0]["actions"][0][1] = "discard AS".into();
    };
    rejected(
        &dir,
        &games,
        2,
        first_action,
        &["hand 1: action 1", "`discard AS`", "the decision `upcard`"],
    );
    // An action by the wrong seat.
    let seat = |g: &mut Value| {
        let actor = g["hands"][0]["actions"][0][0].as_str().unwrap().to_owned();
        let other = if actor == "A" { "B" } else { "A" };
        g["hands"][0]["actions"][0][0] = other.into();
    };
    rejected(
        &dir,
        &games,
        1,
        seat,
        &["hand 1: action 1", "decision, not"],
    );
    // A discard of a card the player does not hold: the next discard is
    // replaced with the card its opponent was dealt on top.
    let not_held = |g: &mut Value| {
        let hand = &mut g["hands"][0];
        let dealer = hand["dealer"].as_str().unwrap().to_owned();
        let deck: Vec<String> = hand["deck"]
            .as_str()
            .unwrap()
            .split(' ')
            .map(str::to_owned)
            .collect();
        let actions = hand["actions"].as_array_mut().unwrap();
        let k = actions
            .iter()
            .position(|a| a[1].as_str().unwrap().starts_with("discard"))
            .unwrap();
        // The deck deals one card at a time from the non-dealer: card 0 is
        // the non-dealer's, card 1 the dealer's. The opponent still holds
        // its first card at the first discard of the hand.
        let opponent_first = if actions[k][0] == dealer.as_str() {
            0
        } else {
            1
        };
        actions[k][1] = format!("discard {}", deck[opponent_first]).into();
    };
    rejected(
        &dir,
        &games,
        3,
        not_held,
        &["hand 1: action", "is not in the hand"],
    );
    // A changed hand result.
    let points = |g: &mut Value| {
        let p = g["hands"][0]["end"]["points"].as_u64().unwrap();
        g["hands"][0]["end"]["points"] = (p + 1).into();
    };
    rejected(
        &dir,
        &games,
        2,
        points,
        &["hand 1: the result differs: `points` is"],
    );
    // A changed game result.
    let final_scores = |g: &mut Value| {
        g["end"]["final_scores"]["A"] = 999.into();
    };
    rejected(
        &dir,
        &games,
        4,
        final_scores,
        &["the game result differs: `final_scores`"],
    );
    // A hand cut off without a forfeit.
    let cut = |g: &mut Value| {
        g["hands"][0]["actions"].as_array_mut().unwrap().pop();
    };
    rejected(
        &dir,
        &games,
        1,
        cut,
        &["hand 1: the actions stop before the hand is over"],
    );
    // A bad card, a wrong dealer, bad JSON, another version.
    let card = |g: &mut Value| {
        let deck = g["hands"][0]["deck"]
            .as_str()
            .unwrap()
            .replacen(' ', " 1X ", 1);
        g["hands"][0]["deck"] = deck.into();
    };
    rejected(&dir, &games, 1, card, &["hand 1: the deck:", "`1X`"]);
    let dealer = |g: &mut Value| {
        let d = g["hands"][1]["dealer"].as_str().unwrap();
        g["hands"][1]["dealer"] = (if d == "A" { "B" } else { "A" }).into();
    };
    rejected(
        &dir,
        &games,
        1,
        dealer,
        &["hand 2: dealt by", "deals after hand 1"],
    );
    let json = |g: &mut Value| *g = Value::String("a string".into());
    rejected(&dir, &games, 1, json, &["not a game record: invalid type"]);
    let version = |g: &mut Value| g["ginlab_record"] = 2.into();
    rejected(
        &dir,
        &games,
        1,
        version,
        &["not a ginlab game record of version 1", "is 2"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn transcript_shows_hands_layoffs_and_scores() {
    let dir = scratch("transcript");
    let (file, games) = sample(&dir);
    let n = 1 + games
        .iter()
        .position(|g| {
            g["hands"].as_array().unwrap().iter().any(|h| {
                h["end"]["layoffs"]
                    .as_array()
                    .is_some_and(|l| !l.is_empty())
            })
        })
        .expect("a game with a lay-off");
    let (code, stdout, stderr) = replay_cli(&["--game", &n.to_string(), path_str(&file)]);
    assert_eq!(code, Some(0), "{stderr}");
    let game = &games[n - 1];
    assert!(
        stdout.starts_with(&format!("game {n} · deal {} ", game["deal"])),
        "{stdout}"
    );
    for needle in [
        "\nhand 1 · scores A 0 B 0\n",
        "\nhand 2 · scores A ",
        " holds ",
        " draws ",
        " from the stock\n",
        " discards ",
        " knocks, ",
        " spreads [",
        "  lays off ",
        " scores ",
        "\ngame over: ",
        "every result matches the record",
    ] {
        assert!(stdout.contains(needle), "{needle:?} missing from\n{stdout}");
    }
    let winner = game["end"]["winner"].as_str().unwrap();
    let finals = &game["end"]["final_scores"];
    let summary = format!("game over: {winner} wins · ");
    assert!(stdout.contains(&summary));
    assert!(stdout.contains(&format!("final {}–{}", finals["A"], finals["B"])));
    // Only game n is printed.
    assert_eq!(stdout.matches("\ngame over: ").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forfeited_games_are_recorded_with_the_unfinished_hand() {
    let dir = scratch("forfeit");
    let file = dir.join("forfeit.jsonl");
    // The bot answers an illegal move at its third decision of even-seeded
    // games; seed 4 makes both games of the deal forfeits.
    let bot = "exec:python3 tests/bots/faulty_bot.py illegal";
    record(
        &file,
        &[
            bot,
            "greedy",
            "--games",
            "2",
            "--seed",
            "4",
            "--threads",
            "1",
        ],
    );
    let games = json_lines(&file);
    assert_eq!(games.len(), 2);
    for (game, seat) in games.iter().zip(["A", "B"]) {
        assert_eq!(game["forfeit"]["seat"], seat);
        assert_eq!(game["forfeit"]["name"], "faulty-illegal");
        assert!(
            game["forfeit"]["reason"]
                .as_str()
                .unwrap()
                .contains("`discard ZZ` is not a move")
        );
        assert_eq!(game["end"]["complete"], false);
        let last = game["hands"].as_array().unwrap().last().unwrap();
        assert!(last["end"].is_null());
        assert!(!last["actions"].as_array().unwrap().is_empty());
    }
    let (code, stdout, stderr) = replay_cli(&[path_str(&file)]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("(hand not finished)"));
    assert!(stdout.contains("game stopped: A (faulty-illegal) forfeits: `discard ZZ`"));
    // Without its forfeit the unfinished hand does not replay.
    let mut games = games;
    games[0].as_object_mut().unwrap().remove("forfeit");
    write_lines(&file, &games);
    let (code, _, stderr) = replay_cli(&[path_str(&file)]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("line 1: hand 1: the actions stop before the hand is over"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_input_errors() {
    let dir = scratch("errors");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let (code, stdout, stderr) = replay_cli(&[path_str(&empty)]);
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("no game records (the file is empty)"),
        "{stderr}"
    );
    let (_, games) = sample(&dir);
    let file = dir.join("two.jsonl");
    write_lines(&file, &games[..2]);
    let (code, stdout, stderr) = replay_cli(&["--game", "3", path_str(&file)]);
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("--game 3: ") && stderr.contains("holds 2 games (lines 1 to 2)"),
        "{stderr}"
    );
    let (code, _, stderr) = replay_cli(&["--game", "0", path_str(&file)]);
    assert_eq!(code, Some(2), "{stderr}");
    let (code, _, stderr) = replay_cli(&[path_str(&dir.join("missing.jsonl"))]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("reading record file"), "{stderr}");
    // Bad JSON.
    std::fs::write(&file, format!("{}\n{{oops\n", games[0])).unwrap();
    let (code, _, stderr) = replay_cli(&["--check", path_str(&file)]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("line 2: not a game record: "), "{stderr}");
    // An empty line in the middle is named.
    std::fs::write(&file, format!("{}\n\n{}\n", games[0], games[1])).unwrap();
    let (code, _, stderr) = replay_cli(&["--check", path_str(&file)]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("line 2: an empty line"), "{stderr}");
    // --resume --record continues a checkpoint's record
    // (tests/it/record_jobs.rs); with no checkpoint there is nothing to
    // continue, and the file is left as it was.
    let before = std::fs::read(&file).unwrap();
    let output = ginlab()
        .args([
            "match", "greedy", "simple", "--games", "2", "--resume", "--out",
        ])
        .arg(&dir)
        .arg("--record")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--resume: no checkpoint"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Replays `games` as a file and expects exit code 2 with an error naming
/// `place` (`line N: ` or the file alone) and every one of `needles`.
fn rejected_file(dir: &Path, games: &[Value], place: &str, needles: &[&str]) {
    let file = dir.join("edited.jsonl");
    write_lines(&file, games);
    let (code, _, stderr) = replay_cli(&["--check", path_str(&file)]);
    assert_eq!(code, Some(2), "{stderr}");
    let place = format!("{}{place}", file.display());
    assert!(stderr.contains(&place), "{stderr:?} lacks {place:?}");
    for needle in needles {
        assert!(stderr.contains(needle), "{stderr:?} lacks {needle:?}");
    }
}

/// Edits that leave every action legal and every result right are caught
/// too: the decks are checked against the seed's generator, the lines
/// against each other (issue 15.12).
#[test]
fn edits_that_replay_are_caught() {
    let dir = scratch("edits");
    let (_, games) = sample(&dir);
    assert_eq!(games.len(), 6, "deals 0, 1, 2, each twice");
    // Two stock cards no one drew, exchanged.
    let undrawn = |g: &mut Value| {
        let deck = g["hands"][0]["deck"].as_str().unwrap();
        let mut cards: Vec<&str> = deck.split(' ').collect();
        cards.swap(50, 51);
        g["hands"][0]["deck"] = cards.join(" ").into();
    };
    rejected(
        &dir,
        &games,
        2,
        undrawn,
        &[
            "hand 1: the deck is not the one dealt for deal 0 (seats swapped) of seed 21",
            "card 51 is",
        ],
    );
    // Another seed, deal or swapped flag.
    let seed = |g: &mut Value| g["seed"] = 22.into();
    rejected(&dir, &games, 1, seed, &["of seed 22"]);
    let deal = |g: &mut Value| g["deal"] = 2.into();
    rejected(
        &dir,
        &games,
        3,
        deal,
        &[
            "deal 2 follows deal 0 (seats swapped)",
            "where deal 1 comes next",
        ],
    );
    let unswapped = |g: &mut Value| g["swapped"] = false.into();
    rejected(
        &dir,
        &games,
        2,
        unswapped,
        &["deal 0 again with the seats of the line before exchanged, but `swapped` is false"],
    );
    let swapped = |g: &mut Value| g["swapped"] = true.into();
    rejected(
        &dir,
        &games,
        1,
        swapped,
        &["starts with deal 0 (seats swapped)"],
    );
    // A relabelled player or variant.
    let player = |g: &mut Value| g["players"]["A"]["name"] = "greedy2".into();
    rejected(&dir, &games, 3, player, &["greedy2", "starts with deal 1"]);
    let variant = |g: &mut Value| g["variant"] = "hoyle".into();
    rejected(
        &dir,
        &games,
        4,
        variant,
        &["variant hoyle", "starts with deal 1"],
    );
    // A knob that never came into play (no hand reaches 200 turns).
    let knob = |g: &mut Value| g["rules"]["max_turns"] = 300.into();
    rejected(
        &dir,
        &games,
        5,
        knob,
        &[
            "the rules of variant `standard` differ from line 1's: `max_turns` is 300 here but 200 on line 1",
        ],
    );
    // A line repeated, lines exchanged, the last line gone.
    let mut repeated = games.clone();
    repeated.insert(2, games[1].clone());
    rejected_file(
        &dir,
        &repeated,
        " line 3: ",
        &["deal 0 (seats swapped) follows deal 0 (seats swapped)"],
    );
    let mut moved = games.clone();
    moved.swap(2, 4);
    rejected_file(
        &dir,
        &moved,
        " line 3: ",
        &["deal 2 follows deal 0 (seats swapped)"],
    );
    rejected_file(
        &dir,
        &games[..5],
        ": ",
        &["ends on line 5 with deal 2 but without its seat-swapped game"],
    );
    // The file as written passes.
    let file = dir.join("whole.jsonl");
    write_lines(&file, &games);
    let (code, stdout, stderr) = replay_cli(&["--check", path_str(&file)]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("every result matches"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `run` record holds several rows (variant × pairing), each from deal 0,
/// and passes the line-by-line check; single hands are checked against the
/// generator too.
#[test]
fn run_and_hand_records_pass_the_sequence_check() {
    let dir = scratch("rows");
    let spec = dir.join("rows.toml");
    std::fs::write(
        &spec,
        "seed = 3\nhands = 5\nplayers = [\"greedy\", \"simple\", \"random\"]\npairing = \"round_robin\"\n\
         [[variant]]\nname = \"standard\"\n[[variant]]\nname = \"hoyle\"\n",
    )
    .unwrap();
    let file = dir.join("rows.jsonl");
    let output = ginlab()
        .arg("run")
        .arg(&spec)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--record")
        .arg(&file)
        .arg("-q")
        .output()
        .unwrap();
    succeeded(&output);
    let (code, stdout, stderr) = replay_cli(&["--check", path_str(&file)]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("replayed 36 games"), "{stdout}");
    // A hand's deck with two undrawn cards exchanged.
    let mut games = json_lines(&file);
    let deck = games[7]["hands"][0]["deck"].as_str().unwrap().to_owned();
    let mut cards: Vec<&str> = deck.split(' ').collect();
    cards.swap(50, 51);
    games[7]["hands"][0]["deck"] = cards.join(" ").into();
    rejected_file(
        &dir,
        &games,
        " line 8: ",
        &["the deck is not the one dealt for deal 0 (seats swapped) of seed 3"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
