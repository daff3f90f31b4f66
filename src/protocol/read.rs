//! Reading a bot's lines: its `hello` and its moves, each fault named with
//! what was expected.

use serde_json::{Map, Value};

use super::{Move, ParseMoveError, VERSION};

/// What is wrong with a line a bot sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    /// Not one JSON object.
    #[error("not a JSON object ({0})")]
    NotJson(String),
    /// A field missing or of the wrong JSON type.
    #[error("field `{field}` must be {expected}")]
    Field {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// Another message type than the one expected.
    #[error("expected a `{expected}` message, got type `{got}`")]
    WrongType {
        /// The type expected.
        expected: &'static str,
        /// The type sent.
        got: String,
    },
    /// A protocol version ginlab does not speak.
    #[error("protocol version {0} is not supported: this ginlab speaks version {VERSION}")]
    Version(u64),
    /// The answer names another request.
    #[error("answered request {got}, but request {expected} was asked")]
    WrongId {
        /// The id of the request.
        expected: u64,
        /// The id in the answer.
        got: u64,
    },
    /// The move does not parse.
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    /// The move names a legal move but is not written exactly as its
    /// `legal` string (other spacing, case or card spelling).
    #[error("`move` must be one of the `legal` strings exactly: got {got:?}, legal is {exact:?}")]
    NotExact {
        /// The string sent.
        got: String,
        /// The legal string it names.
        exact: String,
    },
    /// The move is not among the legal ones.
    #[error("`{mv}` is not legal here; legal: {legal}")]
    Illegal {
        /// The move.
        mv: Move,
        /// The legal moves, comma separated.
        legal: String,
    },
}

fn object(line: &str) -> Result<Map<String, Value>, ReplyError> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ReplyError::NotJson("a JSON value but not an object".into())),
        Err(e) => Err(ReplyError::NotJson(e.to_string())),
    }
}

fn expect_type(map: &Map<String, Value>, expected: &'static str) -> Result<(), ReplyError> {
    match map.get("type") {
        Some(Value::String(t)) if t == expected => Ok(()),
        Some(Value::String(t)) => Err(ReplyError::WrongType {
            expected,
            got: t.clone(),
        }),
        _ => Err(ReplyError::Field {
            field: "type",
            expected: "a string",
        }),
    }
}

/// The longest `name` a bot's `hello` may give (reports print it).
pub const MAX_NAME: usize = 64;

/// A bot's `hello` reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotHello {
    /// The bot's name.
    pub name: String,
    /// Its author, if given.
    pub author: Option<String>,
}

/// Reads the bot's `hello` line: `{"type":"hello","protocol":1,"name":"..."}`.
///
/// # Errors
/// Anything but a `hello` of version [`VERSION`] with a non-empty name.
pub fn read_hello(line: &str) -> Result<BotHello, ReplyError> {
    let map = object(line)?;
    expect_type(&map, "hello")?;
    let version = map
        .get("protocol")
        .and_then(Value::as_u64)
        .ok_or(ReplyError::Field {
            field: "protocol",
            expected: "a positive integer",
        })?;
    if version != VERSION {
        return Err(ReplyError::Version(version));
    }
    let name = match map.get("name") {
        Some(Value::String(name))
            if !name.trim().is_empty()
                && name.chars().count() <= MAX_NAME
                && !name.chars().any(char::is_control) =>
        {
            name.trim().to_owned()
        }
        _ => {
            return Err(ReplyError::Field {
                field: "name",
                expected: "a non-empty string of at most 64 characters, none a control character",
            });
        }
    };
    let author = map.get("author").and_then(Value::as_str).map(str::to_owned);
    Ok(BotHello { name, author })
}

/// Reads a bot's answer to request `id`: `{"type":"move","id":ID,"move":"..."}`,
/// and checks that the move is one of `legal`.
///
/// # Errors
/// Anything else, each with what was expected.
pub fn read_move(line: &str, id: u64, legal: &[Move]) -> Result<Move, ReplyError> {
    let map = object(line)?;
    expect_type(&map, "move")?;
    let got = map
        .get("id")
        .and_then(Value::as_u64)
        .ok_or(ReplyError::Field {
            field: "id",
            expected: "the request's id (an integer)",
        })?;
    if got != id {
        return Err(ReplyError::WrongId { expected: id, got });
    }
    let text = map
        .get("move")
        .and_then(Value::as_str)
        .ok_or(ReplyError::Field {
            field: "move",
            expected: "a string, one of the request's `legal` answers",
        })?;
    let mv: Move = text.parse()?;
    if legal.contains(&mv) {
        // Exact, as PROTOCOL.md says: a bot that sends "  knock  ks" would
        // break under any other reader of the protocol (or a record).
        if text == mv.to_string() {
            Ok(mv)
        } else {
            Err(ReplyError::NotExact {
                got: text.to_owned(),
                exact: mv.to_string(),
            })
        }
    } else {
        Err(ReplyError::Illegal {
            mv,
            legal: legal
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_names_each_fault() {
        let legal = [Move::Stock, Move::Pile];
        let ok = r#"{"type":"move","id":3,"move":"pile"}"#;
        assert_eq!(read_move(ok, 3, &legal), Ok(Move::Pile));
        let e = |line: &str| read_move(line, 3, &legal).unwrap_err().to_string();
        assert!(e("pile").contains("not a JSON object"));
        assert!(e("[1]").contains("not an object"));
        assert!(e(r#"{"id":3,"move":"pile"}"#).contains("`type`"));
        assert!(e(r#"{"type":"hello","id":3}"#).contains("expected a `move`"));
        assert!(e(r#"{"type":"move","id":4,"move":"pile"}"#).contains("request 3"));
        assert!(e(r#"{"type":"move","id":3}"#).contains("`move`"));
        assert!(e(r#"{"type":"move","id":3,"move":"take"}"#).contains("legal: stock, pile"));
        assert!(e(r#"{"type":"move","id":3,"move":"jump"}"#).contains("not a move"));
        // Issue 15: the move is one of the `legal` strings exactly.
        for loose in ["  pile", "pile\t", "pile "] {
            let line = format!(r#"{{"type":"move","id":3,"move":{loose:?}}}"#);
            assert!(
                e(&line).contains(r#"must be one of the `legal` strings exactly"#),
                "{line}"
            );
        }
        let knocks = [Move::Knock("KS".parse().unwrap())];
        let loose = r#"{"type":"move","id":3,"move":"  knock   KS\t"}"#;
        assert_eq!(
            read_move(loose, 3, &knocks).unwrap_err().to_string(),
            r#"`move` must be one of the `legal` strings exactly: got "  knock   KS\t", legal is "knock KS""#
        );
        let hello = r#"{"type":"hello","protocol":1,"name":" bot "}"#;
        assert_eq!(read_hello(hello).unwrap().name, "bot");
        assert!(
            read_hello(r#"{"type":"hello","protocol":2,"name":"b"}"#)
                .unwrap_err()
                .to_string()
                .contains("version 2")
        );
        assert!(read_hello(r#"{"type":"hello","protocol":1,"name":""}"#).is_err());
    }
}
