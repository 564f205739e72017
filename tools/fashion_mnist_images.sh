#!/usr/bin/env bash
# Writes Fashion-MNIST (from tools/setup.sh's /usr/share/datasets) as the
# image data of the example configs fashion_mnist_lenet_{png,rec,jpeg}.conf:
#   OUT/png/{train,test}/00000.png ... with {train,test}.lst   (iter = img)
#   OUT/png/{train,test}.rec + .idx                            (iter = imgrec)
#   OUT/jpeg/{train,test}.rec + .idx, JPEG quality 95          (iter = imgrec)
# OUT is the first argument, /tmp/umbra-fashion-mnist by default (the
# configs' paths). Existing files are never overwritten: remove OUT first to
# write it again.
set -euo pipefail

cd "$(dirname "$0")/.."
out="${1:-/tmp/umbra-fashion-mnist}"
data=/usr/share/datasets/fashion-mnist
bazel build -c opt //tools:idx2img
idx2img="$(bazel info -c opt bazel-bin)/tools/idx2img"
mkdir -p "$out/png" "$out/jpeg"
for part in train:train t10k:test; do
  idx="${part%%:*}"
  name="${part##*:}"
  images="$data/$idx-images-idx3-ubyte.gz"
  labels="$data/$idx-labels-idx1-ubyte.gz"
  "$idx2img" "$images" "$labels" "$out/png/$name" --encoding=png
  "$idx2img" "$images" "$labels" "$out/jpeg/$name" --encoding=jpg --quality=95
done
