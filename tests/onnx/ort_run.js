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
  // NNT_ORT_CHUNK=R: run R rows (axis 0 of every input) at a time and concatenate the outputs,
  // so a CSR net's [nnz, batch] intermediates stay small.
  const chunk = parseInt(process.env.NNT_ORT_CHUNK || '0', 10);
  const rows = Object.values(feeds).length ? Object.values(feeds)[0].dims[0] : 0;
  const parts = [];
  for (let r0 = 0; r0 < rows || (r0 === 0 && parts.length === 0); r0 += chunk > 0 ? chunk : Math.max(rows, 1)) {
    const n = chunk > 0 ? Math.min(chunk, rows - r0) : rows;
    const sub = {};
    for (const [name, t] of Object.entries(feeds)) {
      const per = t.dims.slice(1).reduce((a, b) => a * b, 1);
      sub[name] = chunk > 0 ? new ort.Tensor(t.type, t.data.slice(r0 * per, (r0 + n) * per), [n, ...t.dims.slice(1)]) : t;
    }
    parts.push(await session.run(sub));
    if (chunk <= 0) break;
  }
  const meta = {};
  for (const name of Object.keys(parts[0])) {
    const t0 = parts[0][name];
    const bufs = parts.map((p) => Buffer.from(p[name].data.buffer, p[name].data.byteOffset, p[name].data.byteLength));
    fs.writeFileSync(path.join(dir, 'out_' + name + '.bin'), Buffer.concat(bufs));
    const dims = [...t0.dims];
    if (parts.length > 1) dims[0] = parts.reduce((a, p) => a + p[name].dims[0], 0);
    meta[name] = { dtype: t0.type, shape: dims };
  }
  fs.writeFileSync(path.join(dir, 'outputs.json'), JSON.stringify(meta));
}

main().catch((e) => { console.error('ort_run.js: ' + (e && e.message ? e.message : e)); process.exit(1); });
