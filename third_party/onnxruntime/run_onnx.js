// Runs an ONNX model in ONNX Runtime (onnxruntime-node) on float32 inputs
// read from raw files, and writes its first output the same way.
//
//   NODE_PATH=<.../node_modules> node run_onnx.js REQUEST.json
//
// REQUEST.json:
//   {"model": "m.onnx",
//    "inputs": {"in": {"shape": [100, 1, 28, 28], "file": "in.f32"}},
//    "output": "out.f32"}
// Each input file holds the tensor's float32 values, little-endian, in
// row-major order. The output's values go to "output" and its shape, as a
// JSON list, to "output" + ".shape.json". Exits 1 with a message on any
// failure (a model ORT refuses included).
"use strict";
const fs = require("fs");
const ort = require("onnxruntime-node");

async function main(requestPath) {
  const request = JSON.parse(fs.readFileSync(requestPath, "utf8"));
  // One thread, so results do not depend on the machine's load.
  const session = await ort.InferenceSession.create(request.model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const feeds = {};
  for (const [name, input] of Object.entries(request.inputs)) {
    const bytes = fs.readFileSync(input.file);
    const expected = input.shape.reduce((a, b) => a * b, 1);
    if (bytes.length !== expected * 4) {
      throw new Error(`input '${name}': ${input.file} holds ${bytes.length} ` +
                      `bytes, not ${expected} float32 values`);
    }
    const values = new Float32Array(expected);
    Buffer.from(values.buffer).set(bytes);
    feeds[name] = new ort.Tensor("float32", values, input.shape);
  }
  const results = await session.run(feeds);
  const output = results[session.outputNames[0]];
  fs.writeFileSync(request.output, Buffer.from(output.data.buffer,
                                               output.data.byteOffset,
                                               output.data.byteLength));
  fs.writeFileSync(request.output + ".shape.json", JSON.stringify(output.dims));
}

main(process.argv[2]).catch((error) => {
  console.error(`run_onnx: ${error.message || error}`);
  process.exit(1);
});
