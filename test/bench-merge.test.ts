import { mergedHeadings, mergeSections } from '../bench/merge-sections';

const existing = [
  '# Benchmarks',
  '',
  'Intro.',
  '',
  '## durable-agent alone',
  '',
  '| a | b |',
  '',
  '## Workspace checkpoints',
  '',
  'old table',
  '',
  'hand-written notes',
  '',
  '## Reading',
  '',
  'analysis',
  '',
].join('\n');

const fresh = ['# Benchmarks', '', 'New intro.', '', '## Workspace checkpoints', '', 'new table', ''].join('\n');

describe('bench --only keeps the other sections of the report', () => {
  it('replaces only the sections the run measured, in place', () => {
    const merged = mergeSections(existing, fresh, ['## Workspace checkpoints']);
    expect(merged).toBe(existing.replace('old table\n\nhand-written notes\n', 'new table\n'));
  });

  it('appends a measured section the report lacked', () => {
    const merged = mergeSections('# Benchmarks\n\n## Reading\n\nx\n', fresh, ['## Workspace checkpoints']);
    expect(merged).toBe('# Benchmarks\n\n## Reading\n\nx\n\n## Workspace checkpoints\n\nnew table\n');
  });

  it('refuses to merge a section the fresh report does not have', () => {
    expect(() => mergeSections(existing, fresh, ['## Cold run beside Gemini CLI'])).toThrow(/no section/);
  });

  it('merges only runs of sections with headings of their own', () => {
    const all = ['side-by-side', 'cold', 'per-turn', 'checkpoints'];
    expect(mergedHeadings(['checkpoints'], all)).toEqual(['## Workspace checkpoints']);
    expect(mergedHeadings(['checkpoints', 'per-turn'], all)).toBeUndefined();
    expect(mergedHeadings(all, all)).toBeUndefined();
  });
});
