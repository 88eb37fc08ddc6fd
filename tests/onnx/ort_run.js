// ort_run.js MODEL.onnx DIR — runs MODEL in onnxruntime-node (an ONNX runtime that is not nnt) on
// the inputs DIR/inputs.json names ({"name": {"dtype": "float64"|"float32", "shape": [...]}}, the
// data in DIR/<name>.bin, little-endian) and writes every output as DIR/out_<name>.bin with
// DIR/outputs.json giving dtype and shape. Used by tests/onnx/ort.py.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const types = { float64: Float64Array, float32: Float32Array, int64: BigInt64Array };

async function main() {
  const [model, dir] = process.argv.slice(2);
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json'), 'utf8'));
  const feeds = {};
  for (const [name, s] of Object.entries(spec)) {
    const buf = fs.readFileSync(path.join(dir, name + '.bin'));
    const T = types[s.dtype];
    const data = new T(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    feeds[name] = new ort.Tensor(s.dtype, data, s.shape);
  }
  const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' };
  const session = await ort.InferenceSession.create(model, opts);
  const out = await session.run(feeds);
  const meta = {};
  for (const [name, t] of Object.entries(out)) {
    fs.writeFileSync(path.join(dir, 'out_' + name + '.bin'), Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    meta[name] = { dtype: t.type, shape: t.dims };
  }
  fs.writeFileSync(path.join(dir, 'outputs.json'), JSON.stringify(meta));
}

main().catch((e) => { console.error('ort_run.js: ' + (e && e.message ? e.message : e)); process.exit(1); });
