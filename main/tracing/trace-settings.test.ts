import { describe, expect, it } from 'vitest';
import { parseHeaders, traceSettingsFrom } from './trace-settings.js';

describe('traceSettingsFrom', () => {
  it('is off without an endpoint, and when the SDK is disabled', () => {
    expect(traceSettingsFrom({})).toBeNull();
    expect(traceSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(traceSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it('appends /v1/traces to the general endpoint and takes the traces endpoint as is', () => {
    expect(traceSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })?.url).toBe('http://c:4318/v1/traces');
    expect(
      traceSettingsFrom({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      })?.url,
    ).toBe('https://cloud.langfuse.com/api/public/otel/v1/traces');
  });

  it('exports protobuf unless http/json is asked for; the traces variable wins; grpc is refused with a warning', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(traceSettingsFrom(base)?.protocol).toBe('http/protobuf');
    expect(traceSettingsFrom({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol).toBe('http/json');
    expect(
      traceSettingsFrom({
        ...base,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      })?.protocol,
    ).toBe('http/protobuf');
    const grpc = traceSettingsFrom({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(grpc?.protocol).toBe('http/protobuf');
    expect(grpc?.warnings).toEqual(['OTLP protocol "grpc" is not supported for traces: exporting with http/protobuf.']);
  });

  it('reads the service name, content capture and both header variables', () => {
    const settings = traceSettingsFrom({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-a=1,x-b=2',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-B=3',
      OTEL_SERVICE_NAME: 'gateway-eu',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
    });
    expect(settings).toMatchObject({
      headers: { 'x-a': '1', 'x-b': '3' },
      serviceName: 'gateway-eu',
      captureContent: true,
    });
    expect(traceSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c' })).toMatchObject({
      serviceName: 'switchyard',
      captureContent: false,
    });
  });
});

describe('parseHeaders', () => {
  it('percent-decodes values, keeps a Basic credential padding written as is, and leaves out nameless pairs', () => {
    const warnings: string[] = [];
    expect(parseHeaders('Authorization=Basic%20cGs6c2s%3D, x=a=b,=secret,,', warnings)).toEqual({
      authorization: 'Basic cGs6c2s=',
      x: 'a=b',
    });
    expect(warnings).toEqual(['An OTLP header without a name was left out.']);
    expect(parseHeaders('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });
});
