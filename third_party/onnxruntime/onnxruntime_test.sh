#!/usr/bin/env bash
# A Gemm model written by Debian's python3-onnx, run by ONNX Runtime through
# run_onnx.js, checked against NumPy on fresh random values.
set -euo pipefail
runfiles="${TEST_SRCDIR}/${TEST_WORKSPACE}"
export NODE_PATH="${TEST_SRCDIR}/onnxruntime_node/node_modules"
work="${TEST_TMPDIR}/onnxruntime_test"
mkdir -p "$work"
cd "$work"

/usr/bin/python3 - <<'PY'
import json
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

rng = np.random.default_rng()
x = rng.standard_normal((5, 4)).astype(np.float32)
w = rng.standard_normal((3, 4)).astype(np.float32)
b = rng.standard_normal(3).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)], "gemm",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
     "gemm.onnx")
x.tofile("x.f32")
np.save("expected.npy", x @ w.T + b)
json.dump({"model": "gemm.onnx", "inputs": {"x": {"shape": [5, 4], "file": "x.f32"}},
           "output": "y.f32"}, open("request.json", "w"))
PY

node "${runfiles}/third_party/onnxruntime/run_onnx.js" request.json

/usr/bin/python3 - <<'PY'
import json
import numpy as np
expected = np.load("expected.npy")
shape = json.load(open("y.f32.shape.json"))
got = np.fromfile("y.f32", dtype=np.float32).reshape(shape)
assert list(got.shape) == [5, 3], got.shape
error = np.abs(got - expected).max()
assert error < 1e-5, f"ONNX Runtime's Gemm differs from NumPy's by {error}"
print(f"ONNX Runtime matches NumPy to {error:.2e}")
PY
