import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadGeminiSettings } from './gemini-settings';
import { SettingsFileError } from './settings';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-settings-'));
const workspaceFile = path.join(dir, 'ws.json');
const userFile = path.join(dir, 'user.json');
const write = (file: string, value: unknown) => fs.writeFileSync(file, JSON.stringify(value));
const aliasTo = (model: string) => ({ modelConfig: { model } });

afterEach(() => {
  for (const f of [workspaceFile, userFile]) fs.rmSync(f, { force: true });
});

test('modelConfigs: retired-name resolutions and side-call aliases, the workspace over the user', async () => {
  write(userFile, {
    modelConfigs: {
      modelIdResolutions: { 'gemini-3.1-pro-preview': { default: 'gemini-4-pro' } },
      customAliases: { classifier: aliasTo('lite-a'), 'loop-detection': aliasTo('judge') },
    },
  });
  write(workspaceFile, {
    modelConfigs: {
      customAliases: {
        classifier: aliasTo('lite-b'),
        'next-speaker-checker': aliasTo('ns'),
        'llm-edit-fixer': aliasTo('fixer'),
        // An alias that only tunes generation config names no model: nothing to take.
        'web-fetch': { modelConfig: { generateContentConfig: { temperature: 0.5 } } },
      },
    },
  });
  const settings = await loadGeminiSettings({ workspaceFile, userFile });
  expect(settings.models).toEqual({
    modelResolutions: { 'gemini-3.1-pro-preview': 'gemini-4-pro' },
    classifierModel: 'lite-b',
    nextSpeakerModel: 'ns',
    editFixerModel: 'fixer',
    loopCheckModels: { fast: 'judge', confirm: 'gemini-3.1-pro-preview' },
  });
  expect(settings.warnings).toEqual([]);
});

test('no modelConfigs: the catalogue stands', async () => {
  write(userFile, { model: { name: 'gemini-2.5-pro' } });
  expect((await loadGeminiSettings({ workspaceFile, userFile })).models).toEqual({});
});

test('a resolution without a model is a settings error naming the key', async () => {
  write(userFile, { modelConfigs: { modelIdResolutions: { 'gemini-3-pro-preview': { default: ' ' } } } });
  const loading = loadGeminiSettings({ workspaceFile, userFile });
  await expect(loading).rejects.toThrow(SettingsFileError);
  await expect(loading).rejects.toThrow(/modelConfigs\.modelIdResolutions\.gemini-3-pro-preview\.default/);
});

describe('model.prices', () => {
  it('reads prices per model, filling cached input and thinking, the workspace over the user', async () => {
    write(userFile, { model: { prices: { 'my-model': { input: 1, output: 2 }, other: { input: 9, output: 9 } } } });
    write(workspaceFile, {
      model: {
        prices: {
          other: {
            input: 3,
            cachedInput: 0.3,
            output: 4,
            thinking: 5,
            longPrompt: { above: 1000, input: 6, output: 8 },
          },
        },
      },
    });
    const settings = await loadGeminiSettings({ workspaceFile, userFile });
    expect(settings.warnings).toEqual([]);
    expect(settings.models.modelPrices).toEqual({
      'my-model': { input: 1, cachedInput: 1, output: 2, thinking: 2 },
      other: {
        input: 3,
        cachedInput: 0.3,
        output: 4,
        thinking: 5,
        longPrompt: { above: 1000, input: 6, cachedInput: 6, output: 8, thinking: 8 },
      },
    });
  });

  it.each([
    [{ m: { input: -1, output: 2 } }, /model\.prices\.m\.input: must not be negative/],
    [{ m: { input: 'cheap', output: 2 } }, /model\.prices\.m\.input.*number/],
    [{ m: { output: 2 } }, /model\.prices\.m\.input/],
    [{ m: { input: 1, output: 2, outptu: 3 } }, /outptu/],
    [{ m: { input: 1, output: 2, longPrompt: { input: 1, output: 2 } } }, /longPrompt\.above/],
  ])('a bad price is a settings error naming the key: %j', async (prices, message) => {
    write(userFile, { model: { prices } });
    await expect(loadGeminiSettings({ userFile })).rejects.toThrow(SettingsFileError);
    await expect(loadGeminiSettings({ userFile })).rejects.toThrow(message);
  });
});
