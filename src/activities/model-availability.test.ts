import { ApplicationFailure } from '@temporalio/common';
import { classifyStatus } from '../model/errors';
import { QUOTA_RESET_UNKNOWN_MS } from '../core/model-availability';
import { ModelAvailability } from './model-availability';

function memory() {
  const clock = { now: 1_000_000 };
  return { clock, availability: new ModelAvailability(() => clock.now) };
}

test('a used-up quota keeps the model out until its reset, then lets it through again', async () => {
  const { clock, availability } = memory();
  const usedUp = classifyStatus(429, '{"retryDelay":"3600s"}');
  await expect(availability.guard('pro', () => Promise.reject(usedUp))).rejects.toBe(usedUp);
  let sent = 0;
  const send = async () => void (sent += 1);
  const refused = await availability.guard('pro', send).catch((err: ApplicationFailure) => err);
  expect(refused).toMatchObject({ type: 'ModelCall.RateLimit', nonRetryable: true });
  expect((refused as ApplicationFailure).details?.[0]).toEqual({ quotaResetMs: 3_600_000, knownUnavailable: true });
  await availability.guard('flash', send);
  expect(sent).toBe(1);
  clock.now += 3_600_000;
  await availability.guard('pro', send);
  expect(sent).toBe(2);
});

test('an ordinary 429, or any other error, is not remembered; no reset time means the default', async () => {
  const { clock, availability } = memory();
  const send = async () => 'sent';
  await availability.guard('pro', () => Promise.reject(classifyStatus(429, 'slow down'))).catch(() => undefined);
  await availability.guard('pro', () => Promise.reject(classifyStatus(500, 'boom'))).catch(() => undefined);
  await expect(availability.guard('pro', send)).resolves.toBe('sent');
  await availability.guard('pro', () => Promise.reject(classifyStatus(429, 'PerDay'))).catch(() => undefined);
  clock.now += QUOTA_RESET_UNKNOWN_MS - 1;
  await expect(availability.guard('pro', send)).rejects.toMatchObject({ nonRetryable: true });
  clock.now += 1;
  await expect(availability.guard('pro', send)).resolves.toBe('sent');
});
