//! ginlab from Python: the engine as an environment (`Game`, `VecEnv`),
//! built-in strategies answering observations, Python objects playing in
//! the harness, and the harness itself (`match`, `run`, `sweep`,
//! `balance`, `solve`). The Python package `ginlab` wraps this module
//! (`ginlab._ginlab`); see python/README section in the repository README.

mod actions;
mod game;
mod harness;
mod multi;
mod obs;
mod players;
mod sandbox;
mod table;
mod vec_env;

use pyo3::prelude::*;

#[pymodule]
fn _ginlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::Game>()?;
    m.add_class::<game::AgentGame>()?;
    m.add_class::<multi::MultiGame>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_class::<obs::Observation>()?;
    m.add_class::<players::BuiltinStrategy>()?;
    m.add_function(wrap_pyfunction!(harness::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(harness::run, m)?)?;
    m.add_function(wrap_pyfunction!(harness::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(harness::balance, m)?)?;
    m.add_function(wrap_pyfunction!(harness::merge, m)?)?;
    m.add_function(wrap_pyfunction!(harness::solve, m)?)?;
    m.add_function(wrap_pyfunction!(harness::solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(sandbox::sandbox_exec, m)?)?;
    m.add_function(wrap_pyfunction!(sandbox::sandbox_launcher, m)?)?;
    m.add("ACTIONS", actions::ACTIONS)?;
    m.add("DRAW_STOCK", actions::DRAW_STOCK)?;
    m.add("DRAW_PILE", actions::DRAW_PILE)?;
    m.add("TAKE_UPCARD", actions::TAKE_UPCARD)?;
    m.add("PASS_UPCARD", actions::PASS_UPCARD)?;
    m.add("BIG_GIN", actions::BIG_GIN)?;
    m.add("KNOCK", actions::KNOCK)?;
    m.add("PHASES", obs::PHASES.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
