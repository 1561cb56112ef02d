import { aggregateOutputs } from './aggregate';
import { readHookOutput } from './output';
import { planHooks } from './plan';
import type { HooksConfig } from './types';

describe('readHookOutput (Gemini CLI exit codes)', () => {
  test('exit 0 with JSON is the hook output; a JSON string holding JSON is parsed twice', () => {
    expect(readHookOutput(0, '{"decision":"deny","reason":"no"}', '')).toEqual({
      output: { decision: 'deny', reason: 'no' },
    });
    expect(readHookOutput(0, JSON.stringify('{"continue":false}'), '')).toEqual({ output: { continue: false } });
  });
  test('exit 0 with plain text is an allow with that text as system message; empty output is nothing', () => {
    expect(readHookOutput(0, 'all good\n', '')).toEqual({ output: { decision: 'allow', systemMessage: 'all good' } });
    expect(readHookOutput(0, '', '')).toEqual({});
  });
  test('exit 2 blocks with stderr as the reason', () => {
    expect(readHookOutput(2, '', 'not on main\n')).toEqual({ output: { decision: 'deny', reason: 'not on main' } });
  });
  test('any other non-zero exit is a warning and no output', () => {
    expect(readHookOutput(1, '{"decision":"deny"}', 'oops')).toEqual({ warning: 'exited with code 1: oops' });
    expect(readHookOutput(127, '', 'bash: nope: command not found')).toEqual({
      warning: 'exited with code 127: bash: nope: command not found',
    });
  });
  test('JSON of the wrong shape is a warning, not a decision', () => {
    const read = readHookOutput(0, '{"decision":"maybe"}', '');
    expect(read.output).toBeUndefined();
    expect(read.warning).toMatch(/decision/);
  });
});

describe('aggregateOutputs', () => {
  test('deciding events: any stop stops, block beats ask, texts join, clearContext sticks', () => {
    const out = aggregateOutputs('AfterAgent', [
      { decision: 'ask', reason: 'a', hookSpecificOutput: { additionalContext: 'one', clearContext: true } },
      { decision: 'block', reason: 'b', systemMessage: 'm', hookSpecificOutput: { additionalContext: 'two' } },
      { continue: false, stopReason: 'enough' },
    ]);
    expect(out).toMatchObject({
      stop: true,
      blocked: true,
      decision: 'block',
      reason: 'enough',
      systemMessage: 'm',
      additionalContext: 'one\ntwo',
      clearContext: true,
    });
  });
  test('no outputs allow', () => {
    expect(aggregateOutputs('BeforeTool', [])).toEqual({ stop: false, blocked: false, decision: 'allow' });
  });
  test('BeforeTool merges tool inputs in order', () => {
    const out = aggregateOutputs('BeforeTool', [
      { hookSpecificOutput: { tool_input: { a: 1, b: 1 } } },
      { hookSpecificOutput: { tool_input: { b: 2 } } },
    ]);
    expect(out.toolInput).toEqual({ a: 1, b: 2 });
  });
  test('BeforeToolSelection: NONE wins, then ANY; names are the sorted union', () => {
    const cfg = (mode: 'AUTO' | 'ANY' | 'NONE', names?: string[]) => ({
      hookSpecificOutput: { toolConfig: { mode, allowedFunctionNames: names } },
    });
    expect(aggregateOutputs('BeforeToolSelection', [cfg('AUTO', ['b']), cfg('ANY', ['a', 'b'])]).toolConfig).toEqual({
      mode: 'ANY',
      allowedFunctionNames: ['a', 'b'],
    });
    expect(aggregateOutputs('BeforeToolSelection', [cfg('ANY', ['a']), cfg('NONE')]).toolConfig).toEqual({
      mode: 'NONE',
      allowedFunctionNames: [],
    });
  });
  test('model events: later outputs override earlier fields', () => {
    const out = aggregateOutputs('AfterModel', [
      { hookSpecificOutput: { llm_response: { text: 'x' } } },
      { hookSpecificOutput: { llm_response: { text: 'y' } } },
    ]);
    expect(out.llmResponse).toEqual({ text: 'y' });
  });
});

describe('planHooks', () => {
  const config: HooksConfig = {
    BeforeTool: [
      { matcher: 'write_.*|replace', hooks: [{ type: 'command', command: 'a' }] },
      { matcher: '[bad', hooks: [{ type: 'command', command: 'b' }] },
      { hooks: [{ type: 'command', command: 'a' }] },
    ],
    PreCompress: [{ matcher: 'manual', sequential: true, hooks: [{ type: 'command', command: 'c' }] }],
  };
  test('tool matchers are regular expressions (an invalid one matches exactly); identical hooks run once', () => {
    expect(planHooks(config, 'BeforeTool', 'write_file')).toEqual({
      hooks: [{ type: 'command', command: 'a' }],
      sequential: false,
    });
    expect(planHooks(config, 'BeforeTool', '[bad')?.hooks.map((h) => h.command)).toEqual(['b', 'a']);
  });
  test('lifecycle matchers are exact; nothing configured means no plan', () => {
    expect(planHooks(config, 'PreCompress', 'auto')).toBeUndefined();
    expect(planHooks(config, 'PreCompress', 'manual')?.sequential).toBe(true);
    expect(planHooks(config, 'AfterAgent')).toBeUndefined();
    expect(planHooks(undefined, 'BeforeAgent')).toBeUndefined();
  });
});
