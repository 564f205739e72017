#!/usr/bin/env bash
# Runs umbra's GPU tests and GPU benchmarks from a folder of prebuilt
# binaries, on a machine with a GPU and CUDA 13 but no Bazel.
#
#   # 1. Where Bazel and nvcc are (no GPU needed): build every target tagged
#   #    gpu with --config=cuda -c opt and copy it, with the non-system
#   #    shared libraries it needs, into a folder (not the CUDA toolkit's or
#   #    cuDNN's: `run` uses the GPU machine's own, see setup_cudnn).
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
#   GPU_CHECK_CUDNN_SEARCH  where `run` looks for cuDNN 9 when the loader and
#                       python3's nvidia packages have none (default
#                       "/opt /usr/local /usr/lib"; see setup_cudnn)
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

# Libraries every Linux machine has, the driver, and cuDNN: never copied.
# cuDNN is hundreds of MiB and loads most of itself with dlopen (which ldd
# does not list); `run` finds the GPU machine's own (setup_cudnn).
is_system_lib() {
  case "$(basename "$1")" in
    linux-vdso* | ld-linux* | libc.so* | libm.so* | libpthread.so* | \
      libdl.so* | librt.so* | libcuda.so* | libcudnn.so* | libcudnn_*)
      return 0
      ;;
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

# The directory of the libcudnn.so.9 the loader finds now: in a directory of
# LD_LIBRARY_PATH or in ldconfig's cache. Fails when there is none.
cudnn_on_path() {
  local entry found
  local -a entries
  IFS=: read -r -a entries <<<"${LD_LIBRARY_PATH:-}"
  for entry in "${entries[@]}"; do
    [[ -n "$entry" && -e "$entry/libcudnn.so.9" ]] && {
      echo "$entry"
      return 0
    }
  done
  found="$("$(command -v ldconfig || echo /sbin/ldconfig)" -p 2>/dev/null |
    awk '$1 == "libcudnn.so.9" { print $NF; exit }')"
  [[ -n "$found" ]] && dirname "$found"
}

# A directory holding libcudnn.so.9 outside the loader's paths: first the
# nvidia pip packages of python3 (PyTorch's venv has nvidia-cudnn-cu13, in
# nvidia/cudnn/lib or nvidia/cu13/lib), then a search of
# $GPU_CHECK_CUDNN_SEARCH, 10 levels deep. Fails when there is none.
find_cudnn_dir() {
  local package lib found
  local -a roots
  while read -r package; do
    for lib in "$package"/*/lib/libcudnn.so.9; do
      [[ -e "$lib" ]] && {
        dirname "$lib"
        return 0
      }
    done
  done < <(python3 -c 'import nvidia; print("\n".join(nvidia.__path__))' \
    2>/dev/null)
  read -r -a roots <<<"${GPU_CHECK_CUDNN_SEARCH:-/opt /usr/local /usr/lib}"
  found="$(find "${roots[@]}" -maxdepth 10 -name libcudnn.so.9 -print -quit \
    2>/dev/null)"
  [[ -n "$found" ]] && dirname "$found"
}

# Makes cuDNN 9 loadable by the binaries, and says which directory it is
# in. libcudnn.so.9 loads its sub-libraries (libcudnn_cnn, _ops,
# _engines_*, _heuristic) with dlopen at run time, by name, so the
# directory must be on the loader's path, not only libcudnn.so.9 found.
# A directory found outside it goes at the end of LD_LIBRARY_PATH, so that
# the toolkit's libraries (cuBLAS, the runtime) stay first even where the
# same directory also holds pip's copies (nvidia/cu13/lib).
setup_cudnn() {
  local found
  if found="$(cudnn_on_path)"; then
    echo "gpu_check: cuDNN 9 from $found"
  elif found="$(find_cudnn_dir)"; then
    export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$found"
    echo "gpu_check: cuDNN 9 from $found (added to LD_LIBRARY_PATH)"
  else
    echo "gpu_check: cuDNN 9 (libcudnn.so.9) not found on the loader's path," \
      "in python3's nvidia packages or under" \
      "${GPU_CHECK_CUDNN_SEARCH:-/opt /usr/local /usr/lib};" \
      "the tests that need it will fail"
  fi
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
  setup_cudnn

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
