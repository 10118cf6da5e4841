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

# The Game of Truth: setups, a refused action, perft, a two-action turn, the AI, the stalemate agreement.
out=$(printf '%s\n' \
  '{"cmd":"new","game":"truth"}' \
  '{"cmd":"play","move":"b9-a10"}' \
  '{"cmd":"setup","player":0,"arrangement":"random","seed":3}' \
  '{"cmd":"observe","player":1}' \
  '{"cmd":"setup","player":0,"arrangement":"suggested"}' \
  '{"cmd":"setup","player":1,"arrangement":"suggested"}' \
  '{"cmd":"perft","depth":2}' \
  '{"cmd":"play","move":"b9-a10"}' \
  '{"cmd":"play","move":"a10-b11"}' \
  '{"cmd":"play","move":"h7-k4"}' \
  '{"cmd":"ai","level":3,"nodes":2000,"seed":1}' \
  '{"cmd":"offer","player":0,"what":"stalemate"}' \
  '{"cmd":"ai","level":3,"player":1,"answer":"stalemate","nodes":2000}' \
  '{"cmd":"state"}' | timeout 120 "$bin" engine)
rc=$?
[ $rc -eq 0 ] || fail "truth: exit status $rc"
[ "$(wc -l <<<"$out")" -eq 14 ] || fail "truth: expected 14 answers, got: $out"
sed -n 2p <<<"$out" | grep -q '"ok":false' || fail "truth: an action accepted during setup"
sed -n 4p <<<"$out" | grep -q '"board":{}' || fail "truth: Jade saw Ivory's setup"
sed -n 6p <<<"$out" | grep -q '{"type":"start"}' || fail "truth: no start event"
sed -n 7p <<<"$out" | grep -q '"nodes":3246' || fail "truth: perft(2) from the suggested arrangements is 3246"
sed -n 8p <<<"$out" | grep -q '"action":1' || fail "truth: first action"
sed -n 9p <<<"$out" | grep -q '"ok":false' || fail "truth: the acted door moved twice"
sed -n 10p <<<"$out" | grep -q '"to_move":1' || fail "truth: the turn did not pass to Jade"
sed -n 11p <<<"$out" | grep -q '"move":' || fail "truth: ai gave no move"
sed -n 12p <<<"$out" | grep -q '"stalemate_agreed":\[0\]' || fail "truth: agreement"
sed -n 13p <<<"$out" | grep -q '"accept":' || fail "truth: the AI did not answer"
sed -n 14p <<<"$out" | grep -q '"ply":1' || fail "truth: state changed by a refused line or by ai/perft"

# End of input without quit, and a final line without a newline.
out=$(printf '{"cmd":"new","game":"tigadi"}\n{"cmd":"legal"}' | timeout 30 "$bin" engine)
[ $? -eq 0 ] || fail "end of input did not end cleanly"
grep -q '"moves"' <<<"$out" || fail "last line without newline unanswered"

# Random bytes never crash it.
head -c 200000 /dev/urandom | timeout 60 "$bin" engine >/dev/null
rc=$?
[ $rc -eq 0 ] || fail "random bytes: exit status $rc"
echo "engine script: ok"
