//! The documentation against the program: every console example in
//! README.md and docs/*.md prints what it shows (trycmd), and every CSV
//! column written is described in docs/CLI.md's column tables. And the
//! documentation against itself: results/INDEX.md's rows hold a sentence
//! or two, every result folder has its notes and a row, docs/DESIGN.md and
//! results/README.md stay short, and every relative link in README.md,
//! docs/ and results/ resolves.
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

/// The longest row results/INDEX.md may hold, in characters, and the most
/// sentences its verdict cell may hold: a row says the answer, its notes
/// (the folder's `README.md`, or a results/notes/ page) say the rest.
const INDEX_ROW_CHARS: usize = 500;
const INDEX_VERDICT_SENTENCES: usize = 2;

/// The design doc stays a design (what and why, with links for the
/// evidence), and results/README.md a guide, not a notebook.
const DESIGN_LINES: usize = 900;
const RESULTS_README_LINES: usize = 150;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// How many sentences `text` holds: the `.`, `?` and `!` that end it or
/// that a space follows (so `0.05` and `NAME.toml` are not ends), outside
/// code spans.
fn sentences(text: &str) -> usize {
    let mut in_code = false;
    let chars: Vec<char> = text.trim().chars().collect();
    let mut count = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code
            && matches!(c, '.' | '?' | '!')
            && chars.get(i + 1).is_none_or(|n| n.is_whitespace())
            && (i == 0 || chars[i - 1] != '.')
        {
            count += 1;
        }
    }
    count.max(usize::from(!chars.is_empty()))
}

/// The body rows of every table in `text`, each as its cells (the header
/// row, the one above a `|---` line, left out).
fn table_rows(text: &str) -> Vec<(usize, &str, Vec<&str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let header = lines
            .get(i + 1)
            .is_some_and(|next| next.starts_with("|---"));
        if line.starts_with("| ") && !header {
            let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
            rows.push((i + 1, *line, inner.split(" | ").map(str::trim).collect()));
        }
    }
    rows
}

#[test]
fn index_rows_hold_a_sentence_or_two() {
    let index = std::fs::read_to_string(repo().join("results/INDEX.md")).unwrap();
    let rows = table_rows(&index);
    assert!(rows.len() > 40, "results/INDEX.md has {} rows", rows.len());
    let mut faults = Vec::new();
    for (n, line, cells) in rows {
        let chars = line.chars().count();
        if chars > INDEX_ROW_CHARS {
            faults.push(format!(
                "line {n}: {chars} characters (at most {INDEX_ROW_CHARS})"
            ));
        }
        if cells.len() < 5 {
            faults.push(format!("line {n}: {} cells", cells.len()));
            continue;
        }
        if sentences(cells[1]) != 1 {
            faults.push(format!(
                "line {n}: the question is {} sentences",
                sentences(cells[1])
            ));
        }
        let verdict = sentences(cells[2]);
        if verdict > INDEX_VERDICT_SENTENCES {
            faults.push(format!(
                "line {n}: the verdict is {verdict} sentences (at most {INDEX_VERDICT_SENTENCES})"
            ));
        }
    }
    assert!(
        faults.is_empty(),
        "results/INDEX.md:\n{}",
        faults.join("\n")
    );
}

#[test]
fn the_design_doc_and_the_results_guide_stay_short() {
    for (file, most) in [
        ("docs/DESIGN.md", DESIGN_LINES),
        ("results/README.md", RESULTS_README_LINES),
    ] {
        let lines = std::fs::read_to_string(repo().join(file))
            .unwrap()
            .lines()
            .count();
        assert!(
            lines <= most,
            "{file} has {lines} lines (at most {most}): move figures, probes and history to results/"
        );
    }
}

/// Every file under `dir`, in its folders too.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// Every folder under results/ that a run made (it holds a manifest; a
/// tuning run's `confirm/` is part of its parent) has its notes
/// (`README.md`) and a row in results/INDEX.md that links them.
#[test]
fn every_result_folder_has_notes_and_an_index_row() {
    let results = repo().join("results");
    let index = std::fs::read_to_string(results.join("INDEX.md")).unwrap();
    let found: Vec<_> = files_under(&results)
        .into_iter()
        .filter(|file| file.ends_with("manifest.toml"))
        .filter_map(|file| file.parent().map(Path::to_path_buf))
        .filter(|folder| !folder.parent().unwrap().join("manifest.toml").is_file())
        .collect();
    assert!(found.len() > 20, "{} result folders", found.len());
    let mut faults = Vec::new();
    for folder in found {
        let name = folder
            .strip_prefix(&results)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if !folder.join("README.md").is_file() {
            faults.push(format!("results/{name} has no notes (README.md)"));
        }
        if !index.contains(&format!("]({name}/README.md)")) {
            faults.push(format!(
                "results/INDEX.md has no row linking {name}/README.md"
            ));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and
/// `_` kept, spaces made `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of `text`'s headings (a repeated one gets `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            let base = anchor(line.trim_start_matches('#'));
            let mut name = base.clone();
            let mut n = 0;
            while seen.contains(&name) {
                n += 1;
                name = format!("{base}-{n}");
            }
            seen.insert(name);
        }
    }
    seen
}

/// The targets of `text`'s Markdown links (`[text](target)`), outside code
/// blocks and code spans, with their line numbers.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut in_block = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        let plain: String = line
            .split('`')
            .enumerate()
            .map(|(i, part)| if i % 2 == 0 { part } else { "" })
            .collect();
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            targets.push((n + 1, after[..end].trim().to_owned()));
            rest = &after[end..];
        }
    }
    targets
}

/// Every relative link in README.md, docs/ and results/ (files and
/// `#anchors` of Markdown headings) resolves.
#[test]
fn relative_links_resolve() {
    let mut files = vec![repo().join("README.md")];
    for dir in ["docs", "results"] {
        files.extend(
            files_under(&repo().join(dir))
                .into_iter()
                .filter(|path| path.extension().is_some_and(|e| e == "md")),
        );
    }
    let mut faults = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(repo()).unwrap().display();
        for (line, target) in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !resolved.exists() {
                faults.push(format!("{shown}:{line}: {target}: no such file"));
                continue;
            }
            if !fragment.is_empty() && resolved.extension().is_some_and(|e| e == "md") {
                let heads = anchors(&std::fs::read_to_string(&resolved).unwrap());
                if !heads.contains(fragment) {
                    faults.push(format!("{shown}:{line}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links checked");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// A result folder's notes (`README.md`, which results/ keeps in every
/// folder) neither block a run into the folder nor are removed by it,
/// whether the run re-makes the folder's bytes or writes new ones.
#[test]
fn a_folders_notes_survive_a_run() {
    let dir = crate::jobs::scratch("docs", "notes");
    let play = |seed: &str| {
        succeeds(
            ginlab()
                .args(["match", "greedy", "simple", "--games", "4", "--seed", seed])
                .arg("--out")
                .arg(&dir)
                .arg("-q"),
        );
    };
    play("1");
    let notes = "# a folder's notes\n";
    std::fs::write(dir.join("README.md"), notes).unwrap();
    let manifest = std::fs::read(dir.join("manifest.toml")).unwrap();
    play("1");
    assert_eq!(
        std::fs::read_to_string(dir.join("README.md")).unwrap(),
        notes
    );
    assert_eq!(
        std::fs::read(dir.join("manifest.toml")).unwrap(),
        manifest,
        "a re-made folder keeps its manifest beside its notes"
    );
    play("2");
    assert_eq!(
        std::fs::read_to_string(dir.join("README.md")).unwrap(),
        notes
    );
}
