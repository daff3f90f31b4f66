//! The binary under test: how every module starts `ginlab`, checks that
//! it succeeded, and reads the JSON-lines files it writes.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;

/// `ginlab`, run from the repository's root (where the tests name
/// `examples/`, `strategies/` and `tests/` files from).
pub fn ginlab() -> Command {
    let mut cmd = Command::cargo_bin("ginlab").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
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
