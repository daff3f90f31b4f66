//! A progress bar on stderr (deals done, rate, ETA), hidden when stderr is
//! not a terminal or with `--quiet`; for `run` in a log, progress lines
//! instead. The library reports progress through a
//! callback; this module is the only place that knows about indicatif.

use std::io::IsTerminal as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// Progress as lines, for `run` when standard error is not a terminal (a
/// log file, CI, `nohup`), where the bar is not drawn: a start line, then a
/// line at every tenth of the deals and at least once a minute. Switched on
/// once per process by [`lines_for_logs`]; every call is a no-op otherwise.
static LINES: Mutex<Option<Lines>> = Mutex::new(None);

/// The most time between two progress lines.
const LINE_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug)]
struct Lines {
    start: Instant,
    last: Instant,
    total: u64,
    resumed: u64,
    /// The tenths of the deals reported so far.
    tenths: u64,
    row: String,
}

/// Turns progress lines on when standard error is not a terminal and the
/// run is not `--quiet`.
pub fn lines_for_logs(quiet: bool) {
    if !quiet && !std::io::stderr().is_terminal() {
        let now = Instant::now();
        *lock() = Some(Lines {
            start: now,
            last: now,
            total: 0,
            resumed: 0,
            tenths: 0,
            row: String::new(),
        });
    }
}

fn lock() -> std::sync::MutexGuard<'static, Option<Lines>> {
    LINES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The job starts: `total` deals, `done` of them from a checkpoint.
pub fn line_start(total: u64, done: u64) {
    if let Some(lines) = lock().as_mut() {
        lines.total = total;
        lines.resumed = done;
        lines.tenths = (done * 10).checked_div(total).unwrap_or(0);
        let resumed = if done > 0 {
            format!(", {done} done before (resumed)")
        } else {
            String::new()
        };
        eprintln!("started: {total} deals{resumed}");
    }
}

/// Now playing the row `name`.
pub fn line_row(name: String) {
    if let Some(lines) = lock().as_mut() {
        lines.row = name;
    }
}

/// `done` deals of the total are played.
pub fn line_done(done: u64) {
    let mut guard = lock();
    let Some(lines) = guard.as_mut() else { return };
    let now = Instant::now();
    let tenths = (done * 10).checked_div(lines.total).unwrap_or(10);
    if tenths <= lines.tenths && now.duration_since(lines.last) < LINE_EVERY {
        return;
    }
    lines.tenths = lines.tenths.max(tenths);
    lines.last = now;
    let seconds = now.duration_since(lines.start).as_secs_f64();
    let rate = (done - lines.resumed.min(done)) as f64 / seconds.max(1e-9);
    let left = lines.total.saturating_sub(done) as f64 / rate.max(1e-9);
    let percent = (done * 100).checked_div(lines.total).unwrap_or(100);
    eprintln!(
        "{done}/{} deals ({percent} %) in {seconds:.0} s, {rate:.0} deals/s, about {left:.0} s left; playing {}",
        lines.total, lines.row
    );
}
