import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countTokenGroups, estimateUsage, GeneratedText, maxKeptGeneratedChars } from './usage-estimate.js';

/** A long prompt: an agent's system prompt and tools are tens of thousands of tokens. */
const longText = Array.from({ length: 4_000 }, (_, index) => `Line ${index}: the quick brown fox jumps over it.`).join(
  '\n',
);

describe('token counts', () => {
  // First in this file: the tokenizer is loaded by this count, and nothing here has loaded it on this thread.
  it('keep this thread responsive while the tokenizer loads and counts a long prompt', async () => {
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const [count = 0] = await countTokenGroups([[longText]]);
    const took = performance.now() - started;
    clearInterval(ticker);
    expect(count).toBeGreaterThan(40_000);
    // On this thread, loading the tables and counting would be one stretch of synchronous work: most of the time.
    expect(longestGap / took).toBeLessThan(0.25);
  });

  it('are the o200k tokenizer’s counts, summed per group', async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const texts = ['Hello there, how are you today?', 'I am fine', ', thanks.', longText.slice(0, 5_000), ''];
    const counts = await countTokenGroups([texts, [texts[1]!], [], ['']]);
    expect(counts).toEqual([texts.reduce((sum, text) => sum + countTokens(text), 0), countTokens('I am fine'), 0, 0]);
  });
});

describe('a count in a process with nothing else to wait for', () => {
  it('is answered before the process exits, and the process then exits', async () => {
    const module = fileURLToPath(new URL('./usage-estimate.ts', import.meta.url));
    const script = `const { countTokenGroups } = await import(${JSON.stringify(module)});
      console.log(JSON.stringify(await countTokenGroups([['Hello there']])));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const stuck = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(stuck);
    expect(output.trim()).toBe('[2]');
    expect(code).toBe(0);
  }, 30_000);
});

describe('estimateUsage', () => {
  it('counts the prompt’s text, its tool definitions and what was generated with the o200k tokenizer', async () => {
    const plain = await estimateUsage(
      { messages: [{ role: 'user', content: 'Hello there, how are you today?' }] },
      GeneratedText.of('I am fine', ', thanks.'),
    );
    // "I am fine, thanks." is 6 o200k tokens; the prompt is its 8 tokens of text, the role and the chat overhead.
    expect(plain.completion_tokens).toBe(6);
    expect(plain.prompt_tokens).toBe(8 + 1 + 3 + 3);
    expect(plain.total_tokens).toBe(plain.prompt_tokens + plain.completion_tokens);
    const withTools = await estimateUsage(
      {
        messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
        tools: [
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
        ],
      },
      new GeneratedText(),
    );
    expect(withTools.prompt_tokens).toBeGreaterThan(plain.prompt_tokens + 5);
    expect(withTools.completion_tokens).toBe(0);
  });

  it('keeps no more than its limit of a long stream’s text, and scales the count of what it kept', async () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const pieces = Array<string>(Math.ceil((4 * maxKeptGeneratedChars) / sentence.length)).fill(sentence);
    const generated = GeneratedText.of(...pieces);
    expect(generated.pieces.join('').length).toBe(maxKeptGeneratedChars);
    expect(generated.length).toBe(pieces.length);
    const request = { messages: [{ role: 'user' as const, content: 'Hi' }] };
    const whole = (await estimateUsage(request, generated)).completion_tokens;
    const [counted = 0] = await countTokenGroups([[pieces.join('')]]);
    // The text is the same sentence over and over: scaling the count of a part is within 1% of counting it all.
    expect(Math.abs(whole - counted)).toBeLessThan(counted * 0.01);
  });
});
