import type { Content } from '@google/genai';
import { curatedHistory, isFunctionResponse, nextSpeakerFastPath } from './next-speaker';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const toolResult: Content = {
  role: 'user',
  parts: [{ functionResponse: { id: 'c1', name: 'ls', response: { output: 'a' } } }],
};
const emptyModel: Content = { role: 'model', parts: [] };
const invalidModel: Content = { role: 'model', parts: [{ text: '' }] };

describe('nextSpeakerFastPath', () => {
  it('answers user when there is nothing to judge', () => {
    expect(nextSpeakerFastPath([]).next).toBe('user');
    expect(nextSpeakerFastPath([invalidModel]).next).toBe('user');
  });

  it('answers model when the last message is tool results', () => {
    expect(nextSpeakerFastPath([user('go'), model('running'), toolResult]).next).toBe('model');
  });

  it('answers model when the last model message has an empty part list', () => {
    expect(nextSpeakerFastPath([user('go'), emptyModel]).next).toBe('model');
  });

  it('answers user when the last valid message is not the model', () => {
    expect(nextSpeakerFastPath([user('go')]).next).toBe('user');
    // The invalid model turn is dropped from the curated history, leaving the user's message last.
    expect(nextSpeakerFastPath([user('go'), invalidModel]).next).toBe('user');
  });

  it('asks the model when the last message is a model reply with content', () => {
    expect(nextSpeakerFastPath([user('go'), model('Next, I will run the tests.')])).toEqual({
      next: 'ask',
      reasoning: '',
    });
  });
});

describe('curatedHistory', () => {
  it('drops a whole run of model turns if any of them is invalid, and keeps user turns', () => {
    const history = [user('a'), model('one'), invalidModel, user('b'), model('two')];
    expect(curatedHistory(history)).toEqual([user('a'), user('b'), model('two')]);
  });

  it('keeps an empty part list and parts whose empty text comes with other payload', () => {
    const withSignature: Content = { role: 'model', parts: [{ text: '', thoughtSignature: 'sig' }] };
    const withThought: Content = { role: 'model', parts: [{ text: '', thought: true }, { text: 'x' }] };
    expect(curatedHistory([user('a'), emptyModel, withSignature, withThought])).toHaveLength(4);
  });

  it('drops model turns with no parts or an empty part object', () => {
    expect(curatedHistory([user('a'), { role: 'model' }])).toEqual([user('a')]);
    expect(curatedHistory([user('a'), { role: 'model', parts: [{}] }])).toEqual([user('a')]);
  });
});

describe('isFunctionResponse', () => {
  it('needs a user turn whose non-thought parts are all function responses', () => {
    expect(isFunctionResponse(toolResult)).toBe(true);
    expect(isFunctionResponse({ role: 'user', parts: [] })).toBe(false);
    expect(isFunctionResponse({ role: 'user', parts: [...toolResult.parts!, { text: 'and this' }] })).toBe(false);
  });
});
