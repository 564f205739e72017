#!/usr/bin/env bash
# Runs umbra's GPU tests and GPU benchmarks from a folder of prebuilt
# binaries, on a machine with a GPU and CUDA 13 but no Bazel.
#
#   # 1. Where Bazel and nvcc are (no GPU needed): build every target tagged
#   #    gpu with --config=cuda -c opt and copy it, with the non-system
#   #    shared libraries it needs, into a folder.
#   tools/gpu_check.sh collect /tmp/umbra_gpu
#
#   # 2. Copy the folder (and this script) to the GPU machine, then:
#   tools/gpu_check.sh /tmp/umbra_gpu        # or: tools/gpu_check.sh run DIR
#
# `run` executes every test binary listed in DIR/MANIFEST (or, without a
# manifest, every executable named *_test), then every benchmark (*_bench),
# prints each one's result (the failing tests' messages, the benchmarks'
# medians), checks the performance goals below on the medians, and ends with
# `N passed, N failed; goals: N met, N missed`. Exit status: 0 when every
# binary passed (a missed goal is reported, not a failure). Logs, and each
# benchmark's JSON, go to DIR/logs (or $GPU_CHECK_LOGS).
#
# Environment:
#   GPU_CHECK_TIMEOUT   seconds per binary (default 900)
#   GPU_CHECK_BENCH=0   skip the benchmarks
#   CUDA_PATH           the CUDA toolkit (default /usr/local/cuda); its lib64
#                       goes on LD_LIBRARY_PATH
#   BAZEL_FLAGS         extra flags for `collect` (e.g. a cuda_archs list)
set -u -o pipefail

# Prints the comment block at the top of this file.
usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
  exit 2
}

# Performance goals, checked on the medians: benchmark, counter, minimum
# (tensor/gpu/gpu_bench.cu says what each counter measures).
GOALS=(
  "BM_UpdateRule vs_memcpy 0.80"
  "BM_Dot4096 vs_cublas 0.95"
)

# The median of `counter` for benchmark family `bench` in a Google Benchmark
# JSON file (empty when absent). Entries are named
# BM_Family[/args]/manual_time_median, one field per line.
median_counter() {
  awk -v bench="$2" -v key="\"$3\":" '
    $1 == "\"name\":" {
      name = $2; gsub(/[",]/, "", name)
      family = name; sub(/\/.*/, "", family); sub(/_median$/, "", family)
      current = (family == bench && name ~ /_median$/)
    }
    current && $1 == key { value = $2; gsub(/,/, "", value); print value; exit }
  ' "$1"
}

# Libraries every Linux machine has, and the driver: never copied.
is_system_lib() {
  case "$(basename "$1")" in
    linux-vdso* | ld-linux* | libc.so* | libm.so* | libpthread.so* | \
      libdl.so* | librt.so* | libcuda.so*) return 0 ;;
  esac
  case "$1" in
    /usr/local/cuda* | "${CUDA_PATH:-/usr/local/cuda}"*) return 0 ;;
  esac
  return 1
}

collect() {
  local dir="$1"
  local root
  root="$(cd "$(dirname "$0")/.." && pwd)"
  cd "$root" || exit 1
  local flags=(--config=cuda -c opt) extra=()
  read -r -a extra <<<"${BAZEL_FLAGS:-}"
  flags+=("${extra[@]}")
  local tests benches
  tests=$(bazel query --noshow_progress \
    'attr(tags, "\bgpu\b", tests(//...))' 2>/dev/null) || {
    echo "gpu_check: bazel query for gpu tests failed" >&2
    exit 1
  }
  benches=$(bazel query --noshow_progress \
    'attr(tags, "\bbenchmark\b", attr(tags, "\bgpu\b", kind(cc_binary, //...)))' \
    2>/dev/null) || {
    echo "gpu_check: bazel query for gpu benchmarks failed" >&2
    exit 1
  }
  echo "gpu_check: building $(printf '%s\n' "$tests" "$benches" | grep -c .)" \
    "targets with ${flags[*]}"
  # shellcheck disable=SC2086
  bazel build "${flags[@]}" $tests $benches || exit 1
  local bin
  bin="$(bazel info "${flags[@]}" bazel-bin 2>/dev/null)" || exit 1
  mkdir -p "$dir/lib"
  : >"$dir/MANIFEST"
  local label path kind
  for label in $tests $benches; do
    path="$bin/$(echo "${label#//}" | tr ':' '/')"
    kind="test"
    case " $benches " in *" $label "*) kind=bench ;; esac
    cp -f "$path" "$dir/" || exit 1
    echo "$kind $(basename "$path") $label" >>"$dir/MANIFEST"
    ldd "$path" | awk '/=> \// { print $3 }' | while read -r lib; do
      is_system_lib "$lib" || cp -fL "$lib" "$dir/lib/"
    done
  done
  cp -f "$0" "$dir/gpu_check.sh"
  echo "gpu_check: $(wc -l <"$dir/MANIFEST") binaries in $dir:"
  sed 's/^/  /' "$dir/MANIFEST"
  echo "gpu_check: on the GPU machine run: $dir/gpu_check.sh $dir"
}

run() {
  local dir
  dir="$(cd "$1" && pwd)" || exit 2
  local logs="${GPU_CHECK_LOGS:-$dir/logs}"
  mkdir -p "$logs" || exit 1
  local cuda="${CUDA_PATH:-/usr/local/cuda}"
  export LD_LIBRARY_PATH="$dir/lib:$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local timeout_s="${GPU_CHECK_TIMEOUT:-900}"

  local tests=() benches=()
  if [[ -f "$dir/MANIFEST" ]]; then
    while read -r kind name _; do
      case "$kind" in
        test) tests+=("$name") ;;
        bench) benches+=("$name") ;;
      esac
    done <"$dir/MANIFEST"
  else
    local f
    for f in "$dir"/*_test; do [[ -x "$f" ]] && tests+=("$(basename "$f")"); done
    for f in "$dir"/*_bench; do [[ -x "$f" ]] && benches+=("$(basename "$f")"); done
  fi
  [[ "${GPU_CHECK_BENCH:-1}" == 0 ]] && benches=()

  echo "gpu_check: $dir: ${#tests[@]} tests, ${#benches[@]} benchmarks"
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -L 2>&1 | sed 's/^/gpu_check: /'
  else
    echo "gpu_check: nvidia-smi not found (is there a GPU and a driver?)"
  fi

  local passed=0 failed=0 name rc start secs log
  for name in "${tests[@]}"; do
    log="$logs/$name.log"
    start=$SECONDS
    timeout "$timeout_s" "$dir/$name" --gtest_color=no >"$log" 2>&1
    rc=$?
    secs=$((SECONDS - start))
    if [[ $rc -eq 0 ]]; then
      passed=$((passed + 1))
      echo "PASS  $name (${secs}s, $(grep -c '^\[       OK \]' "$log") cases)"
    else
      failed=$((failed + 1))
      [[ $rc -eq 124 ]] && echo "FAIL  $name: timed out after ${timeout_s}s" ||
        echo "FAIL  $name (exit $rc, ${secs}s); failing cases and messages:"
      # Each failure's location and message, then the failed cases.
      awk '/Failure$/ { n = 3 } n > 0 { print; n-- }
           /^\[  FAILED  \].*ms\)$/ { print }' "$log" | head -40 |
        sed 's/^/      /'
      echo "      full log: $log"
    fi
  done
  local jsons=()
  for name in "${benches[@]}"; do
    log="$logs/$name.log"
    jsons+=("$logs/$name.json")
    start=$SECONDS
    timeout "$timeout_s" "$dir/$name" --benchmark_counters_tabular=true \
      --benchmark_out="$logs/$name.json" --benchmark_out_format=json \
      >"$log" 2>&1
    rc=$?
    secs=$((SECONDS - start))
    # A benchmark that hit an error reports it and still exits 0.
    if [[ $rc -eq 0 ]] && grep -q 'ERROR OCCURRED' "$log"; then
      rc=1
    fi
    if [[ $rc -eq 0 ]]; then
      passed=$((passed + 1))
      echo "PASS  $name (${secs}s); medians:"
      grep -E '^(Benchmark|-+$)|_median' "$log" | sed 's/^/      /'
    else
      failed=$((failed + 1))
      echo "FAIL  $name (exit $rc, ${secs}s):"
      grep -E 'ERROR OCCURRED|what\(\)' "$log" | head -20 | sed 's/^/      /'
      tail -5 "$log" | sed 's/^/      /'
    fi
  done
  local met=0 missed=0 goal bench counter minimum value json
  if [[ ${#benches[@]} -gt 0 ]]; then
    for goal in "${GOALS[@]}"; do
      read -r bench counter minimum <<<"$goal"
      value=""
      for json in "${jsons[@]}"; do
        [[ -f "$json" ]] && value="$(median_counter "$json" "$bench" "$counter")"
        [[ -n "$value" ]] && break
      done
      if [[ -z "$value" ]]; then
        missed=$((missed + 1))
        echo "GOAL  $bench $counter >= $minimum: MISSED (no median found)"
      elif awk -v v="$value" -v m="$minimum" 'BEGIN { exit !(v >= m) }'; then
        met=$((met + 1))
        printf 'GOAL  %s %s >= %s: met (median %.3f)\n' "$bench" "$counter" \
          "$minimum" "$value"
      else
        missed=$((missed + 1))
        printf 'GOAL  %s %s >= %s: MISSED (median %.3f)\n' "$bench" \
          "$counter" "$minimum" "$value"
      fi
    done
  fi
  echo "$passed passed, $failed failed; goals: $met met, $missed missed"
  [[ $failed -eq 0 ]]
}

case "${1:-}" in
  collect)
    [[ $# -eq 2 ]] || usage
    collect "$2"
    ;;
  run)
    [[ $# -eq 2 ]] || usage
    run "$2"
    ;;
  "" | -h | --help) usage ;;
  *)
    [[ $# -eq 1 ]] || usage
    run "$1"
    ;;
esac
