#!/usr/bin/env node
'use strict';
const first = process.argv[2];
if (process.argv.length === 3 && ['--version', '-v', '-V'].includes(first)) {
  // Answered before the CLI's modules load: a version check costs Node's own start only.
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // `run` goes to the spare process a worker keeps loaded, when there is one (bin/spare-client.js).
  // The package builds itself on `npm ci` (the `prepare` script), so the compiled CLI is always here.
  require('./spare-client.js').runCommand(process.argv, () =>
    // A cold `run` starts its embedded server first, to start up while the CLI's modules load (src/cli/early-start.ts).
    require('../dist/cli/early-start.js')
      .startEarly(process.argv)
      .then(() => require('../dist/cli/main.js').main(process.argv)),
  );
}
