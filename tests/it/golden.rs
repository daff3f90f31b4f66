//! Golden transcripts: one seeded game per preset (greedy as A, simple as B),
//! every hand written out with `hand_transcript`, compared byte for byte with
//! `tests/golden/game-<preset>.txt`. Rewrite them on purpose only:
//! `GINLAB_BLESS=1 cargo test --test it golden::`.

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
    for preset in PRESETS {
        let path = format!("tests/golden/game-{preset}.txt");
        check(&path, &game_text(preset));
    }
}

/// Compares `text` with the golden file `path`, or writes it with
/// `GINLAB_BLESS` set.
fn check(path: &str, text: &str) {
    if std::env::var_os("GINLAB_BLESS").is_some() {
        std::fs::write(path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (GINLAB_BLESS=1 writes it)"));
    assert!(
        text == expected,
        "{path} differs; if the change is intended, rerun with GINLAB_BLESS=1 and review the diff"
    );
}

/// A small seeded match's `summary.csv` and `distribution.csv`, through the
/// library's job layer, compared byte for byte with `tests/golden/`: a wrong
/// formula in any column fails here.
#[test]
fn golden_match_tables() {
    use ginlab::experiment::Pairing;
    use ginlab::job::{self, JobError, JobRequest, Layout, Options, Player};
    use ginlab::sim::Work;

    let resolve = |spec: &str, _: &str| -> Result<Player, JobError> {
        let profile: Profile = spec.parse().map_err(|e| JobError::Input(format!("{e}")))?;
        Ok(Player {
            name: profile.to_string(),
            profile,
        })
    };
    let dir = std::env::temp_dir().join(format!("ginlab-golden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, work) in [("games", Work::Games(24)), ("hands", Work::Hands(400))] {
        let out = dir.join(name);
        let spec = JobRequest {
            variants: vec![("oklahoma".into(), Rules::preset("oklahoma").unwrap())],
            layout: Layout::Pairs {
                players: vec![("greedy".into(), "A".into()), ("simple".into(), "B".into())],
                pairing: Pairing::HeadToHead,
            },
            work,
            seed: SEED,
            duplicate: true,
            out: Some(out.clone()),
            name: None,
            default_folder: false,
            command: vec!["golden".into()],
            experiment: None,
            anchor: None,
            budget_ms: None,
        }
        .build(&resolve)
        .unwrap();
        job::run(&spec, &Options::default(), &|_| {}).unwrap();
        for file in ["summary.csv", "distribution.csv"] {
            let path = format!("tests/golden/match-{name}-{file}");
            check(&path, &std::fs::read_to_string(out.join(file)).unwrap());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
