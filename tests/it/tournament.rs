//! `ginlab tournament`: a round robin or gauntlet typed on the command
//! line plays the job a spec with that pairing plays, byte for byte, and
//! prints the rating list; `match A B C` stays a three-player table.

use std::path::Path;

use crate::cmd::{ginlab, succeeds};

fn scratch(name: &str) -> crate::jobs::Scratch {
    crate::jobs::scratch("tournament", name)
}

/// The CSV files of a result folder (the manifests differ by command).
fn csv_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_command_line_round_robin_is_the_spec_s_round_robin() {
    for (flag, pairing, rows) in [("", "round_robin", 6), ("--gauntlet", "gauntlet", 3)] {
        let base = scratch(pairing);
        std::fs::create_dir_all(&base).unwrap();
        let spec = base.join("t.toml");
        std::fs::write(
            &spec,
            format!(
                "seed = 3\ngames = 30\nplayers = [\"greedy\", \"simple\", \"random\", \"greedy-k7\"]\npairing = \"{pairing}\"\n\n[[variant]]\nname = \"standard\"\n"
            ),
        )
        .unwrap();
        succeeds(
            ginlab()
                .arg("run")
                .arg(&spec)
                .arg("--out")
                .arg(base.join("spec"))
                .arg("-q"),
        );
        let mut typed = ginlab();
        typed.args(["tournament", "greedy", "simple", "random", "greedy-k7"]);
        if !flag.is_empty() {
            typed.arg(flag);
        }
        let stdout = succeeds(
            typed
                .args(["--games", "30", "--seed", "3", "-q", "--out"])
                .arg(base.join("typed")),
        );
        assert_eq!(
            csv_files(&base.join("typed")),
            csv_files(&base.join("spec"))
        );
        let summary = std::fs::read_to_string(base.join("typed/summary.csv")).unwrap();
        assert_eq!(summary.lines().count(), 1 + rows, "{summary}");
        // The rating list, anchored at simple.
        assert!(stdout.contains("greedy-k7"), "{stdout}");
        assert!(stdout.contains("anchor"), "{stdout}");
        assert!(base.join("typed/ratings.csv").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }
}

#[test]
fn a_tournament_writes_no_folder_without_out_and_takes_an_anchor() {
    let dir = scratch("no-out");
    std::fs::create_dir_all(&dir).unwrap();
    let stdout = succeeds(
        ginlab()
            .current_dir(&dir)
            .args(["tournament", "greedy", "simple", "random", "--hands", "40"])
            .args(["--anchor", "greedy", "-q"]),
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("greedy") && l.contains("anchor")),
        "{stdout}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fewer_than_three_players_are_refused_and_match_a_b_c_is_a_table() {
    let output = ginlab()
        .args(["tournament", "greedy", "simple", "--games", "4"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("three or more") && stderr.contains("ginlab match A B"),
        "{stderr}"
    );
    let stdout = succeeds(ginlab().args([
        "match", "greedy", "simple", "random", "--games", "6", "--seed", "1", "-q",
    ]));
    assert!(
        stdout.starts_with("three players greedy, simple, random"),
        "{stdout}"
    );
}
