import { assembleTurn, parseThought, type ChunkPart, type StreamChunk } from './assemble-turn';

const chunk = (
  parts: ChunkPart[],
  extra: { finishReason?: string; usageMetadata?: StreamChunk['usageMetadata'] } = {},
): StreamChunk => ({
  candidates: [{ content: { parts }, ...(extra.finishReason ? { finishReason: extra.finishReason } : {}) }],
  ...(extra.usageMetadata ? { usageMetadata: extra.usageMetadata } : {}),
});

describe('assembleTurn', () => {
  it('merges text split across chunks into one history part', () => {
    const turn = assembleTurn([chunk([{ text: 'Hel' }]), chunk([{ text: 'lo, ' }, { text: 'world' }])], 1);
    expect(turn.text).toBe('Hello, world');
    expect(turn.historyParts).toEqual([{ text: 'Hello, world' }]);
  });

  it('keeps thoughts out of history and parses them', () => {
    const turn = assembleTurn(
      [chunk([{ text: '**Planning** I will read the file.', thought: true }]), chunk([{ text: 'Done.' }])],
      1,
    );
    expect(turn.thoughts).toEqual([{ subject: 'Planning', description: 'I will read the file.' }]);
    expect(turn.historyParts).toEqual([{ text: 'Done.' }]);
    expect(turn.text).toBe('Done.');
  });

  it('gives calls without ids call_<turn>_<n> and keeps the ids the model gave', () => {
    const turn = assembleTurn(
      [
        chunk([{ functionCall: { name: 'read_file', args: { file_path: 'a' } } }]),
        chunk([{ functionCall: { id: 'model-id', name: 'glob', args: { pattern: '*' } } }]),
        chunk([{ functionCall: { name: 'list_directory', args: { dir_path: '.' } } }]),
      ],
      7,
    );
    expect(turn.functionCalls).toEqual([
      { id: 'call_7_0', name: 'read_file', args: { file_path: 'a' } },
      { id: 'model-id', name: 'glob', args: { pattern: '*' } },
      { id: 'call_7_2', name: 'list_directory', args: { dir_path: '.' } },
    ]);
    expect(turn.historyParts.map((p) => p.functionCall?.id)).toEqual(['call_7_0', 'model-id', 'call_7_2']);
  });

  it('cuts a name longer than any tool name and replaces an overlong id, in the call and in history', () => {
    const name = 'f'.repeat(2100);
    const turn = assembleTurn([chunk([{ functionCall: { id: 'i'.repeat(3000), name, args: {} } }])], 2);
    const call = turn.functionCalls[0];
    expect(call.name).toBe(`${'f'.repeat(64)}...`);
    expect(call.id).toBe('call_2_0');
    expect(turn.historyParts[0].functionCall).toEqual({ id: 'call_2_0', name: call.name, args: {} });
  });

  it('preserves the thoughtSignature of a function-call part in history', () => {
    const turn = assembleTurn(
      [chunk([{ functionCall: { name: 'glob', args: { pattern: '*.ts' } }, thoughtSignature: 'sig-abc' }])],
      2,
    );
    expect(turn.historyParts).toEqual([
      { functionCall: { id: 'call_2_0', name: 'glob', args: { pattern: '*.ts' } }, thoughtSignature: 'sig-abc' },
    ]);
  });

  it('takes usage from the last chunk that reports it', () => {
    const turn = assembleTurn(
      [
        chunk([{ text: 'a' }], { usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } }),
        chunk([{ text: 'b' }]),
        chunk([], {
          usageMetadata: {
            promptTokenCount: 10,
            candidatesTokenCount: 5,
            cachedContentTokenCount: 3,
            thoughtsTokenCount: 2,
            totalTokenCount: 17,
          },
        }),
        chunk([{ text: 'c' }]),
      ],
      1,
    );
    expect(turn.usage).toEqual({ input: 10, output: 5, cached: 3, thoughts: 2, total: 17 });
  });

  it('takes the finish reason from the last chunk that has one', () => {
    const turn = assembleTurn(
      [
        chunk([{ text: 'a' }], { finishReason: 'MAX_TOKENS' }),
        chunk([{ text: 'b' }], { finishReason: 'STOP' }),
        chunk([{ text: 'c' }]),
      ],
      1,
    );
    expect(turn.finishReason).toBe('STOP');
    expect(assembleTurn([chunk([{ text: 'a' }])], 1).finishReason).toBeUndefined();
  });

  it('drops empty text parts', () => {
    const turn = assembleTurn(
      [chunk([{ text: '' }]), chunk([{ functionCall: { name: 'glob', args: {} } }, { text: '' }])],
      1,
    );
    expect(turn.historyParts).toEqual([{ functionCall: { id: 'call_1_0', name: 'glob', args: {} } }]);
    expect(turn.text).toBe('');
  });

  it('starts with zero usage and no content for an empty stream', () => {
    expect(assembleTurn([], 1)).toEqual({
      text: '',
      thoughts: [],
      functionCalls: [],
      finishReason: undefined,
      usage: { input: 0, output: 0, cached: 0, thoughts: 0, total: 0 },
      historyParts: [],
    });
  });
});

describe('parseThought', () => {
  it('takes the first bold span as the subject and the rest as the description', () => {
    expect(parseThought('**Reading files** Looking at the config first.')).toEqual({
      subject: 'Reading files',
      description: 'Looking at the config first.',
    });
  });

  it('has an empty subject without a bold span', () => {
    expect(parseThought('  just thinking  ')).toEqual({ subject: '', description: 'just thinking' });
  });

  it('handles multiline thoughts and a subject that spans lines', () => {
    expect(parseThought('**Plan\nsteps**\nFirst read.\nThen write.')).toEqual({
      subject: 'Plan\nsteps',
      description: 'First read.\nThen write.',
    });
    expect(parseThought('Intro\n**Subject**\nbody')).toEqual({ subject: 'Subject', description: 'Intro\n\nbody' });
  });
});
