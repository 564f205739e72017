#!/usr/bin/env bash
# A fuzzer's smoke run, as a test under --config=fuzz: libFuzzer for SECONDS
# from the seed files, with the limits of tools/fuzz.sh (10 s per input,
# 512 MB). Fails on a crash, a leak, a timeout or running out of memory; the
# input that did it is among the test's undeclared outputs.
#
#   smoke_test.sh FUZZER SECONDS SEED...
set -euo pipefail
fuzzer="$1"
seconds="$2"
shift 2
seeds="$(IFS=,; echo "$*")"
mkdir -p "$TEST_TMPDIR/corpus"
exec "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=512 -timeout=10 \
  -max_len=16384 -print_final_stats=1 -seed_inputs="$seeds" \
  -artifact_prefix="${TEST_UNDECLARED_OUTPUTS_DIR:-$TEST_TMPDIR}/" \
  "$TEST_TMPDIR/corpus"
