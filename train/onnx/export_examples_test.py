"""Every example config, trained for a round, exported with `task = export`:
the ONNX checker (full_check) accepts the model, and ONNX Runtime gives
umbra's `task = pred` probabilities on 100 Fashion-MNIST test images to
1e-5, with the same arg-max.

Run by export_examples_test.sh with Debian's /usr/bin/python3 (python3-onnx,
NumPy): export_examples_test.py TRAIN_BINARY RUN_ONNX_JS IDX2IMG CONFIG...
Each config trains on the first 512 training images (its data paths point
at small copies, written by IDX2IMG as pictures for the configs that read
tools/fashion_mnist_images.sh's output), so that a round takes seconds.
"""
import gzip
import json
import os
import re
import subprocess
import sys

import numpy as np
import onnx

DATA = "/usr/share/datasets/fashion-mnist"
# Where tools/fashion_mnist_images.sh writes DATA as pictures.
IMAGES = "/tmp/umbra-fashion-mnist"
TRAIN_IMAGES = 512
TEST_IMAGES = 100


def write_idx_subset(source, target, count):
    """The first `count` items of an IDX file (gzip), as a plain IDX file."""
    with gzip.open(source, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    item = int(np.prod(shape[1:])) if dims > 1 else 1
    header = bytearray(data[:4 + 4 * dims])
    header[4:8] = count.to_bytes(4, "big")
    with open(target, "wb") as f:
        f.write(bytes(header) + data[4 + 4 * dims:4 + 4 * dims + count * item])


def small_data(work):
    """Paths of the full data -> paths of the subsets."""
    sizes = {"train": TRAIN_IMAGES, "t10k": TEST_IMAGES}
    paths = {}
    for prefix, count in sizes.items():
        for kind in ("images-idx3-ubyte", "labels-idx1-ubyte"):
            source = f"{DATA}/{prefix}-{kind}.gz"
            target = f"{work}/{prefix}-{kind}"
            write_idx_subset(source, target, count)
            paths[source] = target
    return paths


def small_images(idx2img, paths, work):
    """IMAGES' layout of the subsets in `paths`, written by idx2img under
    `work`; returns that folder."""
    images = f"{work}/images"
    for encoding in ("png", "jpeg"):
        os.makedirs(f"{images}/{encoding}")
        for prefix, name in (("train", "train"), ("t10k", "test")):
            run([idx2img, paths[f"{DATA}/{prefix}-images-idx3-ubyte.gz"],
                 paths[f"{DATA}/{prefix}-labels-idx1-ubyte.gz"],
                 f"{images}/{encoding}/{name}", f"--encoding={encoding}"],
                f"idx2img {encoding} {name}")
    return images


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{what} failed ({' '.join(command)}):\n{result.stdout}{result.stderr}")
    return result.stdout


def with_pred_block(text, output):
    """`text` with a `pred = output` block reading what its eval block reads."""
    block = re.search(r"^eval\s*=.*?^iter\s*=\s*end\s*$", text, re.S | re.M)
    if block is None:
        sys.exit("the config has no eval block to predict on")
    pred = re.sub(r"^eval\s*=.*$", f'pred = "{output}"', block.group(0),
                  count=1, flags=re.M)
    return text + "\n" + pred + "\n"


def read_rows(path):
    return np.loadtxt(path, dtype=np.float64, ndmin=2)


def check_config(train, run_onnx, idx2img, config, work):
    name = os.path.splitext(os.path.basename(config))[0]
    work = os.path.join(work, name)
    os.makedirs(work)
    text = open(config).read()
    paths = small_data(work)
    for full, small in paths.items():
        text = text.replace(full, small)
    if IMAGES in text:
        text = text.replace(IMAGES, small_images(idx2img, paths, work))
    confs = {}
    for task in ("pred", "extract"):
        confs[task] = f"{work}/{task}.conf"
        with open(confs[task], "w") as f:
            f.write(with_pred_block(text, f"{work}/{task}.txt"))
    models = f"{work}/models"
    run([train, confs["pred"], "num_round=1", f"model_dir={models}", "silent=1"],
        f"{name}: training")
    model_in = f"model_in={models}/0001.model"
    run([train, confs["pred"], "task=pred", "output_prob=1", model_in], f"{name}: pred")
    run([train, confs["extract"], "task=extract", "extract_node_name=in", model_in],
        f"{name}: extract of the input node")
    onnx_path = f"{work}/model.onnx"
    print(run([train, confs["pred"], "task=export", model_in, f"onnx_path={onnx_path}"],
              f"{name}: export").strip().splitlines()[-1])

    model = onnx.load(onnx_path)
    onnx.checker.check_model(model, full_check=True)
    dims = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim[1:]]
    inputs = read_rows(f"{work}/extract.txt").astype(np.float32)
    inputs.reshape([len(inputs)] + dims).tofile(f"{work}/in.f32")
    request = {"model": onnx_path, "output": f"{work}/out.f32",
               "inputs": {model.graph.input[0].name: {
                   "shape": [len(inputs)] + dims, "file": f"{work}/in.f32"}}}
    with open(f"{work}/request.json", "w") as f:
        json.dump(request, f)
    run(["node", run_onnx, f"{work}/request.json"], f"{name}: ONNX Runtime")
    got = np.fromfile(f"{work}/out.f32", dtype=np.float32).reshape(len(inputs), -1)

    want = read_rows(f"{work}/pred.txt")
    assert got.shape == want.shape == (TEST_IMAGES, 10), (got.shape, want.shape)
    error = np.abs(got - want).max()
    assert error <= 1e-5, f"{name}: ONNX Runtime differs from task = pred by {error}"
    assert (got.argmax(1) == want.argmax(1)).all(), f"{name}: another arg-max"
    print(f"{name}: ONNX Runtime matches task = pred on {TEST_IMAGES} images, "
          f"max |difference| {error:.2e}, same arg-max")


def main():
    train, run_onnx, idx2img = (os.path.abspath(path) for path in sys.argv[1:4])
    configs = sys.argv[4:]
    assert configs, "no configs given"
    work = os.environ.get("TEST_TMPDIR", "/tmp")
    # Under Bazel's shard_count, shard i of n checks configs i, i + n, ...
    shards = int(os.environ.get("TEST_TOTAL_SHARDS", "1"))
    shard = int(os.environ.get("TEST_SHARD_INDEX", "0"))
    if "TEST_SHARD_STATUS_FILE" in os.environ:
        open(os.environ["TEST_SHARD_STATUS_FILE"], "w").close()
    for config in configs[shard::shards]:
        check_config(train, run_onnx, idx2img, os.path.abspath(config), work)


if __name__ == "__main__":
    main()
