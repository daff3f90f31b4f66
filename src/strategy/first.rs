//! `first` (tests only): the registry's worked example. A kind is this
//! file plus one line in the table of `strategy/mod.rs`; nothing else in
//! ginlab names it, yet profiles, messages and runs know it.
//!
//! It draws from the stock, discards the first legal card, and knocks with
//! it when that is legal and `knock` is on.

use std::fmt;

use super::profile::{Given, KeyError, Keys, Kind, Params, keys, write_inline};
use crate::engine::{DrawSource, PlayerView, Strategy, TurnEnd, legal_discards, turn_end};
use crate::meld;

/// The table's row of `first`.
pub(super) const KIND: Kind = Kind::of::<First>("first", None);

keys! {
    /// The player, which is also its profile.
    #[derive(Clone, Debug, PartialEq)]
    pub struct First {
        /// Knock with the first legal card when that is legal.
        knock: bool => Boolean "true or false",
    }
}

impl Keys for First {
    const PARAMS: &'static [crate::strategy::Param] = First::KEY_LIST;
    type Params = First;

    fn resolve(self, _given: &Given) -> Result<First, KeyError> {
        Ok(self)
    }
}

impl Default for First {
    fn default() -> First {
        First { knock: true }
    }
}

impl Params for First {
    fn kind(&self) -> &'static Kind {
        &KIND
    }

    fn build(&self, _seed: u64) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}

impl fmt::Display for First {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items = if self.knock {
            Vec::new()
        } else {
            vec!["knock=false".to_owned()]
        };
        write_inline(f, KIND.name, &items)
    }
}

impl Strategy for First {
    fn name(&self) -> &str {
        "first"
    }

    fn take_upcard(&mut self, _view: &PlayerView<'_>) -> bool {
        false
    }

    fn draw(&mut self, _view: &PlayerView<'_>) -> DrawSource {
        DrawSource::Stock
    }

    fn end_turn(&mut self, view: &PlayerView<'_>) -> TurnEnd {
        // It never takes the pile, so it is never bound to knock.
        let card = legal_discards(view).first().expect("a legal discard");
        let can = meld::deadwood(view.hand.without(card)) <= view.knock_limit;
        turn_end(card, self.knock && can)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use crate::engine::play_game;
    use crate::rules::Rules;
    use crate::strategy::{Profile, builtin_kinds};

    #[test]
    fn a_new_kind_is_known_everywhere() {
        let profile: Profile = "first:knock=false".parse().unwrap();
        assert_eq!(profile.to_string(), "first:knock=false");
        assert_eq!("first".parse::<Profile>().unwrap().to_string(), "first");
        let (from_file, _) = Profile::from_toml("kind = \"first\"\nknock = false").unwrap();
        assert_eq!(from_file, profile);
        assert!(builtin_kinds().any(|k| k == "first"));
        let e = |t: &str| t.parse::<Profile>().unwrap_err().to_string();
        assert!(e("frist").ends_with("did you mean `first`?"), "{}", e("frist"));
        assert_eq!(
            e("first:knock=maybe"),
            "bad value `maybe` for `first:knock`: expected true or false"
        );
        assert_eq!(
            e("first:draw=1"),
            "strategy `first` has no parameter `draw`; it takes: knock"
        );
        // It has no `observe`, and by default is not sent the events.
        assert!(!profile.build(0).observes());
        // And it plays: whole games against random, built from profiles.
        let random: Profile = "random".parse().unwrap();
        for seed in 0..4 {
            let (mut a, mut b) = (profile.build(seed), random.build(seed));
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            play_game(&Rules::standard(), &mut [&mut *a, &mut *b], &mut rng, |_, _| {}).unwrap();
        }
    }
}
