//! A progress bar on stderr (deals done, rate, ETA), hidden when stderr is
//! not a terminal or with `--quiet`. The library reports progress through a
//! callback; this module is the only place that knows about indicatif.

use std::io::IsTerminal as _;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar over deals (its length is set when the job starts). Drawn at once
/// and redrawn every second, so a slow run shows it from the start.
pub fn bar(quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(0);
    let visible = !quiet && std::io::stderr().is_terminal();
    if !visible {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} deals {rate} ETA {eta}")
            .expect("a valid template")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let rate = state.per_sec();
                    let _ = if rate >= 10.0 {
                        write!(w, "{rate:.0}/s")
                    } else {
                        write!(w, "{rate:.1}/s")
                    };
                },
            )
            .progress_chars("=> "),
    );
    if visible {
        bar.enable_steady_tick(Duration::from_secs(1));
    }
    bar
}
