'use strict';
// Bundles the workflow code once at build time so that workers start without running webpack
// (1-3 s per bundle on two cores). Workers fall back to bundling from source when this file is missing.
const path = require('node:path');
const fs = require('node:fs');
const { Buffer } = require('node:buffer');
const { bundleWorkflowCode } = require('@temporalio/worker');

const root = path.resolve(__dirname, '..');

// Two bundles: the plain one, and one that also holds the SDK's OpenTelemetry workflow interceptors, which
// a worker loads only when the OTEL_ variables turn tracing on (a prebuilt bundle cannot add modules later).
async function main() {
  await writeBundle('workflow-bundle.js', []);
  const { TRACED_BUNDLE, WORKFLOW_TRACING_MODULE } = require(path.join(root, 'dist', 'worker', 'tracing.js'));
  await writeBundle(TRACED_BUNDLE, [require.resolve(WORKFLOW_TRACING_MODULE)]);
}

async function writeBundle(name, workflowInterceptorModules) {
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(root, 'dist', 'workflows', 'index.js'),
    workflowInterceptorModules,
    // An undecodable signal payload becomes a value handlers refuse, not a failed workflow task.
    payloadConverterPath: path.join(root, 'dist', 'payload-converter.js'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
  });
  // The SDK inlines a 3+ MB source map that every Worker.create decodes, re-encodes and compiles with
  // the code (~0.3-0.5 s of a worker's start on two cores). The bundle keeps an empty map, which the
  // SDK requires; the real one goes next to it for reading a workflow stack trace by hand.
  const marker = '//# sourceMappingURL=data:application/json;base64,';
  const at = code.lastIndexOf('//# sourceMappingURL=data:');
  const data = code.indexOf('base64,', at);
  const file = path.join(root, 'dist', name);
  if (at < 0 || data < 0) return fs.writeFileSync(file, code);
  const realMap = Buffer.from(code.slice(data + 'base64,'.length).trim(), 'base64').toString('utf8');
  const emptyMap = { version: 3, file: name, sources: [], names: [], mappings: '' };
  const placeholder = Buffer.from(JSON.stringify(emptyMap)).toString('base64');
  fs.writeFileSync(`${file}.map`, realMap);
  fs.writeFileSync(file, `${code.slice(0, at)}${marker}${placeholder}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
