//! Three players and two partnerships end to end: the job layer through the
//! library (threads, shards, merge, resume give the same bytes; seat
//! rotation), and the binary (`match A B C`, `match --teams`, specs with
//! `format`, and the refusals).

use std::path::Path;

use ginlab::job::{self, JobError, JobRequest, JobSpec, Layout, Options, Progress, Shard};
use ginlab::report::Summary;
use ginlab::rules::Rules;
use ginlab::sim::{Format, TablePlan, TableTallies, Work};

use crate::jobs;

use crate::cmd::ginlab;
use jobs::resolve;

fn scratch(name: &str) -> crate::jobs::Scratch {
    jobs::scratch("tables", name)
}

fn layout(format: Format) -> Layout {
    let players: &[&str] = match format {
        Format::Three => &["greedy", "simple", "random"],
        Format::Partnership => &["greedy", "simple", "random", "greedy:knock_at=5"],
    };
    Layout::Table {
        format,
        players: players
            .iter()
            .map(|p| ((*p).to_owned(), (*p).to_owned()))
            .collect(),
    }
}

fn request(format: Format, games: u64, out: &Path) -> JobRequest {
    JobRequest {
        variants: vec![
            ("standard".into(), Rules::standard()),
            ("oklahoma".into(), Rules::preset("oklahoma").unwrap()),
        ],
        layout: layout(format),
        work: Work::Games(games),
        seed: 7,
        duplicate: true,
        out: Some(out.to_owned()),
        name: None,
        default_folder: false,
        command: vec!["test".into()],
        experiment: None,
        anchor: None,
        budget_ms: None,
    }
}

fn spec(format: Format, games: u64, out: &Path) -> JobSpec {
    request(format, games, out).build(&resolve).unwrap()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()))
}

/// The files runs, merges and resumes must agree on, byte for byte.
const SAME: [&str; 5] = [
    "summary.csv",
    "seats.csv",
    "tallies.json",
    "ratings.csv",
    "crosstable.csv",
];

fn options(shard: Option<Shard>, threads: usize) -> Options {
    Options {
        shard,
        threads,
        block: Some(5),
        ..Options::default()
    }
}

#[test]
fn threads_and_shards_give_the_same_files() {
    for format in [Format::Three, Format::Partnership] {
        let name = format.name();
        let one = scratch(&format!("{name}-1"));
        let outcome = job::run(&spec(format, 48, &one), &options(None, 1), &|_| {}).unwrap();
        // Two variants, one row per side and per position each.
        let Summary::Sides { sides, seats } = &outcome.summary else {
            panic!("a table job's summary is per side");
        };
        assert_eq!(sides.len(), 2 * format.sides());
        assert_eq!(seats.len(), 2 * format.sides());
        assert!(sides.iter().all(|r| r.games == 48));
        let two = scratch(&format!("{name}-2"));
        job::run(&spec(format, 48, &two), &options(None, 2), &|_| {}).unwrap();
        let mut shards = Vec::new();
        for index in 1..=3 {
            let dir = scratch(&format!("{name}-shard{index}"));
            let shard = Shard { index, count: 3 };
            job::run(&spec(format, 48, &dir), &options(Some(shard), 2), &|_| {}).unwrap();
            shards.push(dir);
        }
        let merged_dir = scratch(&format!("{name}-merged"));
        let merged = crate::jobs::merge(&shards, &merged_dir, &["merge"]).unwrap();
        assert_eq!(merged.tallies, outcome.tallies);
        for file in SAME {
            assert_eq!(read(&one, file), read(&two, file), "{name} {file}");
            assert_eq!(read(&one, file), read(&merged_dir, file), "{name} {file}");
        }
        // No two-player files.
        assert!(!one.join("distribution.csv").exists());
        let header = String::from_utf8(read(&one, "summary.csv")).unwrap();
        assert!(
            header.starts_with("variant,format,side,games,wins,win_rate,win_lo,win_hi,"),
            "{header}"
        );
    }
}

#[test]
fn an_interrupted_table_run_resumes_to_the_same_files() {
    // 60 games: 20 deals per variant for three players, 15 for
    // partnerships; stop in the second variant.
    for (format, stop) in [(Format::Three, 25), (Format::Partnership, 20)] {
        let name = format.name();
        let whole = scratch(&format!("resume-whole-{name}"));
        job::run(&spec(format, 60, &whole), &options(None, 2), &|_| {}).unwrap();
        let dir = scratch(&format!("resume-killed-{name}"));
        let s = spec(format, 60, &dir);
        let died = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            job::run(&s, &options(None, 2), &|event| {
                if let Progress::Done(n) = event
                    && n > stop
                {
                    panic!("interrupted");
                }
            })
        }));
        assert!(died.is_err());
        assert!(dir.join("checkpoint.json").is_file());
        let resume = Options {
            resume: true,
            ..options(None, 1)
        };
        jobs::after_interrupt(|| job::run(&s, &resume, &|_| {})).unwrap_or_else(|e| panic!("{e}"));
        assert!(!dir.join("checkpoint.json").exists());
        for file in SAME {
            assert_eq!(read(&whole, file), read(&dir, file), "{name} {file}");
        }
    }
}

#[test]
fn an_edited_tallies_file_is_refused_by_merge() {
    let mut shards = Vec::new();
    for index in 1..=2 {
        let dir = scratch(&format!("edited{index}"));
        let s = spec(Format::Partnership, 16, &dir);
        job::run(&s, &options(Some(Shard { index, count: 2 }), 1), &|_| {}).unwrap();
        shards.push(dir);
    }
    // One more win for the first team than games played. A consistent
    // forgery: the manifest's digest made to match, so the tallies' own
    // identities are what catch it.
    forge(&shards[1], |text| {
        text.replacen("\"wins\":", "\"wins\":1000", 1)
    });
    let err = crate::jobs::merge(&shards, &scratch("edited-out"), &[]).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("the games won do not add up")),
        "{err}"
    );
}

/// Rewrites `dir`'s `tallies.json` with `edit` and its manifest's digest to
/// match, as a forger would.
fn forge(dir: &Path, edit: impl Fn(&str) -> String) {
    let path = dir.join("tallies.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();
    let manifest = dir.join("manifest.toml");
    let text: String = std::fs::read_to_string(&manifest)
        .unwrap()
        .lines()
        .map(|line| {
            if line.starts_with("tallies_blake3 = ") {
                format!(
                    "tallies_blake3 = \"{}\"\n",
                    blake3::hash(edited.as_bytes()).to_hex()
                )
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    std::fs::write(&manifest, text).unwrap();
}

/// [`forge`] on the JSON value of `tallies.json`.
fn forge_json(dir: &Path, edit: impl Fn(&mut serde_json::Value)) {
    forge(dir, |text| {
        let mut state: serde_json::Value = serde_json::from_str(text).unwrap();
        edit(&mut state);
        serde_json::to_string(&state).unwrap()
    });
}

/// Two shards of a three-player job of 16 games per variant.
fn three_shards(name: &str) -> Vec<crate::jobs::Scratch> {
    (1..=2)
        .map(|index| {
            let dir = scratch(&format!("{name}{index}"));
            let s = spec(Format::Three, 16, &dir);
            job::run(&s, &options(Some(Shard { index, count: 2 }), 1), &|_| {}).unwrap();
            dir
        })
        .collect()
}

#[test]
fn edited_per_deal_sums_are_refused_by_merge() {
    let shards = three_shards("edited-units");
    forge_json(&shards[1], |s| {
        let hands_won = &mut s["tables"][0]["tallies"]["sides"][0]["units"]["hands_won"];
        hands_won["x"] = (hands_won["x"].as_i64().unwrap() + 1).into();
    });
    let err = crate::jobs::merge(&shards, &scratch("edited-units-out"), &[]).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("the per-unit figures do not add up to the totals")),
        "{err}"
    );
}

#[test]
fn tallies_of_format_2_are_refused_by_merge_and_resume() {
    // Format 2's three-player tallies had per-game moments and no per-deal
    // sums for the hands; they do not parse as format 3 and must be named
    // by their format, with the advice to run again.
    let shards = three_shards("format2-");
    forge_json(&shards[1], |s| {
        s["version"] = 2.into();
        for table in s["tables"].as_array_mut().unwrap() {
            let tallies = &mut table["tallies"];
            tallies.as_object_mut().unwrap().remove("unit_voids");
            for group in ["sides", "positions"] {
                for side in tallies[group].as_array_mut().unwrap() {
                    let side = side.as_object_mut().unwrap();
                    side.remove("units");
                    let moments = serde_json::json!({"n": 8, "sum": 800, "sum_sq": 90000});
                    for key in ["score", "unit_wins", "unit_score"] {
                        side.insert(key.into(), moments.clone());
                    }
                }
            }
        }
    });
    let refusal = "tallies format 2 from an older ginlab; this one reads format 3";
    let out = scratch("format2-out");
    let err = crate::jobs::merge(&shards, &out, &[]).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains(refusal) && m.contains("run the job again")),
        "{err}"
    );
    assert!(!out.exists());
    std::fs::rename(
        shards[1].join("tallies.json"),
        shards[1].join("checkpoint.json"),
    )
    .unwrap();
    let resume = Options {
        resume: true,
        ..options(Some(Shard { index: 2, count: 2 }), 1)
    };
    let err = job::run(&spec(Format::Three, 16, &shards[1]), &resume, &|_| {}).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains(refusal)),
        "{err}"
    );
}

/// One variant, `players` at a three-player table, deals played once per
/// rotation or not.
fn three(players: [&str; 3], rotate: bool, games: u64) -> TableTallies {
    let plan = TablePlan {
        format: Format::Three,
        rules: Rules::standard(),
        profiles: players.iter().map(|p| p.parse().unwrap()).collect(),
        games,
        rotate,
        seed: 3,
    };
    plan.run(0..plan.deals(), 2, &|_| {}).unwrap()
}

#[test]
fn rotation_seats_every_player_in_every_seat() {
    for format in [Format::Three, Format::Partnership] {
        let n = format.players();
        for r in 0..format.rotations() {
            let mut seated: Vec<usize> = (0..n).map(|s| format.seated(s, r)).collect();
            // Partners sit two seats apart.
            if format == Format::Partnership {
                for s in 0..n {
                    assert_eq!(
                        format.side_of(seated[s]),
                        format.side_of(seated[(s + 2) % n]),
                        "rotation {r}"
                    );
                }
            }
            seated.sort_unstable();
            assert_eq!(seated, (0..n).collect::<Vec<_>>());
        }
        for seat in 0..n {
            let mut who: Vec<usize> = (0..format.rotations())
                .map(|r| format.seated(seat, r))
                .collect();
            who.sort_unstable();
            assert_eq!(who, (0..n).collect::<Vec<_>>(), "{format:?} seat {seat}");
        }
    }
    // Three copies of a deterministic player: rotated, each wins exactly a
    // third (each plays each seat of every deal); dealt once, the seats'
    // luck shows in the players' rows.
    let rotated = three(["greedy", "greedy", "greedy"], true, 300);
    assert_eq!(rotated.unit_size, 3);
    assert!(rotated.sides.iter().all(|s| s.wins == 100), "{rotated:?}");
    let once = three(["greedy", "greedy", "greedy"], false, 300);
    assert_eq!(once.unit_size, 1);
    assert!(once.sides.iter().any(|s| s.wins != 100));
    // Every position plays the same games either way.
    assert!(rotated.positions.iter().all(|p| p.games == 300));
}

/// Runs `args` in `dir` and returns stdout; fails unless the exit code is 0.
fn runs(dir: &Path, args: &[&str]) -> String {
    let output = ginlab().current_dir(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// Asserts exit code 2, nothing on stdout, and `needle` in stderr.
fn refuses(dir: &Path, args: &[&str], needle: &str) {
    let output = ginlab().current_dir(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} wrote stdout");
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

#[test]
fn match_three_players_and_partnerships_from_the_command_line() {
    let dir = scratch("cli-match");
    std::fs::create_dir_all(&dir).unwrap();
    let three = [
        "match", "greedy", "simple", "random", "--games", "30", "--seed", "2", "-q",
    ];
    let text = runs(&dir, &three);
    assert!(
        text.starts_with(
            "three players greedy, simple, random, rules standard, seed 2, each deal played 3 times"
        ),
        "{text}"
    );
    for needle in [
        "player",
        "first_dealer",
        "first_upcard",
        "second_upcard",
        "greedy",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // Threads and shards: the same files, through the binary.
    let with = |extra: &[&'static str]| [&three[..], extra].concat();
    runs(&dir, &with(&["--threads", "1", "--out", "t1"]));
    runs(&dir, &with(&["--threads", "2", "--out", "t2"]));
    runs(&dir, &with(&["--shard", "1/2", "--out", "s1"]));
    runs(&dir, &with(&["--shard", "2/2", "--out", "s2"]));
    let merged = runs(&dir, &["merge", "s1", "s2", "--out", "m"]);
    assert!(merged.contains("first_dealer"), "{merged}");
    for file in SAME {
        assert_eq!(
            read(&dir.join("t1"), file),
            read(&dir.join("t2"), file),
            "{file}"
        );
        assert_eq!(
            read(&dir.join("t1"), file),
            read(&dir.join("m"), file),
            "{file}"
        );
    }
    // Partnerships, written `A,B` (an inline profile keeps its commas) or `A B`.
    let text = runs(
        &dir,
        &[
            "match",
            "--teams",
            "greedy:knock_at=7,schedule=20:5,simple",
            "--vs",
            "random",
            "greedy",
            "--games",
            "8",
            "--seed",
            "2",
            "-q",
        ],
    );
    assert!(
        text.starts_with("partnerships greedy:knock_at=7,schedule=20:5+simple against random+greedy, rules standard, seed 2, each deal played 4 times"),
        "{text}"
    );
    assert!(text.contains("first_dealing_team"), "{text}");
}

#[test]
fn what_multi_player_games_cannot_do_is_refused() {
    let dir = scratch("cli-refused");
    std::fs::create_dir_all(&dir).unwrap();
    let three = ["match", "greedy", "simple", "random", "-q", "--seed", "1"];
    let with = |extra: &[&'static str]| [&three[..], extra].concat();
    refuses(
        &dir,
        &with(&["--hands", "10"]),
        "--hands: a three-player game is played in whole games",
    );
    refuses(
        &dir,
        &with(&["--games", "3", "--sprt", "elo0=0,elo1=10"]),
        "--sprt: a sequential test compares two players",
    );
    std::fs::write(
        dir.join("anchored.toml"),
        "seed = 1\ngames = 2\nformat = \"three\"\nanchor = \"simple\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
    )
    .unwrap();
    refuses(
        &dir,
        &[
            "run",
            "anchored.toml",
            "--anchor",
            "nobody",
            "--out",
            "anchored",
            "-q",
        ],
        "anchor `nobody` is not one of the players: greedy, simple, random",
    );
    assert!(!dir.join("anchored").exists());
    refuses(
        &dir,
        &[
            "match",
            "--teams",
            "greedy",
            "--vs",
            "simple,random",
            "--games",
            "2",
        ],
        "--teams greedy: a team is two strategies",
    );
    refuses(
        &dir,
        &["match", "--teams", "greedy,simple", "--games", "2"],
        "--vs",
    );
}

/// `--json`, `--status` and `--budget-ms` work for tables as for two
/// players: the JSON holds `summary.csv`'s rows (per player or team) and
/// `seats.csv`'s (per seat), the status lines name every side and seat.
#[test]
fn tables_print_json_and_status() {
    let dir = scratch("cli-json");
    std::fs::create_dir_all(&dir).unwrap();
    let three = [
        "match", "greedy", "simple", "random", "-q", "--seed", "1", "--games", "6",
    ];
    let with = |extra: &[&'static str]| [&three[..], extra].concat();
    let json = runs(&dir, &with(&["--json", "--out", "j"]));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let summary = value["summary"].as_array().unwrap();
    let seats = value["seats"].as_array().unwrap();
    assert_eq!(summary.len(), 3, "{json}");
    assert_eq!(seats.len(), 3, "{json}");
    assert_eq!(summary[1]["side"], "simple");
    assert_eq!(seats[0]["side"], "first_dealer");
    let csv = std::fs::read_to_string(dir.join("j/summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let spec = dir.join("three.toml");
    std::fs::write(
        &spec,
        "seed = 1\ngames = 6\nformat = \"partnership\"\nplayers = [\"greedy\", \"simple\", \"random\", \"greedy\"]\n",
    )
    .unwrap();
    let json = runs(&dir, &["run", "three.toml", "--out", "p", "-q", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["summary"].as_array().unwrap().len(), 2, "{json}");
    assert_eq!(value["summary"][0]["side"], "greedy+simple", "{json}");
    assert_eq!(value["seats"].as_array().unwrap().len(), 2, "{json}");
    let output = ginlab()
        .current_dir(&dir)
        .args(with(&["--status", "3"]))
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("games; won:"))
        .collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[1].starts_with("standard greedy v simple v random: 6 games; won: greedy "),
        "{stderr}"
    );
    assert!(lines[1].contains("; by seat: first_dealer "), "{stderr}");
    let text = runs(
        &dir,
        &[
            "match",
            "mc",
            "greedy",
            "simple",
            "-q",
            "--seed",
            "1",
            "--games",
            "3",
            "--budget-ms",
            "0.5",
            "--no-duplicate",
        ],
    );
    assert!(
        text.contains("mc:"),
        "the budgeted player is named by its profile: {text}"
    );
    refuses(
        &dir,
        &with(&["--budget-ms", "2"]),
        "--budget-ms: none of `greedy`, `simple`, `random` searches under a time budget",
    );
}

#[test]
fn specs_take_a_format() {
    let dir = scratch("cli-spec");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = |name: &str, body: &str| {
        std::fs::write(dir.join(format!("{name}.toml")), body).unwrap();
        format!("{name}.toml")
    };
    let good = spec(
        "three",
        "seed = 1\ngames = 12\nformat = \"three\"\nplayers = [\"greedy\", \"greedy\", \"simple\"]\n\n[[variant]]\nname = \"standard\"\n\n[[variant]]\nname = \"eaai\"\n",
    );
    let text = runs(&dir, &["run", &good, "-q"]);
    assert!(text.contains("greedy#2"), "{text}");
    let summary = String::from_utf8(read(&dir.join("results/three"), "summary.csv")).unwrap();
    // Three players × two variants, under a header.
    assert_eq!(summary.lines().count(), 1 + 3 * 2, "{summary}");
    assert!(summary.contains("eaai,three,greedy#2,12,"), "{summary}");
    let teams = spec(
        "teams",
        "seed = 1\ngames = 8\nformat = \"partnership\"\nplayers = [\"greedy\", \"simple\", \"random\", \"greedy\"]\n",
    );
    runs(&dir, &["run", &teams, "-q"]);
    let summary = String::from_utf8(read(&dir.join("results/teams"), "summary.csv")).unwrap();
    assert!(
        summary.contains("standard,partnership,greedy+simple,8,"),
        "{summary}"
    );
    assert!(
        summary.contains("standard,partnership,random+greedy#2,8,"),
        "{summary}"
    );
    for (body, needle) in [
        (
            "seed = 1\ngames = 3\nformat = \"three\"\nplayers = [\"greedy\", \"simple\"]\n",
            "format = \"three\" seats 3 players, but `players` lists 2",
        ),
        (
            "seed = 1\ngames = 3\nformat = \"partnership\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
            "team by team",
        ),
        (
            "seed = 1\nhands = 3\nformat = \"three\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
            "`hands` must be left out with format",
        ),
        (
            "seed = 1\ngames = 3\nformat = \"three\"\npairing = \"round_robin\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
            "`pairing` must be left out with format",
        ),
        (
            "seed = 1\ngames = 3\nformat = \"four\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
            "`format` must be \"two\" (the default), \"three\"",
        ),
    ] {
        let bad = spec("bad", body);
        refuses(&dir, &["run", &bad, "-q"], needle);
    }
}

/// The cells of column `name` in CSV text `csv` (no quoting in these files).
fn column(csv: &str, name: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let at = lines
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    lines
        .map(|l| l.split(',').nth(at).unwrap().to_owned())
        .collect()
}

#[test]
fn one_deal_gives_empty_interval_cells() {
    // The three games of one deal are one unit: no interval is valid, and
    // the files and the terminal say so. Two deals have intervals.
    let dir = scratch("one-deal");
    std::fs::create_dir_all(&dir).unwrap();
    let three = ["match", "greedy", "simple", "tracker", "--seed", "4", "-q"];
    let with = |extra: &[&'static str]| [&three[..], extra].concat();
    let text = runs(&dir, &with(&["--games", "3", "--out", "one"]));
    assert_eq!(
        text.matches("[no interval: too few units]").count(),
        18,
        "{text}"
    );
    runs(&dir, &with(&["--games", "6", "--out", "two"]));
    let ends = [
        "win_lo",
        "win_hi",
        "score_lo",
        "hand_win_lo",
        "hand_win_hi",
        "points_per_hand_lo",
        "points_per_hand_hi",
        "void_lo",
    ];
    for file in ["summary.csv", "seats.csv"] {
        let one = String::from_utf8(read(&dir.join("one"), file)).unwrap();
        let two = String::from_utf8(read(&dir.join("two"), file)).unwrap();
        for name in ends {
            assert!(
                column(&one, name).iter().all(String::is_empty),
                "{name}: {one}"
            );
            assert!(
                column(&two, name).iter().all(|c| c.parse::<f64>().is_ok()),
                "{name}: {two}"
            );
        }
    }
}
