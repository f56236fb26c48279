import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatRequestSchema, gatewayConsumedFields, type ChatRequest } from '../../shared/api/index.js';
import { ignoredParameters, translatedParameters } from './parameter-support.js';

/** The table of docs/parameters.md: parameter → [openai, anthropic, google], the first word of each cell. */
function documentedTable(): Map<string, string[]> {
  const text = readFileSync(new URL('../../docs/parameters.md', import.meta.url), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^\| `([a-z_]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    rows.set(
      match[1]!,
      match[2]!.split('|').map((cell) => cell.trim().split(' ')[0]!),
    );
  }
  return rows;
}

describe('the parameter table in docs says what the code does', () => {
  const table = documentedTable();

  it('lists every parameter the request schema knows beyond what the gateway consumes', () => {
    const consumed: readonly string[] = gatewayConsumedFields;
    const known = Object.keys(chatRequestSchema.in.shape).filter((field) => !consumed.includes(field));
    expect([...table.keys()].sort()).toEqual(known.sort());
  });

  it('marks as translated exactly what each builder translates, and as ignored the rest', () => {
    for (const [parameter, [openai, anthropic, google]] of table) {
      expect(openai, parameter).toBe('forwarded');
      const request = { model: 'p/m', messages: [], stream: true, [parameter]: 1 } as unknown as ChatRequest;
      expect(anthropic, `${parameter} for anthropic`).toBe(
        ignoredParameters(request, 'anthropic').includes(parameter) ? 'ignored' : 'translated',
      );
      expect(google, `${parameter} for google`).toBe(
        ignoredParameters(request, 'google').includes(parameter) ? 'ignored' : 'translated',
      );
    }
    expect(translatedParameters.anthropic.every((parameter) => table.has(parameter))).toBe(true);
    expect(translatedParameters.google.every((parameter) => table.has(parameter))).toBe(true);
  });
});
