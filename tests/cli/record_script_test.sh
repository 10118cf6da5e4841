#!/usr/bin/env bash
# `tabula record` as a user runs it: JSON to text and back through pipes, refusals on stderr with status 1.
set -u
bin="$1"
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A record of moves only (Session::from_record reads it), to text.
echo '{"game":"tigadi","options":{},"start":null,"moves":["d1","a4","g1","a1"]}' >"$tmp/r.json"
timeout 60 "$bin" record --text <"$tmp/r.json" >"$tmp/r.txt" || fail "--text exit status $?"
grep -qx '\[Game "tigadi"\]' "$tmp/r.txt" || fail "no Game tag: $(cat "$tmp/r.txt")"
grep -qx '1. d1 a4 2. g1 a1 \*' "$tmp/r.txt" || fail "move text: $(cat "$tmp/r.txt")"

# Back to JSON, and to the same text again.
timeout 60 "$bin" record --json <"$tmp/r.txt" >"$tmp/back.json" || fail "--json exit status $?"
grep -q '"moves"' "$tmp/back.json" || fail "no moves in $(cat "$tmp/back.json")"
timeout 60 "$bin" record --text <"$tmp/back.json" | cmp -s - "$tmp/r.txt" || fail "text -> JSON -> text differs"

# Refusals: the reason on stderr, nothing on stdout, status 1.
printf '[Game "tigadi"]\n[Result "*"]\n\n1. d1 d1 *\n' >"$tmp/bad.txt"
out=$(timeout 60 "$bin" record --json <"$tmp/bad.txt" 2>"$tmp/err")
rc=$?
[ $rc -eq 1 ] || fail "illegal move: exit status $rc"
[ -z "$out" ] || fail "illegal move: stdout $out"
grep -q 'line 4: round 1: the move "d1" is refused' "$tmp/err" || fail "illegal move: $(cat "$tmp/err")"

echo 'not json' | timeout 60 "$bin" record --text >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "bad JSON accepted"
grep -q 'not JSON' "$tmp/err" || fail "bad JSON: $(cat "$tmp/err")"

head -c 200000 /dev/zero | tr '\0' '[' | timeout 60 "$bin" record --text >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "deep JSON accepted"
grep -q 'deeper than 32' "$tmp/err" || fail "deep JSON: $(cat "$tmp/err")"

head -c 2000000 /dev/zero | tr '\0' ' ' | timeout 60 "$bin" record --json >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "oversized text accepted"
grep -q 'at most 1048576 bytes' "$tmp/err" || fail "oversized text: $(cat "$tmp/err")"

timeout 60 "$bin" record </dev/null >/dev/null 2>&1
[ $? -ne 0 ] || fail "neither --text nor --json accepted"
echo OK
