#!/usr/bin/env bash
# Regenerates docs/strength.md: builds this tree's release binary and the baseline (the AI as it stood before
# issue 13, commit `baseline` below: "today's level 3" of the strength goals; and the Game of Truth's first cut,
# commit `truth_first`), then plays the arena that
# scripts/strength.json describes on both cores and writes the document. Every section's game count is
# multiplied by SCALE (first argument, default 1): `scripts/strength.sh 0.1` gives a quick, rough look.
# At SCALE 1 it runs for many hours on a 2-core machine (Stratego and Truth games are long).
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
threads="${THREADS:-2}"
baseline=d9c5982
truth_first=eda40c0

cmake --preset release >/dev/null
cmake --build --preset release --target tabula

# build_aside DIR COMMIT: that commit's release binary in DIR (once; without the server, which the arena needs not).
build_aside() {
  local dir="$1" rev="$2"
  if [ ! -x "$dir/tabula" ]; then
    rm -rf "$dir-src"
    mkdir -p "$dir-src"
    git archive "$rev" | tar -x -C "$dir-src"
    cmake -S "$dir-src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTABULA_SERVER=OFF \
      -DCMAKE_CXX_FLAGS_RELEASE="-O2 -g1 -DNDEBUG" >/dev/null
    cmake --build "$dir" --target tabula
  fi
}
build_aside build/baseline "$baseline"
# The Game of Truth's goal is against its AI's first cut (docs/strength-history.md, "The first cut").
build_aside build/truth-first "$truth_first"

commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' with uncommitted changes')"
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
./build/release/tabula arena --config scripts/strength.json --out docs/strength.md --scale "$scale" \
  --threads "$threads" --commit "$commit" --machine "$machine" \
  --invocation "scripts/strength.sh $scale (make strength SCALE=$scale)"
echo "docs/strength.md written"
