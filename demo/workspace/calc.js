'use strict';

/** Adds two numbers. */
function add(a, b) {
  return a - b;
}

module.exports = { add };
