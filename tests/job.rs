//! The job layer through the library, no binary: shards merge to the
//! whole run, a run interrupted mid-way resumes to the same files, a
//! stopping rule writes its folder and resumes, and merge writes a study's
//! table.

use std::path::{Path, PathBuf};

use ginlab::experiment::{Pairing, Sweep};
use ginlab::job::{self, JobError, JobRequest, JobSpec, Layout, Options, Progress, Shard};
use ginlab::rules::Rules;
use ginlab::sim::Work;
use ginlab::stats::{Sprt, SprtDecision};

mod jobs;

use jobs::resolve;

fn scratch(name: &str) -> PathBuf {
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
    assert_eq!(outcome.summary.len(), 4);
    assert!(outcome.summary.iter().all(|r| r.hands == 300));
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
                .iter()
                .all(|r| r.hands == 2 * (deals.end - deals.start))
        );
        shards.push(dir);
    }
    let merged_dir = scratch("merged");
    let merged = job::merge(&shards, &merged_dir, &["merge".into()]).unwrap();
    assert_eq!(merged.tallies, outcome.tallies);
    for name in SAME {
        assert_eq!(read(&whole_dir, name), read(&merged_dir, name), "{name}");
    }
    // A shard missing, or given twice, is refused.
    let err = job::merge(&shards[..2], &scratch("gap"), &[]).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("shard 3/3 is missing")),
        "{err}"
    );
    let twice = [shards[0].clone(), shards[0].clone(), shards[2].clone()];
    let err = job::merge(&twice, &scratch("twice"), &[]).unwrap_err();
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
    let err = job::run(&s, &options(None), &|_| {}).unwrap_err();
    assert!(
        matches!(&err, JobError::Input(m) if m.contains("unfinished run")),
        "{err}"
    );
    let started = std::sync::Mutex::new(None);
    let resume = Options {
        resume: true,
        ..options(None)
    };
    job::run(&s, &resume, &|event| {
        if let Progress::Start { done, .. } = event {
            *started.lock().unwrap() = Some(done);
        }
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
        elo1: 20.0,
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
    // Seed 11: greedy is not 20 Elo stronger than simple, decided at the
    // second check, long before the limit.
    assert_eq!(stopped.decision, SprtDecision::AcceptH0);
    assert_eq!(outcome.summary[0].hands, 2 * 2 * job::STOP_BLOCK);
    assert!(dir.join("summary.csv").is_file());
    assert!(!dir.join("checkpoint.json").exists());
    // Interrupted after the first check, resumed: the same files.
    let again = scratch("sprt-resumed");
    let s = one(&again);
    let died = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        job::run(&s, &stop, &|event| {
            if let Progress::Done(n) = event
                && n > job::STOP_BLOCK
            {
                panic!("interrupted");
            }
        })
    }));
    assert!(died.is_err());
    let resumed = job::run(
        &s,
        &Options {
            resume: true,
            ..stop.clone()
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!(resumed.stopped, outcome.stopped);
    for name in SAME {
        assert_eq!(read(&dir, name), read(&again, name), "{name}");
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
    job::merge(&shards, &merged, &[]).unwrap();
    for name in ["sweep.csv", "sweep.svg", "summary.csv", "distribution.csv"] {
        assert_eq!(read(&whole_dir, name), read(&merged, name), "{name}");
    }
    let text = String::from_utf8(read(&merged, "sweep.csv")).unwrap();
    assert_eq!(text.lines().count(), 1 + 2 * 3);
}
