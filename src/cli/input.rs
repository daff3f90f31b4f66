//! Reading input with a size cap for each kind, so that `ginlab rules
//! /dev/zero` or a runaway pipe is refused with a message (exit code 2)
//! instead of growing without bound. Every file, standard input and line
//! the commands read goes through here; docs/CLI.md lists the caps, and a
//! test holds its table to this one. (The state files of an output folder
//! are capped where the job layer reads them, `job::state`; a bot's reply
//! lines by the external-bot layer.)

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

use ginlab::echo::echo;

use super::Failure;

/// A kind of input and the most bytes ginlab reads of it.
#[derive(Clone, Copy, Debug)]
pub struct Cap {
    /// What the input is, for messages: "rules file".
    pub what: &'static str,
    /// The most bytes allowed.
    pub bytes: u64,
}

const MIB: u64 = 1 << 20;

/// A rules file (`--rules FILE`, `ginlab rules FILE`).
pub const RULES_FILE: Cap = Cap {
    what: "rules file",
    bytes: MIB,
};
/// An experiment spec (`ginlab run FILE`).
pub const SPEC_FILE: Cap = Cap {
    what: "experiment spec",
    bytes: MIB,
};
/// A strategy profile file.
pub const PROFILE_FILE: Cap = Cap {
    what: "profile",
    bytes: MIB,
};
/// A `--decks` file (a deck line is about 160 bytes: some 400,000 decks).
pub const DECKS_FILE: Cap = Cap {
    what: "decks file",
    bytes: 64 * MIB,
};
/// The standard input of `solve --batch` and `showdown --batch`.
pub const BATCH: Cap = Cap {
    what: "batch input",
    bytes: 64 * MIB,
};
/// One line of a record file (one game; the file itself may be any size).
pub const RECORD_LINE: Cap = Cap {
    what: "record line",
    bytes: 64 * MIB,
};
/// One answer typed to `ginlab play`.
pub const ANSWER_LINE: Cap = Cap {
    what: "answer",
    bytes: 4096,
};

/// Every cap, for docs/CLI.md's table and its test.
#[cfg(test)]
const CAPS: [Cap; 7] = [
    RULES_FILE,
    SPEC_FILE,
    PROFILE_FILE,
    DECKS_FILE,
    BATCH,
    RECORD_LINE,
    ANSWER_LINE,
];

impl Cap {
    /// The cap for people: `1 MiB`, `4 KiB`.
    pub fn size(&self) -> String {
        if self.bytes >= MIB {
            format!("{} MiB", self.bytes / MIB)
        } else if self.bytes >= 1024 {
            format!("{} KiB", self.bytes / 1024)
        } else {
            format!("{} bytes", self.bytes)
        }
    }

    /// The message for `source` (a file name or "standard input") being
    /// over the cap.
    fn too_big(&self, source: &str) -> Failure {
        Failure::input(format!(
            "{source}: more than {}, the {} limit (docs/CLI.md lists the input limits)",
            self.size(),
            self.what
        ))
    }

    /// All of `reader`, at most the cap.
    fn read_all(&self, reader: impl Read, source: &str) -> Result<Vec<u8>, Failure> {
        let mut bytes = Vec::new();
        reader
            .take(self.bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::input(format!("reading {} {source}: {e}", self.what)))?;
        if bytes.len() as u64 > self.bytes {
            return Err(self.too_big(source));
        }
        Ok(bytes)
    }

    /// The file at `path` as UTF-8 text, at most the cap.
    ///
    /// # Errors
    /// A file that cannot be read, is too big, or is not UTF-8 (naming the
    /// line), as bad input.
    pub fn read_file(&self, path: &Path) -> Result<String, Failure> {
        let source = path.display().to_string();
        let file = File::open(path)
            .map_err(|e| Failure::input(format!("reading {} {source}: {e}", self.what)))?;
        text(self.read_all(file, &source)?, &source)
    }

    /// All of standard input as UTF-8 text, at most the cap.
    ///
    /// # Errors
    /// As [`Cap::read_file`].
    pub fn read_stdin(&self) -> Result<String, Failure> {
        let source = "standard input";
        text(self.read_all(io::stdin().lock(), source)?, source)
    }

    /// The next line of `reader` into `line` (without its `\n`): `false` at
    /// the end of the input. A line over the cap is not read further.
    ///
    /// # Errors
    /// A read error, or a line over the cap (naming line `number`).
    pub fn read_line(
        &self,
        reader: &mut impl BufRead,
        line: &mut Vec<u8>,
        source: &str,
        number: u64,
    ) -> Result<bool, Failure> {
        line.clear();
        let read = reader
            .take(self.bytes + 1)
            .read_until(b'\n', line)
            .map_err(|e| Failure::input(format!("reading {source}: {e}")))?;
        if read == 0 {
            return Ok(false);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        } else if line.len() as u64 > self.bytes {
            return Err(self.too_big(&format!("{source} line {number}")));
        }
        Ok(true)
    }
}

/// `bytes` as text; bad UTF-8 is named by its line.
fn text(bytes: Vec<u8>, source: &str) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        not_utf8(
            source,
            good.iter().filter(|&&b| b == b'\n').count() as u64 + 1,
        )
    })
}

/// A line that is not UTF-8 text.
pub fn not_utf8(source: &str, line: u64) -> Failure {
    Failure::input(format!(
        "{source} line {line}: not UTF-8 text (ginlab reads UTF-8 only)"
    ))
}

/// `line N: `TEXT`: ` for a message about line `number` of an input, with
/// the line [`echo`]ed (control characters escaped, a long line cut).
pub fn at_line(number: usize, line: &str) -> String {
    format!("line {number}: `{}`", echo(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold() {
        let cap = Cap {
            what: "thing",
            bytes: 8,
        };
        assert_eq!(cap.read_all(&b"12345678"[..], "x").unwrap(), b"12345678");
        let Failure::Input(e) = cap.read_all(&b"123456789"[..], "x").unwrap_err() else {
            panic!("bad input");
        };
        assert_eq!(
            e.to_string(),
            "x: more than 8 bytes, the thing limit (docs/CLI.md lists the input limits)"
        );
        let mut reader = &b"1234\n12345678\n123456789\nend"[..];
        let mut line = Vec::new();
        assert!(cap.read_line(&mut reader, &mut line, "f", 1).unwrap());
        assert_eq!(line, b"1234");
        assert!(cap.read_line(&mut reader, &mut line, "f", 2).unwrap());
        assert_eq!(line, b"12345678");
        let Failure::Input(e) = cap.read_line(&mut reader, &mut line, "f", 3).unwrap_err() else {
            panic!("bad input");
        };
        assert!(e.to_string().starts_with("f line 3: more than"), "{e}");
        let mut reader = &b"end"[..];
        assert!(cap.read_line(&mut reader, &mut line, "f", 1).unwrap());
        assert_eq!(line, b"end");
        assert!(!cap.read_line(&mut reader, &mut line, "f", 2).unwrap());
    }

    /// docs/CLI.md's "Input limits" table lists every cap as it is.
    #[test]
    fn readme_lists_every_cap() {
        let readme = include_str!("../../docs/CLI.md");
        for cap in CAPS {
            let row = format!("| {} | {} |", cap.what, cap.size());
            assert!(readme.contains(&row), "docs/CLI.md lacks the row `{row}`");
        }
    }

    #[test]
    fn bad_utf8_names_its_line() {
        let Failure::Input(e) = text(b"ok\nok\n\xff\n".to_vec(), "standard input").unwrap_err()
        else {
            panic!("bad input");
        };
        assert!(
            e.to_string()
                .starts_with("standard input line 3: not UTF-8")
        );
    }
}
