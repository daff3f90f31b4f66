//! What a job command says when nobody watches a terminal: `run` prints a
//! start line and progress lines on standard error (the bar is drawn only
//! on a terminal), `-q` silences them; `merge` takes `-q` as every job
//! command does.

use std::path::PathBuf;

use crate::cmd::{ginlab, succeeded};

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::fresh("logs", name)
}

/// A spec of two rows of 400 hands each (200 duplicate deals a row).
fn spec(dir: &std::path::Path) -> PathBuf {
    let path = dir.join("logged.toml");
    std::fs::write(
        &path,
        "seed = 2\nhands = 400\nplayers = [\"greedy\", \"simple\"]\n\n[[variant]]\nname = \"standard\"\n\n[[variant]]\nname = \"hoyle\"\n",
    )
    .unwrap();
    path
}

#[test]
fn run_in_a_log_prints_a_start_line_and_progress_lines() {
    let dir = scratch("lines");
    let output = ginlab()
        .arg("run")
        .arg(spec(&dir))
        .arg("--out")
        .arg(dir.join("out"))
        .args(["--threads", "1"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines[0], "started: 400 deals", "{stderr}");
    let progress = &lines[1..];
    assert!(
        progress
            .iter()
            .all(|l| l.contains(" deals (") && l.contains(" %) in ")),
        "{stderr}"
    );
    // A line at each tenth (at most ten), the last at 400/400, naming the
    // row being played.
    assert!((2..=10).contains(&progress.len()), "{stderr}");
    assert!(
        progress[0].contains("playing standard greedy v simple"),
        "{stderr}"
    );
    assert!(
        progress
            .last()
            .unwrap()
            .starts_with("400/400 deals (100 %)"),
        "{stderr}"
    );
    // The table still goes to standard output alone.
    assert!(String::from_utf8(output.stdout).unwrap().contains("greedy"));
    let quiet = ginlab()
        .arg("run")
        .arg(spec(&dir))
        .arg("--out")
        .arg(dir.join("quiet"))
        .arg("-q")
        .output()
        .unwrap();
    assert!(quiet.status.success());
    assert_eq!(String::from_utf8(quiet.stderr).unwrap(), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_takes_q() {
    let dir = scratch("merge");
    for k in ["1/2", "2/2"] {
        let output = ginlab()
            .arg("run")
            .arg(spec(&dir))
            .arg("--out")
            .arg(dir.join(k.replace('/', "-")))
            .args(["--shard", k, "-q"])
            .output()
            .unwrap();
        assert!(output.status.success());
    }
    let output = ginlab()
        .arg("merge")
        .arg(dir.join("1-2"))
        .arg(dir.join("2-2"))
        .arg("--out")
        .arg(dir.join("merged"))
        .arg("-q")
        .output()
        .unwrap();
    succeeded(&output);
    assert!(dir.join("merged/summary.csv").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
