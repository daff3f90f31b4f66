#!/bin/sh
# Compiles the EAAI adapter into adapters/eaai/build/adapter (JDK 17 or later, no other library).
# With --test it also compiles ginlab's stand-in framework and test players and runs the unit
# test of the translation. EAAI_BUILD names another output folder (tests use one of their own).
# See adapters/eaai/README.md.
set -eu
cd "$(dirname "$0")"
out="${EAAI_BUILD:-build}"
rm -rf "$out/adapter" "$out/framework" "$out/player" "$out/test" "$out/default" "$out/default-src"
javac --release 17 -Xlint:all -Werror -d "$out/adapter" $(find src -name '*.java')
if [ "${1:-}" = "--test" ]; then
  javac --release 17 -Xlint:all -Werror -d "$out/framework" test/framework/ginrummy/*.java
  javac --release 17 -Xlint:all -Werror -cp "$out/framework" -d "$out/player" test/player/*.java
  # A player with its own copy of the framework in the default package, as many published
  # players are: the stand-in framework with its package line removed, and TablePlayer.
  mkdir -p "$out/default-src"
  for f in test/framework/ginrummy/*.java; do
    sed '/^package ginrummy;/d' "$f" > "$out/default-src/$(basename "$f")"
  done
  cp test/default/*.java "$out/default-src/"
  javac --release 17 -Xlint:all -Werror -d "$out/default" "$out/default-src"/*.java
  javac --release 17 -Xlint:all -Werror -cp "$out/adapter" -d "$out/test" test/unit/ginlab/eaai/*.java
  java -cp "$out/adapter:$out/test" ginlab.eaai.TranslatorTest "$out/framework:$out/player"
fi
