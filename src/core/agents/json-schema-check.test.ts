import { checkJsonSchema, type JsonSchema } from './json-schema-check';

const LOCATIONS: JsonSchema = {
  type: 'object',
  properties: {
    summary: { type: 'string', minLength: 1 },
    severity: { type: 'string', enum: ['low', 'high'] },
    count: { type: 'integer' },
    score: { type: 'number' },
    done: { type: 'boolean' },
    locations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          file_path: { type: 'string' },
          lines: { type: 'array', items: { type: 'integer' } },
          tags: { type: 'array', items: { type: 'string', enum: ['bug', 'fix'] } },
        },
        required: ['file_path'],
        additionalProperties: false,
      },
    },
  },
  required: ['summary', 'locations'],
};

describe('checkJsonSchema', () => {
  it('accepts a value that matches, nested arrays and objects included', () => {
    const value = {
      summary: 'ok',
      severity: 'high',
      count: 3,
      score: 0.5,
      done: false,
      locations: [{ file_path: 'a.ts', lines: [1, 2], tags: ['bug'] }, { file_path: 'b.ts' }],
      extra: 'allowed at the top',
    };
    expect(checkJsonSchema(value, LOCATIONS)).toEqual({ ok: true });
  });

  it('names every problem with its path', () => {
    const value = {
      severity: 'medium',
      count: 1.5,
      score: '2',
      done: 'yes',
      locations: [
        { lines: [1, 'two'], tags: ['bug', 'feature'] },
        { file_path: 7, colour: 'red' },
      ],
    };
    expect(checkJsonSchema(value, LOCATIONS)).toEqual({
      ok: false,
      errors: [
        'summary: required',
        'severity: must be one of "low", "high"',
        'count: expected integer, got number',
        'score: expected number, got string',
        'done: expected boolean, got string',
        'locations[0].file_path: required',
        'locations[0].lines[1]: expected integer, got string',
        'locations[0].tags[1]: must be one of "bug", "fix"',
        'locations[1].file_path: expected string, got number',
        'locations[1].colour: not allowed (allowed: file_path, lines, tags)',
      ],
    });
  });

  it('checks minItems and minLength', () => {
    expect(checkJsonSchema({ summary: '', locations: [] }, LOCATIONS)).toEqual({
      ok: false,
      errors: ['summary: must not be empty', 'locations: expected at least 1 item(s), got 0'],
    });
    expect(checkJsonSchema('ab', { type: 'string', minLength: 3 })).toEqual({
      ok: false,
      errors: ['(root): must be at least 3 characters'],
    });
  });

  it('reports a wrong type at the root and does not look inside it', () => {
    expect(checkJsonSchema([1], LOCATIONS)).toEqual({ ok: false, errors: ['(root): expected object, got array'] });
    expect(checkJsonSchema(null, LOCATIONS)).toEqual({ ok: false, errors: ['(root): expected object, got null'] });
    expect(checkJsonSchema({ summary: 's', locations: 'a.ts' }, LOCATIONS)).toEqual({
      ok: false,
      errors: ['locations: expected array, got string'],
    });
  });

  it('treats null as present for required but checks its type', () => {
    expect(checkJsonSchema({ summary: null, locations: [{ file_path: 'x' }] }, LOCATIONS)).toEqual({
      ok: false,
      errors: ['summary: expected string, got null'],
    });
  });

  it('accepts anything where the schema says nothing', () => {
    expect(checkJsonSchema({ a: [1, { b: null }] }, {})).toEqual({ ok: true });
    expect(checkJsonSchema({ a: 1 }, { type: 'object', additionalProperties: false })).toEqual({
      ok: false,
      errors: ['a: not allowed (allowed: none)'],
    });
  });

  it('does not treat inherited names as properties', () => {
    expect(checkJsonSchema({}, { type: 'object', required: ['toString'] })).toEqual({
      ok: false,
      errors: ['toString: required'],
    });
  });
});
