//! Information hygiene: determinized worlds ([`Hand::from_world`]) continue
//! a hand exactly; the Monte Carlo sampler's worlds fit what the player knows
//! and differ from each other; and no strategy's decisions change when the
//! hidden cards change but everything its player saw stays the same.

use ginlab::engine::{
    Action, Deck, DrawSource, Hand, Phase, PlayerView, Seat, Strategy, TurnEnd, WorldError, ask,
    play_hand_inspected,
};
use ginlab::rules::{PRESETS, Rules};
use ginlab::strategy::{Greedy, Knowledge, McParams, MonteCarlo, Profile, Weighting};
use ginlab::{Card, CardSet};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Plays greedy against greedy on `deck` and returns every action.
fn greedy_actions(rules: &Rules, deck: &Deck, dealer: Seat) -> Vec<(Seat, Action)> {
    let mut hand = Hand::new(rules, deck, dealer, [12, 34]).unwrap();
    let (mut a, mut b) = (Greedy::default(), Greedy::default());
    let mut players: [&mut dyn Strategy; 2] = [&mut a, &mut b];
    play_hand_inspected(&mut hand, &mut players, |_| {}).unwrap();
    hand.actions().to_vec()
}

/// The true hidden cards of `hand` from `seat`'s side.
fn truth(hand: &Hand<'_>, seat: Seat) -> (CardSet, Vec<Card>) {
    (hand.cards(seat.other()), hand.stock().to_vec())
}

fn view_cards(view: &PlayerView<'_>) -> CardSet {
    view.pile.iter().copied().collect::<CardSet>() | view.hand
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// At every decision of a real hand, the world built from the acting
    /// player's view and the true hidden cards plays on exactly as the real
    /// hand does: same events, same outcome.
    #[test]
    fn true_world_continues_the_hand(seed in any::<u64>(), preset in 0usize..4) {
        let rules = Rules::preset(PRESETS[preset]).unwrap();
        let deck = Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(seed));
        let dealer = Seat::ALL[(seed % 2) as usize];
        let actions = greedy_actions(&rules, &deck, dealer);
        let mut end = Hand::new(&rules, &deck, dealer, [12, 34]).unwrap();
        for &(seat, action) in &actions {
            end.apply(seat, action).unwrap();
        }
        for k in 0..actions.len() {
            let mut real = Hand::new(&rules, &deck, dealer, [12, 34]).unwrap();
            for &(seat, action) in &actions[..k] {
                real.apply(seat, action).unwrap();
            }
            let seat = real.phase().seat().unwrap();
            let view = real.view(seat);
            let (opponent, stock) = truth(&real, seat);
            let mut world = Hand::from_world(&view, opponent, &stock).unwrap();
            prop_assert_eq!(world.view(seat), view);
            prop_assert_eq!(world.view(seat.other()), real.view(seat.other()));
            for &(s, a) in &actions[k..] {
                world.apply(s, a).unwrap();
            }
            prop_assert_eq!(world.outcome(), end.outcome());
            prop_assert_eq!(world.events(), end.events());
            prop_assert_eq!(world.actions(), &actions[k..]);
        }
    }

    /// Every sampled world holds the cards the opponent is known to hold,
    /// none the player holds or saw in the pile, the right counts, and is
    /// accepted by `Hand::from_world`; 64 worlds are not one world repeated.
    #[test]
    fn sampled_worlds_fit_the_view(seed in any::<u64>(), preset in 0usize..4, weighted in any::<bool>()) {
        let rules = Rules::preset(PRESETS[preset]).unwrap();
        let deck = Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(seed));
        let actions = greedy_actions(&rules, &deck, Seat::B);
        let mut hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
        let weighting = if weighted { Weighting::Tracker } else { Weighting::None };
        let mut mc = MonteCarlo::new(McParams { weighting, ..McParams::default() }.config().unwrap(), seed);
        for &(seat, action) in &actions {
            let view = hand.view(seat);
            let knowledge = Knowledge::from_view(&view);
            let k = weighted.then_some(&knowledge);
            let mut opponents = Vec::new();
            for _ in 0..64 {
                let world = mc.sample_world(&view, k);
                prop_assert!((view.opponent_known - world.opponent).is_empty());
                prop_assert!((world.opponent & view_cards(&view)).is_empty());
                prop_assert_eq!(world.opponent.len(), view.opponent_cards);
                prop_assert_eq!(world.stock.len() as u32, view.stock_size);
                let stock: CardSet = world.stock.iter().copied().collect();
                prop_assert_eq!(stock | world.opponent | view_cards(&view), CardSet::ALL);
                Hand::from_world(&view, world.opponent, &world.stock).unwrap();
                opponents.push(world.opponent);
            }
            opponents.sort_by_key(|c| c.bits());
            opponents.dedup();
            // With at least 20 unseen cards and 10 hidden ones, 64 draws give
            // (almost surely) far more than 32 different hands.
            let hidden = view.opponent_cards - view.opponent_known.len();
            if view.unseen().len() >= 20 && hidden >= 8 {
                prop_assert!(opponents.len() > 32, "only {} different worlds", opponents.len());
            }
            hand.apply(seat, action).unwrap();
        }
    }
}

/// Worlds that contradict the view are refused.
#[test]
fn contradicting_worlds_are_refused() {
    let rules = Rules::standard();
    let deck = Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(5));
    let mut hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
    hand.apply(Seat::A, Action::TakeUpcard(true)).unwrap();
    let card = hand.view(Seat::A).hand.iter().next().unwrap();
    let upcard = hand.upcard().unwrap();
    let discard = if card == upcard {
        hand.view(Seat::A).hand.iter().nth(1).unwrap()
    } else {
        card
    };
    hand.apply(Seat::A, Action::EndTurn(TurnEnd::Discard(discard)))
        .unwrap();
    // B decides; A is known to hold the upcard.
    let view = hand.view(Seat::B);
    let (opponent, stock) = truth(&hand, Seat::B);
    assert!(Hand::from_world(&view, opponent, &stock).is_ok());
    let swap = stock[0];
    // Without the known upcard (swapped for a stock card).
    let missing = opponent.without(upcard).with(swap);
    let mut stock2 = stock.clone();
    stock2[0] = upcard;
    assert_eq!(
        Hand::from_world(&view, missing, &stock2).unwrap_err(),
        WorldError::Opponent(missing)
    );
    // Holding the card on the pile.
    let pile_card = opponent
        .without(opponent.iter().find(|&c| c != upcard).unwrap())
        .with(discard);
    assert!(matches!(
        Hand::from_world(&view, pile_card, &stock),
        Err(WorldError::Opponent(_))
    ));
    // Too few cards.
    let short = opponent.without(opponent.iter().find(|&c| c != upcard).unwrap());
    assert!(Hand::from_world(&view, short, &stock).is_err());
    // A stock with a repeated card, or one card short.
    let mut doubled = stock.clone();
    doubled[1] = doubled[0];
    assert_eq!(
        Hand::from_world(&view, opponent, &doubled).unwrap_err(),
        WorldError::Stock(stock.len() as u32)
    );
    assert!(Hand::from_world(&view, opponent, &stock[1..]).is_err());
    // A's view while it is B's turn is not at a decision.
    assert_eq!(
        Hand::from_world(&hand.view(Seat::A), opponent, &stock).unwrap_err(),
        WorldError::NotDeciding
    );
}

/// `deck` with the dealer's (B's) ten cards swapped for the last ten of the
/// stock: the same public start, different hidden cards.
fn swap_hidden(deck: &Deck) -> Deck {
    let mut cards = *deck.cards();
    for i in 0..10 {
        cards.swap(2 * i + 1, 51 - i);
    }
    let text: Vec<String> = cards.iter().map(Card::to_string).collect();
    text.join(" ").parse().unwrap()
}

/// A's decisions while B follows a script that is legal in both worlds and
/// shows the same things: pass the upcard, draw from the stock, throw the
/// card just drawn (drawn from the same stock positions in both decks).
fn decisions_against_script(rules: &Rules, deck: &Deck, profile: &Profile) -> Vec<String> {
    let mut hand = Hand::new(rules, deck, Seat::B, [7, 21]).unwrap();
    let mut a = profile.build(99);
    let mut seen = Vec::new();
    let mut drawn = None;
    for _ in 0..40 {
        let Some(seat) = hand.phase().seat() else {
            break;
        };
        if hand.stock().len() < 14 {
            break;
        }
        let action = if seat == Seat::A {
            ask(a.as_mut(), &hand.view(Seat::A))
        } else {
            match hand.phase() {
                Phase::UpcardOffer { .. } => Action::TakeUpcard(false),
                Phase::Draw { .. } => {
                    drawn = Some(hand.stock()[0]);
                    Action::Draw(DrawSource::Stock)
                }
                _ => Action::EndTurn(TurnEnd::Discard(drawn.take().unwrap())),
            }
        };
        seen.push(format!("{seat}: {action:?}"));
        hand.apply(seat, action).unwrap();
    }
    seen
}

/// Every built-in strategy decides the same when only hidden cards differ.
#[test]
fn decisions_ignore_hidden_cards() {
    let profiles = [
        "random",
        "simple",
        "greedy",
        "greedy:knock_at=0",
        "tracker",
        "mc:samples=16",
        "mc:samples=8,weighting=none,rollout=tracker,calibrate=false",
    ];
    // Parsed once: a parsed `mc` profile keeps its calibration's tables, so
    // each preset's prior is built once, not once a deck (the second mc
    // profile goes without).
    let profiles: Vec<(&str, Profile)> = profiles
        .iter()
        .map(|text| (*text, text.parse().unwrap()))
        .collect();
    let mut rng = Pcg64Mcg::seed_from_u64(2026);
    for preset in PRESETS {
        let rules = Rules::preset(preset).unwrap();
        for _ in 0..6 {
            let one = Deck::shuffled(&mut rng);
            let two = swap_hidden(&one);
            let hand_of_b = |d: &Deck| {
                Hand::new(&rules, d, Seat::B, [0, 0])
                    .unwrap()
                    .cards(Seat::B)
            };
            assert_ne!(hand_of_b(&one), hand_of_b(&two), "the hidden cards differ");
            for (text, profile) in &profiles {
                let first = decisions_against_script(&rules, &one, profile);
                let second = decisions_against_script(&rules, &two, profile);
                assert!(first.len() > 4, "{text}: too short a test: {first:?}");
                assert_eq!(first, second, "{text} under {preset} saw hidden cards");
            }
        }
    }
}

/// The same seed gives the same choices; the profile's `seed` changes the
/// sampling.
#[test]
fn mc_is_deterministic_by_seed() {
    let rules = Rules::eaai();
    let deck = Deck::shuffled(&mut Pcg64Mcg::seed_from_u64(8));
    let run = |profile: &str| decisions_against_script(&rules, &deck, &profile.parse().unwrap());
    assert_eq!(run("mc:samples=8"), run("mc:samples=8"));
    let mut worlds = Vec::new();
    for seed in [0, 1] {
        let hand = Hand::new(&rules, &deck, Seat::B, [0, 0]).unwrap();
        let params = McParams {
            seed,
            ..McParams::default()
        };
        let mut mc = MonteCarlo::new(params.config().unwrap(), 3);
        worlds.push(mc.sample_world(&hand.view(Seat::A), None));
    }
    assert_ne!(worlds[0], worlds[1]);
}
