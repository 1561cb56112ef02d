import type { PromptInput } from '../api';
import { PROMPT_DEFAULTS, settingsOf } from './settings';

const input: PromptInput = { prompt: 'p', workspace: '/w', model: 'm', approvalMode: 'default', maxTurns: 5 };

describe('settingsOf', () => {
  it('fills every absent tunable from the one table of defaults', () => {
    expect(settingsOf(input)).toEqual({ ...input, ...PROMPT_DEFAULTS });
  });

  it('keeps what the input gives, and an explicit undefined does not hide the default', () => {
    const settings = settingsOf({ ...input, shellTimeoutMs: 1000, modelMaxAttempts: undefined });
    expect(settings.shellTimeoutMs).toBe(1000);
    expect(settings.modelMaxAttempts).toBe(10);
  });

  it('takes an input from before any of the tunables existed', () => {
    expect(settingsOf(input).loopCheckModels).toEqual({
      fast: 'gemini-3-flash-preview',
      confirm: 'gemini-3.1-pro-preview',
    });
  });
});
