"""Which ONNX Runtime the export tests run, and where tools/setup.sh puts it.

tools/setup.sh reads both values from this file: `npm install --ignore-scripts
onnxruntime-node@VERSION` into DIR (the package's prebuilt Linux x64 library;
no install script runs, nothing else is downloaded).
"""

ONNXRUNTIME_NODE_VERSION = "1.30.0"
ONNXRUNTIME_NODE_DIR = "/usr/local/lib/umbra/onnxruntime-node"
