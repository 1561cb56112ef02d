'use strict';
const { TestEnvironment } = require('jest-environment-node');

const UNDICI_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * jest's node environment runs each test file in its own global object, but Node keeps Undici's
 * global dispatcher (behind fetch) on the real one. @google/genai 2.x looks the dispatcher up on
 * `globalThis` and fails with "Undici globalDispatcher is not available" without it, so the real
 * one is shared with the test's global. Production code runs outside jest and needs nothing.
 */
class AgentTestEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    new Headers();
    if (globalThis[UNDICI_DISPATCHER]) this.global[UNDICI_DISPATCHER] = globalThis[UNDICI_DISPATCHER];
  }
}

module.exports = AgentTestEnvironment;
