//! The sandbox of external bots from Python: the package's launcher
//! (`python -m ginlab._sandbox_exec`, which calls the library's
//! [`ginlab::strategy::launcher::run`] through [`sandbox_exec`]) and the
//! process's [`Lab`], whose bots start through it.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

use ginlab::lab::Lab;
use pyo3::prelude::*;

/// Restricts this process as `args` say (the arguments after
/// `__sandbox-exec`: the policy, `--`, the bot's command) and becomes the
/// bot; returns only on failure, with the exit code (the reason is on
/// stderr, the bot's log).
#[pyfunction]
#[pyo3(name = "_sandbox_exec")]
pub fn sandbox_exec(args: Vec<OsString>) -> u8 {
    ginlab::strategy::launcher::run(&args)
}

/// The lab of this Python process: its bots' host, with this interpreter
/// running `ginlab._sandbox_exec` as the launcher, and `mc`'s tables.
/// Profiles that run bots are bound to it ([`ginlab::strategy::Profile::in_lab`]).
///
/// # Errors
/// `sys.executable` cannot be read.
pub fn lab(py: Python<'_>) -> PyResult<&'static Lab> {
    static LAB: OnceLock<Lab> = OnceLock::new();
    if let Some(lab) = LAB.get() {
        return Ok(lab);
    }
    let python: PathBuf = py.import("sys")?.getattr("executable")?.extract()?;
    let lab = Lab::new();
    lab.bots().set_launcher(vec![
        python.into_os_string(),
        "-m".into(),
        "ginlab._sandbox_exec".into(),
    ]);
    Ok(LAB.get_or_init(|| lab))
}

/// The command the process's bots are started through (see [`lab`]).
#[pyfunction]
#[pyo3(name = "_sandbox_launcher")]
pub fn sandbox_launcher(py: Python<'_>) -> PyResult<Vec<OsString>> {
    Ok(lab(py)?.bots().launcher().unwrap_or_default())
}
