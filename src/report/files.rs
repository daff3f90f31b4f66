//! Writing output files whole: one file ([`write_atomic`], [`AtomicFile`])
//! or a result folder's files together ([`ResultFiles`]).
//!
//! A file goes to a temporary file beside its target (`.NAME.tmp-PID`) and is
//! renamed over it once complete. A result folder's files are all written
//! and synced first and only then renamed into place, the manifest last, so a
//! failure while writing (a full disk, a folder where a file should be)
//! leaves the folder exactly as it was: nothing half-written, no mix of two
//! runs.
//!
//! The renames themselves are journalled: before the first one, the list of
//! renames and removals goes to [`JOURNAL`] (written whole and synced), and
//! the journal is removed after the last. A process killed between the two
//! leaves the journal; the next run that claims the folder finishes the
//! commit from it ([`finish_interrupted_commit`]), so a folder is always
//! wholly the old result or wholly the new one.

use std::collections::{BTreeSet, HashSet};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The manifest's file name: written last, so a folder with a manifest holds
/// a complete result.
pub const MANIFEST: &str = "manifest.toml";

/// The checkpoint of an unfinished run in a result folder.
pub const CHECKPOINT: &str = "checkpoint.json";

/// The journal of a result folder's commit in progress: its renames and
/// removals, one a line (`put TEMP TARGET`, `remove NAME`) after a header.
pub const JOURNAL: &str = ".ginlab-commit";

/// The most bytes of a [`JOURNAL`] read: a commit names at most a few
/// thousand files of at most 255 bytes.
const JOURNAL_CAP: u64 = 4 << 20;

/// The first line of a [`JOURNAL`].
const JOURNAL_HEADER: &str = "ginlab commit journal 1";

/// Writes `bytes` to `path` whole: a temporary file beside it, then a rename.
///
/// # Errors
/// Any I/O error; the target is then untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file written in pieces but put in place whole: the bytes go to a
/// temporary file beside the target (`.NAME.tmp-PID`), which
/// [`AtomicFile::commit`] syncs and renames over the target. Dropped
/// without a commit (an error), it removes the temporary file; a process
/// killed while writing leaves it behind and the target untouched.
#[derive(Debug)]
pub struct AtomicFile {
    file: Option<BufWriter<File>>,
    staged: Staged,
}

/// A complete, synced temporary file waiting to be renamed over its target;
/// removed if dropped first.
#[derive(Debug)]
struct Staged {
    path: PathBuf,
    temp: Option<PathBuf>,
}

impl Staged {
    fn put(mut self) -> std::io::Result<()> {
        let temp = self.temp.take().expect("not yet put");
        let renamed = std::fs::rename(&temp, &self.path);
        if renamed.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        live_temporaries().remove(&temp);
        renamed
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(&temp);
            live_temporaries().remove(&temp);
        }
    }
}

/// The temporary files being written now, for [`remove_temporary_files`].
fn live_temporaries() -> std::sync::MutexGuard<'static, BTreeSet<PathBuf>> {
    static LIVE: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every temporary file still being written: what an interrupted
/// run (Ctrl-C) does before it exits, so it leaves its targets as they were
/// and nothing beside them. (A process killed outright still leaves them.)
pub fn remove_temporary_files() {
    for temp in live_temporaries().iter() {
        let _ = std::fs::remove_file(temp);
    }
}

impl AtomicFile {
    /// Starts writing `path` (created or replaced at the commit).
    ///
    /// # Errors
    /// The temporary file cannot be created.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map_or("out".into(), |n| n.to_string_lossy().into_owned());
        let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        let file = BufWriter::new(File::create(&temp)?);
        live_temporaries().insert(temp.clone());
        Ok(AtomicFile {
            file: Some(file),
            staged: Staged {
                path: path.to_owned(),
                temp: Some(temp),
            },
        })
    }

    /// Flushes, syncs and renames the file into place.
    ///
    /// # Errors
    /// Any I/O error; the target is then untouched and the temporary file removed.
    pub fn commit(self) -> std::io::Result<()> {
        self.stage()?.put()
    }

    /// Flushes and syncs the temporary file, ready to be put in place.
    fn stage(mut self) -> std::io::Result<Staged> {
        let file = self.file.take().expect("a file not yet committed");
        let file = file
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        drop(file);
        let temp = self.staged.temp.take();
        Ok(Staged {
            path: self.staged.path.clone(),
            temp,
        })
    }

    fn writer(&mut self) -> &mut BufWriter<File> {
        self.file.as_mut().expect("a file not yet committed")
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.writer().write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.writer().write_all(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer().flush()
    }
}

/// Whether ginlab writes files named `name` into result folders (so one
/// left from an earlier run into the same folder is stale).
#[must_use]
pub fn is_result_file(name: &str) -> bool {
    const FIXED: [&str; 12] = [
        "summary.csv",
        "seats.csv",
        "distribution.csv",
        "tallies.json",
        MANIFEST,
        "sweep.csv",
        "sweep.svg",
        "balance.csv",
        "balance.svg",
        "ratings.csv",
        "crosstable.csv",
        "ratings.svg",
    ];
    FIXED.contains(&name)
        || (name.ends_with(".svg")
            && (name.starts_with("hand_score-") || name.starts_with("game_margin-")))
}

/// The files of one result folder, put in place together.
///
/// [`ResultFiles::add`] writes and syncs each file beside its target;
/// [`ResultFiles::commit`] renames them all into place, the manifest last,
/// then removes the result files an earlier run left in the folder that this
/// one did not write (charts of other pairings, a sweep's table), as named
/// by the earlier run's own record, so the folder holds one run. Files
/// ginlab did not write are left alone, whatever their names. Dropped
/// without a commit, it removes what it wrote and the folder is unchanged.
#[derive(Debug)]
pub struct ResultFiles {
    dir: PathBuf,
    staged: Vec<Staged>,
}

impl ResultFiles {
    /// Starts the files of `dir`, creating the folder if needed.
    ///
    /// # Errors
    /// The folder cannot be created, naming it.
    pub fn new(dir: &Path) -> std::io::Result<ResultFiles> {
        std::fs::create_dir_all(dir).map_err(|e| {
            std::io::Error::new(e.kind(), format!("creating {}: {e}", dir.display()))
        })?;
        Ok(ResultFiles {
            dir: dir.to_owned(),
            staged: Vec::new(),
        })
    }

    /// Writes the file `name` of the folder (not yet in place).
    ///
    /// # Errors
    /// Any I/O error, naming the file; nothing is put in place.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let path = self.dir.join(name);
        let named = |e: std::io::Error| {
            std::io::Error::new(e.kind(), format!("writing {}: {e}", path.display()))
        };
        // The rename at the commit would fail on a folder, after other files
        // were put in place: refuse now, while nothing has changed.
        if path.is_dir() {
            return Err(named(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "a folder stands there",
            )));
        }
        let mut file = AtomicFile::create(&path).map_err(named)?;
        file.write_all(bytes).map_err(named)?;
        self.staged.push(file.stage().map_err(named)?);
        Ok(())
    }

    /// Puts every file in place, the manifest last, then removes the files
    /// named in `earlier` (what the earlier run in the folder wrote, by its
    /// own record, and the run's own checkpoint) that this run did not
    /// write. Nothing else is removed. The steps are journalled
    /// ([`JOURNAL`]), so a process killed part-way leaves a folder the next
    /// run completes.
    ///
    /// # Errors
    /// A rename or removal that fails, naming the file.
    pub fn commit(self, earlier: &[String]) -> std::io::Result<()> {
        self.commit_until(earlier, usize::MAX)
    }

    /// [`ResultFiles::commit`], stopping dead (as a killed process would)
    /// after `steps` renames and removals: the seam the crash tests use.
    fn commit_until(mut self, earlier: &[String], steps: usize) -> std::io::Result<()> {
        let is_manifest = |s: &Staged| s.path.file_name() == Some(MANIFEST.as_ref());
        self.staged.sort_by_key(is_manifest);
        let written: HashSet<PathBuf> = self.staged.iter().map(|s| s.path.clone()).collect();
        let mut journal = Journal::default();
        for staged in &self.staged {
            let temp = staged.temp.as_deref().expect("staged, not yet put");
            journal.put.push((file_name(temp), file_name(&staged.path)));
        }
        for name in earlier {
            let path = self.dir.join(name);
            if !written.contains(&path) && is_regular_file(&path) {
                journal.remove.push(name.clone());
            }
        }
        let journal_path = self.dir.join(JOURNAL);
        write_atomic(&journal_path, journal.to_text().as_bytes()).map_err(|e| {
            std::io::Error::new(e.kind(), format!("writing {}: {e}", journal_path.display()))
        })?;
        sync_dir(&self.dir);
        let mut left = steps;
        for staged in std::mem::take(&mut self.staged) {
            if left == 0 {
                // Killed: the temporary file stays, as after a SIGKILL.
                std::mem::forget(staged);
                continue;
            }
            left -= 1;
            let path = staged.path.clone();
            staged.put().map_err(|e| {
                std::io::Error::new(e.kind(), format!("writing {}: {e}", path.display()))
            })?;
        }
        for name in &journal.remove {
            if left == 0 {
                return Ok(());
            }
            left -= 1;
            remove_if_file(&self.dir.join(name))?;
        }
        if left == 0 {
            return Ok(());
        }
        sync_dir(&self.dir);
        std::fs::remove_file(&journal_path).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("removing {}: {e}", journal_path.display()),
            )
        })
    }
}

/// The renames and removals of one commit.
#[derive(Debug, Default, PartialEq)]
struct Journal {
    /// (temporary file, target), in the order they are put.
    put: Vec<(String, String)>,
    /// Files of the earlier run to remove after.
    remove: Vec<String>,
}

impl Journal {
    fn to_text(&self) -> String {
        let mut text = format!("{JOURNAL_HEADER}\n");
        for (temp, target) in &self.put {
            text += &format!("put {temp} {target}\n");
        }
        for name in &self.remove {
            text += &format!("remove {name}\n");
        }
        text
    }

    /// Reads a journal, accepting only what a commit writes: renames of a
    /// `.TARGET.tmp-PID` onto its TARGET and removals, of the files ginlab
    /// writes into result folders, by plain names.
    fn parse(text: &str) -> Option<Journal> {
        let mut lines = text.lines();
        if lines.next()? != JOURNAL_HEADER {
            return None;
        }
        let ours = |name: &str| is_result_file(name) || name == CHECKPOINT;
        let mut journal = Journal::default();
        for line in lines {
            match line.split(' ').collect::<Vec<_>>()[..] {
                ["put", temp, target] => {
                    let pid = temp
                        .strip_prefix(&format!(".{target}.tmp-"))
                        .filter(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
                    if pid.is_none() || !ours(target) {
                        return None;
                    }
                    journal.put.push((temp.to_owned(), target.to_owned()));
                }
                ["remove", name] if ours(name) => journal.remove.push(name.to_owned()),
                _ => return None,
            }
        }
        Some(journal)
    }
}

/// Finishes a commit that a killed process left in `dir` (its [`JOURNAL`]):
/// puts the files still waiting in place and removes the earlier run's, so
/// the folder holds the new result whole. `Ok(false)` when there was none.
/// Call it holding the folder's lock, before removing stale temporary files.
///
/// # Errors
/// A journal that is not one ginlab wrote (edited or damaged), or one whose
/// files are gone, naming it; a rename or removal that fails.
pub fn finish_interrupted_commit(dir: &Path) -> std::io::Result<bool> {
    let path = dir.join(JOURNAL);
    if !is_regular_file(&path) {
        return Ok(false);
    }
    let invalid = |why: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{}: {why}; the folder's last write was interrupted and cannot be completed: remove the journal and re-run",
                path.display()
            ),
        )
    };
    // A journal names a few dozen files; a larger one is not ginlab's.
    let mut bytes = Vec::new();
    File::open(&path)?
        .take(JOURNAL_CAP + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > JOURNAL_CAP {
        return Err(invalid("larger than any journal ginlab writes"));
    }
    let journal = std::str::from_utf8(&bytes)
        .ok()
        .and_then(Journal::parse)
        .ok_or_else(|| invalid("not a journal ginlab wrote"))?;
    for (temp, target) in &journal.put {
        let (temp, target) = (dir.join(temp), dir.join(target));
        if is_regular_file(&temp) {
            std::fs::rename(&temp, &target).map_err(|e| {
                std::io::Error::new(e.kind(), format!("writing {}: {e}", target.display()))
            })?;
        } else if !is_regular_file(&target) {
            return Err(invalid(&format!(
                "names {} but neither it nor its temporary file is there",
                target.display()
            )));
        }
    }
    for name in &journal.remove {
        remove_if_file(&dir.join(name))?;
    }
    sync_dir(dir);
    std::fs::remove_file(&path)?;
    Ok(true)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// A regular file, not followed through a link.
fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

fn remove_if_file(path: &Path) -> std::io::Result<()> {
    if is_regular_file(path) {
        std::fs::remove_file(path).map_err(|e| {
            std::io::Error::new(e.kind(), format!("removing {}: {e}", path.display()))
        })?;
    }
    Ok(())
}

/// Makes the folder's renames durable where the system allows it (best
/// effort: not every file system lets a folder be synced).
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ginlab-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_failed_write_leaves_the_folder_as_it_was() {
        let dir = scratch("failed");
        let mut first = ResultFiles::new(&dir).unwrap();
        first.add("summary.csv", b"old summary").unwrap();
        first.add(MANIFEST, b"old manifest").unwrap();
        first.commit(&[]).unwrap();
        // A folder where the second run's chart should go: its write fails
        // after the summary was written.
        std::fs::create_dir(
            dir.join(".hand_score-x.svg.tmp-".to_owned() + &std::process::id().to_string()),
        )
        .unwrap();
        let mut second = ResultFiles::new(&dir).unwrap();
        second.add("summary.csv", b"new summary").unwrap();
        second.add(MANIFEST, b"new manifest").unwrap();
        assert!(second.add("hand_score-x.svg", b"chart").is_err());
        drop(second);
        assert_eq!(
            std::fs::read(dir.join("summary.csv")).unwrap(),
            b"old summary"
        );
        assert_eq!(std::fs::read(dir.join(MANIFEST)).unwrap(), b"old manifest");
        let left: Vec<String> = names(&dir)
            .into_iter()
            .filter(|n| !n.starts_with(".hand_score"))
            .collect();
        assert_eq!(left, ["manifest.toml", "summary.csv"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn contents(dir: &Path) -> Vec<(String, String)> {
        names(dir)
            .into_iter()
            .map(|n| {
                let text = std::fs::read_to_string(dir.join(&n)).unwrap();
                (n, text)
            })
            .collect()
    }

    #[test]
    fn a_commit_killed_at_any_step_is_finished_by_the_next_run() {
        let old = ["summary.csv", "hand_score-a.svg", "tallies.json", MANIFEST];
        let new = ["summary.csv", "hand_score-b.svg", "tallies.json", MANIFEST];
        let mut earlier: Vec<String> = old.map(String::from).to_vec();
        earlier.push(CHECKPOINT.into());
        // Four renames, two removals (the old chart, the checkpoint), and
        // the journal's own removal.
        for steps in 0..7 {
            let dir = scratch(&format!("killed-{steps}"));
            let mut first = ResultFiles::new(&dir).unwrap();
            for name in old {
                first.add(name, b"old").unwrap();
            }
            first.commit(&[]).unwrap();
            std::fs::write(dir.join(CHECKPOINT), b"unfinished").unwrap();
            let mut second = ResultFiles::new(&dir).unwrap();
            for name in new {
                second.add(name, b"new").unwrap();
            }
            second.commit_until(&earlier, steps).unwrap();
            assert!(dir.join(JOURNAL).exists(), "killed after {steps} steps");
            assert!(finish_interrupted_commit(&dir).unwrap());
            let wholly_new: Vec<(String, String)> =
                ["hand_score-b.svg", MANIFEST, "summary.csv", "tallies.json"]
                    .map(|n| (n.to_owned(), "new".to_owned()))
                    .to_vec();
            assert_eq!(contents(&dir), wholly_new, "killed after {steps} steps");
            assert!(!finish_interrupted_commit(&dir).unwrap());
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_journal_ginlab_did_not_write_is_refused() {
        let dir = scratch("journal");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
        for body in [
            "put notes.txt summary.csv\n",
            "put .notes.txt.tmp-1 notes.txt\n",
            "put ../.summary.csv.tmp-1 summary.csv\n",
            "put .summary.csv.tmp-x summary.csv\n",
            "remove notes.txt\n",
            "remove ../summary.csv\n",
            "move a b\n",
        ] {
            std::fs::write(dir.join(JOURNAL), format!("{JOURNAL_HEADER}\n{body}")).unwrap();
            let error = finish_interrupted_commit(&dir).unwrap_err().to_string();
            assert!(
                error.contains("not a journal ginlab wrote"),
                "{body}: {error}"
            );
        }
        std::fs::write(dir.join(JOURNAL), "remove summary.csv\n").unwrap();
        assert!(finish_interrupted_commit(&dir).is_err());
        // A huge file is not read whole.
        let huge = format!("{JOURNAL_HEADER}\n") + &"remove summary.csv\n".repeat(250_000);
        std::fs::write(dir.join(JOURNAL), huge).unwrap();
        let error = finish_interrupted_commit(&dir).unwrap_err().to_string();
        assert!(error.contains("larger than any journal"), "{error}");
        // Files gone since: named, not guessed at.
        std::fs::write(
            dir.join(JOURNAL),
            format!("{JOURNAL_HEADER}\nput .summary.csv.tmp-1 summary.csv\n"),
        )
        .unwrap();
        let error = finish_interrupted_commit(&dir).unwrap_err().to_string();
        assert!(
            error.contains("neither it nor its temporary file"),
            "{error}"
        );
        assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), b"mine");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_commit_replaces_the_earlier_run_and_keeps_other_files() {
        let dir = scratch("replace");
        let mut first = ResultFiles::new(&dir).unwrap();
        for name in ["summary.csv", "hand_score-a.svg", "sweep.csv", MANIFEST] {
            first.add(name, b"first").unwrap();
        }
        first.commit(&[]).unwrap();
        std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
        // The user's own file of a name ginlab uses, not in the record.
        std::fs::write(dir.join("balance.csv"), b"mine").unwrap();
        let mut second = ResultFiles::new(&dir).unwrap();
        for name in [MANIFEST, "summary.csv", "hand_score-b.svg"] {
            second.add(name, b"second").unwrap();
        }
        let earlier: Vec<String> = ["summary.csv", "hand_score-a.svg", "sweep.csv", MANIFEST]
            .map(String::from)
            .to_vec();
        second.commit(&earlier).unwrap();
        assert_eq!(
            names(&dir),
            [
                "balance.csv",
                "hand_score-b.svg",
                "manifest.toml",
                "notes.txt",
                "summary.csv"
            ]
        );
        assert_eq!(std::fs::read(dir.join("summary.csv")).unwrap(), b"second");
        assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), b"mine");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
