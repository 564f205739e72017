"""Compiles CUDA C++ (.cu) with the toolkit's nvcc and links it like any cc_library.

    cuda_library(
        name = "kernels_gpu",
        srcs = ["kernels.cu"],
        deps = ["//tensor:tensor"],
    )

A cuda_library builds only under --config=cuda; otherwise it is incompatible and
`bazel build //...` skips it. With --config=cuda but no toolkit, analysis stops with a
message that says what is missing.
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load("@local_cuda//:defs.bzl", "CUDA_FOUND", "CUDA_PATH", "NVCC")

CudaArchsInfo = provider(doc = "The GPU architectures to compile for.", fields = ["archs"])

def _string_list_flag_impl(ctx):
    return [CudaArchsInfo(archs = ctx.build_setting_value)]

string_list_flag = rule(
    implementation = _string_list_flag_impl,
    build_setting = config.string_list(flag = True),
    doc = "The command-line list of CUDA architectures, e.g. sm_90,compute_90.",
)

def _gencode_flags(archs):
    flags = []
    for arch in archs:
        kind, _, number = arch.partition("_")
        if kind not in ("sm", "compute") or not number.isdigit():
            fail("cuda_archs entry '{}' is not sm_NN or compute_NN (e.g. sm_90, compute_90)".format(arch))
        flags.append("-gencode=arch=compute_{n},code={kind}_{n}".format(n = number, kind = kind))
    return flags

_OPTIMIZATION_FLAGS = {
    "dbg": ["-g", "-O0"],
    "fastbuild": ["-O2"],
    "opt": ["-O3", "-DNDEBUG"],
}

def _nvcc_objects_impl(ctx):
    if not CUDA_FOUND:
        fail(("--config=cuda needs a CUDA toolkit, and there is no nvcc at {}/bin/nvcc. " +
              "Install CUDA 13 there, point CUDA_PATH at another toolkit, or build " +
              "without --config=cuda.").format(CUDA_PATH))
    cc_toolchain = find_cpp_toolchain(ctx)
    context = cc_common.merge_cc_infos(
        cc_infos = [dep[CcInfo] for dep in ctx.attr.deps],
    ).compilation_context
    root = ctx.label.workspace_root or "."
    common = ctx.actions.args()
    common.add_all(["-ccbin", cc_toolchain.compiler_executable])
    common.add_all(["-std=c++17", "-Xcompiler", "-fPIC", "--expt-relaxed-constexpr", "--extended-lambda"])
    common.add_all(_OPTIMIZATION_FLAGS[ctx.var["COMPILATION_MODE"]])
    common.add_all(_gencode_flags(ctx.attr._archs[CudaArchsInfo].archs))
    common.add_all([root, ctx.bin_dir.path + "/" + root], format_each = "-I%s")
    common.add_all(depset(transitive = [context.includes, context.quote_includes]), format_each = "-I%s")
    common.add_all(context.system_includes, before_each = "-isystem")
    common.add_all(context.defines, format_each = "-D%s")
    common.add_all(ctx.attr.copts)
    inputs = depset(ctx.files.hdrs, transitive = [context.headers])
    objects = []
    for src in ctx.files.srcs:
        obj = ctx.actions.declare_file("_nvcc/{}/{}.pic.o".format(ctx.label.name, src.basename))
        ctx.actions.run(
            executable = ctx.executable._private_tmp,
            arguments = [NVCC, common, ctx.actions.args().add_all(["-c", src, "-o", obj])],
            inputs = depset([src], transitive = [inputs]),
            outputs = [obj],
            mnemonic = "NvccCompile",
            progress_message = "Compiling CUDA {}".format(src.short_path),
            use_default_shell_env = True,
        )
        objects.append(obj)
    return [DefaultInfo(files = depset(objects))]

nvcc_objects = rule(
    implementation = _nvcc_objects_impl,
    doc = "Compiles each .cu source into a position-independent object with nvcc.",
    attrs = {
        "srcs": attr.label_list(allow_files = [".cu"], mandatory = True),
        "hdrs": attr.label_list(allow_files = [".h", ".cuh"]),
        "deps": attr.label_list(providers = [CcInfo]),
        "copts": attr.string_list(doc = "Extra nvcc flags."),
        "_archs": attr.label(default = Label("//third_party/cuda:cuda_archs")),
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
        # Gives each nvcc a temporary directory of its own (see the script).
        "_private_tmp": attr.label(
            default = Label("//third_party/cuda:nvcc_private_tmp"),
            executable = True,
            cfg = "exec",
        ),
    },
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    fragments = ["cpp"],
)

def gpu_only():
    """target_compatible_with for targets that exist only under --config=cuda."""
    return select({
        str(Label("//third_party/cuda:cuda_enabled")): [],
        "//conditions:default": ["@platforms//:incompatible"],
    })

def cuda_library(name, srcs, hdrs = [], deps = [], copts = [], alwayslink = False, visibility = None, **kwargs):
    """A cc_library whose .cu sources nvcc compiles; GPU builds only.

    Args:
      name: the library's name.
      srcs: .cu files (compiled by nvcc) and any .cc/.h files (compiled by the C++ toolchain).
      hdrs: public headers.
      deps: cc_library dependencies; their headers and defines reach nvcc too.
      copts: extra nvcc flags.
      alwayslink: as for cc_library (set it when the objects register themselves).
      visibility: as for any target.
      **kwargs: passed to the cc_library (tags, testonly, ...).
    """
    cu_srcs = [src for src in srcs if src.endswith(".cu")]
    other_srcs = [src for src in srcs if not src.endswith(".cu")]
    nvcc_objects(
        name = name + "_nvcc",
        srcs = cu_srcs,
        hdrs = hdrs + [src for src in other_srcs if src.endswith(".h") or src.endswith(".cuh")],
        deps = deps + [Label("@local_cuda//:cuda_headers")],
        copts = copts,
        target_compatible_with = gpu_only(),
        visibility = ["//visibility:private"],
        testonly = kwargs.get("testonly", False),
    )
    native.cc_library(
        name = name,
        srcs = other_srcs + [":" + name + "_nvcc"],
        hdrs = hdrs,
        deps = deps + [Label("@local_cuda//:cudart")],
        alwayslink = alwayslink,
        target_compatible_with = gpu_only(),
        visibility = visibility,
        **kwargs
    )
