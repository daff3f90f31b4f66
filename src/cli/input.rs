//! Reading input with a size cap for each kind, so that `ginlab rules
//! /dev/zero` or a runaway pipe is refused with a message (exit code 2)
//! instead of growing without bound. Every file, standard input and line
//! the commands read goes through here; docs/CLI.md lists the caps, and a
//! test holds its table to this one. (The state files of an output folder
//! are capped where the job layer reads them, `job::state`; a bot's reply
//! lines by the external-bot layer.)

use std::io::{self, BufRead, Read};

use ginlab::echo::echo;

use super::Failure;

pub use ginlab::job::{Cap, SPEC_FILE};
#[cfg(test)]
use ginlab::job::{DECKS_FILE, PROFILE_FILE, RULES_FILE};

const MIB: u64 = 1 << 20;

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

/// What the CLI reads beyond whole files: standard input and lines.
pub trait CapRead {
    /// All of standard input as UTF-8 text, at most the cap.
    ///
    /// # Errors
    /// As [`Cap::read_file`].
    fn read_stdin(&self) -> Result<String, Failure>;

    /// The next line of `reader` into `line` (without its `\n`): `false` at
    /// the end of the input. A line over the cap is not read further.
    ///
    /// # Errors
    /// A read error, or a line over the cap (naming line `number`).
    fn read_line(
        &self,
        reader: &mut impl BufRead,
        line: &mut Vec<u8>,
        source: &str,
        number: u64,
    ) -> Result<bool, Failure>;
}

impl CapRead for Cap {
    fn read_stdin(&self) -> Result<String, Failure> {
        Ok(self.read_text(io::stdin().lock(), "standard input")?)
    }

    fn read_line(
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
            return Err(Failure::input(
                self.too_big(&format!("{source} line {number}")),
            ));
        }
        Ok(true)
    }
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
        assert_eq!(cap.read_text(&b"12345678"[..], "x").unwrap(), "12345678");
        let ginlab::job::JobError::Input(e) = cap.read_text(&b"123456789"[..], "x").unwrap_err()
        else {
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
        let ginlab::job::JobError::Input(e) = RULES_FILE
            .read_text(&b"ok\nok\n\xff\n"[..], "standard input")
            .unwrap_err()
        else {
            panic!("bad input");
        };
        assert!(
            e.to_string()
                .starts_with("standard input line 3: not UTF-8")
        );
    }
}
