#!/usr/bin/env bash
# `tabula arena` as a user runs it: another program driven through the engine protocol plays exactly as the
# same configuration in this process; equal sides score exactly half (paired games mirror each other); the
# table does not depend on how many threads played; the command printed above a table plays it again; a
# program that fails loses its games without stopping the arena; bad contestants are refused with status 1.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows() { grep '^| [^a-]' "$1" | grep -v '^| ---' | cut -d'|' -f2-9; }  # the results, without the times

# Tigadi and Stratego (hidden identities, setups sent to the program): the program as "ext", the same
# configuration in this process as "here", both against level 2.
# Tigadi's pairs start from four random placements, which the program is told as moves.
for game in tigadi stratego; do
  nodes=3000; games=6; opening=4; [ $game = stratego ] && { nodes=800; games=2; opening=0; }
  timeout 600 "$bin" arena --game $game --engine L2=level=2 --engine "here=level=3,nodes=$nodes" \
    --engine "ext=level=3,nodes=$nodes,cmd=$bin" --games $games --opening-plies $opening --threads 2 --quiet >"$tmp/$game.md" ||
    fail "$game arena exit status $?"
  here=$(grep '^| here | L2 |' "$tmp/$game.md" | cut -d'|' -f4-9)
  ext=$(grep '^| ext | L2 |' "$tmp/$game.md" | cut -d'|' -f4-9)
  [ -n "$here" ] || fail "$game: no row for here: $(cat "$tmp/$game.md")"
  [ "$here" = "$ext" ] || fail "$game: the program played otherwise than this process: [$here] [$ext]"
  grep -q "^| ext | here | $games | [0-9]*–[0-9]*–[0-9]* | 50.0% |" "$tmp/$game.md" ||
    fail "$game: equal sides did not score half: $(grep '^| ext | here' "$tmp/$game.md")"
  grep -q '0 games lost by a program that failed' "$tmp/$game.md" || fail "$game: a program failed"
done

# The same table on one thread as on two.
timeout 600 "$bin" arena --game tigadi --engine L2=level=2 --engine "here=level=3,nodes=3000" \
  --engine "ext=level=3,nodes=3000,cmd=$bin" --games 6 --opening-plies 4 --threads 1 --quiet >"$tmp/one.md" || fail "one thread: $?"
[ "$(rows "$tmp/one.md")" = "$(rows "$tmp/tigadi.md")" ] || fail "one thread differs: $(rows "$tmp/one.md")"

# The command printed above a table runs as printed and plays the same table, a name with a quote in it
# ("today's level 3", as docs/strength.md names the baseline) included.
timeout 300 "$bin" arena --game tigadi --engine "today's L2=level=2" --engine "L3=level=3,nodes=3000" \
  --games 2 --opening-plies 4 --threads 1 --quiet >"$tmp/quoted.md" || fail "quoted names: exit status $?"
printed=$(grep '^\$ tabula arena ' "$tmp/quoted.md" | sed 's/^\$ tabula //')
[ -n "$printed" ] || fail "no command printed: $(cat "$tmp/quoted.md")"
eval "\"\$bin\" $printed --quiet" >"$tmp/again.md" 2>"$tmp/err" || fail "the printed command fails: $printed: $(cat "$tmp/err")"
[ -n "$(rows "$tmp/quoted.md")" ] || fail "no rows for quoted names: $(cat "$tmp/quoted.md")"
[ "$(rows "$tmp/again.md")" = "$(rows "$tmp/quoted.md")" ] || fail "the printed command played otherwise: $(rows "$tmp/again.md")"

# A program that is not an engine loses every game it should have moved in, and the arena goes on.
timeout 120 "$bin" arena --game tigadi --engine L1=level=1 --engine "broken=level=3,cmd=/bin/false" --games 4 \
  --quiet >"$tmp/broken.md" || fail "broken program: exit status $?"
grep -q '^| broken | L1 | 4 | 0–0–4 |' "$tmp/broken.md" || fail "broken program: $(cat "$tmp/broken.md")"
grep -q '4 games lost by a program that failed' "$tmp/broken.md" || fail "forfeits not counted: $(cat "$tmp/broken.md")"

# Refusals: status 1 and a reason.
for spec in "x=nodes=5" "x=level=9" "x=level=3,nodes=5,ms=5" "x=level=3,colour=red" "novalue"; do
  timeout 60 "$bin" arena --game tigadi --engine L1=level=1 --engine "$spec" --games 2 >/dev/null 2>"$tmp/err"
  [ $? -eq 1 ] || fail "accepted $spec"
  grep -q '^arena: ' "$tmp/err" || fail "no reason for $spec: $(cat "$tmp/err")"
done
timeout 60 "$bin" arena --game chess --engine a=level=1 --engine b=level=1 --games 2 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "accepted an unknown game"
timeout 60 "$bin" arena --game tigadi --engine a=level=1 --engine b=level=1 --schedule swiss >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "accepted an unknown schedule"
echo "arena: all checks passed"
