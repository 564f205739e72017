#!/usr/bin/env bash
# Fuzzes every reader of user input (tools/fuzz: the config, the IDX, CSV and
# binary data files, checkpoints) with libFuzzer under ASan and UBSan, and
# prints one line per fuzzer: executions, coverage, and what it found.
#
#   tools/fuzz.sh                     # each fuzzer 1,000,000 executions
#   tools/fuzz.sh --runs 5000000 csv_fuzzer
#   tools/fuzz.sh --seconds 10        # CI's smoke run
#
# The fuzzers are built with clang (`--config=fuzz`, .bazelrc) in a Bazel
# output base of their own ($UMBRA_FUZZ_OUTPUT_BASE, default the
# workspace's output base with -fuzz appended, as tools/test.sh), so
# switching compilers never discards the gcc build's cache. Each fuzzer starts from its corpus (tools/fuzz/testdata/NAME
# and, for the config, train/configs) and writes what it learns to a scratch
# copy; a crash, a leak, a timeout (-timeout=10 s per input) or more than
# 512 MB of memory (-rss_limit_mb=512) fails the run, and the input that did
# it is kept in $UMBRA_FUZZ_ARTIFACTS (default /tmp/umbra-fuzz-artifacts) to
# replay: bazel run //tools/fuzz:NAME -- /tmp/umbra-fuzz-artifacts/NAME-crash-...
# Exits 0 when every fuzzer ran clean.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZERS=(config_fuzzer idx_fuzzer csv_fuzzer binary_data_fuzzer checkpoint_fuzzer)
limit=(-runs=1000000)
chosen=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) limit=(-runs="$2"); shift 2 ;;
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz: unknown flag '$1' (flags: --runs N, --seconds S)" >&2; exit 2 ;;
    *) chosen+=("$1"); shift ;;
  esac
done
[ ${#chosen[@]} -gt 0 ] || chosen=("${FUZZERS[@]}")
for name in "${chosen[@]}"; do
  if [[ ! " ${FUZZERS[*]} " =~ " $name " ]]; then
    echo "fuzz: no fuzzer '$name' (fuzzers: ${FUZZERS[*]})" >&2
    exit 2
  fi
done

output_base="${UMBRA_FUZZ_OUTPUT_BASE:-$(bazel info output_base)-fuzz}"
artifacts="${UMBRA_FUZZ_ARTIFACTS:-/tmp/umbra-fuzz-artifacts}"
mkdir -p "$artifacts"
targets=()
for name in "${chosen[@]}"; do targets+=("//tools/fuzz:$name"); done
bazel --output_base="$output_base" build --config=fuzz "${targets[@]}"
bin="$(bazel --output_base="$output_base" info --config=fuzz bazel-bin 2>/dev/null)/tools/fuzz"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failed=0
for name in "${chosen[@]}"; do
  seeds=("tools/fuzz/testdata/${name%_fuzzer}")
  [ "$name" = config_fuzzer ] && seeds+=(train/configs)
  mkdir -p "$scratch/$name"
  log="$scratch/$name.log"
  status=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$bin/$name" "${limit[@]}" -rss_limit_mb=512 -timeout=10 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$name-" \
    "$scratch/$name" "${seeds[@]}" >"$log" 2>&1 || status=$?
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
  coverage="$(grep -o 'cov: [0-9]*' "$log" | tail -1)"
  if [ "$status" -eq 0 ]; then
    echo "fuzz: $name: ${runs:-?} executions, ${coverage:-cov: ?}, no crash, leak, timeout or out-of-memory"
  else
    failed=1
    echo "fuzz: $name FAILED after ${runs:-?} executions (exit $status); its log:"
    grep -E '^(==|SUMMARY|.*ERROR|.*runtime error|.*artifact_prefix|.*Test unit written)' "$log" | head -20
  fi
done
exit "$failed"
