import { defaultPayloadConverter, type Payload, type PayloadConverter } from '@temporalio/common';
import { UNDECODABLE_KEY } from './core/message-input';

/**
 * The default converter, except that a payload it cannot decode (metadata naming an unknown encoding,
 * `json/plain` that is not JSON) becomes `{ "$undecodable": reason }` instead of an exception. The SDK
 * decodes a signal's arguments before any handler or interceptor runs, and a throw there fails the
 * workflow task, again on every retry: one such signal, sent with any SDK or the stock CLI, would
 * wedge the prompt for good. Handlers refuse the marker with a warning event (`core/message-input.ts`).
 * Loaded by path inside the workflow sandbox (the bundle) and by the worker for activities.
 */
class TolerantPayloadConverter implements PayloadConverter {
  toPayload<T>(value: T): Payload {
    return defaultPayloadConverter.toPayload(value);
  }

  fromPayload<T>(payload: Payload): T {
    try {
      return defaultPayloadConverter.fromPayload<T>(payload);
    } catch (err) {
      return { [UNDECODABLE_KEY]: err instanceof Error ? err.message : String(err) } as T;
    }
  }
}

export const payloadConverter = new TolerantPayloadConverter();
