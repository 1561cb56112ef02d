#!/usr/bin/env node
'use strict';
// The package builds itself on `npm ci` (the `prepare` script), so the compiled CLI is always here.
require('../dist/cli/main.js').main(process.argv);
