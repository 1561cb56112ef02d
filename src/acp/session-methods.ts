/**
 * `session/load`, `session/resume`, `session/list` and `session/close`, declared in `initialize`
 * and built by their own module; until it is in place each answers "method not found".
 */
import { RequestError, type AgentApp } from '@agentclientprotocol/sdk';

export function addSessionMethods(app: AgentApp): AgentApp {
  for (const method of ['session/load', 'session/resume', 'session/list', 'session/close'] as const)
    app.onRequest(method, () => {
      throw RequestError.methodNotFound(method);
    });
  return app;
}
