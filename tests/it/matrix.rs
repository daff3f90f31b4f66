//! The front-end matrix, through the binary: every flag of `match`, `run`,
//! `sweep` and `balance` × every format (two players, three, partnership)
//! gives a whole result (exit 0, a report on standard output, the files
//! asked for) or a refusal (exit 2, a reason on standard error, nothing on
//! standard output, no result folder), never an empty or partial result.
//! And docs/CLI.md's contract sentence for multi-player flags is read and
//! checked: every flag it names as refused is refused for three players
//! and partnerships and works for two; every other `match` flag does for
//! them what it does for two players.

use crate::cmd::ginlab;
use std::path::Path;

/// What one invocation gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Result_ {
    /// Exit 0 with a whole result.
    Whole,
    /// Exit 2 with a reason.
    Refused,
}

/// The three formats: the `match` players and a spec's lines.
const FORMATS: [(&str, &[&str], &str); 3] = [
    (
        "two",
        &["greedy", "simple"],
        "players = [\"greedy\", \"simple\"]\n",
    ),
    (
        "three",
        &["greedy", "simple", "random"],
        "format = \"three\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
    ),
    (
        "partnership",
        &["--teams", "greedy,simple", "--vs", "random,greedy"],
        "format = \"partnership\"\nplayers = [\"greedy\", \"simple\", \"random\", \"greedy\"]\n",
    ),
];

/// Runs `args` in `dir` and judges what it gave: a whole result or a
/// refusal, failing the test on anything else. `out` is the result folder
/// the command was asked to write, if any; `json` whether it was asked for
/// JSON; `status` whether for status lines.
fn judge(dir: &Path, args: &[String], out: Option<&str>, json: bool, status: bool) -> Result_ {
    let _ = out.map(|o| std::fs::remove_dir_all(dir.join(o)));
    let output = ginlab().current_dir(dir).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => {
            assert!(
                !stdout.trim().is_empty(),
                "{args:?}: exit 0, nothing printed"
            );
            if json {
                let value: serde_json::Value = serde_json::from_str(&stdout)
                    .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {stdout}"));
                let summary = value["summary"].as_array();
                assert!(
                    summary.is_some_and(|s| !s.is_empty()),
                    "{args:?}: an empty summary: {stdout}"
                );
            }
            if status {
                assert!(
                    stderr.lines().any(|l| l.contains("games")),
                    "{args:?}: --status printed no line: {stderr}"
                );
            }
            if let Some(out) = out {
                let summary = std::fs::read_to_string(dir.join(out).join("summary.csv"))
                    .unwrap_or_else(|e| panic!("{args:?}: no summary.csv: {e}"));
                assert!(
                    summary.lines().count() > 1,
                    "{args:?}: an empty summary.csv"
                );
                assert!(dir.join(out).join("manifest.toml").is_file(), "{args:?}");
            }
            Result_::Whole
        }
        Some(2) => {
            assert!(stdout.is_empty(), "{args:?}: refused but printed {stdout}");
            assert!(
                !stderr.trim().is_empty(),
                "{args:?}: refused without a reason"
            );
            if let Some(out) = out {
                assert!(
                    !dir.join(out).join("summary.csv").exists(),
                    "{args:?}: refused but wrote a result"
                );
            }
            Result_::Refused
        }
        code => panic!("{args:?}: exit {code:?}: {stderr}"),
    }
}

/// A flag of a command, with what it needs: its arguments, the folder it
/// writes (if any), and whether it asks for JSON or status lines.
struct Case {
    flag: &'static str,
    args: Vec<String>,
    out: Option<&'static str>,
    json: bool,
    status: bool,
}

fn case(flag: &'static str, args: &[&str]) -> Case {
    Case {
        flag,
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        out: args
            .iter()
            .position(|a| *a == "--out")
            .map(|i| match args[i + 1] {
                "o" => "o",
                _ => "o2",
            }),
        json: flag == "--json",
        status: flag == "--status",
    }
}

/// Every `match` flag, with the amount it runs (`--games 4` unless the
/// flag is an amount).
fn match_cases() -> Vec<Case> {
    let g = ["--games", "4"];
    // 8 games: two deals of a partnership, so each half holds one (a
    // shard of no deals is refused: `a_shard_of_no_deals_is_refused`).
    let g8 = ["--games", "8"];
    let with = |flag: &'static str, extra: &[&str]| {
        let amount: &[&str] = if ["--hands", "--decks", "--dealer"].contains(&flag) {
            &[]
        } else if flag == "--shard" || extra.contains(&"--shard") {
            &g8
        } else {
            &g
        };
        case(flag, &[amount, extra].concat())
    };
    vec![
        with("--hands", &["--hands", "4"]),
        with("--games", &[]),
        with("--decks", &["--decks", "decks.txt"]),
        with("--dealer", &["--decks", "decks.txt", "--dealer", "a"]),
        with("--seed", &["--seed", "5"]),
        with("--threads", &["--threads", "2"]),
        with("--no-duplicate", &["--no-duplicate"]),
        with("--out", &["--out", "o"]),
        with("--shard", &["--shard", "1/2", "--out", "o"]),
        with("--resume", &["--resume", "--out", "o"]),
        with("--quiet", &["--quiet"]),
        with("--sprt", &["--sprt", "elo0=0,elo1=10"]),
        with("--record", &["--record", "r.jsonl"]),
        // A shard writes its part of the record; a resume continues one
        // (refused here: there is no checkpoint to resume).
        with(
            "--record",
            &["--record", "r.jsonl", "--shard", "1/2", "--out", "o"],
        ),
        with(
            "--record",
            &["--record", "r.jsonl", "--resume", "--out", "o"],
        ),
        with("--json", &["--json"]),
        with("--status", &["--status", "2"]),
        with("--budget-ms", &["--budget-ms", "1"]),
        with("--rules", &["--rules", "hoyle"]),
        with("--rule", &["--rule", "gin_bonus=20"]),
    ]
}

fn scratch(name: &str) -> crate::jobs::Scratch {
    let dir = crate::jobs::fresh("matrix", name);
    std::fs::write(
        dir.join("decks.txt"),
        "# one deck\nAC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS\n",
    )
    .unwrap();
    dir
}

/// The flags docs/CLI.md says three players and partnerships refuse: the
/// backquoted flags of its sentence "every other flag of `match` works as
/// for two players except ..., which are refused".
fn readme_refused() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/CLI.md")).unwrap();
    let text = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = "every other flag of `match` works as for two players except ";
    let at = text
        .find(start)
        .expect("docs/CLI.md states which match flags three players and partnerships refuse")
        + start.len();
    let clause = &text[at..];
    let end = clause
        .find("which are refused")
        .or_else(|| clause.find("which is refused"))
        .expect("the sentence ends");
    let clause = &clause[..end];
    clause
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_match_flag_for_every_format() {
    let dir = scratch("match");
    let refused = readme_refused();
    assert!(!refused.is_empty());
    // Whole games only: docs/CLI.md's sentence says so before it names the rest.
    let amounts = ["--hands", "--decks", "--dealer"];
    for c in match_cases() {
        let mut two = None;
        for (format, players, _) in FORMATS {
            let args: Vec<String> = ["match"]
                .iter()
                .chain(players)
                .map(|a| (*a).to_owned())
                .chain(["-q".to_owned(), "--seed".into(), "1".into()])
                .chain(c.args.iter().cloned())
                .collect();
            let got = judge(&dir, &args, c.out, c.json, c.status);
            match format {
                "two" => two = Some(got),
                _ if refused.iter().any(|r| r == c.flag) => {
                    assert_eq!(
                        two,
                        Some(Result_::Whole),
                        "{} works for two players",
                        c.flag
                    );
                    assert_eq!(
                        got,
                        Result_::Refused,
                        "{format} {}: docs/CLI.md says refused",
                        c.flag
                    );
                }
                _ if amounts.contains(&c.flag) => {
                    assert_eq!(
                        got,
                        Result_::Refused,
                        "{format} {}: whole games only",
                        c.flag
                    );
                }
                _ => assert_eq!(
                    Some(got),
                    two,
                    "{format} {}: docs/CLI.md says it works as for two players",
                    c.flag
                ),
            }
        }
    }
}

#[test]
fn every_run_flag_for_every_format() {
    let dir = scratch("run");
    for (format, _, lines) in FORMATS {
        std::fs::write(
            dir.join(format!("{format}.toml")),
            format!("seed = 1\ngames = 4\n{lines}\n[[variant]]\nname = \"standard\"\n\n[[variant]]\nname = \"hoyle\"\n"),
        )
        .unwrap();
        let cases = [
            case("--out", &["--out", "o"]),
            case("--threads", &["--threads", "2", "--out", "o"]),
            case("--quiet", &["--out", "o"]),
            case("--shard", &["--shard", "2/2", "--out", "o"]),
            case("--resume", &["--resume", "--out", "o"]),
            case("--record", &["--record", "r.jsonl", "--out", "o"]),
            case(
                "--record",
                &["--record", "r.jsonl", "--shard", "2/2", "--out", "o"],
            ),
            // A partnership's rating list rates teams.
            case(
                "--anchor",
                &[
                    "--anchor",
                    if format == "partnership" {
                        "greedy+simple"
                    } else {
                        "greedy"
                    },
                    "--out",
                    "o",
                ],
            ),
            case("--json", &["--json", "--out", "o"]),
            case("--status", &["--status", "2", "--out", "o"]),
        ];
        for c in cases {
            let args: Vec<String> = ["run".to_owned(), format!("{format}.toml"), "-q".into()]
                .into_iter()
                .chain(c.args.iter().cloned())
                .collect();
            let got = judge(&dir, &args, c.out, c.json, c.status);
            // What a table cannot do is refused; the rest works.
            let expected = match (format, c.flag) {
                (_, "--resume") => Result_::Refused, // no checkpoint to resume
                ("two", "--anchor") => Result_::Refused, // two players make no rating list
                ("two", _) => Result_::Whole,
                _ => Result_::Whole,
            };
            assert_eq!(got, expected, "run {format} {}", c.flag);
        }
    }
}

#[test]
fn every_study_flag() {
    let dir = scratch("study");
    let studies: [&[&str]; 2] = [
        &[
            "sweep", "greedy", "--param", "knock_at", "--values", "0,10", "--vs", "simple",
        ],
        &["balance", "greedy"],
    ];
    for study in studies {
        let cases = [
            case("--games", &["--games", "4", "--out", "o"]),
            case("--hands", &["--hands", "4", "--out", "o"]),
            case(
                "--rules",
                &["--games", "4", "--rules", "hoyle", "--out", "o"],
            ),
            case(
                "--rule",
                &["--games", "4", "--rule", "gin_bonus=20", "--out", "o"],
            ),
            case("--seed", &["--games", "4", "--seed", "3", "--out", "o"]),
            case(
                "--no-duplicate",
                &["--games", "4", "--no-duplicate", "--out", "o"],
            ),
            case(
                "--threads",
                &["--games", "4", "--threads", "2", "--out", "o"],
            ),
            case("--shard", &["--games", "4", "--shard", "1/2", "--out", "o"]),
            case("--resume", &["--games", "4", "--resume", "--out", "o"]),
            case("--json", &["--games", "4", "--json", "--out", "o"]),
        ];
        for c in cases {
            let args: Vec<String> = study
                .iter()
                .map(|a| (*a).to_owned())
                .chain(["-q".to_owned()])
                .chain(c.args.iter().cloned())
                .collect();
            let got = judge(&dir, &args, c.out, c.json, c.status);
            let expected = match (study[0], c.flag) {
                (_, "--resume") => Result_::Refused,
                ("balance", "--no-duplicate") => Result_::Refused,
                _ => Result_::Whole,
            };
            assert_eq!(got, expected, "{} {}", study[0], c.flag);
        }
    }
}

#[test]
fn a_shard_of_no_deals_is_refused() {
    // 4 partnership games are one deal of four rotations: shard 1/2 holds
    // none of it, and would write a result of 0 games.
    let dir = scratch("empty-shard");
    let args: Vec<String> = [
        "match",
        "--teams",
        "greedy,simple",
        "--vs",
        "random,greedy",
        "-q",
        "--games",
        "4",
        "--shard",
        "1/2",
        "--out",
        "o",
    ]
    .iter()
    .map(|a| (*a).to_owned())
    .collect();
    assert_eq!(
        judge(&dir, &args, Some("o"), false, false),
        Result_::Refused
    );
    let output = ginlab().current_dir(&dir).args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--shard 1/2") && stderr.contains("none of the 1 deal "),
        "{stderr}"
    );
    assert!(!dir.join("o").join("tallies.json").exists());
    // The other half holds the deal and plays it.
    let mut second = args.clone();
    second[9] = "2/2".into();
    assert_eq!(
        judge(&dir, &second, Some("o"), false, false),
        Result_::Whole
    );
    // Two players too: 2 games are one duplicate deal.
    let two = strings(&[
        "match", "greedy", "simple", "-q", "--games", "2", "--shard", "2/3", "--out", "o2",
    ]);
    assert_eq!(
        judge(&dir, &two, Some("o2"), false, false),
        Result_::Refused
    );
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}
