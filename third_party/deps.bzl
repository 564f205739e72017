"""umbra_dependencies(): every external repository umbra's BUILD files use.

Call it from a WORKSPACE (umbra's own, or one that depends on umbra):

    load("@umbra//third_party:deps.bzl", "umbra_dependencies")
    umbra_dependencies()

Each repository is declared only if the WORKSPACE has not declared it already, so a
consumer can supply its own (declare it before the first load()). All resolve on this
machine: Debian packages from tools/setup.sh, CUDA at $CUDA_PATH or /usr/local/cuda.
"""

load(
    ":repositories.bzl",
    "absl_repository",
    "cuda_repository",
    "system_library",
)
load("//third_party/absl:targets.bzl", "ABSL_TARGETS")
load("//third_party/onnxruntime:version.bzl", "ONNXRUNTIME_NODE_DIR", "ONNXRUNTIME_NODE_VERSION")

def _maybe(rule, name, **kwargs):
    if not native.existing_rule(name):
        rule(name = name, **kwargs)

def _stub(name, files):
    _maybe(
        system_library,
        name = name,
        build_file = Label("//third_party/stubs:BUILD.stub_package"),
        files = files,
        package = "bazel-bootstrap",
    )

def umbra_dependencies():
    """Declares the stub, system-library and CUDA repositories umbra builds against."""
    _stub("rules_cc", {
        Label("//third_party/stubs:rules_cc_defs.bzl"): "cc/defs.bzl",
        Label("//third_party/stubs:BUILD.bazel"): "cc/BUILD.bazel",
    })
    _stub("rules_java", {
        Label("//third_party/stubs:rules_java_defs.bzl"): "java/defs.bzl",
        Label("//third_party/stubs:BUILD.bazel"): "java/BUILD.bazel",
    })
    _maybe(
        system_library,
        name = "remote_coverage_tools",
        build_file = Label("//third_party/stubs:BUILD.remote_coverage_tools"),
        package = "bazel-bootstrap",
    )
    _maybe(
        native.local_repository,
        name = "platforms",
        path = "/usr/share/bazel/tools/platforms",
    )
    _maybe(absl_repository, name = "com_google_absl", targets = ABSL_TARGETS)
    _maybe(
        system_library,
        name = "com_google_googletest",
        build_file = Label("//third_party/googletest:BUILD.system"),
        links = {"/usr/include/gmock/gmock.h": "gmock.h", "/usr/include/gtest/gtest.h": "gtest.h"},
        package = "libgtest-dev, libgmock-dev",
    )
    _maybe(
        system_library,
        name = "com_github_google_benchmark",
        build_file = Label("//third_party/benchmark:BUILD.system"),
        links = {"/usr/include/benchmark/benchmark.h": "benchmark.h"},
        package = "libbenchmark-dev",
    )
    _maybe(
        system_library,
        name = "com_google_protobuf",
        build_file = Label("//third_party/protobuf:BUILD.system"),
        links = {
            "/usr/bin/protoc": "protoc",
            "/usr/include/google/protobuf": "google/protobuf",
        },
        package = "libprotobuf-dev, protobuf-compiler",
    )
    _maybe(
        system_library,
        name = "openblas",
        build_file = Label("//third_party/openblas:BUILD.system"),
        links = {"/usr/include/x86_64-linux-gnu/openblas-pthread": "include"},
        package = "libopenblas-dev",
    )
    _maybe(
        system_library,
        name = "zlib",
        build_file = Label("//third_party/zlib:BUILD.system"),
        links = {"/usr/include/zlib.h": "zlib.h"},
        package = "zlib1g-dev",
    )
    _maybe(
        system_library,
        name = "libjpeg_turbo",
        build_file = Label("//third_party/libjpeg_turbo:BUILD.system"),
        links = {"/usr/include/turbojpeg.h": "turbojpeg.h"},
        package = "libturbojpeg0-dev",
    )
    _maybe(
        system_library,
        name = "libpng",
        build_file = Label("//third_party/libpng:BUILD.system"),
        links = {"/usr/include/png.h": "png.h"},
        package = "libpng-dev",
    )
    _maybe(
        system_library,
        name = "eigen",
        build_file = Label("//third_party/eigen:BUILD.system"),
        links = {"/usr/include/eigen3": "include"},
        package = "libeigen3-dev",
    )
    _maybe(
        system_library,
        name = "mpi",
        build_file = Label("//third_party/mpi:BUILD.system"),
        links = {"/usr/lib/x86_64-linux-gnu/openmpi/include": "include"},
        package = "libopenmpi-dev",
    )
    _maybe(
        system_library,
        name = "onnx",
        build_file = Label("//third_party/onnx:BUILD.system"),
        links = {"/usr/include/onnx/onnx.proto": "onnx/onnx.proto"},
        package = "libonnx-dev",
    )
    _maybe(
        system_library,
        name = "onnxruntime_node",
        build_file = Label("//third_party/onnxruntime:BUILD.system"),
        links = {ONNXRUNTIME_NODE_DIR + "/node_modules": "node_modules"},
        package = "onnxruntime-node " + ONNXRUNTIME_NODE_VERSION +
                  " (npm, installed by tools/setup.sh in " + ONNXRUNTIME_NODE_DIR + ")",
    )
    _maybe(
        cuda_repository,
        name = "local_cuda",
        build_template = Label("//third_party/cuda:BUILD.local_cuda.tpl"),
    )
