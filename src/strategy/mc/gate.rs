//! The gate: which candidate answer mc plays, given every candidate's
//! value in every sampled world (see the module docs of `mc`).

/// The candidate to play, from `values[w * n + c]` (candidate `c` in world
/// `w`, `n` candidates) and world weights: the one with the best weighted
/// mean, if its mean gain over candidate 0 (the base policy's choice) is
/// more than `confidence` standard errors of the paired differences;
/// otherwise 0.
/// Pairing by world is what common random numbers buy: the noise of the
/// world cancels out of the difference.
#[must_use]
pub fn pick_candidate(values: &[f64], weights: &[f64], n: usize, confidence: f64) -> usize {
    let total: f64 = weights.iter().sum();
    if n < 2 || total <= 0.0 {
        return 0;
    }
    let mean = |c: usize| weighted_mean(values, weights, n, c, total);
    let best = (1..n).fold(0, |b, c| if mean(c) > mean(b) { c } else { b });
    if best == 0 {
        return 0;
    }
    let gain = mean(best) - mean(0);
    if gain > confidence * paired_error(values, weights, n, best, 0, gain) {
        best
    } else {
        0
    }
}

/// What the gate saw at one decision
/// ([`MonteCarlo::last_decision`](super::MonteCarlo::last_decision)): the
/// candidates (the base policy's answer first), the one played, and their
/// values on the decision's worlds.
#[derive(Clone, Copy, Debug)]
pub struct Estimates<'a> {
    /// The candidate answers, the base policy's first.
    pub candidates: &'a [crate::engine::Action],
    /// The index of the one played.
    pub chosen: usize,
    /// `values[w * n + c]`: candidate `c` in world `w`.
    pub(super) values: &'a [f64],
    /// The worlds' weights (none: the decision was not sampled).
    pub(super) weights: &'a [f64],
}

impl Estimates<'_> {
    /// The worlds sampled (0: one sensible answer, played unsampled).
    #[must_use]
    pub fn worlds(&self) -> usize {
        self.weights.len()
    }

    /// Candidate `c`'s weighted mean (NaN when not sampled).
    #[must_use]
    pub fn mean(&self, c: usize) -> f64 {
        let total: f64 = self.weights.iter().sum();
        weighted_mean(self.values, self.weights, self.candidates.len(), c, total)
    }

    /// The mean gain of candidate `a` over `b` and its standard error,
    /// paired by world (what the gate compares).
    #[must_use]
    pub fn gain(&self, a: usize, b: usize) -> (f64, f64) {
        let gain = self.mean(a) - self.mean(b);
        let n = self.candidates.len();
        (gain, paired_error(self.values, self.weights, n, a, b, gain))
    }

    /// The candidate with the best mean (the first of equals), which the
    /// gate tests against the base.
    #[must_use]
    pub fn best(&self) -> usize {
        (1..self.candidates.len()).fold(0, |b, c| if self.mean(c) > self.mean(b) { c } else { b })
    }
}

/// The weighted mean of candidate `c` over the worlds (`total`: the sum of
/// the weights).
pub(super) fn weighted_mean(values: &[f64], weights: &[f64], n: usize, c: usize, total: f64) -> f64 {
    weights
        .iter()
        .enumerate()
        .map(|(w, &x)| x * values[w * n + c])
        .sum::<f64>()
        / total
}

/// The standard error of the weighted mean of the paired differences
/// `values[a] − values[b]` over the worlds, whose mean is `gain`; the
/// weights count as their effective number (Kish). Assumes a positive total
/// weight.
pub(super) fn paired_error(
    values: &[f64],
    weights: &[f64],
    n: usize,
    a: usize,
    b: usize,
    gain: f64,
) -> f64 {
    let total: f64 = weights.iter().sum();
    let squares: f64 = weights.iter().map(|w| w * w).sum();
    let effective = total * total / squares;
    let var = weights
        .iter()
        .enumerate()
        .map(|(w, &x)| {
            let d = values[w * n + a] - values[w * n + b] - gain;
            x * d * d
        })
        .sum::<f64>()
        / total;
    (var / effective).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::McParams;

    /// `values[w * n + c]` for per-world base values and per-world gains of
    /// one alternative.
    fn paired(base: &[f64], gain: &[f64]) -> Vec<f64> {
        base.iter()
            .zip(gain)
            .flat_map(|(&b, &d)| [b, b + d])
            .collect()
    }

    /// The gate measures the paired differences, not the noisy means: the
    /// base values swing by ±10 between worlds, the gains by 0.5 around 1.5.
    #[test]
    fn gate_reads_paired_differences() {
        let base = [0.0, 10.0, -10.0, 0.0];
        let values = paired(&base, &[1.0, 2.0, 1.0, 2.0]);
        let w = [1.0; 4];
        // Gain 1.5, paired sd 0.5 over 4 worlds: 6 standard errors.
        assert_eq!(pick_candidate(&values, &w, 2, 2.0), 1);
        assert_eq!(pick_candidate(&values, &w, 2, 5.9), 1);
        assert_eq!(pick_candidate(&values, &w, 2, 6.1), 0);
    }

    /// A gain of exactly one standard error passes a gate below 1 and
    /// neither 1 (the test is strict) nor the default 2.
    #[test]
    fn gate_at_one_and_two_standard_errors() {
        let values = paired(&[5.0, -3.0, 0.0, 8.0], &[3.0, -1.0, 3.0, -1.0]);
        let w = [1.0; 4];
        assert_eq!(pick_candidate(&values, &w, 2, 0.9), 1);
        assert_eq!(pick_candidate(&values, &w, 2, 1.0), 0);
        assert_eq!(
            pick_candidate(&values, &w, 2, McParams::default().confidence),
            0
        );
        assert_eq!(McParams::default().confidence, 2.0);
    }

    /// The best mean is the one tested, worse alternatives never win, and
    /// worlds of weight 0 do not count.
    #[test]
    fn gate_tests_the_best_mean_with_world_weights() {
        // Three candidates in 3 worlds: base, a sure +1, a sure +2.
        let values = [0.0, 1.0, 2.0, 4.0, 5.0, 6.0, -2.0, -1.0, 0.0];
        assert_eq!(pick_candidate(&values, &[1.0; 3], 3, 2.0), 2);
        // Alternatives that are worse everywhere.
        let worse = [0.0, -1.0, 4.0, 3.0, -2.0, -3.0];
        assert_eq!(pick_candidate(&worse, &[1.0; 3], 2, 0.0), 0);
        // The alternative wins only in a world of weight 0.
        let values = paired(&[0.0, 0.0, 0.0], &[-1.0, -1.0, 50.0]);
        assert_eq!(pick_candidate(&values, &[1.0, 1.0, 1.0], 2, 0.0), 1);
        assert_eq!(pick_candidate(&values, &[1.0, 1.0, 0.0], 2, 0.0), 0);
        // No weight or a single candidate: the base.
        assert_eq!(pick_candidate(&values, &[0.0; 3], 2, 0.0), 0);
        assert_eq!(pick_candidate(&[1.0, 2.0], &[1.0, 1.0], 1, 0.0), 0);
    }

}
