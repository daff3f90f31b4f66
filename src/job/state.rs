//! What a result folder remembers between processes: `tallies.json` (a
//! finished run or shard) and `checkpoint.json` (an unfinished one), and
//! the fingerprint that says which run they belong to.

use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::report::write_atomic;
use crate::sim::{Format, TableTallies, Tallies};

use super::contest::Tally;
use super::{JobError, Row};

/// `K/N`: which slice of the deals this process plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}`: a shard is K/N with 1 ≤ K ≤ N, e.g. 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// This shard's slice of `0..deals`.
    #[must_use]
    pub fn slice(self, deals: u64) -> Range<u64> {
        let at = |k: u64| (deals as u128 * k as u128 / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// What a job's rows are, beyond the summary every job writes: the study
/// table (`sweep.csv`, `balance.csv`) is written from it, so a merge of a
/// study's shards writes it too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StudyKind {
    /// Rows of pairings: only the summary.
    #[default]
    Match,
    /// One parameter over a grid: row `i` has value `values[i % values.len()]`.
    Sweep {
        /// The swept strategy's name.
        strategy: String,
        /// The parameter.
        param: String,
        /// The values, as given.
        values: Vec<String>,
        /// The opponent's name.
        vs: String,
        /// `games` or `hands`.
        unit: String,
        /// The objective asked for (absent: the default for `unit`, so
        /// earlier folders keep their bytes).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        objective: Option<crate::report::Objective>,
    },
    /// One strategy against itself per variant.
    Balance {
        /// The strategy's name.
        strategy: String,
    },
}

impl StudyKind {
    fn is_match(&self) -> bool {
        *self == StudyKind::Match
    }

    /// A sweep's objective: the one asked for, else the default for its
    /// unit ([`Objective::default_for`](crate::report::Objective::default_for)).
    #[must_use]
    pub fn objective(&self) -> Option<crate::report::Objective> {
        match self {
            StudyKind::Sweep {
                unit, objective, ..
            } => Some(objective.unwrap_or(crate::report::Objective::default_for(unit == "games"))),
            _ => None,
        }
    }
}

/// The format of `tallies.json` and `checkpoint.json` this build writes and
/// reads. 2: the tallies hold every two-player figure per scoring unit
/// (format 1, which had no `version` field, did not, so its intervals
/// cannot be made). 3: so do the three-player and partnership tallies.
pub const STATE_VERSION: u32 = 3;

/// What `tallies.json` and `checkpoint.json` hold. On disk (see [`Wire`])
/// two-player rows sit under `rows` and multi-player rows under `tables`,
/// as the files have always had them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "Wire", try_from = "Wire")]
pub(super) struct State {
    /// The format ([`STATE_VERSION`]; 1 when absent).
    pub version: u32,
    /// Everything that decides the results; shards and checkpoints must match it.
    pub fingerprint: String,
    /// The shard this state belongs to.
    pub shard: Shard,
    /// Per row: what it plays, the deals covered (sorted, disjoint ranges)
    /// and their tallies.
    pub rows: Vec<RowState>,
    /// The study the rows make.
    pub study: StudyKind,
    /// The player a rating list is anchored at, when one was named.
    pub anchor: Option<String>,
    /// The game record written so far (a checkpoint's) or the shard's part
    /// of it (a shard's `tallies.json`); `None` when there is none, and in
    /// a whole run's `tallies.json`.
    pub record: Option<RecordState>,
}

/// The game record of a checkpoint or a shard: where it is and what it
/// holds, so `--resume` continues it and `merge` combines the shards'.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct RecordState {
    /// The record file: in a checkpoint, as the run resolved it (its
    /// folder's absolute path and its name); in a shard's `tallies.json`,
    /// relative to the shard's folder when it is inside it, so the folder
    /// can move.
    pub file: std::path::PathBuf,
    /// In a checkpoint: the temporary file beside `file` that holds the
    /// lines so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    /// The bytes of each row's lines, in row order.
    pub rows: Vec<u64>,
    /// The BLAKE3 digest of all of them.
    pub blake3: String,
}

impl RecordState {
    /// The bytes of the lines.
    pub fn bytes(&self) -> u64 {
        self.rows.iter().sum()
    }
}

/// What one row has covered: the names of what it played, and its tallies.
#[derive(Clone, Debug)]
pub(super) struct RowState {
    pub variant: String,
    pub players: Vec<String>,
    pub seed: u64,
    pub covered: Vec<Range<u64>>,
    pub tally: Tally,
}

/// The state files' layout.
#[derive(Serialize, Deserialize)]
struct Wire {
    #[serde(default = "format_one")]
    version: u32,
    fingerprint: String,
    shard: Shard,
    rows: Vec<WireRow<Tallies>>,
    /// Absent for a match, whose files predate it.
    #[serde(default, skip_serializing_if = "StudyKind::is_match")]
    study: StudyKind,
    /// Absent unless named, so earlier folders keep their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    anchor: Option<String>,
    /// Three-player or partnership rows (absent for two-player jobs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tables: Vec<WireRow<TableTallies>>,
    /// The game record (absent unless a checkpoint's or a shard's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    record: Option<RecordState>,
}

#[derive(Serialize, Deserialize)]
struct WireRow<T> {
    variant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    format: Option<Format>,
    players: Vec<String>,
    seed: u64,
    covered: Vec<Range<u64>>,
    tallies: T,
}

impl From<State> for Wire {
    fn from(state: State) -> Wire {
        let (mut rows, mut tables) = (Vec::new(), Vec::new());
        for r in state.rows {
            let (variant, players, seed, covered) = (r.variant, r.players, r.seed, r.covered);
            match r.tally {
                Tally::Pair(tallies) => rows.push(WireRow {
                    variant,
                    format: None,
                    players,
                    seed,
                    covered,
                    tallies: *tallies,
                }),
                Tally::Table(format, tallies) => tables.push(WireRow {
                    variant,
                    format: Some(format),
                    players,
                    seed,
                    covered,
                    tallies,
                }),
            }
        }
        Wire {
            version: state.version,
            fingerprint: state.fingerprint,
            shard: state.shard,
            rows,
            study: state.study,
            anchor: state.anchor,
            tables,
            record: state.record,
        }
    }
}

impl TryFrom<Wire> for State {
    type Error = String;

    fn try_from(wire: Wire) -> Result<State, String> {
        if !wire.rows.is_empty() && !wire.tables.is_empty() {
            return Err("it holds two-player rows and table rows; a job has one kind".into());
        }
        let mut rows = Vec::new();
        for r in wire.rows {
            if r.players.len() != 2 || r.format.is_some() {
                return Err(format!(
                    "row `{}`: a two-player row names two players and no format",
                    r.variant
                ));
            }
            rows.push(RowState {
                variant: r.variant,
                players: r.players,
                seed: r.seed,
                covered: r.covered,
                tally: Tally::Pair(Box::new(r.tallies)),
            });
        }
        for r in wire.tables {
            let Some(format) = r.format else {
                return Err(format!("table row `{}`: no format", r.variant));
            };
            if r.players.len() != format.players() {
                return Err(format!(
                    "table row `{}`: {} players for format {}",
                    r.variant,
                    r.players.len(),
                    format.name()
                ));
            }
            rows.push(RowState {
                variant: r.variant,
                players: r.players,
                seed: r.seed,
                covered: r.covered,
                tally: Tally::Table(format, r.tallies),
            });
        }
        Ok(State {
            version: wire.version,
            fingerprint: wire.fingerprint,
            shard: wire.shard,
            rows,
            study: wire.study,
            anchor: wire.anchor,
            record: wire.record,
        })
    }
}

fn format_one() -> u32 {
    1
}

/// A state file's format alone, read before the rest: a file of another
/// format need not parse as this one (format 2's three-player tallies do
/// not), and is refused by its format, not as a damaged file.
#[derive(Deserialize)]
struct FormatOnly {
    #[serde(default = "format_one")]
    version: u32,
}

/// Refuses state format `version`, read from `path`, unless it is this
/// build's: its tallies cannot be added to this build's.
fn check_version(version: u32, path: &Path) -> Result<(), JobError> {
    if version == STATE_VERSION {
        return Ok(());
    }
    let age = if version < STATE_VERSION {
        "an older"
    } else {
        "a newer"
    };
    Err(JobError::Input(format!(
        "{}: tallies format {version} from {age} ginlab; this one reads format {STATE_VERSION} (per-unit figures for the intervals), so these tallies cannot be merged or resumed: run the job again",
        path.display(),
    )))
}

/// [`check_version`] on the bytes of a state file (JSON that is not a
/// state file at all is left for the full parse to name).
fn check_format(path: &Path, bytes: &[u8]) -> Result<(), JobError> {
    match serde_json::from_slice::<FormatOnly>(bytes) {
        Ok(format) => check_version(format.version, path),
        Err(_) => Ok(()),
    }
}

impl State {
    /// The empty state of `rows`.
    pub fn new(
        rows: &[Row],
        study: &StudyKind,
        anchor: Option<String>,
        fingerprint: String,
        shard: Shard,
    ) -> State {
        State {
            version: STATE_VERSION,
            fingerprint,
            shard,
            rows: rows
                .iter()
                .map(|r| RowState {
                    variant: r.variant.clone(),
                    players: r.players.clone(),
                    seed: r.plan.seed(),
                    covered: Vec::new(),
                    tally: r.plan.empty(),
                })
                .collect(),
            study: study.clone(),
            anchor,
            record: None,
        }
    }

    /// Refuses a state read from `path` in another format: its tallies
    /// cannot be added to this build's.
    pub fn check_version(&self, path: &Path) -> Result<(), JobError> {
        check_version(self.version, path)
    }

    /// Deals covered so far, over all rows.
    pub fn done(&self) -> u64 {
        self.rows
            .iter()
            .flat_map(|r| &r.covered)
            .map(|c| c.end - c.start)
            .sum()
    }

    /// Whether the rows are two-player rows (the files a job writes
    /// depend on it).
    pub fn pairs(&self) -> bool {
        self.rows.iter().all(|r| r.tally.pair().is_some())
    }
}

/// The deals of `covered` if it is `slice` or, unless `finished`, a start
/// of it; else why not.
fn covered_of(covered: &[Range<u64>], slice: &Range<u64>, finished: bool) -> Result<u64, String> {
    let n = match covered {
        [] => 0,
        [only] if only.start == slice.start && only.end <= slice.end => only.end - only.start,
        _ => {
            return Err(format!(
                "it claims deals {covered:?}, which are not its slice {slice:?} of the run"
            ));
        }
    };
    if finished && n != slice.end - slice.start {
        return Err(format!("it covers {n} deals of its slice {slice:?}"));
    }
    Ok(n)
}

/// The message for a damaged row `row` of the state file `path`.
fn damaged(path: &Path, row: &str, why: &str) -> JobError {
    JobError::Input(format!(
        "{}: row `{row}`: {why}; the file was edited or damaged (remove the folder and run again)",
        path.display()
    ))
}

impl RowState {
    /// The row's name in messages: variant and players.
    pub fn name(&self) -> String {
        format!("{} {}", self.variant, self.players.join(" vs "))
    }

    /// Checks a row read from `path` against the deals it should cover:
    /// `slice` exactly (`finished`), or a start of it (a checkpoint); and
    /// its tallies against the deals covered.
    pub fn check(&self, path: &Path, slice: &Range<u64>, finished: bool) -> Result<(), JobError> {
        let row = self.name();
        let covered =
            covered_of(&self.covered, slice, finished).map_err(|why| damaged(path, &row, &why))?;
        match self.tally.inconsistency(covered) {
            None => Ok(()),
            Some(why) => Err(damaged(path, &row, why)),
        }
    }

    /// Checks a row read from the checkpoint `path` names what `row` of the
    /// run plays: its variant, players, seed and format. The fingerprint
    /// covers the run's rows, not the names a checkpoint holds, and the
    /// result is written from these.
    pub fn check_names(&self, path: &Path, row: &Row) -> Result<(), JobError> {
        let same = self.variant == row.variant
            && self.players == row.players
            && self.seed == row.plan.seed()
            && self.tally.table().map(|(f, _)| f) == row.plan.format();
        if same {
            return Ok(());
        }
        Err(damaged(
            path,
            &self.name(),
            &format!(
                "it does not name what the run's row `{} {}` plays (seed {})",
                row.variant,
                row.players.join(" vs "),
                row.plan.seed()
            ),
        ))
    }
}

/// The fingerprint of a job: seed, profiles, rules, amount and duplicate of
/// every row, in order, and the stopping rule if any.
pub(super) fn fingerprint(rows: &[Row], stop: Option<&crate::stats::Sprt>) -> String {
    let mut text: String = rows
        .iter()
        .map(|r| r.plan.fingerprint(&r.variant))
        .collect();
    // "after every unit": a checkpoint of the tests that looked every
    // 1,024 deals may hold units past a crossing, so it is not resumed.
    if let Some(sprt) = stop {
        text.push_str(&format!(
            "sprt elo0={} elo1={} alpha={} beta={} looks after every unit\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    text
}

/// The most bytes of a state file (`tallies.json`, `checkpoint.json`) read:
/// a row's tallies take tens of KiB, so this is thousands of rows.
pub(super) const STATE_CAP: u64 = 256 << 20;

/// The most bytes of a manifest read (it holds the spec, itself at most
/// 1 MiB).
pub(super) const MANIFEST_CAP: u64 = 4 << 20;

/// The file at `path`, at most `cap` bytes: a larger one (a damaged
/// folder, or `/dev/zero` given as one) is bad input, not a read without end.
pub(crate) fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, JobError> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(cap + 1).read_to_end(&mut bytes))
        .map_err(|e| JobError::input_from(format!("reading {}", path.display()), e))?;
    if bytes.len() as u64 > cap {
        return Err(JobError::Input(format!(
            "{}: more than {} MiB, the limit for this kind of file; it is not one ginlab wrote",
            path.display(),
            cap >> 20
        )));
    }
    Ok(bytes)
}

/// The state file at `path`, refused unless it is of this build's format.
pub(super) fn read_state(path: &Path) -> Result<State, JobError> {
    let bytes = read_capped(path, STATE_CAP)?;
    check_format(path, &bytes)?;
    parse_state(path, &bytes)
}

/// The state file at `path` in any format that parses as this one's (an
/// earlier run's record of the files it wrote).
pub(super) fn read_any_state(path: &Path) -> Result<State, JobError> {
    parse_state(path, &read_capped(path, STATE_CAP)?)
}

fn parse_state(path: &Path, bytes: &[u8]) -> Result<State, JobError> {
    serde_json::from_slice(bytes).map_err(|e| {
        JobError::input_from(format!("{}: not a ginlab state file", path.display()), e)
    })
}

/// The manifest key holding the BLAKE3 digest of the folder's
/// `tallies.json`, so an edited or damaged state file is noticed.
const DIGEST_KEY: &str = "tallies_blake3";

/// The hex BLAKE3 digest of a `tallies.json`.
pub(super) fn digest(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// `manifest` (TOML, perhaps after comment lines) with its digest line
/// set to `digest`: any earlier one (a shard's, in a merge) is dropped,
/// and the new one goes before the first key.
pub(super) fn with_digest(manifest: &str, digest: &str) -> String {
    let lines: Vec<&str> = manifest
        .lines()
        .filter(|l| !l.starts_with(&format!("{DIGEST_KEY} = ")))
        .collect();
    let at = lines
        .iter()
        .position(|l| !l.starts_with('#'))
        .unwrap_or(lines.len());
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i == at {
            text += &format!("{DIGEST_KEY} = \"{digest}\"\n");
        }
        text += line;
        text.push('\n');
    }
    if at == lines.len() {
        text += &format!("{DIGEST_KEY} = \"{digest}\"\n");
    }
    text
}

/// The digest a manifest records, if any: its top-level line as
/// [`with_digest`] writes it. Read from that line alone, since a manifest
/// need not parse as TOML (a seed above 2^63 is out of TOML's integers).
pub(super) fn recorded_digest(manifest: &str) -> Option<String> {
    manifest.lines().find_map(|line| {
        let value = line.strip_prefix(&format!("{DIGEST_KEY} = \""))?;
        let digest = value.strip_suffix('"')?;
        (!digest.is_empty() && digest.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| digest.to_owned())
    })
}

/// A finished run's folder: its state and its manifest's text, the state
/// checked against the digest the manifest records.
///
/// # Errors
/// [`JobError::Input`]: a file missing, too large or not ginlab's, or a
/// `tallies.json` that does not match its digest (edited or damaged).
pub(super) fn read_finished(dir: &Path, manifest_name: &str) -> Result<(State, String), JobError> {
    let path = dir.join("tallies.json");
    let bytes = read_capped(&path, STATE_CAP)?;
    let manifest_path = dir.join(manifest_name);
    let manifest = String::from_utf8(read_capped(&manifest_path, MANIFEST_CAP)?)
        .map_err(|_| JobError::Input(format!("{}: not UTF-8 text", manifest_path.display())))?;
    // A state file of another format is named as such, whatever its digest
    // (format 1 predates the digest too).
    check_format(&path, &bytes)?;
    let parsed = parse_state(&path, &bytes);
    match recorded_digest(&manifest) {
        None => Err(JobError::Input(format!(
            "{}: records no digest of tallies.json (`{DIGEST_KEY}`): not a folder this version of ginlab finished; re-run it",
            manifest_path.display()
        ))),
        Some(recorded) if recorded != digest(&bytes) => Err(JobError::Input(format!(
            "{}: does not match the digest {} records: the file was edited or damaged; re-run it",
            path.display(),
            manifest_path.display()
        ))),
        Some(_) => Ok((parsed?, manifest)),
    }
}

pub(super) fn write_state(path: &Path, state: &State) -> Result<(), JobError> {
    let json = serde_json::to_vec(state).map_err(|e| JobError::run_from("writing the state", e))?;
    write_atomic(path, &json)
        .map_err(|e| JobError::run_from(format!("writing {}", path.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_files_are_read_up_to_a_cap() {
        let dir = std::env::temp_dir().join(format!("ginlab-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tallies.json");
        std::fs::write(&path, vec![b' '; (2 << 20) + 1]).unwrap();
        assert_eq!(read_capped(&path, 4 << 20).unwrap().len(), (2 << 20) + 1);
        let Err(JobError::Input(e)) = read_capped(&path, 2 << 20) else {
            panic!("over the cap is bad input");
        };
        assert!(
            e.ends_with(
                "more than 2 MiB, the limit for this kind of file; it is not one ginlab wrote"
            ),
            "{e}"
        );
        // What cannot be read is bad input, the reason kept as its cause.
        let missing = dir.join("missing.json");
        let err = read_capped(&missing, 1 << 20).unwrap_err();
        assert!(err.is_input());
        let reason = std::io::Error::from_raw_os_error(2).to_string();
        assert_eq!(err.to_string(), format!("reading {}", missing.display()));
        assert_eq!(
            err.chain(),
            format!("reading {}: {reason}", missing.display())
        );
        // An endless input stops at the cap.
        if Path::new("/dev/zero").exists() {
            assert!(read_capped(Path::new("/dev/zero"), 1 << 20).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_digest_line_goes_before_the_first_key_and_replaces_an_earlier_one() {
        let manifest = "ginlab_version = \"0.1.0\"\nseed = 1\n\n[[variants]]\nname = \"x\"\n";
        let once = with_digest(manifest, "ab");
        assert!(
            once.starts_with("tallies_blake3 = \"ab\"\nginlab_version"),
            "{once}"
        );
        assert_eq!(recorded_digest(&once).as_deref(), Some("ab"));
        let merged = with_digest(&format!("# merged\n# from two\n{once}"), "cd");
        assert!(
            merged.starts_with("# merged\n# from two\ntallies_blake3 = \"cd\"\nginlab_version")
        );
        assert_eq!(merged.matches("tallies_blake3").count(), 1);
        assert_eq!(recorded_digest(&merged).as_deref(), Some("cd"));
        assert_eq!(recorded_digest(manifest), None);
    }

    #[test]
    fn shards_tile_the_deals() {
        for deals in [0u64, 1, 7, 100, 1001] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 1..=count {
                    let s = Shard { index, count }.slice(deals);
                    assert_eq!(s.start, next);
                    next = s.end;
                }
                assert_eq!(next, deals);
            }
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
    }
}
