#!/usr/bin/python3
"""Training speed of umbra against PyTorch on the CPU, side by side (issue 7).

What it measures
  images/s of training rounds (passes over the 60000 Fashion-MNIST training
  images, at the config's batch size) for the same net on both sides:

  * PyTorch (Debian's python3-torch 1.13, run with /usr/bin/python3): the net
    of train/configs/fashion_mnist_{mlp,lenet,resnet,bn_cnn}.conf (--net
    mlp, lenet, resnet, bncnn; batch 64) or of cxxnet's own
    train/configs/cxxnet/MNIST.conf and MNIST_CONV.conf (--net
    cxxnet_mnist, cxxnet_mnist_conv; batch 100, the latter with dev=cpu)
    rebuilt in torch.nn (same layer sizes, pad, ReLU or sigmoid, batch
    norm, dropout, pooling with cxxnet's output size, softmax cross-entropy,
    the config's init: He fan-in, or Gaussian and Xavier as umbra draws
    them; SGD with momentum 0.9, eta and wd from the config, no wd on
    biases, a cosine schedule over the rounds or cxxnet's constant rate).
    One round is what umbra's trainer does
    in one: a new shuffle, then for every batch the gather of the batch,
    forward, loss, the train error (eval_train = 1), backward and the update;
    the last partial batch is filled with the first images of the next pass
    (round_batch = 1) and 60000 images are counted. Reading and decoding the
    gz IDX files (gzip + struct, pixels / 256 as umbra's mnist iterator) is
    done before and not timed, so is the evaluation on the test set.
  * umbra: bazel-out/k8-opt/bin/train/train (what bazel build -c opt
    //train made) CONFIG num_round=R save_model=0 silent=1
    model_dir=TMP, images/s parsed from its per-round lines
    ("[r]\telapsed:..\timages/s:N ..."). umbra times the same part of a round
    (its test-set evaluation is not in the figure).

  The PyTorch workers run with glibc's malloc told to keep freed memory
  (TORCH_MALLOC_ENV): returning it to the kernel each step made PyTorch
  several times slower on virtual machines with expensive page faults.

  PyTorch is tried at every thread setting asked for: torch.set_num_threads
  (--threads), the OpenBLAS threads of the BLAS its matrix products use
  (OPENBLAS_NUM_THREADS, --blas_threads) and torch.set_num_interop_threads
  (--interop). OMP_NUM_THREADS is set to the torch thread count. Environment
  variables have to be set before torch is imported, so every run of a
  setting is a fresh process (this script relaunched with --worker). The best
  setting (highest median) is PyTorch's figure.

  The machine may be shared and noisy, so the runs are interleaved: each of
  --reps repetitions runs every PyTorch setting, then umbra. Figures are
  medians over all timed rounds of all repetitions; the load average is
  printed before and after.

  With --tune_batches N the settings are first screened on N batches each
  (cheap for LeNet, whose full round takes ~25 s), and only the best one
  takes part in the interleaved full-round comparison.

How to run (from the repository root, as the user that builds umbra)
  apt-get install -y python3-torch           # once, as root
  bazel build -c opt //train                 # or pass --build
  /usr/bin/python3 tools/compare_pytorch.py --net mlp --rounds 3 --reps 3
  /usr/bin/python3 tools/compare_pytorch.py --net lenet --rounds 2 --reps 2 \\
      --tune_batches 300
  /usr/bin/python3 tools/compare_pytorch.py --net mlp --threads 2 \\
      --blas_threads 1,2 --interop 1,2      # other settings to try
  /usr/bin/python3 tools/compare_pytorch.py --net resnet --rounds 1 --reps 1 \\
      --tune_batches 100
  /usr/bin/python3 tools/compare_pytorch.py --net bncnn --rounds 1 --reps 3 \\
      --threads 2 --blas_threads 1
  /usr/bin/python3 tools/compare_pytorch.py --net cxxnet_mnist_conv \\
      --rounds 2 --reps 3

  --net both runs the MLP, then LeNet. The last lines are the table:
  net, batch, PyTorch best images/s (setting), umbra images/s, ratio
  umbra/PyTorch (of the medians), and the median of each repetition's own
  ratio (PyTorch's best setting and umbra run a minute apart, so a drift of
  the machine's speed cancels in it). Both sides inherit the environment,
  OPENBLAS_CORETYPE included (printed with the table): with it set, OpenBLAS
  runs those kernels for both, whatever the CPU has.
"""

import argparse
import gzip
import json
import math
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_DIR = "/usr/share/datasets/fashion-mnist"
# Where `bazel build -c opt //train` puts the trainer. bazel-bin follows the
# latest build of any configuration, so it may hold an unoptimised one.
OPT_TRAIN_BINARY = "bazel-out/k8-opt/bin/train/train"

# From train/configs/fashion_mnist_{mlp,lenet,resnet,bn_cnn}.conf and
# train/configs/cxxnet/MNIST{,_CONV}.conf. batch: batch_size (64 unless
# given). max_step: the cosine schedule's rounds (lr:max_step); none: a
# constant rate. bn_wd: whether batch_norm's gamma decays (bn_cnn sets
# gamma:wd = 0); biases and beta never do. flat: the images as rows of 784
# (input_flat). umbra_args: overrides umbra needs to train the config on
# the CPU.
NETS = {
    "mlp": {"config": "train/configs/fashion_mnist_mlp.conf",
            "eta": 0.05, "wd": 0.0001, "momentum": 0.9, "max_step": 10,
            "flat": True},
    "lenet": {"config": "train/configs/fashion_mnist_lenet.conf",
              "eta": 0.03, "wd": 0.0005, "momentum": 0.9, "max_step": 15},
    "resnet": {"config": "train/configs/fashion_mnist_resnet.conf",
               "eta": 0.1, "wd": 0.0005, "momentum": 0.9, "max_step": 25,
               "pad": 2},
    "bncnn": {"config": "train/configs/fashion_mnist_bn_cnn.conf",
              "eta": 0.05, "wd": 0.0005, "momentum": 0.9, "max_step": 15,
              "bn_wd": False},
    "cxxnet_mnist": {"config": "train/configs/cxxnet/MNIST.conf",
                     "batch": 100, "eta": 0.1, "wd": 0.0, "momentum": 0.9,
                     "flat": True},
    "cxxnet_mnist_conv": {"config": "train/configs/cxxnet/MNIST_CONV.conf",
                          "batch": 100, "eta": 0.1, "wd": 0.0,
                          "momentum": 0.9, "umbra_args": ["dev=cpu"]},
}


def batch_size(net):
    return NETS[net].get("batch", 64)


# --------------------------------------------------------------------------
# PyTorch side (runs in a worker process, after its environment is set).

def read_idx(path):
    """An IDX file (plain or gzip) as (dims, bytes), like umbra's idx_file."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    zero, dtype, ndim = struct.unpack(">HBB", raw[:4])
    if zero != 0 or dtype != 0x08:
        raise ValueError("%s: not an unsigned-byte IDX file" % path)
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    return dims, raw[4 + 4 * ndim:]


def load_fashion_mnist(torch, flat):
    """Training images (pixels / 256, float32) and labels (int64)."""
    import numpy as np
    dims, pixels = read_idx(os.path.join(DATA_DIR,
                                         "train-images-idx3-ubyte.gz"))
    ldims, labels = read_idx(os.path.join(DATA_DIR,
                                          "train-labels-idx1-ubyte.gz"))
    n, rows, cols = dims
    assert ldims[0] == n
    x = np.frombuffer(pixels, dtype=np.uint8).astype(np.float32) / 256.0
    x = x.reshape(n, rows * cols) if flat else x.reshape(n, 1, rows, cols)
    y = np.frombuffer(labels, dtype=np.uint8).astype(np.int64)
    return torch.from_numpy(x.copy()), torch.from_numpy(y.copy())


def shift_and_mirror(torch, xb, pad):
    """The config's augmentation, batched: each image zero-padded by `pad`,
    cropped back at a random offset (rand_crop) and mirrored with
    probability 1/2 (rand_mirror), as umbra's InstanceTransform."""
    n, _, h, w = xb.shape
    padded = torch.nn.functional.pad(xb, (pad, pad, pad, pad))
    dy = torch.randint(0, 2 * pad + 1, (n, 1, 1))
    dx = torch.randint(0, 2 * pad + 1, (n, 1, 1))
    rows = (dy + torch.arange(h).view(1, h, 1)).expand(n, h, w)
    cols = (dx + torch.arange(w).view(1, 1, w)).expand(n, h, w)
    mirror = torch.rand(n, 1, 1) < 0.5
    cols = torch.where(mirror, dx + (w - 1) - torch.arange(w).view(1, 1, w),
                       cols)
    images = torch.arange(n).view(n, 1, 1).expand(n, h, w)
    return padded[images, 0, rows, cols].unsqueeze(1)


def resnet(torch):
    """fashion_mnist_resnet.conf: a 3x3 stem, three stages of two basic
    blocks (16, 32, 64 channels; stride 2 and a 1x1 projection entering
    stages 2 and 3), global average pooling, fc 10; no conv biases."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                nn.BatchNorm2d(cout))
            self.shortcut = nn.Identity()
            if stride != 1 or cin != cout:
                self.shortcut = nn.Sequential(
                    nn.Conv2d(cin, cout, 1, stride, bias=False),
                    nn.BatchNorm2d(cout))

        def forward(self, x):
            return torch.relu(self.body(x) + self.shortcut(x))

    layers = [nn.Conv2d(1, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16),
              nn.ReLU(inplace=True)]
    cin = 16
    for stage, cout in enumerate([16, 32, 64]):
        for block in range(2):
            stride = 2 if block == 0 and stage > 0 else 1
            layers.append(Block(cin, cout, stride))
            cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)]
    return nn.Sequential(*layers)


def bn_cnn(torch):
    """fashion_mnist_bn_cnn.conf: two blocks of (conv 3x3 without bias,
    batch_norm, relu) x 2 and a 2x2 max pool (32, then 64 channels), then
    fc 256, batch_norm, relu, dropout 0.3, fc 10."""
    nn = torch.nn

    def conv_bn_relu(cin, cout):
        return [nn.Conv2d(cin, cout, 3, 1, 1, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *conv_bn_relu(1, 32), *conv_bn_relu(32, 32), nn.MaxPool2d(2, 2),
        *conv_bn_relu(32, 64), *conv_bn_relu(64, 64), nn.MaxPool2d(2, 2),
        nn.Flatten(), nn.Linear(3136, 256), nn.BatchNorm1d(256),
        nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(256, 10))


def cxxnet_mnist(torch):
    """cxxnet's MNIST.conf: fc 100, sigmoid, fc 10; Gaussian init, sigma
    0.01; biases 0."""
    nn = torch.nn
    model = nn.Sequential(nn.Linear(784, 100), nn.Sigmoid(),
                          nn.Linear(100, 10))
    for m in model.modules():
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, 0.0, 0.01)
            nn.init.zeros_(m.bias)
    return model


def cxxnet_mnist_conv(torch):
    """cxxnet's MNIST_CONV.conf: conv 3x3 stride 2 pad 1 (32, with bias,
    Xavier: uniform within sqrt(3 / (fan in + fan out)) as umbra draws it),
    max pool 3x3 stride 2 (cxxnet's output size: 14 -> 7, ceil_mode),
    dropout 0.5, fc 100, sigmoid, fc 10 (Gaussian, sigma 0.01); biases 0."""
    nn = torch.nn
    conv = nn.Conv2d(1, 32, 3, stride=2, padding=1)
    model = nn.Sequential(
        conv, nn.MaxPool2d(3, 2, ceil_mode=True), nn.Flatten(),
        nn.Dropout(0.5), nn.Linear(32 * 7 * 7, 100), nn.Sigmoid(),
        nn.Linear(100, 10))
    bound = math.sqrt(3.0 / (1 * 3 * 3 + 32))
    nn.init.uniform_(conv.weight, -bound, bound)
    for m in model.modules():
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, 0.0, 0.01)
        if isinstance(m, (nn.Linear, nn.Conv2d)):
            nn.init.zeros_(m.bias)
    return model


def build_net(torch, net):
    nn = torch.nn
    if net == "cxxnet_mnist":
        return cxxnet_mnist(torch)
    if net == "cxxnet_mnist_conv":
        return cxxnet_mnist_conv(torch)
    if net == "resnet":
        model = resnet(torch)
    elif net == "bncnn":
        model = bn_cnn(torch)
    elif net == "mlp":
        model = nn.Sequential(
            nn.Linear(784, 256), nn.ReLU(inplace=True),
            nn.Linear(256, 128), nn.ReLU(inplace=True),
            nn.Linear(128, 10))
    else:
        model = nn.Sequential(
            nn.Conv2d(1, 32, 5, padding=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(32, 64, 5, padding=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
            nn.Flatten(),
            nn.Linear(3136, 512), nn.ReLU(inplace=True),
            nn.Linear(512, 10))
    for m in model.modules():  # random_type = he; bias 0
        if isinstance(m, (nn.Linear, nn.Conv2d)):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            if m.bias is not None:
                nn.init.zeros_(m.bias)
    return model


def worker(args):
    """Trains `args.rounds` rounds with PyTorch and prints a RESULT line."""
    import torch
    torch.set_num_threads(args.w_threads)
    torch.set_num_interop_threads(args.w_interop)
    torch.manual_seed(0)
    spec = NETS[args.net]
    x, y = load_fashion_mnist(torch, flat=spec.get("flat", False))
    batch = batch_size(args.net)
    n = x.shape[0]
    model = build_net(torch, args.net)
    # Weight decay on the weights (and batch_norm's gamma unless bn_wd is
    # False), none on biases and beta.
    norms = (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)
    decayed, undecayed = [], []
    for module in model.modules():
        decays = spec.get("bn_wd", True) or not isinstance(module, norms)
        for name, p in module.named_parameters(recurse=False):
            (decayed if name == "weight" and decays else undecayed).append(p)
    opt = torch.optim.SGD(
        [{"params": decayed, "weight_decay": spec["wd"]},
         {"params": undecayed, "weight_decay": 0.0}],
        lr=spec["eta"], momentum=spec["momentum"])
    loss_fn = torch.nn.CrossEntropyLoss()
    model.train()
    per_round = []
    batches_per_round = math.ceil(n / batch)
    if args.max_batches > 0:
        batches_per_round = min(batches_per_round, args.max_batches)
    for rnd in range(args.rounds):
        lr = spec["eta"]
        if "max_step" in spec:
            lr *= 0.5 * (1 + math.cos(math.pi * rnd / spec["max_step"]))
        for group in opt.param_groups:
            group["lr"] = lr
        start = time.perf_counter()
        order = torch.randperm(n)
        images = 0
        wrong = 0
        for b in range(batches_per_round):
            idx = order[b * batch:(b + 1) * batch]
            real = idx.shape[0]
            if real < batch:  # round_batch = 1
                idx = torch.cat([idx, torch.randperm(n)[:batch - real]])
            xb = x.index_select(0, idx)
            if "pad" in spec:
                xb = shift_and_mirror(torch, xb, spec["pad"])
            yb = y.index_select(0, idx)
            out = model(xb)
            loss = loss_fn(out, yb)
            wrong += int((out[:real].argmax(1) != yb[:real]).sum())
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            images += real
        seconds = time.perf_counter() - start
        if not math.isfinite(float(loss)):
            raise RuntimeError("loss is %s" % float(loss))
        per_round.append({"images_per_s": images / seconds,
                          "seconds": seconds, "images": images,
                          "train_error": wrong / images})
    print("RESULT " + json.dumps({"rounds": per_round,
                                  "torch": torch.__version__,
                                  "threads": torch.get_num_threads(),
                                  "interop": torch.get_num_interop_threads()}),
          flush=True)


# --------------------------------------------------------------------------
# Driver.

def setting_name(s):
    return "torch=%d interop=%d OMP=%d BLAS=%d" % (
        s["threads"], s["interop"], s["threads"], s["blas"])


# glibc returns freed blocks above its mmap/trim thresholds to the kernel,
# and PyTorch frees and allocates its tensors every step: on virtual
# machines whose page faults are expensive that cost PyTorch most of its
# time (MLP: 25k images/s instead of 61k on a 2-core Zen 5 VM, 2026-11-28).
# Its workers keep freed memory for reuse, as umbra, which allocates once.
TORCH_MALLOC_ENV = {
    "MALLOC_MMAP_THRESHOLD_": str(1 << 32),
    "MALLOC_TRIM_THRESHOLD_": str(1 << 32),
    "MALLOC_TOP_PAD_": str(1 << 28),
}


def run_torch(net, setting, rounds, max_batches):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(setting["threads"])
    env["OPENBLAS_NUM_THREADS"] = str(setting["blas"])
    env["MKL_NUM_THREADS"] = str(setting["blas"])
    env.update(TORCH_MALLOC_ENV)
    cmd = ["/usr/bin/python3", os.path.abspath(__file__), "--worker",
           "--net", net, "--rounds", str(rounds),
           "--max_batches", str(max_batches),
           "--w_threads", str(setting["threads"]),
           "--w_interop", str(setting["interop"])]
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
            return [r["images_per_s"] for r in result["rounds"]], result
    raise RuntimeError("PyTorch worker failed (%d):\n%s%s" %
                       (proc.returncode, proc.stdout, proc.stderr))


ROUND_LINE = re.compile(r"^\[(\d+)\]\s.*images/s:([0-9.]+)")


def run_umbra(binary, net, rounds, extra):
    overrides = NETS[net].get("umbra_args", []) + extra
    with tempfile.TemporaryDirectory(prefix="umbra_cmp_") as model_dir:
        cmd = [binary, os.path.join(REPO, NETS[net]["config"]),
               "num_round=%d" % rounds, "save_model=0", "silent=1",
               "model_dir=" + model_dir] + overrides
        proc = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    figures = []
    for line in proc.stdout.splitlines():
        m = ROUND_LINE.match(line)
        if m:
            figures.append(float(m.group(2)))
    if proc.returncode != 0 or len(figures) != rounds:
        raise RuntimeError("umbra failed (%d): %s\n%s%s" %
                           (proc.returncode, " ".join(cmd), proc.stdout,
                            proc.stderr))
    return figures


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def fmt_list(values):
    return "[" + ", ".join("%.0f" % v for v in values) + "]"


def compare(args, net, binary):
    settings = [{"threads": t, "blas": b, "interop": i}
                for t in args.threads for b in args.blas_threads
                for i in args.interop]
    print("== %s: nproc %d, load average %s" %
          (net, os.cpu_count(), loadavg()), flush=True)
    if args.tune_batches > 0 and len(settings) > 1:
        tuned = {}
        for rep in range(args.reps):
            for s in settings:
                figures, _ = run_torch(net, s, 1, args.tune_batches)
                tuned.setdefault(setting_name(s), []).extend(figures)
                print("  tune rep %d  pytorch %-36s %s images/s" %
                      (rep + 1, setting_name(s), fmt_list(figures)),
                      flush=True)
        best_name = max(tuned, key=lambda k: statistics.median(tuned[k]))
        for name, figures in tuned.items():
            print("  tune median %-36s %.0f images/s (%d batches)" %
                  (name, statistics.median(figures), args.tune_batches))
        settings = [s for s in settings if setting_name(s) == best_name]
    # Per setting (and for umbra), one list of figures per repetition.
    torch_reps = {setting_name(s): [] for s in settings}
    umbra_reps = []
    for rep in range(args.reps):
        for s in settings:
            figures, _ = run_torch(net, s, args.rounds, 0)
            torch_reps[setting_name(s)].append(figures)
            print("  rep %d  pytorch %-36s %s images/s" %
                  (rep + 1, setting_name(s), fmt_list(figures)), flush=True)
        figures = run_umbra(binary, net, args.rounds, args.umbra_args)
        umbra_reps.append(figures)
        print("  rep %d  umbra   %-36s %s images/s" %
              (rep + 1, " ".join(args.umbra_args) or "(config as is)",
               fmt_list(figures)), flush=True)
    torch_figures = {name: sum(reps, []) for name, reps in torch_reps.items()}
    umbra_figures = sum(umbra_reps, [])
    for name, figures in torch_figures.items():
        print("  median pytorch %-36s %.0f images/s over %d rounds" %
              (name, statistics.median(figures), len(figures)))
    best_name = max(torch_figures,
                    key=lambda k: statistics.median(torch_figures[k]))
    best = statistics.median(torch_figures[best_name])
    umbra = statistics.median(umbra_figures)
    print("  median umbra %.0f images/s over %d rounds; load average now %s"
          % (umbra, len(umbra_figures), loadavg()), flush=True)
    # Each repetition's ratio of two runs made a minute apart: a drift of
    # the machine's speed over the whole comparison (seen at 30% on shared
    # VMs) cancels in it, not in the ratio of the medians.
    paired = [statistics.median(u) / statistics.median(t)
              for u, t in zip(umbra_reps, torch_reps[best_name])]
    paired_median = statistics.median(paired)
    print("  umbra / pytorch per rep: %s; median %.2fx" %
          (", ".join("%.2fx" % r for r in paired), paired_median), flush=True)
    return (net, best, best_name, umbra, paired_median)


def parse_ints(text):
    return [int(v) for v in text.split(",") if v]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (head -60 %s) for details." %
        os.path.relpath(__file__, REPO))
    parser.add_argument("--net", choices=sorted(NETS) + ["both"],
                        default="mlp")
    parser.add_argument("--rounds", type=int, default=3,
                        help="training rounds per run, each side")
    parser.add_argument("--reps", type=int, default=2,
                        help="interleaved repetitions (pytorch, umbra, ...)")
    parser.add_argument("--threads", type=parse_ints, default=[1, 2],
                        help="torch.set_num_threads values to try (and "
                        "OMP_NUM_THREADS), comma-separated")
    parser.add_argument("--blas_threads", type=parse_ints, default=[1, 2],
                        help="OPENBLAS_NUM_THREADS values to try")
    parser.add_argument("--interop", type=parse_ints, default=[1],
                        help="torch.set_num_interop_threads values to try")
    parser.add_argument("--tune_batches", type=int, default=0,
                        help="screen the settings on this many batches first "
                        "and compare only the best in full rounds; 0: all "
                        "settings in full rounds")
    parser.add_argument("--max_batches", type=int, default=0,
                        help=argparse.SUPPRESS)  # worker only
    parser.add_argument("--umbra_bin",
                        default=os.path.join(REPO, OPT_TRAIN_BINARY),
                        help="the trainer to time (default: the -c opt build, "
                        "whatever bazel-bin points at now)")
    parser.add_argument("--build", action="store_true",
                        help="bazel build -c opt //train first")
    parser.add_argument("--umbra_args", nargs="*", default=[],
                        help="extra key=value overrides for umbra "
                        "(e.g. nthread=2)")
    parser.add_argument("--worker", action="store_true",
                        help=argparse.SUPPRESS)
    parser.add_argument("--w_threads", type=int, default=1,
                        help=argparse.SUPPRESS)
    parser.add_argument("--w_interop", type=int, default=1,
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.build:
        subprocess.run(["bazel", "build", "-c", "opt", "//train"], cwd=REPO,
                       check=True)
    if not os.path.exists(args.umbra_bin):
        sys.exit("%s is missing: run bazel build -c opt //train (or --build)"
                 % args.umbra_bin)
    # A private copy, so that a rebuild of bazel-bin during the runs (the
    # machine and its Bazel server may be shared) cannot change the binary.
    tmp = tempfile.mkdtemp(prefix="umbra_bin_")
    binary = os.path.join(tmp, "train")
    shutil.copy2(args.umbra_bin, binary)
    try:
        nets = ["mlp", "lenet"] if args.net == "both" else [args.net]
        rows = [compare(args, net, binary) for net in nets]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print("%d rounds x %d reps each side, nproc %d, load average %s, "
          "OPENBLAS_CORETYPE %s (both sides)" %
          (args.rounds, args.reps, os.cpu_count(), loadavg(),
           os.environ.get("OPENBLAS_CORETYPE", "unset")))
    print("| net | batch | PyTorch best images/s (setting) | umbra images/s | "
          "umbra / PyTorch | median of the per-rep ratios |")
    print("| --- | --- | --- | --- | --- | --- |")
    for net, best, name, umbra, paired in rows:
        print("| %s | %d | %.0f (%s) | %.0f | %.2fx | %.2fx |" %
              (net, batch_size(net), best, name, umbra, umbra / best, paired))


if __name__ == "__main__":
    main()
