//! `--resume` trusts nothing it did not check, through the binary: a
//! checkpoint whose rows name other players, another seed, another
//! variant or another format than the run plays is refused with exit 2,
//! never resumed into a summary of the wrong players.

use std::path::Path;

fn ginlab(dir: &Path, args: &[&str]) -> std::process::Output {
    crate::cmd::ginlab()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Makes `out`'s finished `tallies.json` its checkpoint, edited by `edit`,
/// and resumes `args`: the exit code and standard error.
fn resume_edited(
    dir: &Path,
    args: &[&str],
    edit: &dyn Fn(&mut serde_json::Value),
) -> (Option<i32>, String) {
    let out = dir.join("out");
    let mut state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("tallies.json")).unwrap()).unwrap();
    edit(&mut state);
    std::fs::write(
        out.join("checkpoint.json"),
        serde_json::to_vec(&state).unwrap(),
    )
    .unwrap();
    let output = ginlab(dir, &[args, &["--resume"]].concat());
    let _ = std::fs::remove_file(out.join("checkpoint.json"));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// An edit of one state row, named.
type Edit<'a> = (&'a str, &'a dyn Fn(&mut serde_json::Value));

fn check(args: &[&str], key: &str, edits: &[Edit<'_>]) {
    let dir = crate::jobs::scratch("resume", &args[1..4].join("-"));
    std::fs::create_dir_all(&dir).unwrap();
    let first = ginlab(&dir, args);
    assert!(first.status.success(), "{args:?}");
    let summary = std::fs::read(dir.join("out/summary.csv")).unwrap();
    // An honest checkpoint (the finished run's own tallies) resumes.
    let (code, stderr) = resume_edited(&dir, args, &|_| {});
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(std::fs::read(dir.join("out/summary.csv")).unwrap(), summary);
    for (what, edit) in edits {
        let (code, stderr) = resume_edited(&dir, args, &|state| edit(&mut state[key][0]));
        assert_eq!(code, Some(2), "{what}: {stderr}");
        assert!(
            stderr.contains("checkpoint.json")
                && (stderr.contains("the file was edited or damaged")
                    || stderr.contains("not a ginlab state file")),
            "{what}: {stderr}"
        );
        assert_eq!(
            std::fs::read(dir.join("out/summary.csv")).unwrap(),
            summary,
            "{what}: the result was not touched"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_naming_another_row_is_refused() {
    let swap = |row: &mut serde_json::Value| {
        let players = row["players"].as_array_mut().unwrap();
        players.swap(0, 1);
    };
    let seed = |row: &mut serde_json::Value| row["seed"] = 99.into();
    let variant = |row: &mut serde_json::Value| row["variant"] = "hoyle".into();
    check(
        &[
            "match", "greedy", "simple", "--games", "20", "--seed", "3", "-q", "--out", "out",
        ],
        "rows",
        &[
            ("players swapped", &swap),
            ("seed", &seed),
            ("variant", &variant),
        ],
    );
    let format = |row: &mut serde_json::Value| row["format"] = "partnership".into();
    check(
        &[
            "match", "greedy", "simple", "random", "--games", "12", "--seed", "3", "-q", "--out",
            "out",
        ],
        "tables",
        &[
            ("players swapped", &swap),
            ("seed", &seed),
            ("variant", &variant),
            ("format", &format),
        ],
    );
}

/// A state file that cannot be read is bad input: the message names the
/// file, and the operating system's reason follows it once.
#[test]
fn an_unreadable_state_file_is_reported_with_its_cause_once() {
    let dir = crate::jobs::scratch("resume", "unreadable");
    let shard = dir.join("shard");
    std::fs::create_dir_all(shard.join("tallies.json")).unwrap();
    let output = ginlab(&dir, &["merge", "shard", "--out", "merged"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let reason = std::io::Error::from_raw_os_error(21).to_string();
    let line = format!("error: reading shard/tallies.json: {reason}\n");
    assert!(stderr.ends_with(&line), "{stderr}");
    assert_eq!(stderr.matches(&reason).count(), 1, "{stderr}");
    assert!(!dir.join("merged").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
