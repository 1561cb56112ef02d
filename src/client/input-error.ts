/** Bad input from a front end (a flag, a prompt, a session id): said at once, nothing started (CLI: exit 42). */
export class InputError extends Error {
  override name = 'InputError';
}
