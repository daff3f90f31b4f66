//! "Did you mean ...?": the closest of the names a message lists to what
//! was typed, so a typo like `gredy` points at `greedy`. Every layer that
//! rejects an unknown name (a strategy kind, a profile, a knob, a preset)
//! asks here.

/// The candidate closest to `input` by edit distance (an adjacent swap
/// counts as one edit), if it is close enough to be a likely typo: at most
/// one edit per three characters of the candidate, and at least one. Ties
/// go to the earlier candidate.
#[must_use]
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let input = input.trim().to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&input, &c.to_lowercase()), c))
        .filter(|&(d, c)| d > 0 && d <= (c.chars().count() / 3).max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// `; did you mean `NAME`?` for the [`closest`] candidate, or nothing.
#[must_use]
pub fn did_you_mean<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(input, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [&str; 5] = ["random", "simple", "greedy", "tracker", "mc"];

    #[test]
    fn typos_find_the_name() {
        assert_eq!(closest("gredy", KINDS), Some("greedy"));
        assert_eq!(closest("Greedy ", KINDS), None, "an exact match is no typo");
        assert_eq!(closest("trakcer", KINDS), Some("tracker"));
        assert_eq!(closest("mx", KINDS), Some("mc"));
        assert_eq!(closest("oklahoma", ["standard", "hoyle", "oklahoma"]), None);
        assert_eq!(
            closest("oaklahoma", ["standard", "hoyle", "oklahoma"]),
            Some("oklahoma")
        );
        assert_eq!(
            closest("gin_bonsu", ["gin_bonus", "box_bonus"]),
            Some("gin_bonus")
        );
    }

    #[test]
    fn far_names_get_no_suggestion() {
        assert_eq!(closest("alphabeta", KINDS), None);
        assert_eq!(closest("x", KINDS), None);
        assert_eq!(did_you_mean("zzzzzz", KINDS), "");
        assert_eq!(did_you_mean("simpel", KINDS), "; did you mean `simple`?");
    }
}
