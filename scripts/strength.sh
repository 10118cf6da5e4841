#!/usr/bin/env bash
# Regenerates docs/strength.md: builds this tree's release binary and the baseline (the AI as it stood before
# issue 13, commit BASELINE below: "today's level 3" of the strength goals), then plays the arena that
# scripts/strength.json describes on both cores and writes the document. Every section's game count is
# multiplied by SCALE (first argument, default 1): `scripts/strength.sh 0.1` gives a quick, rough look.
# At SCALE 1 it runs for many hours on a 2-core machine (Stratego and Truth games are long).
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
threads="${THREADS:-2}"
baseline=d9c5982

cmake --preset release >/dev/null
cmake --build --preset release --target tabula

if [ ! -x build/baseline/tabula ]; then
  rm -rf build/baseline-src
  mkdir -p build/baseline-src
  git archive "$baseline" | tar -x -C build/baseline-src
  cmake -S build/baseline-src -B build/baseline -G Ninja -DCMAKE_BUILD_TYPE=Release -DTABULA_SERVER=OFF \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -g1 -DNDEBUG" >/dev/null
  cmake --build build/baseline --target tabula
fi

commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' with uncommitted changes')"
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
./build/release/tabula arena --config scripts/strength.json --out docs/strength.md --scale "$scale" \
  --threads "$threads" --commit "$commit" --machine "$machine" \
  --invocation "scripts/strength.sh $scale (make strength SCALE=$scale)"
echo "docs/strength.md written"
