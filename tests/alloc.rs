//! A hand allocates nothing in steady state: a worker that plays deal
//! after deal of one plan with its [`Scratch`] (players reset, the hand
//! dealt into the same vectors, tallies of counters) calls the allocator
//! zero times once it has warmed up.
//!
//! The allocator below counts the calls of the thread that makes them, so
//! the other tests of this binary, running on other threads, do not count.

// A global allocator is an `unsafe impl`; this test binary's one exception
// to the crate's `unsafe_code = "deny"`, forwarding to `System` unchanged.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ginlab::rules::{PRESETS, Rules};
use ginlab::sim::{Plan, Scratch, Tallies, Work};

struct Counting;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the allocator may run while the thread's locals are
    // being torn down.
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every method forwards to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count();
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn calls() -> u64 {
    CALLS.with(Cell::get)
}

/// Warm-up deals, then measured deals.
const WARM: u64 = 1_000;
const MEASURED: u64 = 1_000;

/// Allocator calls of this thread while playing deals `WARM..WARM +
/// MEASURED` of `a` against `b`, after playing deals `0..WARM` with the
/// same scratch and tallies.
fn steady_calls(a: &str, b: &str, rules: Rules, work: Work, duplicate: bool) -> u64 {
    let plan = Plan {
        rules,
        profiles: [a.parse().unwrap(), b.parse().unwrap()],
        work,
        duplicate,
        seed: 7,
    };
    let mut scratch = Scratch::default();
    let mut tallies = Tallies::default();
    for index in 0..WARM {
        plan.play_deal_in(index, &mut tallies, &mut scratch)
            .unwrap();
    }
    let before = calls();
    for index in WARM..WARM + MEASURED {
        plan.play_deal_in(index, &mut tallies, &mut scratch)
            .unwrap();
    }
    let after = calls();
    assert!(tallies.hands >= WARM + MEASURED, "the deals were played");
    after - before
}

const BUILT_IN: [&str; 4] = ["random", "simple", "greedy", "tracker"];

#[test]
fn counting_sees_an_allocation() {
    let before = calls();
    let v = std::hint::black_box(vec![1u8; 3]);
    drop(v);
    assert_eq!(calls() - before, 2, "one allocation and one free");
}

#[test]
fn hands_allocate_nothing_in_steady_state() {
    for preset in PRESETS {
        for a in BUILT_IN {
            for b in BUILT_IN {
                let rules = Rules::preset(preset).unwrap();
                let n = steady_calls(a, b, rules, Work::Hands(u64::MAX), true);
                assert_eq!(
                    n, 0,
                    "{a} vs {b} under {preset}: {n} allocator calls over {MEASURED} deals"
                );
            }
        }
    }
}

#[test]
fn games_allocate_nothing_in_steady_state() {
    for a in BUILT_IN {
        let rules = Rules::eaai();
        let n = steady_calls(a, "greedy", rules, Work::Games(u64::MAX), true);
        assert_eq!(n, 0, "{a} vs greedy games: {n} allocator calls");
    }
}

#[test]
fn a_new_scratch_builds_its_players() {
    // Without a kept scratch every deal builds its players: the test above
    // would fail if reuse were not what makes it pass.
    let plan = Plan {
        rules: Rules::eaai(),
        profiles: ["simple".parse().unwrap(), "greedy".parse().unwrap()],
        work: Work::Hands(u64::MAX),
        duplicate: false,
        seed: 7,
    };
    let mut tallies = Tallies::default();
    for index in 0..WARM {
        plan.play_deal(index, &mut tallies).unwrap();
    }
    let before = calls();
    for index in WARM..WARM + 100 {
        plan.play_deal(index, &mut tallies).unwrap();
    }
    assert!(
        calls() - before >= 100,
        "a fresh scratch per deal allocates"
    );
}

#[test]
fn reused_players_play_as_new_ones() {
    for (a, b) in [("simple", "random"), ("tracker", "greedy:knock_at=3")] {
        for work in [Work::Hands(u64::MAX), Work::Games(u64::MAX)] {
            let plan = Plan {
                rules: Rules::eaai(),
                profiles: [a.parse().unwrap(), b.parse().unwrap()],
                work,
                duplicate: true,
                seed: 11,
            };
            let (mut fresh, mut reused) = (Tallies::default(), Tallies::default());
            let mut scratch = Scratch::default();
            for index in 0..60 {
                plan.play_deal(index, &mut fresh).unwrap();
                plan.play_deal_in(index, &mut reused, &mut scratch).unwrap();
            }
            assert_eq!(fresh, reused, "{a} vs {b}, {:?}", plan.work);
        }
    }
}
