//! `ginlab chart DIR`: a result folder's charts and `distribution.csv`,
//! re-made from its own `tallies.json`; a run writes one headline chart at
//! most, and re-making a folder whose views are absent (as in results/,
//! which does not keep them) or present keeps its manifest.

use std::path::Path;

use crate::cmd::{ginlab, succeeded};

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::scratch("chart", name)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `match greedy simple` into `dir` with `threads` (which the manifest's
/// command records but the results do not depend on).
fn play(dir: &Path, threads: &str) {
    let output = ginlab()
        .args(["match", "greedy", "simple", "--games", "20", "--seed", "5"])
        .args(["-q", "--threads", threads, "--out"])
        .arg(dir)
        .output()
        .unwrap();
    succeeded(&output);
}

fn chart(dir: &Path, extra: &[&str]) -> std::process::Output {
    ginlab().arg("chart").arg(dir).args(extra).output().unwrap()
}

#[test]
fn a_run_writes_no_row_charts_and_chart_makes_them() {
    let dir = scratch("made");
    play(&dir, "1");
    assert_eq!(
        names(&dir),
        [
            "distribution.csv",
            "manifest.toml",
            "summary.csv",
            "tallies.json"
        ]
    );
    let distribution = std::fs::read(dir.join("distribution.csv")).unwrap();
    std::fs::remove_file(dir.join("distribution.csv")).unwrap();
    let output = chart(&dir, &[]);
    assert!(output.status.success());
    let hand = dir.join("hand_score-standard-greedy-vs-simple.svg");
    let margin = dir.join("game_margin-standard-greedy-vs-simple.svg");
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!(
            "{}\n{}\n{}\n",
            hand.display(),
            margin.display(),
            dir.join("distribution.csv").display()
        )
    );
    assert_eq!(
        std::fs::read(dir.join("distribution.csv")).unwrap(),
        distribution
    );
    let svg = std::fs::read_to_string(&hand).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("greedy vs simple, hand score"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn re_making_a_folder_keeps_its_manifest_whether_its_views_are_there_or_not() {
    let dir = scratch("remake");
    play(&dir, "1");
    let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    assert!(manifest.contains("\"--threads\", \"1\""), "{manifest}");
    // As in results/: distribution.csv is not kept.
    std::fs::remove_file(dir.join("distribution.csv")).unwrap();
    play(&dir, "2");
    assert_eq!(
        std::fs::read_to_string(dir.join("manifest.toml")).unwrap(),
        manifest
    );
    assert!(dir.join("distribution.csv").exists());
    // Charts made on demand: the run removes them as views of the earlier
    // run, and keeps the manifest.
    assert!(chart(&dir, &[]).status.success());
    play(&dir, "2");
    assert_eq!(
        std::fs::read_to_string(dir.join("manifest.toml")).unwrap(),
        manifest
    );
    assert!(
        !dir.join("hand_score-standard-greedy-vs-simple.svg")
            .exists()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_out_writes_elsewhere_and_leaves_the_folder_alone() {
    let dir = scratch("source");
    let out = scratch("copy");
    play(&dir, "1");
    let before = names(&dir);
    assert!(
        chart(&dir, &["--out", out.to_str().unwrap()])
            .status
            .success()
    );
    assert_eq!(names(&dir), before);
    assert_eq!(
        names(&out),
        [
            "distribution.csv",
            "game_margin-standard-greedy-vs-simple.svg",
            "hand_score-standard-greedy-vs-simple.svg"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_study_writes_its_headline_chart_only() {
    let dir = scratch("sweep");
    let output = ginlab()
        .args(["sweep", "greedy", "--param", "knock_at", "--values", "1,9"])
        .args(["--vs", "simple", "--hands", "20", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    let svgs: Vec<String> = names(&dir)
        .into_iter()
        .filter(|n| n.ends_with(".svg"))
        .collect();
    assert_eq!(svgs, ["sweep.svg"]);
    let sweep = std::fs::read(dir.join("sweep.svg")).unwrap();
    assert!(chart(&dir, &[]).status.success());
    // The headline chart is re-made the same; the rows' charts join it.
    assert_eq!(std::fs::read(dir.join("sweep.svg")).unwrap(), sweep);
    assert!(
        dir.join("hand_score-standard-greedy_knock_at_9-vs-simple.svg")
            .exists()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_refuses_what_is_not_a_finished_result_folder() {
    let missing = scratch("missing");
    let output = chart(&missing, &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("tallies.json"), "{stderr}");
    assert!(!missing.exists());
    // Edited tallies: refused by the manifest's digest, nothing written.
    let dir = scratch("edited");
    play(&dir, "1");
    let tallies = dir.join("tallies.json");
    let text = std::fs::read_to_string(&tallies).unwrap();
    std::fs::write(&tallies, text.replacen("\"games\":", "\"games\": ", 1)).unwrap();
    let before = names(&dir);
    let output = chart(&dir, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("edited or damaged"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(names(&dir), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every manifest says, in the folder, why a re-made folder's manifest may
/// name an older commit; a seed above 2^63 (any seed from the operating
/// system may be one) does not stop its folder from being read.
#[test]
fn the_manifest_explains_its_commit_and_any_seed_reads_back() {
    let dir = scratch("big-seed");
    let output = ginlab()
        .args(["match", "greedy", "simple", "--hands", "4"])
        .args(["--seed", "18446744073709551615", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(output.status.success());
    let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
    assert!(
        manifest.starts_with(ginlab::report::MANIFEST_NOTE),
        "{manifest}"
    );
    assert!(manifest.contains("seed = 18446744073709551615"));
    let output = chart(&dir, &[]);
    succeeded(&output);
    std::fs::remove_dir_all(&dir).unwrap();
}
