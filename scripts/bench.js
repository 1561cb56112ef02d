'use strict';
// `npm run bench [-- --quick | --only=… | --variants | --out=FILE]`: builds the app (dist/ and the
// workflow bundle the workers load), compiles bench/ to dist-bench/, and runs it. See bench/main.ts.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const run = (file, args) => execFileSync(file, args, { cwd: root, stdio: 'inherit' });

try {
  const tsc = require.resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', 'tsconfig.build.json']);
  run(process.execPath, [path.join(root, 'scripts', 'bundle-workflows.js')]);
  run(process.execPath, [tsc, '-p', 'tsconfig.bench.json']);
  run(process.execPath, [path.join(root, 'dist-bench', 'bench', 'main.js'), ...process.argv.slice(2)]);
} catch (err) {
  process.exit(typeof err.status === 'number' ? err.status : 1);
}
