'use strict';
// Bundles the workflow code once at build time so that workers start without running webpack
// (1-3 s per bundle on two cores). Workers fall back to bundling from source when this file is missing.
const path = require('node:path');
const fs = require('node:fs');
const { bundleWorkflowCode } = require('@temporalio/worker');

async function main() {
  const root = path.resolve(__dirname, '..');
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(root, 'dist', 'workflows', 'index.js'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
  });
  fs.writeFileSync(path.join(root, 'dist', 'workflow-bundle.js'), code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
