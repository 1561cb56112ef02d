/**
 * A tiny pattern language (one-character tests, sequences, alternatives, repetition) matched by
 * simulating its automaton over all states at once, so a match takes time proportional to
 * pattern length times text length whatever the pattern. A backtracking RegExp compiled from a
 * glob such as `*a*a*a*a*a*a*a*a*a*a*c` needs exponential time on a name of forty `a`s; patterns
 * come from the model and from workspace files, so that would let them freeze the worker. Pure code.
 */

export type Pattern =
  | { kind: 'char'; test: (c: string) => boolean }
  | { kind: 'seq'; items: Pattern[] }
  | { kind: 'alt'; options: Pattern[] }
  | { kind: 'star'; item: Pattern };

export const seq = (items: Pattern[]): Pattern => ({ kind: 'seq', items });
export const alt = (options: Pattern[]): Pattern => ({ kind: 'alt', options });
export const star = (item: Pattern): Pattern => ({ kind: 'star', item });
export const char = (test: (c: string) => boolean): Pattern => ({ kind: 'char', test });

/** A state either consumes one character that passes `test` and goes on to `next`, or is a free move. */
interface State {
  test?: (c: string) => boolean;
  next: number[];
}

/** Builds the automaton for `pattern`; returns a predicate that tests whole strings. */
export function compilePattern(pattern: Pattern): (text: string) => boolean {
  const states: State[] = [];
  const accept = newState(states);
  const start = build(pattern, accept, states);
  return (text) => run(states, start, accept, text);
}

function newState(states: State[], test?: (c: string) => boolean, next: number[] = []): number {
  states.push({ test, next });
  return states.length - 1;
}

/** Adds the states for `p` in front of state `then`; returns the entry state. */
function build(p: Pattern, then: number, states: State[]): number {
  switch (p.kind) {
    case 'char':
      return newState(states, p.test, [then]);
    case 'seq':
      return p.items.reduceRight((next, item) => build(item, next, states), then);
    case 'alt':
      return newState(
        states,
        undefined,
        p.options.map((option) => build(option, then, states)),
      );
    case 'star': {
      const loop = newState(states, undefined, [then]);
      states[loop].next.unshift(build(p.item, loop, states));
      return loop;
    }
  }
}

function run(states: State[], start: number, accept: number, text: string): boolean {
  let current = closure(states, [start]);
  for (const c of text) {
    const moved: number[] = [];
    for (const s of current) {
      if (states[s].test?.(c)) moved.push(...states[s].next);
    }
    if (moved.length === 0) return false;
    current = closure(states, moved);
  }
  return current.includes(accept);
}

/** Every state reachable from `from` through free moves, each once; only consuming and accepting states are kept. */
function closure(states: State[], from: number[]): number[] {
  const seen = new Set<number>();
  const stack = [...from];
  const out: number[] = [];
  while (stack.length > 0) {
    const s = stack.pop() as number;
    if (seen.has(s)) continue;
    seen.add(s);
    if (states[s].test !== undefined || states[s].next.length === 0) out.push(s);
    else stack.push(...states[s].next);
  }
  return out;
}
