import {
  CONTENT_HISTORY_LIMIT,
  TOOL_CALL_HISTORY,
  continueAfterLoop,
  createLoopState,
  disableLoopDetection,
  fnv1a64,
  loopRecoveryMessage,
  observeContent,
  observeModelTurn,
  observeToolCall,
  recordDetection,
  resetForNewPrompt,
  type LoopDetection,
  type LoopState,
  type Observation,
} from './detection';

type Call = [name: string, args: Record<string, unknown>];

/** Feeds calls in order; returns the 1-based index of the first call that detected, or undefined. */
function firstToolDetection(calls: Call[], start: LoopState = createLoopState()): { at?: number; seen: Observation } {
  let seen: Observation = { state: start };
  for (let i = 0; i < calls.length; i++) {
    seen = observeToolCall(seen.state, calls[i][0], calls[i][1]);
    if (seen.detection) return { at: i + 1, seen };
  }
  return { seen };
}

const read = (path: string): Call => ['read_file', { file_path: path }];
const cycle = (pattern: Call[], times: number): Call[] => Array.from({ length: times }, () => pattern).flat();

describe('tool-call loops (level 1)', () => {
  it('detects the 5th identical call, not the 4th', () => {
    expect(firstToolDetection(cycle([read('a.ts')], 4)).at).toBeUndefined();
    const { at, seen } = firstToolDetection(cycle([read('a.ts')], 5));
    expect(at).toBe(5);
    expect(seen.detection).toEqual({
      kind: 'tool_call_loop',
      detail: 'Repeated tool call: read_file with arguments {"file_path":"a.ts"}',
    });
  });

  it.each([2, 3, 4, 5])('detects a cycle of %i calls on its 5th repetition', (k) => {
    const pattern = Array.from({ length: k }, (_, i) => read(`f${i}.ts`));
    expect(firstToolDetection(cycle(pattern, 5).slice(0, 5 * k - 1)).at).toBeUndefined();
    const { at, seen } = firstToolDetection(cycle(pattern, 6));
    expect(at).toBe(5 * k);
    expect(seen.detection?.detail).toContain(`(the last ${k} calls, repeated 5 times)`);
  });

  it('does not detect calls whose arguments differ, nor a cycle of 6', () => {
    expect(firstToolDetection(Array.from({ length: 40 }, (_, i) => read(`f${i}.ts`))).at).toBeUndefined();
    const six = Array.from({ length: 6 }, (_, i) => read(`f${i}.ts`));
    expect(firstToolDetection(cycle(six, 8)).at).toBeUndefined();
    expect(firstToolDetection(cycle([read('a.ts'), ['read_file', { file_path: 'a.ts', offset: 1 }]], 3)).at).toBe(
      undefined,
    );
  });

  it('keeps the last 25 keys, so an old streak does not count and a new one does', () => {
    const calls = [
      ...cycle([read('a.ts')], 4),
      ...Array.from({ length: 30 }, (_, i) => read(`x${i}.ts`)),
      ...cycle([read('a.ts')], 5),
    ];
    const { at, seen } = firstToolDetection(calls);
    expect(at).toBe(4 + 30 + 5);
    expect(seen.state.toolKeys).toHaveLength(TOOL_CALL_HISTORY);
  });

  it('keeps its history across model turns of the prompt, and forgets it on a new prompt', () => {
    const four = firstToolDetection(cycle([read('a.ts')], 4)).seen.state;
    expect(firstToolDetection([read('a.ts')], four).at).toBe(1);
    expect(firstToolDetection([read('a.ts')], resetForNewPrompt(four)).at).toBeUndefined();
  });

  it('uses a stable 64-bit key', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('read_file:{}')).toBe(fnv1a64('read_file:{}'));
  });
});

const SENTENCE = 'I will now check the configuration file once more. ';

function chant(state: LoopState, text: string | string[]): Observation {
  return observeContent(state, text);
}

describe('content chanting (level 2)', () => {
  it('detects a 50-character sentence repeated 10 times close together', () => {
    expect(SENTENCE).toHaveLength(51);
    expect(chant(createLoopState(), SENTENCE.repeat(9)).detection).toBeUndefined();
    const seen = chant(createLoopState(), SENTENCE.repeat(12));
    expect(seen.detection?.kind).toBe('content_loop');
    expect(seen.detection?.detail).toMatch(/^Repeating content detected: ".*check the configuration.*\.\.\."$/);
  });

  it('detects chanting spread over streamed chunks and over model turns', () => {
    let state = createLoopState();
    for (let i = 0; i < 9; i++) state = chant(state, [SENTENCE]).state;
    expect(chant(state, [SENTENCE, SENTENCE]).detection?.kind).toBe('content_loop');
  });

  it('does not track text inside a code fence', () => {
    const fenced = '```\n' + (SENTENCE + '\n').repeat(20) + '```\n';
    expect(chant(createLoopState(), fenced).detection).toBeUndefined();
    const open = chant(createLoopState(), '```ts\n');
    expect(open.state.content.inCodeBlock).toBe(true);
    expect(chant(open.state, [SENTENCE.repeat(12)]).detection).toBeUndefined();
  });

  it.each([
    ['a list item', '- item\n'],
    ['a numbered item', '3. item\n'],
    ['a table row', '| a | b |\n'],
    ['a heading', '## Next\n'],
    ['a blockquote', '> quoted\n'],
    ['a divider', '=====\n'],
  ])('restarts tracking at %s', (_, marker) => {
    const seven = chant(createLoopState(), [SENTENCE.repeat(7)]).state;
    const reset = chant(seven, [marker]).state;
    expect(reset.content.text.length).toBeLessThan(20);
    expect(chant(reset, [SENTENCE.repeat(7)]).detection).toBeUndefined();
    expect(chant(seven, [SENTENCE.repeat(7)]).detection?.kind).toBe('content_loop');
  });

  it('restarts tracking at a tool call', () => {
    const seven = chant(createLoopState(), SENTENCE.repeat(7)).state;
    const afterCall = observeToolCall(seven, 'glob', { pattern: '*.ts' }).state;
    expect(afterCall.content.text).toBe('');
    expect(chant(afterCall, SENTENCE.repeat(7)).detection).toBeUndefined();
  });

  it('does not detect long varied text, and keeps at most 5000 characters', () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) => `Step ${i}: the value ${i * 7919} differs from ${i * 104729} because of entry ${i % 13}.\n`,
    );
    const seen = chant(createLoopState(), lines.join(''));
    expect(seen.detection).toBeUndefined();
    expect(seen.state.content.text.length).toBeLessThanOrEqual(CONTENT_HISTORY_LIMIT);
    expect(JSON.stringify(seen.state).length).toBeLessThan(CONTENT_HISTORY_LIMIT + 2000);
  });

  it('finds chanting after more than 5000 characters, the same whether chunks come in one call or many', () => {
    const varied = Array.from({ length: 200 }, (_, i) => `Line ${i} reports ${i * 7919} units. `);
    const chunks = [...varied, ...Array.from({ length: 12 }, () => SENTENCE)];
    expect(varied.join('').length).toBeGreaterThan(CONTENT_HISTORY_LIMIT);
    const once = chant(createLoopState(), chunks);
    let state = createLoopState();
    let detection: LoopDetection | undefined;
    for (const chunk of chunks) {
      const seen = chant(state, [chunk]);
      state = seen.state;
      if ((detection = seen.detection)) break;
    }
    expect(once.detection?.kind).toBe('content_loop');
    expect(detection).toEqual(once.detection);
    expect(state).toEqual(once.state);
  });

  it('does not take items sharing a prefix for a loop (too many distinct periods)', () => {
    const prefix = 'The next file to look at in this folder is called ';
    const text = Array.from({ length: 15 }, (_, i) => `${prefix}${String.fromCharCode(97 + i).repeat(i + 1)}. `).join(
      '',
    );
    expect(chant(createLoopState(), text).detection).toBeUndefined();
  });

  it('does not detect repeats that are far apart', () => {
    const filler = (i: number) =>
      ` Then the figures ${i * 31} and ${i * 97} were compared in detail, and the result was written down along ` +
      `with notes ${i}. `;
    const text = Array.from({ length: 12 }, (_, i) => SENTENCE + filler(i) + filler(i + 100) + filler(i + 200)).join(
      '',
    );
    expect(chant(createLoopState(), text).detection).toBeUndefined();
  });
});

describe('a model turn, detections and the tracker', () => {
  const detection: LoopDetection = { kind: 'tool_call_loop', detail: 'Repeated tool call: glob with arguments {}' };

  it('observes the text, then the calls, and stops at the first detection', () => {
    const four = firstToolDetection(cycle([read('a.ts')], 4)).seen.state;
    const seen = observeModelTurn(four, {
      text: 'Reading again.',
      functionCalls: [
        { name: 'read_file', args: { file_path: 'a.ts' } },
        { name: 'glob', args: {} },
      ],
    });
    expect(seen.detection?.kind).toBe('tool_call_loop');
    expect(seen.callIndex).toBe(0);
    expect(seen.state.toolKeys).toHaveLength(5);
    const chanting = observeModelTurn(createLoopState(), {
      text: SENTENCE.repeat(12),
      functionCalls: [{ name: 'glob', args: {} }],
    });
    expect(chanting).toMatchObject({ detection: { kind: 'content_loop' }, state: { toolKeys: [] } });
    expect(chanting.callIndex).toBeUndefined();
  });

  it('recovers on the first detection and stops on the second', () => {
    const first = recordDetection(createLoopState(), detection);
    expect(first.action).toBe('recover');
    expect(first.action === 'recover' && first.message).toMatch(
      /^System: Potential loop detected\. Details: Repeated tool call: glob with arguments \{\}\.\n/,
    );
    expect(recordDetection(first.state, detection).action).toBe('stop');
  });

  it('re-detects the same streak right after a recovery, as Gemini CLI does', () => {
    const fifth = firstToolDetection(cycle([read('a.ts')], 5)).seen;
    const recovered = recordDetection(fifth.state, fifth.detection!).state;
    expect(observeToolCall(recovered, 'read_file', { file_path: 'a.ts' }).detection).toBeDefined();
    const chanting = chant(createLoopState(), SENTENCE.repeat(12));
    expect(
      chant(recordDetection(chanting.state, chanting.detection!).state, 'Sorry, I will stop that now.').detection?.kind,
    ).toBe('content_loop');
  });

  it('falls back to a default detail', () => {
    expect(loopRecoveryMessage('  ')).toMatch(
      /^System: Potential loop detected\. Details: Repetitive patterns identified\./,
    );
  });

  it('ignores everything once disabled, and lets a person continue with a fresh window', () => {
    const off = disableLoopDetection(createLoopState());
    expect(firstToolDetection(cycle([read('a.ts')], 10), off).at).toBeUndefined();
    expect(chant(off, SENTENCE.repeat(20)).detection).toBeUndefined();
    expect(resetForNewPrompt(off).disabled).toBe(true);
    const stopped = recordDetection(recordDetection(createLoopState(), detection).state, detection).state;
    const resumed = continueAfterLoop(stopped);
    expect(resumed).toMatchObject({ detections: 0, disabled: false, toolKeys: [] });
  });

  it('stays small and JSON-safe after many calls and much text', () => {
    let state = createLoopState();
    for (let i = 0; i < 300; i++) {
      state = observeModelTurn(state, {
        text: `Turn ${i}: ${'x'.repeat(i % 97)} and more words ${i * 13}.\n`.repeat(3),
        functionCalls: [{ name: 'grep_search', args: { pattern: `p${i}` } }],
      }).state;
      state = observeContent(
        state,
        Array.from({ length: 40 }, (_, j) => `Afterthought ${i}.${j} weighs ${i * j * 7 + j}. `).join(''),
      ).state;
    }
    expect(state.detections).toBe(0);
    expect(state.toolKeys).toHaveLength(TOOL_CALL_HISTORY);
    expect(state.content.text.length).toBeLessThanOrEqual(CONTENT_HISTORY_LIMIT);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
