//! SVG charts, written by hand (no plotting dependency): a line chart with
//! interval bands (sweeps) and a histogram (score distributions). The output
//! is deterministic text, so charts are as reproducible as the CSV files.

use std::fmt::Write as _;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 150.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

/// One point of a series: x, the estimate and its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The x value.
    pub x: f64,
    /// The estimate.
    pub y: f64,
    /// The interval's low end.
    pub lo: f64,
    /// The interval's high end.
    pub hi: f64,
}

/// A named series of points (sorted by x).
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend label.
    pub label: String,
    /// The points.
    pub points: Vec<Point>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Rounds a number for SVG coordinates (two decimals, no `-0`).
fn c(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    if r == 0.0 { "0".into() } else { format!("{r}") }
}

/// "Nice" tick values covering `lo..=hi`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).abs().max(1e-9);
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * magnitude);
    // Snap to a decimal grid finer than the step, so 0.48 is 0.48.
    let grid = (100.0 / magnitude).round();
    let snap = |t: f64| (t * grid).round() / grid;
    let first = (lo / step).ceil() * step;
    (0..)
        .map(|i| snap(first + i as f64 * step))
        .take_while(|t| *t <= hi + step * 1e-9)
        .collect()
}

fn frame(out: &mut String, title: &str, x_label: &str, y_label: &str) {
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    )
    .unwrap();
    writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    writeln!(
        out,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        c((LEFT + WIDTH - RIGHT) / 2.0),
        escape(title)
    )
    .unwrap();
    writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        c((LEFT + WIDTH - RIGHT) / 2.0),
        c(HEIGHT - 12.0),
        escape(x_label)
    )
    .unwrap();
    writeln!(
        out,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{}</text>"#,
        c((TOP + HEIGHT - BOTTOM) / 2.0),
        c((TOP + HEIGHT - BOTTOM) / 2.0),
        escape(y_label)
    )
    .unwrap();
}

/// The legend entry of series `i`: a swatch of `colour` and `label`,
/// right of the plot.
fn legend(out: &mut String, i: usize, colour: &str, label: &str) {
    let ly = TOP + 10.0 + 20.0 * i as f64;
    writeln!(
        out,
        r#"<rect x="{}" y="{}" width="14" height="10" fill="{colour}"/>"#,
        c(WIDTH - RIGHT + 12.0),
        c(ly - 9.0)
    )
    .unwrap();
    writeln!(
        out,
        r#"<text x="{}" y="{}">{}</text>"#,
        c(WIDTH - RIGHT + 32.0),
        c(ly),
        escape(label)
    )
    .unwrap();
}

/// How x values are placed along the axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum XScale {
    Linear,
    /// Equal distances for equal ratios, ticks at powers of two.
    Log2,
}

impl XScale {
    /// Log2 for positive values that grow by at least half at every step
    /// and span a factor of 16 or more (4, 16, 64, 256 worlds); otherwise
    /// linear, so a sweep over 0..=10 keeps its plain axis.
    fn of(xs: &[f64]) -> XScale {
        let geometric = xs.windows(2).all(|w| w[0] > 0.0 && w[1] >= 1.5 * w[0]);
        match (xs.first(), xs.last()) {
            (Some(&lo), Some(&hi)) if geometric && lo > 0.0 && hi >= 16.0 * lo => XScale::Log2,
            _ => XScale::Linear,
        }
    }

    fn map(self, x: f64) -> f64 {
        match self {
            XScale::Linear => x,
            XScale::Log2 => x.log2(),
        }
    }

    /// Tick values (in data units) covering `lo..=hi`.
    fn ticks(self, lo: f64, hi: f64) -> Vec<f64> {
        match self {
            XScale::Linear => ticks(lo, hi),
            XScale::Log2 => {
                let (a, b) = (lo.log2().ceil() as i32, hi.log2().floor() as i32);
                // At most nine labels: every k-th power.
                let every = ((b - a + 7) / 8).max(1);
                (a..=b)
                    .filter(|k| (k - a) % every == 0)
                    .map(|k| 2f64.powi(k))
                    .collect()
            }
        }
    }
}

/// Axes with ticks; returns the value-to-pixel maps.
fn axes(
    out: &mut String,
    (x0, x1, scale): (f64, f64, XScale),
    (y0, y1): (f64, f64),
) -> (impl Fn(f64) -> f64 + use<>, impl Fn(f64) -> f64 + use<>) {
    let (px0, px1, py0, py1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
    let (m0, m1) = (scale.map(x0), scale.map(x1));
    let xs = move |x: f64| px0 + (scale.map(x) - m0) / (m1 - m0).max(1e-12) * (px1 - px0);
    let ys = move |y: f64| py0 + (y - y0) / (y1 - y0).max(1e-12) * (py1 - py0);
    writeln!(out, r##"<g stroke="#999" stroke-width="1">"##).unwrap();
    writeln!(
        out,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
        c(px0),
        c(py0),
        c(px1),
        c(py0)
    )
    .unwrap();
    writeln!(
        out,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
        c(px0),
        c(py0),
        c(px0),
        c(py1)
    )
    .unwrap();
    writeln!(out, "</g>").unwrap();
    for t in scale.ticks(x0, x1) {
        writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{t}</text>"#,
            c(xs(t)),
            c(py0 + 18.0)
        )
        .unwrap();
    }
    for t in ticks(y0, y1) {
        writeln!(
            out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#eee"/>"##,
            c(px0),
            c(ys(t)),
            c(px1),
            c(ys(t))
        )
        .unwrap();
        writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{t}</text>"#,
            c(px0 - 6.0),
            c(ys(t) + 4.0)
        )
        .unwrap();
    }
    (xs, ys)
}

/// A line chart: each series as a line through its estimates over a shaded
/// band from `lo` to `hi`; `reference` draws a dashed horizontal line (e.g.
/// 0.5 for an even match). When every series' x values are positive, grow
/// by at least half at every step and span a factor of 16 or more, the x
/// axis is logarithmic, ticks at powers of two, and its label says so.
#[must_use]
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    reference: Option<f64>,
) -> String {
    let points = || series.iter().flat_map(|s| &s.points);
    let (mut x0, mut x1) =
        points().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.x), b.max(p.x)));
    let (mut y0, mut y1) =
        points().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.lo), b.max(p.hi)));
    if let Some(r) = reference {
        (y0, y1) = (y0.min(r), y1.max(r));
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let pad = (y1 - y0).max(1e-6) * 0.08;
    let scale = if !series.is_empty()
        && series.iter().all(|s| {
            let x: Vec<f64> = s.points.iter().map(|p| p.x).collect();
            XScale::of(&x) == XScale::Log2
        }) {
        XScale::Log2
    } else {
        XScale::Linear
    };
    let x_label = match scale {
        XScale::Linear => x_label.to_owned(),
        XScale::Log2 => format!("{x_label} (log scale)"),
    };
    let mut out = String::new();
    frame(&mut out, title, &x_label, y_label);
    let (xs, ys) = axes(&mut out, (x0, x1, scale), (y0 - pad, y1 + pad));
    if let Some(r) = reference {
        writeln!(
            out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#555" stroke-dasharray="4 4"/>"##,
            c(LEFT),
            c(ys(r)),
            c(WIDTH - RIGHT),
            c(ys(r))
        )
        .unwrap();
    }
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let upper: Vec<String> = s
            .points
            .iter()
            .map(|p| format!("{},{}", c(xs(p.x)), c(ys(p.hi))))
            .collect();
        let lower: Vec<String> = s
            .points
            .iter()
            .rev()
            .map(|p| format!("{},{}", c(xs(p.x)), c(ys(p.lo))))
            .collect();
        writeln!(
            out,
            r#"<polygon points="{} {}" fill="{colour}" fill-opacity="0.18" stroke="none"/>"#,
            upper.join(" "),
            lower.join(" ")
        )
        .unwrap();
        let line: Vec<String> = s
            .points
            .iter()
            .map(|p| format!("{},{}", c(xs(p.x)), c(ys(p.y))))
            .collect();
        writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{}/>"#,
            line.join(" "),
            dashes(i)
        )
        .unwrap();
        for p in &s.points {
            marker(&mut out, i, (xs(p.x), ys(p.y)), colour);
        }
        if i == 0 {
            legend(&mut out, i, colour, &s.label);
        } else {
            // A dashed line and the series' marker, as drawn.
            let ly = TOP + 10.0 + 20.0 * i as f64;
            let (x0, y) = (WIDTH - RIGHT + 8.0, ly - 4.0);
            writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="2"{}/>"#,
                c(x0),
                c(y),
                c(x0 + 22.0),
                c(y),
                dashes(i)
            )
            .unwrap();
            marker(&mut out, i, (x0 + 11.0, y), colour);
            writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                c(WIDTH - RIGHT + 32.0),
                c(ly),
                escape(&s.label)
            )
            .unwrap();
        }
    }
    if coincide(series) {
        let top = TOP + 10.0 + 20.0 * series.len() as f64;
        for (k, text) in ["lines that coincide:", "told apart by marker and dash"]
            .iter()
            .enumerate()
        {
            writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="10">{text}</text>"#,
                c(WIDTH - RIGHT + 8.0),
                c(top + 13.0 * k as f64)
            )
            .unwrap();
        }
    }
    out.push_str("</svg>\n");
    out
}

/// One series of [`interval_rows`]: per row, an estimate with its interval
/// (the point's `x` is not used), or none.
#[derive(Clone, Debug)]
pub struct RowSeries {
    /// The legend label.
    pub label: String,
    /// Per row.
    pub points: Vec<Option<Point>>,
}

/// A dot-and-whisker chart: one row per label (top down), the estimate as
/// a dot and its interval as a whisker along the x axis, one colour per
/// series; the series of a row are drawn a few pixels apart, so equal
/// estimates stay visible. A dashed line marks x = 0.
#[must_use]
pub fn interval_rows(
    title: &str,
    x_label: &str,
    labels: &[String],
    series: &[RowSeries],
) -> String {
    const ROW_LEFT: f64 = 130.0;
    let points = || series.iter().flat_map(|s| s.points.iter().flatten());
    let (x0, x1) = points().fold((0.0_f64, 0.0_f64), |(a, b), p| (a.min(p.lo), b.max(p.hi)));
    let pad = (x1 - x0).max(1.0) * 0.06;
    let (x0, x1) = (x0 - pad, x1 + pad);
    let (px0, px1) = (ROW_LEFT, WIDTH - RIGHT);
    let xs = |x: f64| px0 + (x - x0) / (x1 - x0) * (px1 - px0);
    let rows = labels.len().max(1) as f64;
    let step = (HEIGHT - BOTTOM - TOP) / rows;
    let ys = |i: usize| TOP + step * (i as f64 + 0.5);
    let spread = (step / (series.len() as f64 + 1.0)).min(8.0);
    let mut out = String::new();
    frame(&mut out, title, x_label, "");
    writeln!(
        out,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999"/>"##,
        c(px0),
        c(HEIGHT - BOTTOM),
        c(px1),
        c(HEIGHT - BOTTOM)
    )
    .unwrap();
    for t in ticks(x0, x1) {
        writeln!(
            out,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#eee"/>"##,
            c(xs(t)),
            c(TOP),
            c(xs(t)),
            c(HEIGHT - BOTTOM)
        )
        .unwrap();
        writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{t}</text>"#,
            c(xs(t)),
            c(HEIGHT - BOTTOM + 18.0)
        )
        .unwrap();
    }
    writeln!(
        out,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#555" stroke-dasharray="4 4"/>"##,
        c(xs(0.0)),
        c(TOP),
        c(xs(0.0)),
        c(HEIGHT - BOTTOM)
    )
    .unwrap();
    for (i, label) in labels.iter().enumerate() {
        writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            c(px0 - 8.0),
            c(ys(i) + 4.0),
            escape(label)
        )
        .unwrap();
    }
    for (k, s) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let dy = (k as f64 - (series.len() as f64 - 1.0) / 2.0) * spread;
        for (i, p) in s.points.iter().enumerate() {
            let Some(p) = p else { continue };
            let y = ys(i) + dy;
            writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="2"/>"#,
                c(xs(p.lo)),
                c(y),
                c(xs(p.hi)),
                c(y)
            )
            .unwrap();
            writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="3.5" fill="{colour}"/>"#,
                c(xs(p.y)),
                c(y)
            )
            .unwrap();
        }
        legend(&mut out, k, colour, &s.label);
    }
    if series.len() > 1 {
        writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="10">rows offset per series</text>"#,
            c(WIDTH - RIGHT + 12.0),
            c(TOP + 10.0 + 20.0 * series.len() as f64)
        )
        .unwrap();
    }
    out.push_str("</svg>\n");
    out
}

/// The dash pattern of series `i` (the first is solid).
fn dashes(i: usize) -> &'static str {
    [
        "",
        r#" stroke-dasharray="7 3""#,
        r#" stroke-dasharray="2 3""#,
        r#" stroke-dasharray="8 3 2 3""#,
        r#" stroke-dasharray="4 4""#,
        r#" stroke-dasharray="1 3""#,
    ][i % 6]
}

/// The marker of series `i` at pixel `(x, y)`: a dot for the first, then
/// larger open shapes (square, triangle, diamond, ring, cross), so a
/// marker drawn over another's stays visible.
fn marker(out: &mut String, i: usize, (x, y): (f64, f64), colour: &str) {
    let open = format!(r#"fill="none" stroke="{colour}" stroke-width="1.5""#);
    let polygon = |points: &[(f64, f64)]| {
        let p: Vec<String> = points
            .iter()
            .map(|(dx, dy)| format!("{},{}", c(x + dx), c(y + dy)))
            .collect();
        format!(r#"<polygon points="{}" {open}/>"#, p.join(" "))
    };
    let text = match i % 6 {
        0 => format!(
            r#"<circle cx="{}" cy="{}" r="3" fill="{colour}"/>"#,
            c(x),
            c(y)
        ),
        1 => polygon(&[(-4.5, -4.5), (4.5, -4.5), (4.5, 4.5), (-4.5, 4.5)]),
        2 => polygon(&[(0.0, -6.0), (5.5, 4.0), (-5.5, 4.0)]),
        3 => polygon(&[(0.0, -6.5), (6.5, 0.0), (0.0, 6.5), (-6.5, 0.0)]),
        4 => format!(r#"<circle cx="{}" cy="{}" r="7.5" {open}/>"#, c(x), c(y)),
        _ => format!(
            r#"<path d="M{} {}L{} {}M{} {}L{} {}" {open}/>"#,
            c(x - 5.0),
            c(y - 5.0),
            c(x + 5.0),
            c(y + 5.0),
            c(x - 5.0),
            c(y + 5.0),
            c(x + 5.0),
            c(y - 5.0)
        ),
    };
    writeln!(out, "{text}").unwrap();
}

/// Whether two series share a point (the same x and estimate).
fn coincide(series: &[Series]) -> bool {
    series.iter().enumerate().any(|(i, a)| {
        series[i + 1..].iter().any(|b| {
            a.points
                .iter()
                .any(|p| b.points.iter().any(|q| p.x == q.x && p.y == q.y))
        })
    })
}

/// A histogram of integer values with their counts (as shares of the total).
#[must_use]
pub fn histogram(title: &str, x_label: &str, counts: &[(i64, u64)]) -> String {
    let total: u64 = counts.iter().map(|&(_, n)| n).sum();
    let share = |n: u64| {
        if total == 0 {
            0.0
        } else {
            n as f64 / total as f64
        }
    };
    let (x0, x1) = counts
        .iter()
        .fold((i64::MAX, i64::MIN), |(a, b), &(v, _)| (a.min(v), b.max(v)));
    let (x0, x1) = if x0 > x1 { (0, 1) } else { (x0, x1) };
    let top = counts
        .iter()
        .map(|&(_, n)| share(n))
        .fold(0.0, f64::max)
        .max(1e-9);
    let mut out = String::new();
    frame(&mut out, title, x_label, "share");
    let (xs, ys) = axes(
        &mut out,
        (x0 as f64 - 0.5, x1 as f64 + 0.5, XScale::Linear),
        (0.0, top * 1.05),
    );
    let width = (xs(1.0) - xs(0.0)).max(0.5);
    for &(v, n) in counts {
        let (x, y) = (xs(v as f64 - 0.5), ys(share(n)));
        writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#1f77b4"/>"##,
            c(x),
            c(y),
            c(width),
            c(ys(0.0) - y)
        )
        .unwrap();
    }
    writeln!(
        out,
        r#"<text x="{}" y="{}">n = {total}</text>"#,
        c(WIDTH - RIGHT + 12.0),
        c(TOP + 10.0)
    )
    .unwrap();
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(0.45, 0.55), vec![0.46, 0.48, 0.5, 0.52, 0.54]);
    }

    fn series(xs: &[f64]) -> Series {
        Series {
            label: "s".into(),
            points: xs
                .iter()
                .map(|&x| Point {
                    x,
                    y: 0.6,
                    lo: 0.55,
                    hi: 0.65,
                })
                .collect(),
        }
    }

    /// The x pixel of every point marker, in order.
    fn marker_xs(svg: &str) -> Vec<f64> {
        svg.lines()
            .filter_map(|l| l.strip_prefix("<circle cx=\""))
            .map(|l| l.split('"').next().unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn geometric_sweeps_get_a_log_axis() {
        assert_eq!(
            XScale::of(&[4.0, 16.0, 32.0, 64.0, 128.0, 256.0]),
            XScale::Log2
        );
        assert_eq!(XScale::of(&[1.0, 2.0, 4.0, 8.0, 16.0]), XScale::Log2);
        // Zero, even steps, or a small span: linear.
        assert_eq!(XScale::of(&[0.0, 1.0, 2.0, 4.0, 8.0, 16.0]), XScale::Linear);
        assert_eq!(XScale::of(&[1.0, 2.0, 3.0, 4.0, 32.0]), XScale::Linear);
        assert_eq!(XScale::of(&[2.0, 4.0, 8.0]), XScale::Linear);
        assert_eq!(XScale::of(&[]), XScale::Linear);

        let svg = line_chart(
            "t",
            "samples",
            "y",
            &[series(&[4.0, 16.0, 64.0, 256.0])],
            None,
        );
        assert!(svg.contains(">samples (log scale)<"));
        // Each point is a factor 4 from the last: equal steps in pixels.
        let x = marker_xs(&svg);
        let steps: Vec<f64> = x.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(
            steps.iter().all(|d| (d - steps[0]).abs() < 0.02),
            "{steps:?}"
        );
        for t in [4, 8, 16, 32, 64, 128, 256] {
            assert!(svg.contains(&format!(">{t}</text>")), "tick {t}");
        }
        // A linear sweep keeps its axis and proportional spacing.
        let svg = line_chart("t", "knock_at", "y", &[series(&[0.0, 5.0, 10.0])], None);
        assert!(svg.contains(">knock_at<"));
        let x = marker_xs(&svg);
        assert!((x[1] - x[0] - (x[2] - x[1])).abs() < 0.02);
    }

    #[test]
    fn log_ticks_are_thinned_to_nine_at_most() {
        let t = XScale::Log2.ticks(1.0, 65536.0);
        assert_eq!(t.first(), Some(&1.0));
        assert!(
            t.len() <= 9 && t.windows(2).all(|w| w[1] == 4.0 * w[0]),
            "{t:?}"
        );
        assert_eq!(
            XScale::Log2.ticks(3.0, 100.0),
            vec![4.0, 8.0, 16.0, 32.0, 64.0]
        );
    }

    #[test]
    fn coinciding_lines_keep_their_markers_and_the_legend_says_so() {
        let one = line_chart("t", "x", "y", &[series(&[1.0, 2.0])], None);
        assert!(!one.contains("coincide") && !one.contains("dasharray=\"7"));
        let mut hoyle = series(&[1.0, 2.0]);
        hoyle.label = "hoyle".into();
        let two = line_chart("t", "x", "y", &[series(&[1.0, 2.0]), hoyle], None);
        // The first series' dots, the second's open squares on top of them
        // (and one in the legend), a dashed line, and the note.
        assert_eq!(marker_xs(&two).len(), 2);
        assert_eq!(two.matches(r##"<polygon points"##).count(), 2 + 3);
        assert!(two.contains(r#"stroke-dasharray="7 3""#));
        assert!(two.contains("lines that coincide:") && two.contains("marker and dash"));
        // Apart, no note.
        let mut apart = series(&[1.0, 2.0]);
        apart.points[0].y = 0.61;
        apart.points[1].y = 0.62;
        let svg = line_chart("t", "x", "y", &[series(&[1.0, 2.0]), apart], None);
        assert!(!svg.contains("coincide"));
    }

    #[test]
    fn equal_estimates_of_two_series_stay_apart() {
        let point = Some(Point {
            x: 0.0,
            y: 50.0,
            lo: 20.0,
            hi: 80.0,
        });
        let series = |label: &str| RowSeries {
            label: label.into(),
            points: vec![point, None],
        };
        let svg = interval_rows(
            "t",
            "Elo",
            &["a".into(), "b <c>".into()],
            &[series("standard"), series("hoyle")],
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains(">b &lt;c&gt;<") && svg.contains("rows offset per series"));
        let dots: Vec<(&str, &str)> = svg
            .lines()
            .filter_map(|l| l.strip_prefix("<circle cx=\""))
            .map(|l| {
                let mut parts = l.split('"');
                (parts.next().unwrap(), parts.nth(1).unwrap())
            })
            .collect();
        assert_eq!(dots.len(), 2, "one dot per series; row b has none");
        assert_eq!(dots[0].0, dots[1].0, "same estimate, same x");
        assert_ne!(dots[0].1, dots[1].1, "drawn apart");
    }

    #[test]
    fn charts_are_well_formed_svg() {
        let s = Series {
            label: "standard <a&b>".into(),
            points: (0..=10)
                .map(|k| Point {
                    x: k as f64,
                    y: 0.5,
                    lo: 0.45,
                    hi: 0.55,
                })
                .collect(),
        };
        let svg = line_chart("t", "x", "y", &[s], Some(0.5));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(
            svg.contains("&lt;a&amp;b&gt;")
                && svg.contains("<polygon")
                && svg.contains("<polyline")
        );
        let h = histogram("h", "x", &[(-3, 1), (0, 5), (4, 2)]);
        assert_eq!(h.matches("<rect x=").count(), 3);
        assert!(h.contains("n = 8"));
        // Empty input still gives a valid chart.
        assert!(line_chart("t", "x", "y", &[], None).ends_with("</svg>\n"));
        assert!(histogram("h", "x", &[]).contains("n = 0"));
    }
}
