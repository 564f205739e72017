"""Decode + random crop + mirror + normalise speed, umbra vs Pillow, side by side.

Makes 256 x 256 JPEGs (quality 90, photo-like: smooth shapes and noise), then
runs, interleaved, REPEATS times: umbra's //train/image:image_decode_bench at 1
and 2 decode threads, and Pillow doing the same on the same files in this
process (open, decode, random 224 x 224 crop, random mirror, float32, per-channel
mean and std, CHW). Prints the medians and the ratios.

  bazel build -c opt //train/image:image_decode_bench
  /usr/bin/python3 tools/bench_image_decode.py bazel-bin/train/image/image_decode_bench

Debian's python3-pil and NumPy: run it with /usr/bin/python3.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

COUNT = 256
SIDE = 256
CROP = 224
REPEATS = 3
SECONDS = 3.0
MEAN = np.array([123.68, 116.28, 103.53], dtype=np.float32)
STD = np.array([58.4, 57.1, 57.4], dtype=np.float32)


def make_images(folder):
    rng = np.random.default_rng(1)
    y, x = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32)
    lines = []
    for i in range(COUNT):
        picture = np.zeros((SIDE, SIDE, 3), np.float32)
        for c in range(3):
            fx, fy, phase = rng.uniform(0.01, 0.08, 2).tolist() + [rng.uniform(0, 6)]
            picture[..., c] = 128 + 90 * np.sin(fx * x + fy * y + phase)
        for _ in range(6):  # discs of flat colour
            cx, cy, r = rng.uniform(0, SIDE, 2).tolist() + [rng.uniform(10, 60)]
            picture[(x - cx) ** 2 + (y - cy) ** 2 < r * r] = rng.uniform(0, 255, 3)
        picture += rng.normal(0, 8, picture.shape)
        name = f"{i:04d}.jpg"
        Image.fromarray(np.clip(picture, 0, 255).astype(np.uint8)).save(
            os.path.join(folder, name), quality=90)
        lines.append(f"{i}\t0\t{name}\n")
    list_path = os.path.join(folder, "images.lst")
    with open(list_path, "w") as f:
        f.writelines(lines)
    return list_path, [os.path.join(folder, f"{i:04d}.jpg") for i in range(COUNT)]


def pillow_images_per_second(paths):
    rng = random.Random(3)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        path = paths[done % len(paths)]
        with Image.open(path) as image:
            image = image.convert("RGB")
            x, y = rng.randrange(SIDE - CROP + 1), rng.randrange(SIDE - CROP + 1)
            image = image.crop((x, y, x + CROP, y + CROP))
            if rng.random() < 0.5:
                image = image.transpose(Image.FLIP_LEFT_RIGHT)
            array = (np.asarray(image, dtype=np.float32) - MEAN) / STD
            np.ascontiguousarray(array.transpose(2, 0, 1))
        done += 1
    return done / (time.perf_counter() - start)


def umbra_images_per_second(bench, list_path, folder):
    env = dict(os.environ, UMBRA_BENCH_LIST=list_path, UMBRA_BENCH_ROOT=folder)
    result = subprocess.run(
        [bench, "--benchmark_format=json", f"--benchmark_min_time={SECONDS / 2}"],
        env=env, capture_output=True, text=True, check=True)
    rates = {}
    for run in json.loads(result.stdout)["benchmarks"]:
        rates[int(run["name"].split("threads:")[1].split("/")[0])] = run["items_per_second"]
    return rates


def main():
    bench = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        list_path, paths = make_images(folder)
        umbra = {1: [], 2: []}
        pillow = []
        for _ in range(REPEATS):
            for threads, rate in umbra_images_per_second(bench, list_path, folder).items():
                umbra[threads].append(rate)
            pillow.append(pillow_images_per_second(paths))
    one, two, pil = (statistics.median(v) for v in (umbra[1], umbra[2], pillow))
    print(f"{COUNT} JPEGs {SIDE}x{SIDE} q90 -> {CROP}x{CROP} float, "
          f"medians of {REPEATS} interleaved runs (images/s):")
    print(f"  umbra 1 thread   {one:8.0f}   ({one / pil:.2f}x Pillow)")
    print(f"  umbra 2 threads  {two:8.0f}   ({two / one:.2f}x umbra 1 thread)")
    print(f"  Pillow {Image.__version__:9s} {pil:8.0f}")


if __name__ == "__main__":
    main()
