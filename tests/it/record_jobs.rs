//! Game records of sharded and resumed jobs, through the binary: shards
//! each write their part of the record and `ginlab merge --record`
//! combines them into the record one unsharded run writes, byte for byte;
//! a killed run resumed with `--resume` ends with the record an
//! uninterrupted run writes; and what does not belong together (a missing
//! or edited part, another run's part, a partial record that does not
//! match the checkpoint) is refused with exit code 2, naming the file.

use std::path::{Path, PathBuf};

/// A fresh folder for one test's files.
fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("record-jobs", name)
}

/// `ginlab args` in `dir`: (exit code, stderr).
fn ginlab(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = crate::cmd::ginlab()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn ok(dir: &Path, args: &[&str]) {
    let (code, stderr) = ginlab(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
}

/// Refused with exit code 2 and a message holding every one of `names`.
fn refused(dir: &Path, args: &[&str], names: &[&str]) {
    let (code, stderr) = ginlab(dir, args);
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    for name in names {
        assert!(stderr.contains(name), "{args:?}: no `{name}` in {stderr}");
    }
}

fn read(path: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// Two-player and three-player specs of two variants each, so a record
/// holds two rows, one after the other.
const SPECS: [(&str, &str); 2] = [
    (
        "two",
        "seed = 11\ngames = 14\nplayers = [\"greedy\", \"simple\"]\n",
    ),
    (
        "three",
        "seed = 11\ngames = 15\nformat = \"three\"\nplayers = [\"greedy\", \"simple\", \"random\"]\n",
    ),
];

const VARIANTS: &str = "\n[[variant]]\nname = \"standard\"\n\n[[variant]]\nname = \"hoyle\"\n";

#[test]
fn sharded_records_merge_to_the_unsharded_record() {
    for (name, lines) in SPECS {
        let dir = scratch(&format!("merge-{name}"));
        std::fs::write(dir.join("spec.toml"), format!("{lines}{VARIANTS}")).unwrap();
        ok(
            &dir,
            &[
                "run",
                "spec.toml",
                "-q",
                "--out",
                "whole",
                "--record",
                "whole.jsonl",
            ],
        );
        let whole = read(dir.join("whole.jsonl"));
        assert!(whole.split(|b| *b == b'\n').count() > 20, "{name}");
        for count in [2, 3] {
            let mut shards = Vec::new();
            for k in 1..=count {
                let out = format!("s{count}-{k}");
                // The first shard records inside its folder, the others
                // beside it: merge finds both.
                let record = if k == 1 {
                    format!("{out}/part.jsonl")
                } else {
                    format!("{out}.jsonl")
                };
                std::fs::create_dir_all(dir.join(&out)).unwrap();
                let shard = format!("{k}/{count}");
                ok(
                    &dir,
                    &[
                        "run",
                        "spec.toml",
                        "-q",
                        "--threads",
                        "2",
                        "--shard",
                        &shard,
                        "--out",
                        &out,
                        "--record",
                        &record,
                    ],
                );
                shards.push(out);
            }
            // Given in any order, the shards merge to the whole record.
            shards.reverse();
            let merged = format!("m{count}");
            let record = format!("m{count}.jsonl");
            let args: Vec<&str> = ["merge"]
                .into_iter()
                .chain(shards.iter().map(String::as_str))
                .chain(["-q", "--out", &merged, "--record", &record])
                .collect();
            ok(&dir, &args);
            assert!(
                read(dir.join(&record)) == whole,
                "{name}: {count} shards merge to another record"
            );
            assert_eq!(
                read(dir.join(&merged).join("tallies.json")),
                read(dir.join("whole/tallies.json")),
                "{name}: {count} shards"
            );
            // The merged record replays.
            ok(&dir, &["replay", &record, "--check"]);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn bad_merges_of_records_are_refused() {
    let dir = scratch("bad-merge");
    let (_, lines) = SPECS[0];
    std::fs::write(dir.join("spec.toml"), format!("{lines}{VARIANTS}")).unwrap();
    std::fs::write(
        dir.join("other.toml"),
        format!("{}{VARIANTS}", lines.replace("seed = 11", "seed = 12")),
    )
    .unwrap();
    for (spec, prefix) in [("spec.toml", "a"), ("other.toml", "b")] {
        for k in 1..=2 {
            let shard = format!("{k}/2");
            let out = format!("{prefix}{k}");
            let record = format!("{prefix}{k}.jsonl");
            ok(
                &dir,
                &[
                    "run", spec, "-q", "--shard", &shard, "--out", &out, "--record", &record,
                ],
            );
        }
    }
    ok(
        &dir,
        &["run", "spec.toml", "-q", "--shard", "2/2", "--out", "plain"],
    );
    fn merge(shards: [&str; 2]) -> [&str; 7] {
        [
            "merge", shards[0], shards[1], "--out", "m", "--record", "m.jsonl",
        ]
    }
    let untouched = |what: &str| {
        assert!(!dir.join("m").exists(), "{what}: a result was written");
        assert!(
            !dir.join("m.jsonl").exists(),
            "{what}: a record was written"
        );
    };
    let part = read(dir.join("a2.jsonl"));
    // A shard's record missing.
    std::fs::remove_file(dir.join("a2.jsonl")).unwrap();
    refused(&dir, &merge(["a1", "a2"]), &["a2.jsonl", "shard 2/2"]);
    untouched("missing");
    // Another run's part in its place.
    std::fs::copy(dir.join("b2.jsonl"), dir.join("a2.jsonl")).unwrap();
    refused(&dir, &merge(["a1", "a2"]), &["a2.jsonl", "another run"]);
    untouched("another run's part");
    // A part edited: one digit of a line changed, or a line cut off.
    let mut edited = part.clone();
    let at = edited.iter().position(|b| b.is_ascii_digit()).unwrap();
    edited[at] = if edited[at] == b'9' {
        b'8'
    } else {
        edited[at] + 1
    };
    std::fs::write(dir.join("a2.jsonl"), &edited).unwrap();
    refused(&dir, &merge(["a1", "a2"]), &["a2.jsonl", "edited"]);
    untouched("edited");
    std::fs::write(dir.join("a2.jsonl"), &part[..part.len() - 10]).unwrap();
    refused(&dir, &merge(["a1", "a2"]), &["a2.jsonl", "edited"]);
    untouched("cut");
    std::fs::write(dir.join("a2.jsonl"), &part).unwrap();
    // Shards of different runs, and a shard run without a record.
    refused(
        &dir,
        &merge(["a1", "b2"]),
        &["b2", "not a shard of the same run"],
    );
    untouched("different runs");
    refused(
        &dir,
        &merge(["a1", "plain"]),
        &["plain/tallies.json", "without --record"],
    );
    untouched("no record");
    // The honest shards merge; without --record their records are left out.
    ok(&dir, &merge(["a1", "a2"]));
    ok(&dir, &["merge", "a1", "a2", "--out", "m2"]);
    // A shard's part goes to a file, which merge reads.
    refused(
        &dir,
        &[
            "run",
            "spec.toml",
            "-q",
            "--shard",
            "1/2",
            "--out",
            "c",
            "--record",
            "-",
        ],
        &["--record -", "--shard"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts `args` in `dir`, kills it (SIGKILL) once it has written a
/// checkpoint into `out`, and checks it was cut before its end.
fn kill_after_a_checkpoint(dir: &Path, args: &[&str], out: &str) {
    stop_after_a_checkpoint(dir, args, out, false);
}

/// [`kill_after_a_checkpoint`], or with `interrupt` stops it as Ctrl-C
/// does (SIGINT, where the process removes its temporary files and exits).
fn stop_after_a_checkpoint(dir: &Path, args: &[&str], out: &str, interrupt: bool) {
    let mut child = crate::cmd::ginlab_process()
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = dir.join(out).join("checkpoint.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !checkpoint.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    if interrupt {
        use rustix::process::{Pid, Signal, kill_process};
        kill_process(Pid::from_child(&child), Signal::INT).unwrap();
    } else {
        child.kill().unwrap();
    }
    child.wait().unwrap();
    assert!(checkpoint.exists(), "{args:?}: no checkpoint was written");
    assert!(
        !dir.join(out).join("summary.csv").exists(),
        "{args:?}: the run finished before it was killed"
    );
}

/// The temporary files beside the record `name` in `dir`.
fn partials(dir: &Path, name: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!(".{name}.tmp-"))
        })
        .collect()
}

#[test]
fn a_killed_recorded_run_resumes_to_the_same_record() {
    // Two players killed outright; three stopped as by Ctrl-C, which
    // keeps the partial record the checkpoint names.
    let players: [&[&str]; 2] = [&["greedy", "simple"], &["greedy", "simple", "random"]];
    for players in players {
        let interrupt = players.len() == 3;
        let dir = scratch(&format!("resume-{}", players.len()));
        // A checkpoint every few deals, so the kill comes mid-way.
        let args = |out: &'static str| -> Vec<&str> {
            [
                &["match"],
                players,
                &["--games", "1200", "--seed", "5", "-q"],
            ]
            .concat()
            .into_iter()
            .chain(["--threads", "2", "--status", "12", "--out", out])
            .collect()
        };
        let whole = [args("whole"), vec!["--record", "whole.jsonl"]].concat();
        ok(&dir, &whole);
        let cut = [args("cut"), vec!["--record", "cut.jsonl"]].concat();
        stop_after_a_checkpoint(&dir, &cut, "cut", interrupt);
        assert!(!dir.join("cut.jsonl").exists(), "the record appears whole");
        let found = partials(&dir, "cut.jsonl");
        let [partial] = &found[..] else {
            panic!("the killed run keeps one partial record: {found:?}");
        };
        let kept = read(partial);
        let resume = [cut.clone(), vec!["--resume"]].concat();
        // Resuming without the record, or into another file, is refused.
        refused(
            &dir,
            &[args("cut"), vec!["--resume"]].concat(),
            &["--record", "cut.jsonl"],
        );
        refused(
            &dir,
            &[args("cut"), vec!["--resume", "--record", "other.jsonl"]].concat(),
            &["other.jsonl", "checkpoint.json", "cut.jsonl"],
        );
        // A partial record that does not match the checkpoint is refused.
        let mut edited = kept.clone();
        let at = edited.iter().position(|b| b.is_ascii_digit()).unwrap();
        edited[at] = if edited[at] == b'9' {
            b'8'
        } else {
            edited[at] + 1
        };
        std::fs::write(partial, &edited).unwrap();
        let name = partial.file_name().unwrap().to_str().unwrap();
        refused(&dir, &resume, &[name, "does not match", "checkpoint.json"]);
        std::fs::write(partial, &kept[..kept.len().min(100)]).unwrap();
        refused(&dir, &resume, &[name, "does not match"]);
        assert!(!dir.join("cut.jsonl").exists());
        // The kept lines (and any the killed block wrote past the
        // checkpoint) continue to the uninterrupted run's record.
        std::fs::write(partial, &kept).unwrap();
        ok(&dir, &resume);
        assert!(
            read(dir.join("cut.jsonl")) == read(dir.join("whole.jsonl")),
            "{players:?}: the resumed record differs"
        );
        assert_eq!(
            read(dir.join("cut/summary.csv")),
            read(dir.join("whole/summary.csv"))
        );
        assert!(partials(&dir, "cut.jsonl").is_empty(), "no partial left");
        assert!(!dir.join("cut/checkpoint.json").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A checkpoint of a run without a record cannot be resumed with one: the
/// games played before it are in no file.
#[test]
fn a_run_without_a_record_is_not_resumed_with_one() {
    let dir = scratch("resume-unrecorded");
    let args = [
        "match",
        "greedy",
        "simple",
        "--games",
        "1200",
        "--seed",
        "5",
        "-q",
        "--threads",
        "2",
        "--status",
        "12",
        "--out",
        "cut",
    ];
    kill_after_a_checkpoint(&dir, &args, "cut");
    refused(
        &dir,
        &[&args[..], &["--resume", "--record", "late.jsonl"]].concat(),
        &["late.jsonl", "without a record", "checkpoint.json"],
    );
    assert!(!dir.join("late.jsonl").exists());
    assert!(partials(&dir, "late.jsonl").is_empty());
    ok(&dir, &[&args[..], &["--resume"]].concat());
    std::fs::remove_dir_all(&dir).unwrap();
}
