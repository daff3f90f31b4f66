//! The `--name VALUE` flags of the example programs (a module they share
//! by `#[path]`; not an example of its own).

use std::str::FromStr;

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
