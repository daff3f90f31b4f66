//! Echoing input back in a message: [`echo`] is the one way any layer
//! quotes what a user, a file or a bot sent, so that a control character
//! (an ESC that would drive the terminal) shows as an escape and a huge
//! line is cut to a readable length with a marker saying how much is left
//! out.

use std::fmt::Write as _;

/// The most characters of an input [`echo`] shows.
pub const MAX_ECHO: usize = 80;

/// `text` for a message: control, format and combining characters (which
/// would not show, or would act on the terminal) written as escapes like
/// `\u{1b}`, and at most [`MAX_ECHO`] characters of the input, followed by
/// `… (N more characters)` when it is longer.
#[must_use]
pub fn echo(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(MAX_ECHO) {
        match c {
            '\'' | '"' | '\\' => out.push(c),
            _ => write!(out, "{}", c.escape_debug()).unwrap(),
        }
    }
    let rest = chars.count();
    if rest > 0 {
        let s = if rest == 1 { "" } else { "s" };
        write!(out, "… ({rest} more character{s})").unwrap();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(echo("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(echo("tab\there\r\n"), "tab\\there\\r\\n");
        assert_eq!(echo("A♠ 'q' \"x\" \\"), "A♠ 'q' \"x\" \\");
        assert_eq!(echo("♠\u{fe0f}"), "♠\\u{fe0f}");
    }

    #[test]
    fn long_input_is_cut_with_a_marker() {
        let long = "x".repeat(9_000_000);
        let shown = echo(&long);
        assert_eq!(
            shown,
            format!("{}… (8999920 more characters)", "x".repeat(MAX_ECHO))
        );
        assert_eq!(echo(&"y".repeat(MAX_ECHO)), "y".repeat(MAX_ECHO));
        assert!(echo(&"y".repeat(MAX_ECHO + 1)).ends_with("… (1 more character)"));
    }
}
