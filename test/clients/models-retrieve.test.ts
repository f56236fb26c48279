// GET /v1/models/{id} through the official openai SDKs' models.retrieve() (JavaScript and Python): OpenAI's Model
// object (`id`, `object`, `created`, `owned_by`, OpenRouter's fields beside them), and for an unknown id a 404 in
// OpenAI's error shape, which the SDKs raise as their NotFoundError. /api/v1 keeps OpenRouter's `{data: …}`.

import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openAIBaseUrlOf } from '../../main/gateway/index.js';
import { callerSecret, startHarness } from '../gateway/harness.js';
import { runPython } from '../support/python.js';
import { useHarness } from '../support/use-harness.js';

const harness = useHarness(async () => {
  const started = await startHarness();
  started.upstream.models = ['gpt-4o-mini', 'anthropic/claude-sonnet-4'];
  return started;
});

function v1Client(): OpenAI {
  return new OpenAI({ baseURL: openAIBaseUrlOf(harness().baseURL), apiKey: callerSecret, maxRetries: 0 });
}

describe('models.retrieve', () => {
  it('gives the JavaScript SDK OpenAI’s Model object, ids with slashes included', async () => {
    const model = await v1Client().models.retrieve('fake/gpt-4o-mini');
    expect(model).toMatchObject({ id: 'fake/gpt-4o-mini', object: 'model', owned_by: 'fake' });
    expect(Number.isInteger(model.created)).toBe(true);
    // OpenRouter's fields stay beside OpenAI's.
    expect(model).toMatchObject({ canonical_slug: 'fake/gpt-4o-mini', architecture: { tokenizer: 'GPT' } });
    const nested = await v1Client().models.retrieve('fake/anthropic/claude-sonnet-4');
    expect(nested.id).toBe('fake/anthropic/claude-sonnet-4');
  });

  it('answers an unknown id with a 404 the JavaScript SDK raises as NotFoundError', async () => {
    const error = await v1Client()
      .models.retrieve('fake/nope')
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
      type: 'not_found_error',
      error: { message: expect.stringContaining('"fake/nope"') as unknown },
    });
  });

  it('gives the Python SDK the same, and its NotFoundError for an unknown id', async () => {
    const script = `
import json, os
from openai import NotFoundError, OpenAI

client = OpenAI(base_url=os.environ["BASE_URL"], api_key=os.environ["API_KEY"], max_retries=0)
model = client.models.retrieve("fake/gpt-4o-mini")
found = {"id": model.id, "object": model.object, "owned_by": model.owned_by, "created": model.created}
try:
    client.models.retrieve("fake/nope")
    missing = None
except NotFoundError as error:
    missing = {"status": error.status_code, "code": error.code, "message": error.message}
print(json.dumps({"found": found, "missing": missing}))
`;
    const result = await runPython(script, {
      BASE_URL: openAIBaseUrlOf(harness().baseURL),
      API_KEY: callerSecret,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { found, missing } = JSON.parse(result.stdout) as {
      found: Record<string, unknown>;
      missing: Record<string, unknown> | null;
    };
    expect(found).toMatchObject({ id: 'fake/gpt-4o-mini', object: 'model', owned_by: 'fake' });
    expect(Number.isInteger(found.created)).toBe(true);
    expect(missing).toMatchObject({ status: 404, code: 'model_not_found' });
    expect(missing?.message).toContain('fake/nope');
  });

  it('keeps OpenRouter’s {data: …} and error envelope on /api/v1', async () => {
    const get = (id: string) =>
      fetch(`${harness().baseURL}/models/${id}`, { headers: { authorization: `Bearer ${callerSecret}` } });
    const found = await get('fake/gpt-4o-mini');
    expect(await found.json()).toMatchObject({ data: { id: 'fake/gpt-4o-mini', object: 'model', owned_by: 'fake' } });
    const missing = await get('fake/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404, message: expect.stringContaining('fake/nope') } });
  });
});
