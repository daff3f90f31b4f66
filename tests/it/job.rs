//! The job layer through the library, no binary: shards merge to the
//! whole run, a run interrupted mid-way resumes to the same files, a
//! stopping rule writes its folder and resumes, and merge writes a study's
//! table.

use std::path::Path;

use ginlab::experiment::{Pairing, Sweep};
use ginlab::job::{self, Contest, JobError, JobRequest, JobSpec, Layout, Options, Progress, Shard};
use ginlab::rules::Rules;
use ginlab::sim::Work;
use ginlab::stats::{Moments, Sprt, SprtDecision};

use crate::jobs;

use jobs::resolve;

fn scratch(name: &str) -> crate::jobs::Scratch {
    jobs::scratch("job", name)
}

fn request(layout: Layout, work: Work, out: &Path) -> JobRequest {
    JobRequest {
        variants: vec![
            ("standard".into(), Rules::standard()),
            ("hoyle".into(), Rules::preset("hoyle").unwrap()),
        ],
        layout,
        work,
        seed: 11,
        duplicate: true,
        out: Some(out.to_owned()),
        name: None,
        default_folder: false,
        command: vec!["test".into()],
        experiment: None,
        anchor: None,
        budget_ms: None,
    }
}

fn pairs() -> Layout {
    Layout::Pairs {
        players: ["greedy", "simple", "random"]
            .iter()
            .map(|p| ((*p).to_owned(), (*p).to_owned()))
            .collect(),
        pairing: Pairing::Gauntlet,
    }
}

fn spec(layout: Layout, work: Work, out: &Path) -> JobSpec {
    request(layout, work, out).build(&resolve).unwrap()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()))
}

/// The files a run and a merge must agree on, byte for byte (the manifest
/// of a merge carries a note naming the shards).
const SAME: [&str; 3] = ["summary.csv", "distribution.csv", "tallies.json"];

fn options(shard: Option<Shard>) -> Options {
    Options {
        shard,
        threads: 2,
        block: Some(40),
        ..Options::default()
    }
}

#[test]
fn shards_merge_to_the_whole_run() {
    let whole_dir = scratch("whole");
    let whole = spec(pairs(), Work::Hands(300), &whole_dir);
    let outcome = job::run(&whole, &options(None), &|_| {}).unwrap();
    assert_eq!(outcome.summary.pairs().len(), 4);
    assert!(outcome.summary.pairs().iter().all(|r| r.hands == 300));
    let mut shards = Vec::new();
    for index in 1..=3 {
        let dir = scratch(&format!("shard{index}"));
        let shard = Shard { index, count: 3 };
        let s = spec(pairs(), Work::Hands(300), &dir);
        let part = job::run(&s, &options(Some(shard)), &|_| {}).unwrap();
        // Each shard holds its slice of the 150 deals of every row.
        let deals = shard.slice(150);
        assert!(
            part.summary
                .pairs()
                .iter()
                .all(|r| r.hands == 2 * (deals.end - deals.start))
        );
        shards.push(dir);
    }
    let merged_dir = scratch("merged");
    let merged = crate::jobs::merge(&shards, &merged_dir, &["merge"]).unwrap();
    assert_eq!(merged.tallies, outcome.tallies);
    for name in SAME {
        assert_eq!(read(&whole_dir, name), read(&merged_dir, name), "{name}");
    }
    // A shard missing, or given twice, is refused.
    let err = crate::jobs::merge(&shards[..2], &scratch("gap"), &[]).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("shard 3/3 is missing")),
        "{err}"
    );
    let twice = [&shards[0], &shards[0], &shards[2]].map(|s| s.to_path_buf());
    let err = job::merge(&twice, &scratch("twice"), None, &[]).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("given twice")),
        "{err}"
    );
}

#[test]
fn an_interrupted_run_resumes_to_the_same_files() {
    let whole_dir = scratch("straight");
    let s = spec(pairs(), Work::Games(60), &whole_dir);
    job::run(&s, &options(None), &|_| {}).unwrap();
    let dir = scratch("killed");
    let s = spec(pairs(), Work::Games(60), &dir);
    // Stop the process (a panic here) in the last row, three rows in.
    let stop = |event: Progress<'_>| {
        if let Progress::Done(n) = event
            && n > 30 + 80
        {
            panic!("interrupted");
        }
    };
    let died = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        job::run(&s, &options(None), &stop)
    }));
    assert!(died.is_err());
    assert!(dir.join("checkpoint.json").is_file());
    assert!(!dir.join("summary.csv").exists());
    // Without --resume the folder is refused; with it, the run completes.
    let err = jobs::after_interrupt(|| job::run(&s, &options(None), &|_| {})).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("unfinished run")),
        "{err}"
    );
    let started = std::sync::Mutex::new(None);
    let resume = Options {
        resume: true,
        ..options(None)
    };
    jobs::after_interrupt(|| {
        job::run(&s, &resume, &|event| {
            if let Progress::Start { done, .. } = event {
                *started.lock().unwrap() = Some(done);
            }
        })
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let started = started.into_inner().unwrap();
    assert!(started.is_some_and(|done| done >= 80), "{started:?}");
    assert!(!dir.join("checkpoint.json").exists());
    for name in SAME {
        assert_eq!(read(&whole_dir, name), read(&dir, name), "{name}");
    }
}

#[test]
fn a_stopping_rule_writes_its_folder_and_resumes() {
    let one = |out: &Path| {
        let mut r = request(
            Layout::Pairs {
                players: vec![("greedy".into(), "A".into()), ("simple".into(), "B".into())],
                pairing: Pairing::HeadToHead,
            },
            Work::Hands(200_000),
            out,
        );
        r.variants.truncate(1);
        r.build(&resolve).unwrap()
    };
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 15.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let stop = Options {
        stop: Some(sprt),
        ..options(None)
    };
    let dir = scratch("sprt");
    let outcome = job::run(&one(&dir), &stop, &|_| {}).unwrap();
    let stopped = outcome.stopped.unwrap();
    // Seed 11: greedy is not 15 Elo stronger than simple, decided inside
    // the block of deals 1024..2048 (at unit 1,704), long before the limit:
    // at the first unit past a bound, as a walk over every unit in deal
    // order finds it (looking only at the ends of blocks, it went on to
    // 2,048).
    let plan = &one(&scratch("sprt-plan")).rows[0].plan;
    let crossing = first_crossing(&sprt, &unit_scores(plan.as_ref(), 2 * job::STOP_BLOCK), 2);
    assert_eq!(
        Some((stopped.units.n, stopped.llr, stopped.decision)),
        crossing
    );
    assert_eq!(stopped.decision, SprtDecision::AcceptH0);
    assert!(
        (job::STOP_BLOCK + 1..2 * job::STOP_BLOCK).contains(&stopped.units.n),
        "{stopped:?}"
    );
    // The figures cover every deal played: to the end of that block.
    assert_eq!(outcome.summary.pairs()[0].hands, 2 * 2 * job::STOP_BLOCK);
    assert!(dir.join("summary.csv").is_file());
    assert!(!dir.join("checkpoint.json").exists());
    // The same decision, at the same unit, on any number of threads.
    for threads in [1, 4] {
        let other = scratch(&format!("sprt-{threads}"));
        let o = job::run(
            &one(&other),
            &Options {
                threads,
                ..stop.clone()
            },
            &|_| {},
        )
        .unwrap();
        assert_eq!(o.stopped, outcome.stopped, "{threads} threads");
        for name in SAME {
            assert_eq!(read(&dir, name), read(&other, name), "{name}");
        }
    }
    // Interrupted inside the deciding block, or after it was played but
    // before the result was written (its checkpoint would hold units past
    // the decision), resumed: the same decision at the same unit, and the
    // same files.
    let interrupted_in = |event: &Progress<'_>| match event {
        Progress::Done(n) => *n > job::STOP_BLOCK,
        _ => false,
    };
    let interrupted_after = |event: &Progress<'_>| match event {
        Progress::Block { stop, .. } => stop.is_some_and(|t| t.decision != SprtDecision::Continue),
        _ => false,
    };
    let dir = scratch("sprt-resumed");
    let s = one(&dir);
    type Interrupt<'a> = &'a (dyn Fn(&Progress<'_>) -> bool + Sync);
    for interrupted in [&interrupted_in as Interrupt<'_>, &interrupted_after] {
        let again = s.dir.clone().unwrap();
        let _ = std::fs::remove_dir_all(&again);
        let died = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            job::run(&s, &stop, &|event| {
                if interrupted(&event) {
                    panic!("interrupted");
                }
            })
        }));
        assert!(died.is_err());
        assert!(again.join("checkpoint.json").is_file());
        let resume = Options {
            resume: true,
            ..stop.clone()
        };
        let resumed = jobs::after_interrupt(|| job::run(&s, &resume, &|_| {})).unwrap();
        assert_eq!(resumed.stopped, outcome.stopped);
        for name in SAME {
            assert_eq!(read(&dir, name), read(&again, name), "{name}");
        }
    }
    // A stopping rule cannot be sharded: refused with the reason.
    let err = job::run(
        &s,
        &Options {
            shard: Some(Shard { index: 1, count: 2 }),
            ..stop
        },
        &|_| {},
    )
    .unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("whole sequence")),
        "{err}"
    );
}

/// A's half points in each of `plan`'s first `n` units, played one deal at
/// a time in deal order.
fn unit_scores(plan: &dyn Contest, n: u64) -> Vec<i64> {
    (0..n)
        .map(|deal| {
            let (tally, _) = plan.play(deal..deal + 1, 1, &|_| {}, false, None).unwrap();
            tally.unit_scores().unwrap().sum
        })
        .collect()
}

/// Brute force: the first prefix of `scores` whose LLR, computed afresh
/// from its units, crosses a bound: its length, LLR and decision.
fn first_crossing(sprt: &Sprt, scores: &[i64], unit_size: u64) -> Option<(u64, f64, SprtDecision)> {
    (1..=scores.len()).find_map(|n| {
        let mut units = Moments::default();
        scores[..n].iter().for_each(|&x| units.add(x));
        let llr = sprt.llr(&units, unit_size);
        let decision = sprt.decide(llr);
        (decision != SprtDecision::Continue).then_some((n as u64, llr, decision))
    })
}

#[test]
fn merging_a_sweep_writes_its_table() {
    let layout = || {
        Layout::Sweep(Sweep {
            strategy: "greedy".into(),
            param: "knock_at".into(),
            values: "4..=6".into(),
            vs: "simple".into(),
            objective: None,
        })
    };
    let whole_dir = scratch("sweep");
    job::run(
        &spec(layout(), Work::Hands(200), &whole_dir),
        &options(None),
        &|_| {},
    )
    .unwrap();
    let mut shards = Vec::new();
    for index in 1..=2 {
        let dir = scratch(&format!("sweep{index}"));
        let s = spec(layout(), Work::Hands(200), &dir);
        job::run(&s, &options(Some(Shard { index, count: 2 })), &|_| {}).unwrap();
        shards.push(dir);
    }
    let merged = scratch("sweep-merged");
    crate::jobs::merge(&shards, &merged, &[]).unwrap();
    for name in ["sweep.csv", "sweep.svg", "summary.csv", "distribution.csv"] {
        assert_eq!(read(&whole_dir, name), read(&merged, name), "{name}");
    }
    let text = String::from_utf8(read(&merged, "sweep.csv")).unwrap();
    assert_eq!(text.lines().count(), 1 + 2 * 3);
}

#[test]
fn a_thread_count_past_the_cap_is_refused_before_playing() {
    let dir = scratch("threads");
    let s = spec(pairs(), Work::Hands(4), &dir);
    let options = Options {
        threads: job::MAX_THREADS + 1,
        ..Options::default()
    };
    let Err(JobError::Input(e)) = job::run(&s, &options, &|_| {}) else {
        panic!("a million threads never start: refused as bad input");
    };
    assert_eq!(e, "threads are 0 (one per core) to 1024, not 1025");
    assert!(!dir.join("summary.csv").exists());
}
