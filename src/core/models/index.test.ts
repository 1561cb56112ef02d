import {
  AUTO_MODEL,
  autoRoutingModels,
  chatConfig,
  compressionModelFor,
  DEFAULT_MODEL,
  fallbackModelFor,
  familyOf,
  GEMINI_2_5,
  GEMINI_3,
  routesByComplexityScore,
  subAgentModel,
  replacementOf,
  resolveModel,
  sideCallConfig,
  SIDE_CALL_MODELS,
} from '.';

describe('the default and the auto aliases', () => {
  it('defaults to auto, routing between Gemini 3.8 Flash and 3.1 Pro', () => {
    expect(DEFAULT_MODEL).toBe(AUTO_MODEL);
    const gemini3 = { fast: 'gemini-3.8-flash', strong: 'gemini-3.1-pro-preview' };
    expect(autoRoutingModels(AUTO_MODEL)).toEqual(gemini3);
    expect(autoRoutingModels('auto-gemini-3')).toEqual(gemini3);
    expect(autoRoutingModels('auto-gemini-2.5')).toEqual({ fast: 'gemini-2.5-flash', strong: 'gemini-2.5-pro' });
    expect(autoRoutingModels('gemini-2.5-pro')).toBeUndefined();
  });

  it('gives each side call its model', () => {
    expect(SIDE_CALL_MODELS).toEqual({
      classifier: 'gemini-3.5-flash-lite',
      loopCheck: 'gemini-3-flash-preview',
      loopConfirm: 'gemini-3.1-pro-preview',
      nextSpeaker: 'gemini-3-flash-preview',
      editFixer: 'gemini-3-flash-preview',
      web: 'gemini-3-flash-preview',
    });
  });
});

describe('resolveModel', () => {
  it('sends the retired Gemini 3 Pro preview and the short aliases as their replacements', () => {
    expect(resolveModel('gemini-3-pro-preview')).toBe('gemini-3.1-pro-preview');
    expect(resolveModel('pro')).toBe('gemini-3.1-pro-preview');
    expect(resolveModel('flash')).toBe('gemini-3.8-flash');
    expect(resolveModel('flash-lite')).toBe('gemini-3.5-flash-lite');
    expect(resolveModel('gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(replacementOf('gemini-3-pro-preview')).toBe('gemini-3.1-pro-preview');
    expect(replacementOf('my-model')).toBeUndefined();
  });

  it('lets settings retire a model, or take a resolution back', () => {
    const resolutions = { 'gemini-3.1-pro-preview': 'gemini-4-pro', 'gemini-3-pro-preview': 'gemini-3-pro-preview' };
    expect(resolveModel('gemini-3.1-pro-preview', { resolutions })).toBe('gemini-4-pro');
    expect(resolveModel('gemini-3-pro-preview', { resolutions })).toBe('gemini-3-pro-preview');
    expect(replacementOf('gemini-3.1-pro-preview', { resolutions })).toBe('gemini-4-pro');
  });
});

describe('fallbackModelFor', () => {
  it('falls back from a pro model to its family’s flash, and no further', () => {
    expect(fallbackModelFor('gemini-3.1-pro-preview')).toBe('gemini-3-flash-preview');
    expect(fallbackModelFor('gemini-2.5-pro')).toBe('gemini-2.5-flash');
    expect(fallbackModelFor('gemini-3-flash-preview')).toBeUndefined();
    expect(fallbackModelFor('my-custom-model')).toBeUndefined();
  });

  it('follows a routed pair', () => {
    expect(fallbackModelFor('big', { fast: 'small', strong: 'big' })).toBe('small');
    expect(fallbackModelFor('small', { fast: 'small', strong: 'big' })).toBeUndefined();
  });
});

describe('generation config', () => {
  it('asks every family for thought summaries; 3.x thinks at HIGH, 2.5 within 8192 tokens', () => {
    const sampling = { temperature: 1, topP: 0.95, topK: 64 };
    expect(familyOf('models/gemini-3.8-flash')).toBe('gemini-3');
    expect(chatConfig('gemini-3.1-pro-preview')).toEqual({
      ...sampling,
      thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' },
    });
    expect(chatConfig('gemini-2.5-pro')).toEqual({
      ...sampling,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
    });
    expect(chatConfig('my-model')).toEqual({ ...sampling, thinkingConfig: { includeThoughts: true } });
  });

  it('sends fixed-model utility calls deterministic, alias-resolved ones with their model’s chat config', () => {
    expect(sideCallConfig(SIDE_CALL_MODELS.loopCheck)).toEqual({ temperature: 0, topP: 1 });
    expect(sideCallConfig(SIDE_CALL_MODELS.editFixer)).toEqual({ temperature: 0, topP: 1 });
    expect(sideCallConfig(SIDE_CALL_MODELS.classifier)).toEqual(chatConfig('gemini-3.5-flash-lite'));
    expect(sideCallConfig(SIDE_CALL_MODELS.loopConfirm)).toEqual(chatConfig('gemini-3.1-pro-preview'));
  });
});

describe('compressionModelFor', () => {
  it('summarises Gemini 3 flash conversations on the utility flash, pro on pro, others on themselves', () => {
    expect(compressionModelFor('gemini-3.8-flash')).toBe('gemini-3-flash-preview');
    expect(compressionModelFor('gemini-3.1-pro-preview')).toBe('gemini-3.1-pro-preview');
    expect(compressionModelFor('gemini-3-pro-preview')).toBe('gemini-3.1-pro-preview');
    expect(compressionModelFor('gemini-3.5-flash-lite')).toBe('gemini-3.1-flash-lite');
    expect(compressionModelFor('gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(compressionModelFor('my-model')).toBe('my-model');
  });
});

describe('the roles the catalogue answers for', () => {
  it('runs a sub-agent on its own model, else on the prompt’s', () => {
    expect(subAgentModel('gemini-2.5-pro', 'auto')).toBe('gemini-2.5-pro');
    expect(subAgentModel(undefined, 'gemini-3.8-flash')).toBe('gemini-3.8-flash');
  });

  it('routes a Gemini 3 pair by complexity score, a 2.5 pair by flash-or-pro', () => {
    expect(routesByComplexityScore(GEMINI_3.strong)).toBe(true);
    expect(routesByComplexityScore(GEMINI_2_5.strong)).toBe(false);
  });
});
