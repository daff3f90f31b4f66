//! Writing output files whole: one file ([`write_atomic`], [`AtomicFile`])
//! or a result folder's files together ([`ResultFiles`]).
//!
//! A file goes to a temporary file beside its target (`.NAME.tmp-N`, N random,
//! created exclusively through the folder's handle: see [`AtomicFile`]) and is
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
use std::sync::{Arc, Mutex};

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

/// Creates the folder `dir` and any missing parents private to the user
/// (mode 0700 where the system has modes): a result folder holds the
/// checkpoint, whose master seed would tell a bot every deal. A folder
/// that exists is left as it is.
///
/// # Errors
/// The folder cannot be created.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// What stands at a name in a folder, not followed through a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// Nothing.
    Missing,
    /// A regular file.
    File,
    /// Anything else, described ("a folder").
    Other(&'static str),
}

/// An open folder that files are written into by its handle: temporary
/// files are created in it exclusively and never through a link (mode
/// 0600: private to the user), and renames and removals happen in it, so
/// nothing planted at a name, and no link swapped for the folder after it
/// was opened, can redirect a write.
#[derive(Debug)]
struct Folder {
    /// The folder as given, for messages and for [`remove_temporary_files`].
    path: PathBuf,
    /// Its handle.
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

#[cfg(unix)]
impl Folder {
    fn open(path: &Path) -> std::io::Result<Folder> {
        use rustix::fs::{CWD, Mode, OFlags, openat};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = openat(CWD, path, flags, Mode::empty())?;
        Ok(Folder {
            path: path.to_owned(),
            fd,
        })
    }

    /// Creates the file `name`, which must not exist (a link there is not
    /// followed: the creation fails).
    fn create_new(&self, name: &str) -> std::io::Result<File> {
        use rustix::fs::{Mode, OFlags, openat};
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = openat(&self.fd, name, flags, Mode::RUSR | Mode::WUSR)?;
        Ok(File::from(fd))
    }

    /// Opens the regular file `name` for reading, not through a link.
    fn open_file(&self, name: &str) -> std::io::Result<File> {
        use rustix::fs::{Mode, OFlags, openat};
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        Ok(File::from(openat(&self.fd, name, flags, Mode::empty())?))
    }

    /// Opens the regular file `name` for reading and writing, not through
    /// a link.
    fn open_rw(&self, name: &str) -> std::io::Result<File> {
        use rustix::fs::{Mode, OFlags, openat};
        let flags = OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let file = File::from(openat(&self.fd, name, flags, Mode::empty())?);
        if !file.metadata()?.is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        Ok(file)
    }

    fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
    }

    fn remove(&self, name: &str) -> std::io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.fd,
            name,
            rustix::fs::AtFlags::empty(),
        )?)
    }

    fn entry(&self, name: &str) -> Entry {
        use rustix::fs::{AtFlags, FileType, statat};
        match statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Err(_) => Entry::Missing,
            Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
                FileType::RegularFile => Entry::File,
                FileType::Directory => Entry::Other("a folder"),
                FileType::Symlink => Entry::Other("a symbolic link"),
                _ => Entry::Other("not a regular file"),
            },
        }
    }

    /// Makes the folder's renames durable where the system allows it (best
    /// effort: not every file system lets a folder be synced).
    fn sync(&self) {
        let _ = rustix::fs::fsync(&self.fd);
    }
}

/// Without folder handles: the same steps by path, creating exclusively.
#[cfg(not(unix))]
impl Folder {
    fn open(path: &Path) -> std::io::Result<Folder> {
        if !std::fs::metadata(path)?.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "not a folder",
            ));
        }
        Ok(Folder {
            path: path.to_owned(),
        })
    }

    fn create_new(&self, name: &str) -> std::io::Result<File> {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    fn open_file(&self, name: &str) -> std::io::Result<File> {
        File::open(self.path.join(name))
    }

    fn open_rw(&self, name: &str) -> std::io::Result<File> {
        let path = self.path.join(name);
        if !std::fs::symlink_metadata(&path)?.is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
    }

    fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        std::fs::rename(self.path.join(from), self.path.join(to))
    }

    fn remove(&self, name: &str) -> std::io::Result<()> {
        std::fs::remove_file(self.path.join(name))
    }

    fn entry(&self, name: &str) -> Entry {
        match std::fs::symlink_metadata(self.path.join(name)) {
            Err(_) => Entry::Missing,
            Ok(m) if m.is_file() => Entry::File,
            Ok(m) if m.is_dir() => Entry::Other("a folder"),
            Ok(m) if m.file_type().is_symlink() => Entry::Other("a symbolic link"),
            Ok(_) => Entry::Other("not a regular file"),
        }
    }

    fn sync(&self) {}
}

impl Folder {
    /// Creates a new file named `prefix` and a random number (which the
    /// journal and the clean-up of stale temporary files recognise), never
    /// one that exists: a name a bot planted something at is skipped.
    fn create_temp(&self, prefix: &str) -> std::io::Result<(File, String)> {
        for _ in 0..16 {
            let number = getrandom::u64().map_err(std::io::Error::other)?;
            let name = format!("{prefix}{number}");
            match self.create_new(&name) {
                Ok(file) => return Ok((file, name)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("no free temporary file name {prefix}N"),
        ))
    }

    fn remove_if_file(&self, name: &str) -> std::io::Result<()> {
        if self.entry(name) == Entry::File {
            self.remove(name).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!("removing {}: {e}", self.path.join(name).display()),
                )
            })?;
        }
        Ok(())
    }

    /// Refuses to write `name` where something other than a regular file
    /// stands (a rename over a folder fails; over a link it would replace
    /// a link someone put there).
    fn check_target(&self, name: &str) -> std::io::Result<()> {
        match self.entry(name) {
            Entry::Missing | Entry::File => Ok(()),
            Entry::Other(what) => Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{what} stands there, where ginlab writes a file"),
            )),
        }
    }
}

/// The folder of `path` (`.` for a bare file name) and the file's name.
fn folder_of(path: &Path) -> std::io::Result<(PathBuf, String)> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "names no file"))?;
    Ok((dir.to_owned(), name.to_string_lossy().into_owned()))
}

/// A file written in pieces but put in place whole: the bytes go to a
/// temporary file beside the target (`.NAME.tmp-N`, N random, created
/// exclusively through the folder's handle, private to the user), which
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
    folder: Arc<Folder>,
    target: String,
    temp: Option<String>,
    /// Left in place when dropped ([`AtomicFile::keep`]).
    kept: bool,
}

impl Staged {
    fn put(mut self) -> std::io::Result<()> {
        let temp = self.temp.take().expect("not yet put");
        let renamed = self.folder.rename(&temp, &self.target);
        if renamed.is_err() {
            let _ = self.folder.remove(&temp);
        }
        live_temporaries().remove(&self.folder.path.join(&temp));
        renamed
    }

    /// The target's path, for messages.
    fn path(&self) -> PathBuf {
        self.folder.path.join(&self.target)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take().filter(|_| !self.kept) {
            let _ = self.folder.remove(&temp);
            live_temporaries().remove(&self.folder.path.join(&temp));
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
    /// Starts writing `path` (created or replaced at the commit; a link at
    /// `path` is replaced, not written through).
    ///
    /// # Errors
    /// The temporary file cannot be created.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let (dir, name) = folder_of(path)?;
        AtomicFile::create_in(&Arc::new(Folder::open(&dir)?), &name)
    }

    /// Starts writing the file `name` of `folder`.
    fn create_in(folder: &Arc<Folder>, name: &str) -> std::io::Result<AtomicFile> {
        let (file, temp) = folder.create_temp(&format!(".{name}.tmp-"))?;
        live_temporaries().insert(folder.path.join(&temp));
        Ok(AtomicFile {
            file: Some(BufWriter::new(file)),
            staged: Staged {
                folder: Arc::clone(folder),
                target: name.to_owned(),
                temp: Some(temp),
                kept: false,
            },
        })
    }

    /// The temporary file's name, in the target's folder.
    #[must_use]
    pub fn temp_name(&self) -> &str {
        self.staged.temp.as_deref().expect("not yet put")
    }

    /// Keeps the temporary file if this is dropped without a commit or the
    /// process is interrupted ([`remove_temporary_files`] leaves it): it is
    /// then part of an unfinished run, to be continued by
    /// [`AtomicFile::resume`].
    pub fn keep(&mut self) {
        if !self.staged.kept {
            self.staged.kept = true;
            live_temporaries().remove(&self.staged.folder.path.join(self.temp_name()));
        }
    }

    /// Continues the kept temporary file `temp` of `path` (see
    /// [`AtomicFile::keep`]): `check` reads it from its start first, then it
    /// is cut to `len` bytes and written on from there. Only a regular file
    /// named as [`AtomicFile::create`] names the temporary files of `path`
    /// is opened, never through a link.
    ///
    /// # Errors
    /// `temp` is not such a name or not such a file, `check`'s error, or
    /// any I/O error.
    pub fn resume(
        path: &Path,
        temp: &str,
        len: u64,
        check: impl FnOnce(&mut File) -> std::io::Result<()>,
    ) -> std::io::Result<AtomicFile> {
        use std::io::Seek;
        let (dir, name) = folder_of(path)?;
        let ours = temp
            .strip_prefix(&format!(".{name}.tmp-"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !ours {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("`{temp}` is not a temporary file of {name}"),
            ));
        }
        let folder = Arc::new(Folder::open(&dir)?);
        let mut file = folder.open_rw(temp)?;
        check(&mut file)?;
        file.set_len(len)?;
        file.seek(std::io::SeekFrom::Start(len))?;
        Ok(AtomicFile {
            file: Some(BufWriter::new(file)),
            staged: Staged {
                folder,
                target: name,
                temp: Some(temp.to_owned()),
                kept: true,
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
            folder: Arc::clone(&self.staged.folder),
            target: self.staged.target.clone(),
            temp,
            kept: false,
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

/// Checks that files can be created in `dir`: a file of a random name is
/// created there exclusively (never through a link) and removed.
///
/// # Errors
/// The folder cannot be opened or written.
pub fn check_writable(dir: &Path) -> std::io::Result<()> {
    let folder = Folder::open(dir)?;
    let (file, name) = folder.create_temp(".ginlab-probe-")?;
    drop(file);
    folder.remove(&name)
}

/// Refuses a folder in which anything but a regular file stands at a name
/// ginlab writes (a result file, the checkpoint, the journal): a folder
/// there would fail the commit after the run, a link would be replaced.
/// Checked before anything is played.
///
/// # Errors
/// A sentence naming the first such entry and what it is.
pub fn check_result_names(dir: &Path) -> Result<(), String> {
    let folder = Folder::open(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| is_folder_file(name))
        .collect();
    names.sort();
    for name in names {
        if let Entry::Other(what) = folder.entry(&name) {
            return Err(format!(
                "{}: is {what}; ginlab writes its {name} there: remove it, or write to another folder",
                dir.join(&name).display()
            ));
        }
    }
    Ok(())
}

/// Whether `name` is one of the files ginlab keeps in a result folder: a
/// result file ([`is_result_file`]), the checkpoint or the journal.
#[must_use]
pub fn is_folder_file(name: &str) -> bool {
    is_result_file(name) || name == CHECKPOINT || name == JOURNAL
}

/// Whether ginlab writes files named `name` into result folders (so one
/// left from an earlier run into the same folder is stale).
#[must_use]
pub fn is_result_file(name: &str) -> bool {
    const FIXED: [&str; 16] = [
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
        // `ginlab tune`'s (src/tune/output.rs).
        "answer.csv",
        "search.csv",
        "search.svg",
        "tune.json",
    ];
    FIXED.contains(&name)
        || (name.starts_with("tuned-") && name.ends_with(".toml"))
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
/// Every step goes through the folder's handle (see [`AtomicFile`]).
#[derive(Debug)]
pub struct ResultFiles {
    folder: Arc<Folder>,
    staged: Vec<Staged>,
}

impl ResultFiles {
    /// Starts the files of `dir`, creating the folder if needed (private
    /// to the user: [`create_private_dir`]).
    ///
    /// # Errors
    /// The folder cannot be created, naming it.
    pub fn new(dir: &Path) -> std::io::Result<ResultFiles> {
        let named = |e: std::io::Error| {
            std::io::Error::new(e.kind(), format!("creating {}: {e}", dir.display()))
        };
        create_private_dir(dir).map_err(named)?;
        Ok(ResultFiles {
            folder: Arc::new(Folder::open(dir).map_err(named)?),
            staged: Vec::new(),
        })
    }

    /// Writes the file `name` of the folder (not yet in place).
    ///
    /// # Errors
    /// Any I/O error, naming the file; nothing is put in place.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let path = self.folder.path.join(name);
        let named = |e: std::io::Error| {
            std::io::Error::new(e.kind(), format!("writing {}: {e}", path.display()))
        };
        // The rename at the commit would fail on a folder, after other files
        // were put in place: refuse now, while nothing has changed.
        self.folder.check_target(name).map_err(named)?;
        let mut file = AtomicFile::create_in(&self.folder, name).map_err(named)?;
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
        let is_manifest = |s: &Staged| s.target == MANIFEST;
        self.staged.sort_by_key(is_manifest);
        let written: HashSet<&str> = self.staged.iter().map(|s| s.target.as_str()).collect();
        let mut journal = Journal::default();
        for staged in &self.staged {
            let temp = staged.temp.clone().expect("staged, not yet put");
            journal.put.push((temp, staged.target.clone()));
        }
        for name in earlier {
            if !written.contains(name.as_str()) && self.folder.entry(name) == Entry::File {
                journal.remove.push(name.clone());
            }
        }
        let folder = Arc::clone(&self.folder);
        let journal_path = folder.path.join(JOURNAL);
        let named = |e: std::io::Error, what: &str| {
            std::io::Error::new(e.kind(), format!("{what} {}: {e}", journal_path.display()))
        };
        let mut file = AtomicFile::create_in(&folder, JOURNAL).map_err(|e| named(e, "writing"))?;
        file.write_all(journal.to_text().as_bytes())
            .map_err(|e| named(e, "writing"))?;
        file.commit().map_err(|e| named(e, "writing"))?;
        folder.sync();
        let mut left = steps;
        for staged in std::mem::take(&mut self.staged) {
            if left == 0 {
                // Killed: the temporary file stays, as after a SIGKILL.
                std::mem::forget(staged);
                continue;
            }
            left -= 1;
            let path = staged.path();
            staged.put().map_err(|e| {
                std::io::Error::new(e.kind(), format!("writing {}: {e}", path.display()))
            })?;
        }
        for name in &journal.remove {
            if left == 0 {
                return Ok(());
            }
            left -= 1;
            folder.remove_if_file(name)?;
        }
        if left == 0 {
            return Ok(());
        }
        folder.sync();
        folder.remove(JOURNAL).map_err(|e| named(e, "removing"))
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
    /// `.TARGET.tmp-N` onto its TARGET and removals, of the files ginlab
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
    let folder = Folder::open(dir)?;
    let path = dir.join(JOURNAL);
    if folder.entry(JOURNAL) != Entry::File {
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
    folder
        .open_file(JOURNAL)?
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
        if folder.entry(temp) == Entry::File {
            folder.rename(temp, target).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!("writing {}: {e}", dir.join(target).display()),
                )
            })?;
        } else if folder.entry(target) != Entry::File {
            return Err(invalid(&format!(
                "names {} but neither it nor its temporary file is there",
                dir.join(target).display()
            )));
        }
    }
    for name in &journal.remove {
        folder.remove_if_file(name)?;
    }
    folder.sync();
    folder.remove(JOURNAL)?;
    Ok(true)
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
        std::fs::create_dir(dir.join("hand_score-x.svg")).unwrap();
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
        assert_eq!(
            names(&dir),
            ["hand_score-x.svg", "manifest.toml", "summary.csv"]
        );
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

    #[cfg(unix)]
    #[test]
    fn planted_links_are_never_written_through() {
        use std::os::unix::fs::symlink;
        let dir = scratch("links");
        let victim = scratch("links-victim");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&victim, b"precious").unwrap();
        // Exclusive creation fails on a link, whatever it points at.
        let folder = Folder::open(&dir).unwrap();
        symlink(&victim, dir.join(".x.tmp-1")).unwrap();
        let e = folder.create_new(".x.tmp-1").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        // A link at a single file's target is replaced, not written through.
        symlink(&victim, dir.join(CHECKPOINT)).unwrap();
        write_atomic(&dir.join(CHECKPOINT), b"state").unwrap();
        assert!(is_file(&dir.join(CHECKPOINT)));
        assert_eq!(std::fs::read(dir.join(CHECKPOINT)).unwrap(), b"state");
        // A result folder refuses a link at a result file's name, before
        // writing anything, and says what stands there.
        symlink(&victim, dir.join("summary.csv")).unwrap();
        let why = check_result_names(&dir).unwrap_err();
        assert!(why.contains("summary.csv: is a symbolic link"), "{why}");
        let mut files = ResultFiles::new(&dir).unwrap();
        assert!(files.add("summary.csv", b"new").is_err());
        drop(files);
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&victim).unwrap();
    }

    #[cfg(unix)]
    fn is_file(path: &Path) -> bool {
        std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
    }

    #[cfg(unix)]
    #[test]
    fn folders_and_files_are_created_private() {
        use std::os::unix::fs::PermissionsExt;
        let base = scratch("private");
        let dir = base.join("a").join("b");
        let mut files = ResultFiles::new(&dir).unwrap();
        files.add("summary.csv", b"x").unwrap();
        files.commit(&[]).unwrap();
        write_atomic(&dir.join(CHECKPOINT), b"seed").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&base.join("a")), 0o700);
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join("summary.csv")), 0o600);
        assert_eq!(mode(&dir.join(CHECKPOINT)), 0o600);
        // A folder that exists keeps its mode.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        ResultFiles::new(&dir).unwrap();
        assert_eq!(mode(&dir), 0o755);
        std::fs::remove_dir_all(&base).unwrap();
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
