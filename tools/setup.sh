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
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages umbra needs are installed."
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO=sudo
  else
    echo "setup: installing packages needs root. Run: sudo tools/setup.sh" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
${SUDO:-} apt-get update -qq
${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done."
