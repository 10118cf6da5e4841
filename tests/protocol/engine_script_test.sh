#!/usr/bin/env bash
# Drives `tabula engine` through a pipe as a script would: every line answered in order, bad lines
# refused without changing the game, quit and end of input end the process with status 0.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }

out=$(printf '%s\n' \
  '{"cmd":"new","game":"tigadi","id":1}' \
  'not json at all' \
  '{"cmd":"play","move":"zz9"}' \
  '{"cmd":"play","move":"d1"}' \
  '{"cmd":"legal"}' \
  '{"cmd":"perft","depth":2}' \
  '{"cmd":"ai","level":2,"nodes":500,"seed":3}' \
  '{"cmd":"state"}' \
  '{"cmd":"quit"}' \
  '{"cmd":"legal"}' | timeout 60 "$bin" engine)
rc=$?
[ $rc -eq 0 ] || fail "exit status $rc"
[ "$(wc -l <<<"$out")" -eq 9 ] || fail "expected 9 answers (none after quit), got: $out"
sed -n 1p <<<"$out" | grep -q '"id":1' || fail "id not echoed"
sed -n 2p <<<"$out" | grep -q '"ok":false' || fail "bad JSON accepted"
sed -n 3p <<<"$out" | grep -q '"ok":false' || fail "illegal move accepted"
sed -n 5p <<<"$out" | grep -q '"a1"' || fail "legal list"
sed -n 6p <<<"$out" | grep -q '"nodes":506' || fail "perft(2) after one placement is 23*22 = 506"
sed -n 7p <<<"$out" | grep -q '"move":' || fail "ai gave no move"
sed -n 8p <<<"$out" | grep -q '"ply":1' || fail "state changed by a refused line or by ai/perft"

# End of input without quit, and a final line without a newline.
out=$(printf '{"cmd":"new","game":"tigadi"}\n{"cmd":"legal"}' | timeout 30 "$bin" engine)
[ $? -eq 0 ] || fail "end of input did not end cleanly"
grep -q '"moves"' <<<"$out" || fail "last line without newline unanswered"

# Random bytes never crash it.
head -c 200000 /dev/urandom | timeout 60 "$bin" engine >/dev/null
rc=$?
[ $rc -eq 0 ] || fail "random bytes: exit status $rc"
echo "engine script: ok"
