"""umbra's project macros: every BUILD file calls these, so flags live in one place.

    load("//tools:build_defs.bzl", "umbra_cc_library", "umbra_cc_test")

    umbra_cc_library(name = "tensor", hdrs = ["tensor.h"], deps = [...])
    umbra_cc_test(name = "shape_test", srcs = ["shape_test.cc"], deps = [":tensor"])
    umbra_cc_test(name = "dot_gpu_test", srcs = [...], gpu = True)  # tag gpu, CUDA builds only
    umbra_benchmark(name = "dot_bench", srcs = ["dot_bench.cc"], deps = [":tensor"])
"""

load("//third_party/cuda:cuda.bzl", "cuda_library", "gpu_only")

# Warnings for umbra's own code; system headers are -isystem and stay quiet.
UMBRA_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-Wno-sign-compare",
]

def _gpu_attrs(gpu, tags):
    """Tags and compatibility for a target that needs a GPU (gpu = True) or not."""
    if not gpu:
        return {"tags": tags}
    return {"tags": tags + ["gpu"], "target_compatible_with": gpu_only()}

def umbra_cc_library(name, copts = [], gpu = False, tags = [], **kwargs):
    """A cc_library with umbra's warnings; gpu = True builds it only under --config=cuda."""
    native.cc_library(name = name, copts = UMBRA_COPTS + copts, **dict(kwargs, **_gpu_attrs(gpu, tags)))

def umbra_cc_binary(name, copts = [], gpu = False, tags = [], **kwargs):
    """A cc_binary with umbra's warnings."""
    native.cc_binary(name = name, copts = UMBRA_COPTS + copts, **dict(kwargs, **_gpu_attrs(gpu, tags)))

def umbra_cc_test(name, deps = [], copts = [], gpu = False, tags = [], **kwargs):
    """A GoogleTest test linked with gtest_main.

    gpu = True tags it `gpu` (skipped unless `bazel test --config=gpu`) and builds it
    only under --config=cuda.
    """
    native.cc_test(
        name = name,
        copts = UMBRA_COPTS + copts,
        deps = deps + [Label("@com_google_googletest//:gtest_main")],
        **dict(kwargs, **_gpu_attrs(gpu, tags))
    )

def umbra_cuda_library(name, copts = [], **kwargs):
    """CUDA C++ compiled by nvcc (see //third_party/cuda:cuda.bzl); GPU builds only."""
    cuda_library(name = name, copts = copts, **kwargs)

def umbra_benchmark(name, deps = [], copts = [], gpu = False, tags = [], **kwargs):
    """A Google Benchmark binary: tagged `benchmark` and `manual`, never run by `bazel test`.

    Run it with `bazel run -c opt //pkg:name`.
    """
    native.cc_binary(
        name = name,
        copts = UMBRA_COPTS + copts,
        deps = deps + [Label("@com_github_google_benchmark//:benchmark_main")],
        **dict(kwargs, **_gpu_attrs(gpu, tags + ["benchmark", "manual"]))
    )

def umbra_proto_library(name, srcs, deps = [], visibility = None):
    """`name` is the C++ library generated from `srcs`; `name + "_proto"` the proto_library."""
    native.proto_library(name = name + "_proto", srcs = srcs, deps = deps, visibility = visibility)
    native.cc_proto_library(name = name, deps = [":" + name + "_proto"], visibility = visibility)

def umbra_fuzzer(name, srcs, corpus, deps = [], copts = [], **kwargs):
    """A libFuzzer target (`LLVMFuzzerTestOneInput`) and its tests.

    `name` is the fuzzer: under `--config=fuzz` (clang, libFuzzer; see tools/fuzz.sh)
    libFuzzer's own main drives it; otherwise //tools/fuzz:replay_main runs it on the
    files named on its command line. `name + "_corpus_test"` replays every file of
    `corpus` in `bazel test //...`, so each input that once found a bug stays a test;
    under `--config=fuzz`, `name + "_smoke_test"` fuzzes it from `corpus` for 10 s.
    """
    libfuzzer = "//tools/fuzz:libfuzzer_enabled"
    replay_main = "//tools/fuzz:replay_main"
    corpus_files = ["$(rootpaths %s)" % target for target in corpus]
    native.cc_binary(
        name = name,
        testonly = True,
        srcs = srcs,
        copts = UMBRA_COPTS + copts,
        linkopts = select({libfuzzer: ["-fsanitize=fuzzer"], "//conditions:default": []}),
        deps = deps + select({libfuzzer: [], "//conditions:default": [replay_main]}),
        **kwargs
    )
    native.cc_test(
        name = name + "_corpus_test",
        size = "small",
        srcs = srcs,
        copts = UMBRA_COPTS + copts,
        args = corpus_files,
        data = corpus,
        deps = deps + [replay_main],
        target_compatible_with = select({
            libfuzzer: ["@platforms//:incompatible"],
            "//conditions:default": [],
        }),
        **kwargs
    )
    native.sh_test(
        name = name + "_smoke_test",
        size = "small",
        srcs = ["//tools/fuzz:smoke_test.sh"],
        args = ["$(rootpath :%s)" % name, "10"] + corpus_files,
        data = [":" + name] + corpus,
        target_compatible_with = select({
            libfuzzer: [],
            "//conditions:default": ["@platforms//:incompatible"],
        }),
    )
