//! Records the git commit the binary is built from (for result manifests).
//! Outside a git checkout, or without git, the commit is "unknown".
//!
//! The commit gets a `-dirty` suffix when the files the binary is built
//! from (`src/`, `build.rs`, `Cargo.toml`, `Cargo.lock`) differ from it, or
//! hold untracked files. Cargo reruns this script when one of those files
//! changes, and when the commit or the index moves, so the flag is never
//! left over from an earlier build.

use std::process::Command;

/// What the binary is built from; edits elsewhere (results, docs) do not
/// change what it computes.
const SOURCES: [&str; 4] = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    let Some(commit) = git(&["rev-parse", "HEAD"]) else {
        println!("cargo:rustc-env=GINLAB_GIT_COMMIT=unknown");
        return;
    };
    let mut status = vec!["status", "--porcelain", "--"];
    status.extend(SOURCES);
    let dirty = git(&status).is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=GINLAB_GIT_COMMIT={commit}{suffix}");
    // `--git-path` finds these in a linked worktree too, where `.git` is a
    // file and the branch refs live in the common directory.
    let mut watched = vec![
        "HEAD".to_owned(),
        "index".to_owned(),
        "packed-refs".to_owned(),
    ];
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(head);
    }
    for name in watched {
        // A missing path would rerun this script at every build.
        if let Some(path) = git(&["rev-parse", "--git-path", &name])
            .filter(|path| std::path::Path::new(path).exists())
        {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
