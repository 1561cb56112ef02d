import { tracingSetting } from './tracing';

const URL_BASE = 'http://collector:4318';

test('tracing is off without OTEL_ variables, and off when the SDK is disabled or the exporter is none', () => {
  expect(tracingSetting({})).toEqual({ warnings: [] });
  expect(tracingSetting({ OTEL_SERVICE_NAME: 'x', OTEL_BSP_SCHEDULE_DELAY: '10' })).toEqual({ warnings: [] });
  expect(tracingSetting({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: URL_BASE })).toEqual({
    warnings: [],
  });
  expect(tracingSetting({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: URL_BASE })).toEqual({
    warnings: [],
  });
});

test('an endpoint or OTEL_TRACES_EXPORTER=otlp turns it on; the traces endpoint wins', () => {
  expect(tracingSetting({ OTEL_EXPORTER_OTLP_ENDPOINT: `${URL_BASE}/` }).endpoint).toBe(`${URL_BASE}/v1/traces`);
  expect(
    tracingSetting({ OTEL_EXPORTER_OTLP_ENDPOINT: URL_BASE, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${URL_BASE}/t` })
      .endpoint,
  ).toBe(`${URL_BASE}/t`);
  expect(tracingSetting({ OTEL_TRACES_EXPORTER: 'otlp' }).endpoint).toBe('http://localhost:4318/v1/traces');
});

test('settings we cannot honour are warnings: unknown exporters, a bad URL, another protocol', () => {
  expect(tracingSetting({ OTEL_TRACES_EXPORTER: 'zipkin', OTEL_EXPORTER_OTLP_ENDPOINT: URL_BASE })).toEqual({
    warnings: ['OTEL_TRACES_EXPORTER "zipkin" is not supported (only "otlp" or "none"); tracing is off'],
  });
  expect(tracingSetting({ OTEL_TRACES_EXPORTER: 'otlp,console', OTEL_EXPORTER_OTLP_ENDPOINT: URL_BASE })).toEqual({
    endpoint: `${URL_BASE}/v1/traces`,
    warnings: ['OTEL_TRACES_EXPORTER "console" is not supported (only "otlp" or "none"); exporting with otlp only'],
  });
  expect(tracingSetting({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector' })).toEqual({
    warnings: ['OTEL_EXPORTER_OTLP_ENDPOINT "ftp://collector" is not an http(s) URL; tracing is off'],
  });
  expect(tracingSetting({ OTEL_EXPORTER_OTLP_ENDPOINT: URL_BASE, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({
    endpoint: `${URL_BASE}/v1/traces`,
    warnings: ['OTLP protocol "grpc" is not supported; spans are sent as http/json'],
  });
});
