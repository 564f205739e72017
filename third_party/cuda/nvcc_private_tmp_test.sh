#!/usr/bin/env bash
# nvcc_private_tmp.sh: two compiler runs at once that write the same file name
# into $TMPDIR (as two sandboxed nvcc with the same pid do) each keep their own
# file, the wrapper leaves nothing behind, and the compiler's exit status comes
# through. A fake compiler stands in for nvcc, so this runs without CUDA.
set -uo pipefail
wrapper=$1
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/private_tmp_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/shared_tmp"
export TMPDIR=$work/shared_tmp

# Writes its first argument to a fixed name in $TMPDIR, reads it back a moment
# later (exit 3 if another run overwrote it), records $TMPDIR in the file named by
# the second argument and exits with the third (0 when absent).
fake_nvcc=$work/fake_nvcc
cat > "$fake_nvcc" <<'EOF'
#!/usr/bin/env bash
shared_name=$TMPDIR/tmpxft_00000002_00000000-2.cpp
echo "$1" > "$shared_name"
sleep 0.5
[ "$(cat "$shared_name")" = "$1" ] || exit 3
echo "$TMPDIR" > "$2"
exit "${3:-0}"
EOF
chmod +x "$fake_nvcc"

fail() { echo "FAIL: $*" >&2; exit 1; }

# Two runs at once; returns how many of them failed.
failures_of_two_at_once() {
  local failures=0
  "$@" first "$work/first_dir" & local first=$!
  "$@" second "$work/second_dir" & local second=$!
  wait "$first" || failures=$((failures + 1))
  wait "$second" || failures=$((failures + 1))
  echo "$failures"
}

# The fake compiler itself must collide without the wrapper, or the check below
# proves nothing.
[ "$(failures_of_two_at_once "$fake_nvcc")" -gt 0 ] ||
  fail "two fake compilers sharing TMPDIR did not collide: the test cannot tell"
rm -f "$TMPDIR"/*

[ "$(failures_of_two_at_once "$wrapper" "$fake_nvcc")" -eq 0 ] ||
  fail "two wrapped runs at once collided"
first_dir=$(cat "$work/first_dir")
second_dir=$(cat "$work/second_dir")
[ "$first_dir" != "$second_dir" ] || fail "both runs got TMPDIR $first_dir"
case "$first_dir" in "$TMPDIR"/*) ;; *) fail "$first_dir is not under $TMPDIR" ;; esac
[ -z "$(ls -A "$TMPDIR")" ] || fail "left behind in TMPDIR: $(ls -A "$TMPDIR")"

"$wrapper" "$fake_nvcc" only "$work/only_dir" 7
status=$?
[ "$status" -eq 7 ] || fail "the compiler exited 7, the wrapper $status"
[ -z "$(ls -A "$TMPDIR")" ] || fail "a failed run left behind: $(ls -A "$TMPDIR")"
echo "ok"
