import { isSecretEnv, withoutSecrets } from './env-filter';

describe('the secret filter for commands and hooks', () => {
  test.each([
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'DURABLE_AGENT_STORE',
    'GITHUB_TOKEN',
    'foo_token',
    'AWS_SECRET_ACCESS_KEY',
    'PGPASSWORD',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_PRIVATE_KEY_FILE',
    'npm_config__authtoken',
    'TokenCache',
  ])('%s is withheld by its name', (name) => {
    expect(isSecretEnv(name, 'plain')).toBe(true);
  });

  test.each(['PATH', 'HOME', 'LANG', 'TERM', 'GEMINI_PROJECT_DIR', 'EDITOR'])('%s passes', (name) => {
    expect(isSecretEnv(name, '/usr/bin')).toBe(false);
  });

  test.each([
    ['a postgres URL with a password', 'postgres://u:p@h/db', true],
    ['an https URL with user and password', 'https://me:s3cret@example.com/x', true],
    ['a URL with an empty password', 'redis://user:@cache:6379', true],
    ['a URL inside a longer value', 'proxy=http://a:b@proxy:3128', true],
    ['a URL without credentials', 'https://example.com/a:b', false],
    ['a URL with a user but no password', 'ssh://git@github.com/x.git', false],
    ['a colon-separated path', '/usr/bin:/bin', false],
  ])('a value that is %s: withheld %s', (_what, value, withheld) => {
    expect(isSecretEnv('SOME_URL', value)).toBe(withheld);
  });

  test('the allow-list passes a name that looks secret, but never the agent’s own credentials', () => {
    const redaction = { allowed: ['MY_SERVICE_TOKEN', 'PROXY', 'GEMINI_API_KEY'] };
    expect(isSecretEnv('MY_SERVICE_TOKEN', 'x', redaction)).toBe(false);
    expect(isSecretEnv('PROXY', 'http://a:b@proxy', redaction)).toBe(false);
    expect(isSecretEnv('GEMINI_API_KEY', 'x', redaction)).toBe(true);
    expect(isSecretEnv('my_service_token', 'x', redaction)).toBe(true);
  });

  test('the block-list withholds a harmless-looking name, and wins over the allow-list', () => {
    expect(isSecretEnv('INTERNAL_HOST', 'h', { blocked: ['INTERNAL_HOST'] })).toBe(true);
    expect(isSecretEnv('X_TOKEN', 'h', { allowed: ['X_TOKEN'], blocked: ['X_TOKEN'] })).toBe(true);
  });

  test('withoutSecrets keeps the rest of the environment as it was', () => {
    const env = { PATH: '/bin', FOO_TOKEN: 't', DATABASE_URL: 'postgres://u:p@h/db', KEEP: 'me', ALLOWED_TOKEN: 'ok' };
    expect(withoutSecrets(env, { allowed: ['ALLOWED_TOKEN'] })).toEqual({
      PATH: '/bin',
      KEEP: 'me',
      ALLOWED_TOKEN: 'ok',
    });
  });
});
