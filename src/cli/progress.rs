//! A progress bar on stderr (deals done, rate, ETA), hidden when stderr is
//! not a terminal or with `--quiet`. The library reports progress through a
//! callback; this module is the only place that knows about indicatif.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `total` deals.
pub fn bar(total: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} deals {per_sec} ETA {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}
