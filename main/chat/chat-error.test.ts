import { describe, expect, it } from 'vitest';
import { explainFailure } from './chat-error.js';

describe('explainFailure', () => {
  it('sends a refused key to the Providers screen, naming the provider', () => {
    const text = explainFailure({
      status: 502,
      message: 'Provider "openai" rejected its API key (upstream 401).',
      provider: 'openai',
    });
    expect(text).toBe(
      'Provider "openai" rejected its API key (upstream 401). The provider refused the key: check the key of ' +
        'provider "openai" on the Providers screen.',
    );
  });

  it('finds the provider in the message when the metadata has none', () => {
    expect(explainFailure({ status: 502, message: 'Provider "groq" rejected its API key (upstream 403).' })).toContain(
      'check the key of provider "groq" on the Providers screen',
    );
  });

  it('asks to check the base URL and the server of an unreachable provider', () => {
    const text = explainFailure({
      status: 502,
      message: 'Could not reach provider "local" at http://127.0.0.1:1/v1: ECONNREFUSED',
      provider: 'local',
    });
    expect(text).toBe(
      'Could not reach provider "local" at http://127.0.0.1:1/v1: ECONNREFUSED. Check the base URL of provider ' +
        '"local" on the Providers screen, and that its server is running.',
    );
  });

  it('asks to wait out a rate limit', () => {
    const text = explainFailure({
      status: 429,
      message: 'Provider "openai" is rate limiting requests (upstream 429): slow down',
      provider: 'openai',
    });
    expect(text).toMatch(/slow down\. Wait a minute and try again \(Regenerate\)/);
    expect(text).toContain('rate limits of your plan with provider "openai"');
  });

  it('asks to pick another model for a model that is not found', () => {
    expect(explainFailure({ status: 404, message: 'No model has the id "x/y".' })).toContain(
      'Pick another model in the model picker',
    );
  });

  it('covers an overload, a timeout, a request too large, a bad request and an internal error', () => {
    expect(
      explainFailure({ status: 503, message: 'Provider "a" is unavailable or overloaded (upstream 529).' }),
    ).toMatch(/Wait a moment and try again \(Regenerate\), or pick another model\.$/);
    expect(explainFailure({ status: 504, message: 'Provider "a" did not answer within 60 s.' })).toContain(
      'check that the server of provider "a" is running',
    );
    expect(
      explainFailure({ status: 413, message: 'Provider "a" says the request is too large (upstream 413).' }),
    ).toContain('start a new chat');
    expect(explainFailure({ status: 400, message: 'Provider "a" rejected the request (upstream 400): bad' })).toContain(
      'Check the conversation settings',
    );
    expect(explainFailure({ status: 500, message: 'Internal error' })).toBe(
      'Internal error. Switchyard failed inside: try again (Regenerate); the log of Switchyard has the details.',
    );
  });

  it('leaves a message alone when it has nothing to add', () => {
    expect(explainFailure({ status: 402, message: 'This key reached its spend limit.' })).toBe(
      'This key reached its spend limit.',
    );
  });
});
