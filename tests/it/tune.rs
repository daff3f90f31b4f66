//! `ginlab tune` through the binary: the same files for any thread count,
//! a run killed mid-search and resumed ends with the files of an
//! uninterrupted one, `--json`, a `[tune]` spec run by `ginlab run`, and
//! bad input (exit 2, the message naming it).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

use crate::cmd::{ginlab, succeeds};

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::scratch("tune", name)
}

/// A small race: greedy's knock_at 0..=4 under hoyle, blocks of 32 deals.
const RACE: [&str; 16] = [
    "tune",
    "--strategy",
    "greedy",
    "--param",
    "knock_at=0..=4",
    "--rules",
    "hoyle",
    "--games",
    "3000",
    "--block",
    "32",
    "--confirm",
    "400",
    "--seed",
    "5",
    "-q",
];

/// Every file of a tuning folder that does not name the command line.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in [dir.to_path_buf(), dir.join("confirm")] {
        for entry in std::fs::read_dir(&sub).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_file() && !(sub != dir && name == "manifest.toml") {
                out.push((
                    format!("{}/{name}", sub.display()).replace(&dir.display().to_string(), ""),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// Runs `args` into `out` and kills it (SIGKILL) once `stop` has seen a
/// status line it accepts: the state is written before each status line.
fn kill_at(args: &[&str], out: &Path, stop: impl Fn(usize, &str) -> bool) {
    let mut child = crate::cmd::ginlab_process()
        .args(args)
        .arg("--out")
        .arg(out)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    for (n, line) in lines.enumerate() {
        if stop(n + 1, &line.unwrap()) {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A killed run refuses a plain rerun and, resumed, ends with the files of
/// the uninterrupted run in `whole`.
fn resumes_to(args: &[&str], killed: &Path, whole: &Path) {
    let output = ginlab()
        .args(args)
        .arg("--out")
        .arg(killed)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("add --resume"));
    succeeds(
        ginlab()
            .args(args)
            .args(["-q", "--resume", "--out"])
            .arg(killed),
    );
    assert_eq!(files(whole), files(killed));
}

#[test]
fn the_same_files_for_one_thread_and_two() {
    let (a, b) = (scratch("t1"), scratch("t2"));
    succeeds(
        ginlab()
            .args(RACE)
            .args(["--threads", "1", "--out"])
            .arg(&a),
    );
    succeeds(
        ginlab()
            .args(RACE)
            .args(["--threads", "2", "--out"])
            .arg(&b),
    );
    let (fa, fb) = (files(&a), files(&b));
    assert!(
        fa.iter().any(|(n, _)| n == "/answer.csv"),
        "{:?}",
        fa.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert!(fa.iter().any(|(n, _)| n == "/tuned-hoyle.toml"));
    assert_eq!(fa, fb);
    let answer = std::fs::read_to_string(a.join("answer.csv")).unwrap();
    assert!(
        answer
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("hoyle,race,simple,greedy:knock_at=0,"),
        "{answer}"
    );
}

#[test]
fn a_run_killed_mid_search_resumes_to_the_same_files() {
    let (whole, killed) = (scratch("whole"), scratch("killed"));
    let spsa = [
        "tune",
        "--strategy",
        "greedy",
        "--param",
        "knock_at=0..=10",
        "--param",
        "schedule@10=0..=10",
        "--method",
        "spsa",
        "--rules",
        "standard",
        "--games",
        "6000",
        "--block",
        "16",
        "--confirm",
        "200",
        "--seed",
        "9",
    ];
    succeeds(ginlab().args(spsa).args(["-q", "--out"]).arg(&whole));
    // The state is written after each block's status line: after the
    // third line at least two blocks are in it.
    kill_at(&spsa, &killed, |n, _| n == 3);
    let state = std::fs::read_to_string(killed.join("tune.json")).unwrap();
    assert!(
        state.contains("\"done\":false"),
        "killed before the search ended"
    );
    resumes_to(&spsa, &killed, &whole);
}

#[test]
fn a_run_killed_mid_confirmation_resumes_to_the_same_files() {
    let (whole, killed) = (scratch("cwhole"), scratch("ckilled"));
    // The confirmation plays 2,048 deals a block: 10,000 games are three.
    let race = [
        "tune",
        "--strategy",
        "greedy",
        "--param",
        "knock_at=8,10",
        "--vs",
        "greedy",
        "--rules",
        "standard",
        "--games",
        "2000",
        "--block",
        "64",
        "--confirm",
        "10000",
        "--seed",
        "3",
    ];
    succeeds(ginlab().args(race).args(["-q", "--out"]).arg(&whole));
    kill_at(&race, &killed, |_, line| {
        line.starts_with("confirmation: 2048 of")
    });
    let state = std::fs::read_to_string(killed.join("tune.json")).unwrap();
    assert!(state.contains("\"confirm\":{"), "killed mid-confirmation");
    resumes_to(&race, &killed, &whole);
    let state = std::fs::read_to_string(whole.join("tune.json")).unwrap();
    assert!(
        !state.contains("\"confirm\""),
        "a finished state keeps no confirmation"
    );
}

#[test]
fn json_and_a_spec_give_the_answer() {
    let dir = scratch("json");
    let json = succeeds(ginlab().args(RACE).args(["--json", "--out"]).arg(&dir));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let answer = &value["answers"][0];
    assert_eq!(answer["variant"], "hoyle");
    assert_eq!(answer["best"], "greedy:knock_at=0");
    assert_eq!(answer["confirmed"].as_array().unwrap().len(), 3);
    assert!(answer["edges"][1]["lo"].as_f64().unwrap() > 0.0, "{json}");

    let spec_dir = scratch("spec");
    std::fs::create_dir_all(&spec_dir).unwrap();
    let spec = spec_dir.join("t.toml");
    std::fs::write(
        &spec,
        "seed = 5\ngames = 3000\n[[variant]]\nname = \"hoyle\"\n[tune]\nstrategy = \"greedy\"\nparams = [\"knock_at=0..=4\"]\nvs = [\"simple\"]\nblock = 32\nconfirm = 400\n",
    )
    .unwrap();
    let out = spec_dir.join("out");
    succeeds(
        ginlab()
            .arg("run")
            .arg(&spec)
            .args(["-q", "--out"])
            .arg(&out),
    );
    for name in ["answer.csv", "search.csv", "tune.json"] {
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(dir.join(name)).unwrap(),
            "{name}"
        );
    }
}

fn refused(args: &[&str], wanted: &[&str]) {
    let output = ginlab().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    for w in wanted {
        assert!(stderr.contains(w), "{args:?}: `{w}` not in {stderr}");
    }
}

#[test]
fn bad_input_is_exit_2_naming_it() {
    let dir = scratch("bad");
    let out = dir.to_str().unwrap();
    let base = [
        "tune",
        "--strategy",
        "greedy",
        "--games",
        "1000",
        "--out",
        out,
    ];
    refused(
        &[&base[..], &["--param", "hold=0..=3"]].concat(),
        &["has no parameter `hold`", "knock_at, schedule"],
    );
    refused(
        &[&base[..], &["--param", "knock_at=5..=3"]].concat(),
        &["knock_at=5..=3", "LO must be below HI"],
    );
    refused(
        &[&base[..], &["--param", "knock_at=0..=12"]].concat(),
        &["knock_at=0..=12", "0 to 10"],
    );
    refused(
        &[&base[..], &["--param", "knock_at=0..=3", "--block", "5000"]].concat(),
        &["budget (1000)"],
    );
    refused(
        &[
            &base[..],
            &["--param", "knock_at=0..=3", "--vs", "simple*0"],
        ]
        .concat(),
        &["--vs simple*0"],
    );
    refused(
        &[&base[..], &["--param", "knock_at=0..=3", "--resume"]].concat(),
        &["--resume: no tuning state"],
    );
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("bad.toml");
    std::fs::write(&spec, "seed = 1\ngames = 10\n[[variant]]\nname = \"standard\"\n[tune]\nstrategy = \"greedy\"\nparams = [\"knock_at=0..=3\"]\nvs = [\"simple\"]\nbudgett = 3\n").unwrap();
    refused(&["run", spec.to_str().unwrap()], &["bad.toml", "budgett"]);
    assert!(!dir.join("tune.json").exists(), "nothing written");
}
