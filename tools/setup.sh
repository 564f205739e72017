#!/usr/bin/env bash
# Installs, with apt, everything a fresh Debian bookworm machine needs to build, test
# and train with umbra. Idempotent: when all is present it says so and exits at once.
# The CUDA toolkit is not a Debian package; the GPU build looks for it at
# $CUDA_PATH or /usr/local/cuda and is skipped without it.
set -euo pipefail

PACKAGES=(
  bazel-bootstrap        # Bazel 4.2.3 (brings a JDK, python3 and build-essential)
  bazel-platforms        # @platforms, with :incompatible for GPU-only targets
  pkgconf                # link flags for the system Abseil
  libabsl-dev
  libgtest-dev libgmock-dev
  libbenchmark-dev
  libprotobuf-dev protobuf-compiler
  libopenblas-dev        # CPU matrix products (cblas)
  zlib1g-dev
  libeigen3-dev          # reference checks and benchmarks only
  openmpi-bin libopenmpi-dev  # data-parallel training (dist = mpi, mpirun)
  dataset-fashion-mnist  # /usr/share/datasets/fashion-mnist, the example configs' data
  libonnx-dev            # onnx.proto, the schema of task = export
  python3-onnx           # the ONNX checker the export tests run (/usr/bin/python3)
  nodejs                 # runs ONNX Runtime (npm's onnxruntime-node) in the export tests
  libturbojpeg0-dev      # JPEG decode and encode (TurboJPEG API) for the image iterators
  libpng-dev             # PNG decode and encode for the image iterators
  python3-pil            # Pillow, the reference of the image decode benchmark
  clang-14 libclang-rt-14-dev  # libFuzzer, ASan and UBSan for tools/fuzz.sh
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$package")
  fi
done

# ONNX Runtime is not a Debian package: npm's onnxruntime-node, its prebuilt
# library only (--ignore-scripts), at the version and place that
# third_party/onnxruntime/version.bzl names.
ORT_BZL="$(dirname "$0")/../third_party/onnxruntime/version.bzl"
ORT_VERSION="$(sed -n 's/^ONNXRUNTIME_NODE_VERSION = "\(.*\)"$/\1/p' "$ORT_BZL")"
ORT_DIR="$(sed -n 's/^ONNXRUNTIME_NODE_DIR = "\(.*\)"$/\1/p' "$ORT_BZL")"
ORT_PACKAGE="$ORT_DIR/node_modules/onnxruntime-node/package.json"
ort_missing() {
  ! grep -q "\"version\": \"$ORT_VERSION\"" "$ORT_PACKAGE" 2>/dev/null
}

if [ ${#missing[@]} -eq 0 ] && ! ort_missing; then
  echo "setup: all ${#PACKAGES[@]} packages umbra needs and onnxruntime-node $ORT_VERSION are installed."
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO=sudo
  else
    echo "setup: installing packages needs root. Run: sudo tools/setup.sh" >&2
    exit 1
  fi
fi
if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  ${SUDO:-} apt-get update -qq
  ${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ort_missing; then
  if ! command -v npm >/dev/null; then
    # Debian's nodejs comes without npm (another node distribution may bring it).
    ${SUDO:-} apt-get update -qq
    ${SUDO:-} apt-get install -y -qq --no-install-recommends npm >/dev/null
  fi
  echo "setup: installing onnxruntime-node $ORT_VERSION (npm) in $ORT_DIR"
  ${SUDO:-} mkdir -p "$ORT_DIR"
  ${SUDO:-} npm install --prefix "$ORT_DIR" --ignore-scripts --no-audit --no-fund \
    --loglevel=error "onnxruntime-node@$ORT_VERSION" >/dev/null
fi
echo "setup: done."
