import { elicitationRequest, formAnswers } from './questions';
import type { Question } from '../core/questions';

const STACK: Question[] = [
  {
    question: 'Which database?',
    header: 'Database',
    type: 'choice',
    options: [
      { label: 'Postgres', description: 'relational' },
      { label: 'SQLite', description: 'a file' },
    ],
  },
  {
    question: 'Which extras?',
    header: 'Extras',
    type: 'choice',
    multiSelect: true,
    options: [
      { label: 'Cache', description: '' },
      { label: 'Queue', description: '' },
    ],
  },
  { question: 'Add tests?', header: 'Tests', type: 'yesno' },
  { question: 'What name?', header: 'Name', type: 'text' },
];

test('the form has one field a question, keyed by its number, all required', () => {
  const request = elicitationRequest('s1', 'call-1', STACK);
  expect(request).toMatchObject({ mode: 'form', sessionId: 's1', toolCallId: 'call-1' });
  expect(request.requestedSchema.required).toEqual(['0', '1', '2', '3']);
  expect(request.requestedSchema.properties).toMatchObject({
    '0': {
      type: 'string',
      oneOf: [
        { const: 'Postgres', title: 'Postgres' },
        { const: 'SQLite', title: 'SQLite' },
      ],
    },
    '1': { type: 'array', items: { anyOf: [{ const: 'Cache' }, { const: 'Queue' }] } },
    '2': { type: 'boolean' },
    '3': { type: 'string', minLength: 1 },
  });
});

test('the form’s values become answers by number; a value that does not fit says which field and why', () => {
  expect(formAnswers(STACK, { '0': 'SQLite', '1': ['Cache', 'Queue'], '2': true, '3': ' svc ' })).toEqual({
    '0': 'SQLite',
    '1': 'Cache, Queue',
    '2': 'yes',
    '3': 'svc',
  });
  const good = { '0': 'SQLite', '1': ['Cache'], '2': false, '3': 'svc' };
  expect(formAnswers(STACK, { ...good, '0': 'Oracle' })).toBe('field 0 (Database) needs one of "Postgres", "SQLite"');
  expect(formAnswers(STACK, { ...good, '1': [] })).toMatch(/^field 1 \(Extras\) needs a list of some of/);
  expect(formAnswers(STACK, { ...good, '2': 'yes' })).toBe('field 2 (Tests) needs true or false');
  expect(formAnswers(STACK, { ...good, '3': 7 })).toMatch(/^field 3 \(Name\) needs a text of 1 to/);
  expect(formAnswers(STACK, { '0': 'SQLite' })).toMatch(/^field 1/);
});
