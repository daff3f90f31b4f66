//! The arguments of the example programs: `--name VALUE` flags and player
//! profiles (a module they share by `#[path]`; not an example of its own).

use std::str::FromStr;

use ginlab::strategy::Profile;

/// The value after `name` in `args`, or `default` when `name` is absent;
/// panics with the flag and the text when the value does not parse.
pub fn arg<T: FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number, not {v}"))
        })
}

/// The profile a file (`*.toml`) or inline text (`simple`,
/// `mc:samples=64`) names; panics with the text and the error when it
/// names none.
#[allow(dead_code)] // not every example reads a profile
pub fn profile(text: &str) -> Profile {
    if text.ends_with(".toml") {
        let file = std::fs::read_to_string(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        Profile::from_toml(&file)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .0
    } else {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }
}
