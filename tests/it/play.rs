//! `ginlab play`: a whole game from scripted answers, bad answers reported
//! and asked again, the opponent's dealt cards hidden until the showdown,
//! `quit` and the end of the input.

use crate::cmd::{ginlab, succeeded};
use ginlab::engine::{Deck, Seat};
use ginlab::sim::{Stream, seed_for};
use ginlab::{Card, CardSet};
use rand::{Rng as _, SeedableRng as _};
use rand_pcg::Pcg64Mcg;

/// A seed under which the scripted player below also wins a hand.
const SEED: u64 = 4;

/// Runs `ginlab play --vs greedy --seed SEED` with `stdin`; returns the exit
/// code, stdout and stderr.
fn play(stdin: &str) -> (Option<i32>, String, String) {
    let output = ginlab()
        .args(["play", "--vs", "greedy", "--seed", &SEED.to_string()])
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Answers that find a legal move at every decision whatever the cards, by
/// letting each prompt skip the lines it cannot use (each one a bad answer,
/// reported and asked again): `n` for the upcard, `s` for a draw, and at
/// the end of a turn the first legal knock, else the first card held.
fn scripted(rounds: usize) -> String {
    let cards: Vec<String> = Card::all().map(|c| c.to_string()).collect();
    let mut round = vec!["n".to_owned(), "s".to_owned()];
    round.extend(cards.iter().map(|c| format!("k {c}")));
    round.extend(cards.iter().cloned());
    (round.join("\n") + "\n").repeat(rounds)
}

/// The cards named in `line` (printed as `7H`, `TD`), ignoring brackets
/// and punctuation.
fn cards_in(line: &str) -> CardSet {
    line.split(|c: char| c.is_whitespace() || "[](),.:;`".contains(c))
        .filter(|word| word.len() == 2 && !word.chars().any(|c| c.is_ascii_lowercase()))
        .filter_map(|word| word.parse::<Card>().ok())
        .collect()
}

/// What the table showed: the output without the typed answers (after a
/// prompt's `> `) and the bad-answer messages (`! `), which repeat what was
/// typed.
fn shown(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|line| !line.starts_with("! "))
        .map(|line| line.split_once(" > ").map_or(line, |(prompt, _)| prompt))
        .collect()
}

#[test]
fn plays_a_whole_game_from_scripted_answers() {
    let (code, stdout, stderr) = play(&scripted(120));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(stdout.starts_with(&format!(
        "You against greedy · rules standard · seed {SEED}\n"
    )));
    assert!(stdout.contains("\nGame over after "), "no game end");
    assert!(
        stdout.contains("You knock.\n  you (knocker)"),
        "no knock of yours"
    );
    assert!(stdout.contains("greedy knocks.\n  greedy (knocker)"));
    assert!(stdout.contains(" points to you.\n"));
    // Every bad answer is followed by the same question again.
    let lines: Vec<&str> = stdout.lines().collect();
    let mut errors = 0;
    for (i, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("! "))
    {
        let question = |l: &str| l.split_once(" > ").map(|(q, _)| q.to_owned());
        let before = question(lines[i - 1]).expect("a bad answer follows a prompt");
        assert_eq!(question(lines[i + 1]), Some(before), "line {i}: {line}");
        assert!(line.contains(". Answer "), "{line}");
        errors += 1;
    }
    assert!(errors > 100, "{errors} bad answers");
    assert!(
        stdout.contains("! `n`: not an answer to this question. Answer s (the stock) or p (take ")
    );
    assert!(stdout.contains(": you do not hold "));
    // The same seed and answers replay the same game.
    assert_eq!(play(&scripted(120)).1, stdout);
}

#[test]
fn the_opponents_dealt_cards_stay_hidden_until_the_showdown() {
    let (_, stdout, _) = play(&scripted(120));
    // The first hand's deal, as the command derives it from the seed.
    let mut rng = Pcg64Mcg::seed_from_u64(seed_for(SEED, 0, Stream::Deal));
    let dealer = Seat::ALL[(rng.next_u64() & 1) as usize];
    let deck = Deck::shuffled(&mut rng);
    let mut hands = [CardSet::EMPTY; 2];
    for (i, &card) in deck.cards()[..20].iter().enumerate() {
        let seat = if i % 2 == 0 { dealer.other() } else { dealer };
        hands[seat.index()].insert(card);
    }
    // The person sits in seat A; the output agrees with the derived deal.
    let [yours, theirs] = hands;
    let deals = if dealer == Seat::A {
        "you deal"
    } else {
        "greedy deals"
    };
    assert!(
        stdout.contains(&format!("── Hand 1 · {deals} · ")),
        "dealer"
    );
    let lines = shown(&stdout);
    let first_hand = lines
        .iter()
        .find_map(|l| l.strip_prefix("Your hand  "))
        .expect("a hand shown");
    assert_eq!(cards_in(first_hand), yours, "{first_hand}");
    // Up to the first hand's showdown, a card dealt to the opponent shows
    // first when the opponent discards it, or not at all.
    let end = lines
        .iter()
        .position(|l| l.contains("(knocker)") || l.starts_with("Void hand"))
        .expect("the first hand ends");
    for card in theirs {
        if let Some(line) = lines[..end].iter().find(|l| cards_in(l).contains(card)) {
            assert_eq!(*line, format!("greedy discards {card}."), "{card}");
        }
    }
    // The showdown shows them.
    let spread: CardSet = lines[end..end + 2]
        .iter()
        .map(|l| cards_in(l))
        .fold(CardSet::EMPTY, |a, b| a | b);
    assert_eq!(spread.len(), 20, "both spreads at the showdown");
}

#[test]
fn a_bad_answer_is_asked_again_and_the_end_of_input_is_an_error() {
    let (code, stdout, stderr) = play("maybe\n");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("input ended before the game finished"),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let error = lines
        .iter()
        .position(|l| l.starts_with("! `maybe`: not an answer to this question. Answer "))
        .expect("the bad answer is reported");
    let (question, typed) = lines[error - 1].split_once(" > ").unwrap();
    assert_eq!(typed, "maybe");
    assert_eq!(lines[error + 1], format!("{question} > "));
    assert!(stdout.contains("The input ended in hand 1, before its end."));
}

#[test]
fn quit_ends_the_game_cleanly() {
    let (code, stdout, stderr) = play("help\nquit\n");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(stdout.contains("Answers (case does not matter):"));
    assert!(stdout.contains("Right now: "));
    assert!(stdout.contains("You quit in hand 1, before its end. Scores: you 0"));
}

#[test]
fn a_bad_opponent_is_bad_input() {
    ginlab()
        .args(["play", "--vs", "nobody"])
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "strategy --vs: `nobody` is not a built-in kind",
        ));
}

/// docs/CLI.md's `play` example is an excerpt of a real session: played from
/// the answers kept beside the tests, the session prints every piece of
/// the excerpt (the runs of lines between its `…` lines), in order, the
/// first at the start and the last at the end.
#[test]
fn the_readme_session_is_what_play_prints() {
    let readme = include_str!("../../docs/CLI.md");
    let start = "```console,ignore\n$ ginlab play --vs greedy --seed 4\n";
    let at = readme
        .find(start)
        .expect("docs/CLI.md shows a play session")
        + start.len();
    let block = &readme[at..at + readme[at..].find("```\n").unwrap()];
    let (code, stdout, stderr) = play(include_str!("../data/play-readme.answers"));
    assert_eq!(code, Some(0), "{stderr}");
    let pieces: Vec<&str> = block.split("…\n").collect();
    assert!(pieces.len() > 2, "the excerpt has elided parts");
    assert!(stdout.starts_with(pieces[0]), "the session starts as shown");
    assert!(
        stdout.ends_with(pieces[pieces.len() - 1]),
        "and ends as shown"
    );
    let mut from = 0;
    for piece in &pieces {
        let found = stdout[from..]
            .find(piece)
            .unwrap_or_else(|| panic!("docs/CLI.md's piece is not printed (in order):\n{piece}"));
        from += found + piece.len();
    }
}

/// The replay hint quotes what a shell would split (an external bot's
/// command, a knob), so pasting it back plays the same game.
#[test]
fn the_replay_command_pastes_back() {
    let bot = "exec:python3 examples/bots/random_bot.py";
    let first = |args: &[&str]| {
        let output = ginlab()
            .args(args)
            .write_stdin("n\ns\nquit\n")
            .output()
            .unwrap();
        succeeded(&output);
        String::from_utf8(output.stdout).unwrap()
    };
    let stdout = first(&["play", "--vs", bot, "--rule", "gin_bonus=30"]);
    let hint = stdout
        .lines()
        .find_map(|l| l.strip_prefix("(replay: ")?.strip_suffix(')'))
        .expect("a replay line");
    assert!(
        hint.contains(&format!("'{bot}'")),
        "the bot's command is quoted: {hint}"
    );
    let words = shlex::split(hint).expect("a shell line");
    assert_eq!(words[..4], ["ginlab", "play", "--vs", bot]);
    let again = first(&words[1..].iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(again, stdout);
}
