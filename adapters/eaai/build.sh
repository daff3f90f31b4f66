#!/bin/sh
# Compiles the EAAI adapter into adapters/eaai/build/adapter (JDK 17 or later, no other library).
# With --test it also compiles ginlab's stand-in framework and test players and runs the unit
# test of the translation. EAAI_BUILD names another output folder (tests use one of their own).
# See adapters/eaai/README.md.
set -eu
cd "$(dirname "$0")"
out="${EAAI_BUILD:-build}"
rm -rf "$out/adapter" "$out/framework" "$out/player" "$out/test"
javac --release 17 -Xlint:all -Werror -d "$out/adapter" $(find src -name '*.java')
if [ "${1:-}" = "--test" ]; then
  javac --release 17 -Xlint:all -Werror -d "$out/framework" test/framework/ginrummy/*.java
  javac --release 17 -Xlint:all -Werror -cp "$out/framework" -d "$out/player" test/player/*.java
  javac --release 17 -Xlint:all -Werror -cp "$out/adapter" -d "$out/test" test/unit/ginlab/eaai/*.java
  java -cp "$out/adapter:$out/test" ginlab.eaai.TranslatorTest "$out/framework:$out/player"
fi
