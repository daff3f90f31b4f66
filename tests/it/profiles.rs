//! Every shipped profile (strategies/*.toml, the inline profiles and sweep
//! points of experiments/*.toml) loads to the parameters recorded in
//! `tests/data/profiles.txt`, which the reader before profiles were read
//! by derive wrote (`GINLAB_BLESS=1` rewrites it; a changed line is a
//! changed profile, so review it).

use std::fmt::Write as _;
use std::path::Path;

use ginlab::strategy::Profile;

/// The strings of `table`'s key `key`: one string or a list.
fn strings(table: &toml::Table, key: &str) -> Vec<String> {
    match table.get(key) {
        Some(toml::Value::String(s)) => vec![s.clone()],
        Some(toml::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

fn sorted_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn line(out: &mut String, source: &str, profile: &Profile) {
    writeln!(out, "{source}\n  {profile}\n  {profile:?}").unwrap();
}

#[test]
fn shipped_profiles_load_as_recorded() {
    let mut out = String::new();
    for file in sorted_files("strategies") {
        let text = std::fs::read_to_string(&file).unwrap();
        let (profile, name) = Profile::from_toml(&text).unwrap();
        let stem = file.file_name().unwrap().to_string_lossy();
        line(&mut out, &format!("strategies/{stem} ({name:?})"), &profile);
    }
    for file in sorted_files("experiments") {
        let stem = file.file_name().unwrap().to_string_lossy().into_owned();
        let table: toml::Table = toml::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let tune = table.get("tune").and_then(|t| t.as_table());
        let mut texts = Vec::new();
        for key in ["players", "strategy", "vs", "anchor"] {
            texts.extend(strings(&table, key));
            if let Some(tune) = tune {
                texts.extend(strings(tune, key));
            }
        }
        let sweep = (strings(&table, "param"), strings(&table, "values"));
        for text in texts {
            // Names of strategies/ files are loaded above.
            let Ok(profile) = text.parse::<Profile>() else {
                continue;
            };
            line(&mut out, &format!("experiments/{stem}: {text}"), &profile);
            if let ([param], [values]) = (&sweep.0[..], &sweep.1[..])
                && strings(&table, "strategy") == [text.clone()]
            {
                // Ranges (`0..=10`) are the sweep's: their points are integers.
                let points: Vec<String> = match values.split_once("..=") {
                    Some((a, b)) => (a.parse::<u32>().unwrap()..=b.parse().unwrap())
                        .map(|n| n.to_string())
                        .collect(),
                    None => values.split(',').map(str::to_owned).collect(),
                };
                for value in &points {
                    let point = profile.with_param(param, value).unwrap();
                    line(&mut out, &format!("  {param}={value}"), &point);
                }
            }
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/profiles.txt");
    if std::env::var_os("GINLAB_BLESS").is_some() {
        std::fs::write(&path, &out).unwrap();
    }
    let recorded = std::fs::read_to_string(&path).unwrap();
    for (got, want) in out.lines().zip(recorded.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(out.lines().count(), recorded.lines().count());
}
