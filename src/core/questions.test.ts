import { askUserParameters, answerText, normaliseAnswer } from './questions';

const two = [{ question: 'Which database?' }, { question: 'Which port?' }];

describe('ask_user arguments', () => {
  it('takes Gemini CLI questions and refuses a choice without 2 to 4 options, or more than 4 questions', () => {
    const q = { question: 'Which?', header: 'DB', type: 'choice', options: [{ label: 'A', description: '' }] };
    expect(askUserParameters.safeParse({ questions: [{ question: 'Why?', header: 'Why' }] }).success).toBe(true);
    expect(askUserParameters.safeParse({ questions: [q] }).success).toBe(false);
    const five = Array.from({ length: 5 }, () => ({ question: 'Why?', header: 'Why', type: 'text' }));
    expect(askUserParameters.safeParse({ questions: five }).success).toBe(false);
    expect(askUserParameters.safeParse({ questions: [{ question: 'Why?', header: 'x'.repeat(17) }] }).success).toBe(
      false,
    );
  });
});

describe('answers', () => {
  it('takes answers by index or in order, joins picks, and answers the model as JSON', () => {
    const byIndex = normaliseAnswer({ callId: 'c', answers: { '1': '5432' } }, two);
    expect(byIndex).toEqual({ ok: true, value: { callId: 'c', answers: { '1': '5432' } } });
    const inOrder = normaliseAnswer({ callId: 'c', answers: [['pg', 'redis'], '5432'] }, two);
    expect(inOrder.ok && answerText(inOrder.value)).toBe('{"answers":{"0":"pg, redis","1":"5432"}}');
    const dismissed = normaliseAnswer({ callId: 'c', dismissed: true }, two);
    expect(dismissed.ok && answerText(dismissed.value)).toMatch(/dismissed/);
  });

  it('refuses a wrong shape, no answer at all, or a question that was not asked', () => {
    expect(normaliseAnswer('Postgres', two)).toMatchObject({ ok: false, reason: /malformed answerQuestion/ });
    expect(normaliseAnswer({ callId: 'c', answers: {} }, two)).toMatchObject({ reason: /at least one/ });
    expect(normaliseAnswer({ callId: 'c', answers: { '0': 7 } }, two)).toMatchObject({ ok: false });
    expect(normaliseAnswer({ callId: 'c', answers: ['a', 'b', 'c'] }, two)).toMatchObject({
      reason: 'there is no question 2: call c asked 2 (numbered from 0)',
    });
    expect(normaliseAnswer({ callId: 'c', answers: ['a'], dismissed: true }, two)).toMatchObject({ ok: false });
  });
});
