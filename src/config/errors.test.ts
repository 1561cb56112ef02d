import { AgentFileError } from './agents';
import { atConfigEdge, ConfigError } from './errors';
import { PolicyFileError } from './policies';
import { SettingsFileError } from './settings';
import { TrustFileError } from './trusted-folders';

describe('atConfigEdge', () => {
  it.each([
    [new PolicyFileError('/p/a.toml', 0, 'bad'), 'policyFile', 'policy file error: /p/a.toml: rule 1: bad'],
    [new AgentFileError('/a/x.md', 'name', 'bad'), 'agentFile', 'agent file error: /a/x.md: name: bad'],
    [new SettingsFileError('/h/settings.json: bad'), 'settingsFile', 'settings file error: /h/settings.json: bad'],
    [
      new TrustFileError('/h/trusted-folders.json: bad'),
      'trustedFolders',
      'trusted folders: /h/trusted-folders.json: bad',
    ],
  ])('turns %s into a ConfigError that names the file', async (fileError, type, message) => {
    const error = await atConfigEdge(() => Promise.reject(fileError)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ type, message });
  });

  it('lets other errors through', async () => {
    const other = new Error('disk on fire');
    await expect(atConfigEdge(() => Promise.reject(other))).rejects.toBe(other);
  });
});
