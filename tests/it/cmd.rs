//! The binary under test: how every module starts `ginlab`, checks that
//! it succeeded, and reads the JSON-lines files it writes.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

/// `ginlab` as a plain process (for tests that wait on it, signal it or
/// read it as it runs), run from the repository's root (where the tests
/// name `examples/`, `strategies/` and `tests/` files from), with its
/// temporary folder in cargo's scratch space for tests (`target/tmp`): the
/// log folders ginlab keeps when a test's bot fails on purpose land there,
/// not in the system's temporary folder.
pub fn ginlab_process() -> std::process::Command {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ginlab-tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ginlab"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TMPDIR", tmp);
    cmd
}

/// [`ginlab_process`] with `assert_cmd`'s assertions.
pub fn ginlab() -> Command {
    Command::from_std(ginlab_process())
}

/// Asserts that a run exited with success, showing its standard error
/// when it did not.
#[track_caller]
pub fn succeeded(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The JSON values of a JSON-lines file (records, logs), one a line.
pub fn json_lines(file: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Runs `command`, which must succeed (its standard error shown with the
/// command when it does not); its standard output.
#[track_caller]
pub fn succeeds(command: &mut Command) -> String {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}
