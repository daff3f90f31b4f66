//! Property tests over random playouts: every built-in strategy
//! under every preset (and the eleven-card deal and last-discard knob). After
//! every action the 52 cards are each in exactly one place; every hand ends;
//! a game's scores add up to its hands.

use ginlab::engine::{
    Deck, Hand, HandOutcome, Phase, Seat, Strategy, Tally, play_game, play_hand_inspected,
};
use ginlab::lab::Lab;
use ginlab::rules::{Deal, PRESETS, Rules};
use ginlab::strategy::Profile;
use ginlab::{CardSet, meld};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn rule_sets() -> Vec<Rules> {
    let mut all: Vec<Rules> = PRESETS.iter().map(|p| Rules::preset(p).unwrap()).collect();
    all.push(Rules {
        deal: Deal::ElevenCards,
        ..Rules::standard()
    });
    all.push(Rules {
        last_discard_action: true,
        big_gin_bonus: Some(31),
        ..Rules::hoyle()
    });
    all
}

const PROFILES: [&str; 7] = [
    "random:knock_prob=0.3",
    "simple",
    "greedy",
    "greedy:knock_at=0",
    "tracker",
    "mc:samples=2,discards=2",
    "mc:samples=2,rollout=tracker,weighting=none",
];

/// The lab every case's players are bound to, so that `mc`'s hand prior is
/// measured once for the run, not once per case (it is a cache: decisions
/// are the same either way).
static LAB: std::sync::LazyLock<Lab> = std::sync::LazyLock::new(Lab::new);

/// `PROFILES[i]` bound to [`LAB`].
fn profile(i: usize) -> Profile {
    PROFILES[i].parse::<Profile>().unwrap().in_lab(&LAB)
}

/// Every card is in exactly one place: a hand, the pile, the stock, or face down.
fn assert_conserved(hand: &Hand<'_>) {
    let mut places = vec![hand.cards(Seat::A), hand.cards(Seat::B)];
    places.push(hand.pile().iter().copied().collect());
    places.push(hand.stock().iter().copied().collect());
    places.push(hand.face_down().into_iter().collect());
    let count: usize = hand.pile().len()
        + hand.stock().len()
        + places[0].len() as usize
        + places[1].len() as usize
        + hand.face_down().is_some() as usize;
    let union = places.iter().fold(CardSet::EMPTY, |u, p| u | *p);
    assert_eq!((union, count), (CardSet::ALL, 52), "cards lost or doubled");
}

/// Plays one hand step by step, checking invariants after each action.
fn play_checked(
    rules: &Rules,
    deck: &Deck,
    dealer: Seat,
    players: &mut [Box<dyn Strategy>; 2],
) -> HandOutcome {
    let mut hand = Hand::new(rules, deck, dealer, [0, 0]).unwrap();
    assert_conserved(&hand);
    let mut actions = 0;
    let [a, b] = players;
    let mut seats: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
    play_hand_inspected(&mut hand, &mut seats, |hand| {
        assert_conserved(hand);
        // Between turns both hold 10 cards (11 only while ending a turn).
        if let Phase::Draw { .. } = hand.phase() {
            assert_eq!(
                (hand.cards(Seat::A).len(), hand.cards(Seat::B).len()),
                (10, 10)
            );
        }
        actions += 1;
        assert!(actions <= 4 * rules.max_turns + 10, "hand did not end");
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let outcome = *hand.outcome().unwrap();
    if let HandOutcome::Showdown {
        knocker, showdown, ..
    } = outcome
    {
        assert!(showdown.knocker_deadwood() <= hand.knock_limit());
        assert_eq!(
            showdown.defender.hand() | showdown.layoffs,
            hand.cards(knocker.other())
        );
        assert_eq!(showdown.knocker.hand(), hand.cards(knocker));
        assert!(meld::deadwood(hand.cards(knocker)) <= hand.knock_limit());
    }
    outcome
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hands_conserve_cards_and_end(seed in any::<u64>(), rules_ix in 0usize..6, a in 0usize..7, b in 0usize..7) {
        let rules = &rule_sets()[rules_ix];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut players = [
            profile(a).build(seed ^ 1),
            profile(b).build(seed ^ 2),
        ];
        for i in 0..8 {
            let deck = Deck::shuffled(&mut rng);
            play_checked(rules, &deck, Seat::ALL[i % 2], &mut players);
        }
    }

    #[test]
    fn game_scores_add_up(seed in any::<u64>(), rules_ix in 0usize..6, a in 1usize..7, b in 1usize..7) {
        let rules = &rule_sets()[rules_ix];
        let mut pa = profile(a).build(seed ^ 1);
        let mut pb = profile(b).build(seed ^ 2);
        let mut players: [&mut dyn Strategy; 2] = [pa.as_mut(), pb.as_mut()];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut replay = Tally::default();
        let mut hands = 0;
        let game = play_game(rules, &mut players, &mut rng, |record, _| {
            hands += 1;
            replay.record(rules, &record.outcome, record.upcard);
        }).unwrap();
        prop_assert_eq!(game.tally, replay);
        prop_assert_eq!(game.hands, hands);
        prop_assert!(game.tally.points[game.winner.index()] >= rules.game_target);
        prop_assert!(game.tally.points[game.winner.other().index()] < rules.game_target);
        let (scores, shutout, margin) = game.tally.finish(rules, game.winner);
        prop_assert_eq!((scores, shutout, margin), (game.final_scores, game.shutout, game.margin));
        prop_assert_eq!(margin, scores[game.winner.index()] as i64 - scores[game.winner.other().index()] as i64);
    }
}

/// The first dealer comes from the seed: both seats deal first for some seeds.
#[test]
fn first_dealer_is_random_from_the_seed() {
    let rules = Rules::standard();
    let profile: Profile = "greedy".parse().unwrap();
    let mut firsts = [0; 2];
    for seed in 0..40 {
        let (mut a, mut b) = (profile.build(1), profile.build(2));
        let mut players: [&mut dyn Strategy; 2] = [a.as_mut(), b.as_mut()];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let game = play_game(&rules, &mut players, &mut rng, |_, _| {}).unwrap();
        firsts[game.first_dealer.index()] += 1;
    }
    assert!(firsts[0] > 5 && firsts[1] > 5, "{firsts:?}");
}
