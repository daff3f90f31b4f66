//! The command line of a bot: [`BotSpec`] (what starts it and how it is
//! played) and the quoting that reads a command line back into words.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::sandbox::{BotOptions, DEFAULT_LOG_BYTES, SandboxSpec};

/// The default time a bot has for one answer.
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;

/// The default time a bot has to start and answer `hello`: a JVM loading a
/// player on a busy machine takes seconds.
pub const DEFAULT_HANDSHAKE_MS: u64 = 30_000;

/// What starts a bot and how it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Milliseconds the bot has for each answer.
    pub timeout_ms: u64,
    /// Sent to the bot in `hello` as `options`.
    pub options: Map<String, Value>,
    /// Where the bot's stderr logs go (default: one private folder per
    /// ginlab process in the system's temporary directory, see
    /// [`Bot::log_dir`](super::Bot::log_dir)).
    pub log_dir: Option<PathBuf>,
    /// Milliseconds to start and answer `hello` (`handshake_ms`; the
    /// command line's `--handshake-ms` wins; default: the longer of
    /// [`DEFAULT_HANDSHAKE_MS`] and `timeout_ms`).
    pub handshake_ms: Option<u64>,
    /// Milliseconds a process has for its first decision (`first_move_ms`;
    /// the command line's `--first-move-ms` wins; default: the handshake
    /// limit). A fresh JVM loads classes and tables at first use, so its
    /// first answer can take far longer than the rest.
    pub first_move_ms: Option<u64>,
    /// The bot's working directory (`cwd`; default: ginlab's).
    pub cwd: Option<PathBuf>,
    /// Bytes of stderr kept in the bot's log; the rest is dropped and
    /// counted (`max_log_bytes`).
    pub max_log_bytes: u64,
    /// The sandbox keys.
    pub sandbox: SandboxSpec,
    /// Milliseconds the bot has to exit after `quit` (`check-bot
    /// --quit-ms`; default: the longer of two seconds and its start-up).
    pub quit_ms: Option<u64>,
}

impl BotSpec {
    /// A spec for `command` with the default timeout and no options.
    #[must_use]
    pub fn new(command: Vec<String>) -> BotSpec {
        BotSpec {
            command,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            options: Map::new(),
            log_dir: None,
            handshake_ms: None,
            first_move_ms: None,
            cwd: None,
            max_log_bytes: DEFAULT_LOG_BYTES,
            sandbox: SandboxSpec::default(),
            quit_ms: None,
        }
    }

    /// Milliseconds to start and answer `hello` under `options`: the
    /// command line's, else the profile's, else the longer of
    /// [`DEFAULT_HANDSHAKE_MS`] and `timeout_ms`.
    #[must_use]
    pub fn handshake_limit(&self, options: BotOptions) -> u64 {
        options
            .handshake_ms
            .or(self.handshake_ms)
            .unwrap_or(self.timeout_ms.max(DEFAULT_HANDSHAKE_MS))
    }

    /// Milliseconds a process has for its first decision under `options`:
    /// the command line's, else the profile's, else the handshake limit;
    /// never less than `timeout_ms`.
    #[must_use]
    pub fn first_move_limit(&self, options: BotOptions) -> u64 {
        options
            .first_move_ms
            .or(self.first_move_ms)
            .unwrap_or_else(|| self.handshake_limit(options))
            .max(self.timeout_ms)
    }

    /// The command as one line, arguments with spaces or quotes quoted, so
    /// that [`split_command`] reads it back.
    #[must_use]
    pub fn command_line(&self) -> String {
        self.command
            .iter()
            .map(|word| quote_word(word))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `word` as [`split_command`] reads it back: as is without white space or
/// quotes, else in single quotes, a `'` in it written `"'"` between them.
fn quote_word(word: &str) -> String {
    if word.is_empty() {
        return "''".to_owned();
    }
    if !word.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
        return word.to_owned();
    }
    word.split('\'')
        .map(|part| {
            if part.is_empty() {
                String::new()
            } else {
                format!("'{part}'")
            }
        })
        .collect::<Vec<_>>()
        .join("\"'\"")
}

/// Splits a command line into words: white space separates, and single or
/// double quotes keep spaces inside a word. `None` if a quote is not closed.
#[must_use]
pub fn split_command(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        assert_eq!(
            split_command("python3  'my bot.py' --x \"a b\"c"),
            Some(vec![
                "python3".into(),
                "my bot.py".into(),
                "--x".into(),
                "a bc".into()
            ])
        );
        assert_eq!(split_command("a ''"), Some(vec!["a".into(), String::new()]));
        assert_eq!(split_command("a 'b"), None);
        assert_eq!(split_command("   "), Some(vec![]));
        let spec = BotSpec::new(vec!["python3".into(), "my bot.py".into()]);
        assert_eq!(spec.command_line(), "python3 'my bot.py'");
        assert_eq!(split_command(&spec.command_line()).unwrap(), spec.command);
        // Found by tests/it/fuzz.rs: a word with a single quote was written
        // bare, and the line did not read back (an unclosed quote).
        let spec = BotSpec::new(vec![
            "bot".into(),
            "it's".into(),
            "'".into(),
            "a 'b\"".into(),
        ]);
        assert_eq!(spec.command_line(), r#"bot 'it'"'"'s' "'" 'a '"'"'b"'"#);
        assert_eq!(split_command(&spec.command_line()).unwrap(), spec.command);
    }

    /// The first decision has the handshake's time unless told otherwise,
    /// the command line wins over the profile, and it is never shorter
    /// than the time for any other decision.
    #[test]
    fn the_first_move_limit() {
        let mut spec = BotSpec::new(vec!["bot".into()]);
        let none = BotOptions::default();
        assert_eq!(spec.first_move_limit(none), DEFAULT_HANDSHAKE_MS);
        spec.handshake_ms = Some(12_000);
        assert_eq!(spec.first_move_limit(none), 12_000);
        let flag = BotOptions {
            handshake_ms: Some(20_000),
            ..BotOptions::default()
        };
        assert_eq!(spec.first_move_limit(flag), 20_000);
        spec.first_move_ms = Some(40_000);
        assert_eq!(spec.first_move_limit(flag), 40_000);
        let flag = BotOptions {
            first_move_ms: Some(50_000),
            ..BotOptions::default()
        };
        assert_eq!(spec.first_move_limit(flag), 50_000);
        spec.first_move_ms = Some(100);
        assert_eq!(spec.first_move_limit(none), DEFAULT_TIMEOUT_MS);
    }
}
