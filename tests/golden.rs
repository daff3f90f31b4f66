//! Golden transcripts: one seeded game per preset (greedy as A, simple as B),
//! every hand written out with `hand_transcript`, compared byte for byte with
//! `tests/golden/game-<preset>.txt`. Rewrite them on purpose only:
//! `GINLAB_BLESS=1 cargo test --test golden`.

use std::fmt::Write as _;

use ginlab::engine::{Strategy, game_summary, hand_heading, hand_transcript, play_game};
use ginlab::rules::{PRESETS, Rules};
use ginlab::sim::{Stream, seed_for};
use ginlab::strategy::Profile;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

const SEED: u64 = 2026;

fn game_text(preset: &str) -> String {
    let rules = Rules::preset(preset).unwrap();
    let (a, b): (Profile, Profile) = ("greedy".parse().unwrap(), "simple".parse().unwrap());
    let mut pa = a.build(seed_for(SEED, 0, Stream::SeatA));
    let mut pb = b.build(seed_for(SEED, 0, Stream::SeatB));
    let mut players: [&mut dyn Strategy; 2] = [pa.as_mut(), pb.as_mut()];
    let mut rng = Pcg64Mcg::seed_from_u64(seed_for(SEED, 0, Stream::Deal));
    let mut out = format!("rules {preset} · seed {SEED} · A = {a} · B = {b}\n");
    let mut number = 0;
    let game = play_game(&rules, &mut players, &mut rng, |_, hand| {
        number += 1;
        writeln!(out, "\n{}", hand_heading(number, hand.scores())).unwrap();
        out.push_str(&hand_transcript(hand));
    })
    .unwrap();
    writeln!(out, "\n{}", game_summary(&game)).unwrap();
    out
}

#[test]
fn golden_game_per_preset() {
    let bless = std::env::var_os("GINLAB_BLESS").is_some();
    for preset in PRESETS {
        let path = format!("tests/golden/game-{preset}.txt");
        let text = game_text(preset);
        if bless {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (GINLAB_BLESS=1 writes it)"));
        assert!(
            text == expected,
            "{path} differs; if the change is intended, rerun with GINLAB_BLESS=1 and review the diff"
        );
    }
}
