//! The documentation against the program: every console example in
//! README.md and docs/*.md prints what it shows (trycmd), and every CSV
//! column written is described in docs/CLI.md's column tables.
//!
//! To re-bless the examples after an intended change of output:
//! `TRYCMD=overwrite cargo test --test it docs::`, then review `git diff`.

use std::collections::BTreeSet;
use std::path::Path;

use crate::cmd::{ginlab, succeeds};

/// Every column docs/CLI.md's tables describe: the backquoted names in the
/// first cell of each table row, a `_lo`-style shorthand read as the first
/// name's stem (without `_rate`) plus the suffix.
fn documented_columns() -> BTreeSet<String> {
    let readme = include_str!("../../docs/CLI.md");
    let mut columns = BTreeSet::new();
    for line in readme.lines().filter(|l| l.starts_with("| `")) {
        let cell = line.trim_start_matches('|').split('|').next().unwrap();
        let names: Vec<&str> = cell.split('`').skip(1).step_by(2).map(str::trim).collect();
        let stem = names[0].strip_suffix("_rate").unwrap_or(names[0]);
        for name in names {
            if name.starts_with('_') {
                columns.insert(format!("{stem}{name}"));
            } else {
                columns.insert(name.to_owned());
            }
        }
    }
    columns
}

/// The header row of CSV file `path`.
fn header(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .next()
        .unwrap()
        .split(',')
        .map(str::to_owned)
        .collect()
}

fn run(args: &[&str], dir: &Path) {
    succeeds(ginlab().args(args).arg("--out").arg(dir).arg("-q"));
}

/// The documents with console examples.
const DOCS: [&str; 3] = ["README.md", "docs/CLI.md", "docs/RECORDS.md"];

/// Runs every ```` ```console ```` block of [`DOCS`] (`ginlab` is the
/// binary under test; `[..]` and `...` elide what changes from run to run,
/// such as timings). Each document is copied into a scratch folder whose
/// `NAME.in/` holds the files its examples read (the record `e.jsonl`), so
/// the examples run there and write nothing into the repository. With
/// `TRYCMD=overwrite` the blessed copies are written back.
#[test]
fn console_examples_print_what_they_show() {
    let root = std::env::temp_dir().join(format!("ginlab-examples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in DOCS {
        let name = Path::new(doc).file_name().unwrap();
        std::fs::create_dir_all(&root).unwrap();
        std::fs::copy(repo.join(doc), root.join(name)).unwrap();
        let input = root.join(Path::new(name).with_extension("in"));
        std::fs::create_dir_all(&input).unwrap();
        // The records README's and RECORDS.md's replay examples read, and
        // the second one CLI.md's compare example reads.
        for (first, file) in [("greedy", "e.jsonl"), ("greedy:knock_at=5", "e5.jsonl")] {
            succeeds(
                ginlab()
                    .current_dir(&input)
                    .args(["match", first, "simple", "--hands", "200"])
                    .args(["--seed", "42", "--record", file, "-q"]),
            );
        }
    }
    trycmd::TestCases::new()
        .register_bin("ginlab", Path::new(env!("CARGO_BIN_EXE_ginlab")))
        .case(root.join("*.md"))
        .run();
    if std::env::var("TRYCMD").is_ok_and(|v| v == "overwrite") {
        for doc in DOCS {
            let name = Path::new(doc).file_name().unwrap();
            std::fs::copy(root.join(name), repo.join(doc)).unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn every_csv_column_is_documented() {
    let base = std::env::temp_dir().join(format!("ginlab-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    run(
        &["match", "greedy", "simple", "--games", "2", "--seed", "1"],
        &base.join("match"),
    );
    run(
        &["balance", "greedy", "--hands", "4", "--seed", "1"],
        &base.join("balance"),
    );
    run(
        &[
            "sweep", "greedy", "--param", "knock_at", "--values", "1,2", "--vs", "simple",
            "--hands", "4",
        ],
        &base.join("sweep"),
    );
    run(
        &[
            "match", "greedy", "simple", "random", "--games", "3", "--seed", "1",
        ],
        &base.join("three"),
    );
    let mut headers: Vec<(String, Vec<String>)> = Vec::new();
    for (folder, file) in [
        ("match", "summary.csv"),
        ("match", "distribution.csv"),
        ("balance", "balance.csv"),
        ("sweep", "sweep.csv"),
        ("three", "summary.csv"),
        ("three", "seats.csv"),
    ] {
        headers.push((file.to_owned(), header(&base.join(folder).join(file))));
    }
    for (command, input) in [
        ("solve", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS\n"),
        (
            "showdown",
            "knocker,defender\n\"AS 2S 3S 4H 5H 6H 7D 8D 9D KC\",\"KS QS JS TS 9S 8S 7S 6S 5S 4S\"\n",
        ),
    ] {
        let text = succeeds(ginlab().args([command, "--batch"]).write_stdin(input));
        let columns = text
            .lines()
            .next()
            .unwrap()
            .split(',')
            .map(str::to_owned)
            .collect();
        headers.push((format!("{command} --batch"), columns));
    }
    let documented = documented_columns();
    for (file, columns) in headers {
        let missing: Vec<&String> = columns
            .iter()
            .filter(|c| !documented.contains(*c))
            .collect();
        assert!(
            missing.is_empty(),
            "docs/CLI.md does not describe {file}'s columns {missing:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// strategies/README.md's table has a row per kind of the program's table,
/// in its order, and names every parameter of the kind in that row.
#[test]
fn strategies_readme_lists_every_kind_and_parameter() {
    let readme = include_str!("../../strategies/README.md");
    let rows: Vec<(&str, &str)> = readme
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let mut cells = l.trim_start_matches('|').splitn(2, '|');
            let kind = cells.next().unwrap().trim().trim_matches('`');
            (kind, cells.next().unwrap())
        })
        .collect();
    let kinds: Vec<&str> = ginlab::strategy::KINDS.iter().map(|k| k.name).collect();
    let listed: Vec<&str> = rows.iter().map(|(kind, _)| *kind).collect();
    assert_eq!(listed, kinds, "strategies/README.md's kinds");
    for (kind, (_, row)) in ginlab::strategy::KINDS.iter().zip(&rows) {
        for param in kind.params {
            assert!(
                row.contains(&format!("`{}`", param.name)),
                "strategies/README.md's row of `{}` does not name `{}`",
                kind.name,
                param.name
            );
        }
    }
}
