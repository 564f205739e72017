#!/usr/bin/env bash
# Runs export_examples_test.py with Debian's python3 (python3-onnx, NumPy)
# and ONNX Runtime from @onnxruntime_node.
set -euo pipefail
export NODE_PATH="${TEST_SRCDIR}/onnxruntime_node/node_modules"
exec /usr/bin/python3 "$(dirname "$0")/export_examples_test.py" "$@"
