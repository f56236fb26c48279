// Answers as a person reads them: LaTeX typeset by KaTeX with its bundled fonts (no request leaves the app, the CSP
// refuses nothing), prices left as text, code blocks naming their language beside the copy button, quotations that
// look like quotations and stay readable, and tool cards that show they open. Light and dark.

import { beforeAll, describe, expect, it } from 'vitest';
import { newChatMessage } from '../../shared/bridge/chat-message.js';
import { expectLooksRight } from './a11y.js';
import { textContrast } from './contrast.js';
import { withSeedApp } from './seed.js';
import { closeAfterTests, openConversation, startUi, type UiHarness } from './ui-harness.js';

const title = 'Formulas and quotes';
const answer = [
  'Einstein wrote $E = mc^2$, and a thin space works: $a\\,b$.',
  '',
  'Inline with brackets: \\(x^2 + y^2 = z^2\\).',
  '',
  '$$\\int_0^1 x\\,dx = \\frac{1}{2}$$',
  '',
  '\\[\\sum_{n=1}^{k} n = \\frac{k(k+1)}{2}\\]',
  '',
  'The plans cost $5 and $10 a month.',
  '',
  '> Simplicity is prerequisite for reliability.',
  '',
  '```ts',
  'const answer: number = 42;',
  '```',
].join('\n');

let ui: UiHarness;

beforeAll(async () => {
  ui = await startUi({
    prepare: (dataDir) =>
      withSeedApp(dataDir, async (app) => {
        const at = Date.UTC(2026, 10, 27, 9);
        await app.store.chat.insertConversation({
          id: 'formulas',
          title,
          model: 'fake/scripted-1',
          systemPrompt: '',
          temperature: null,
          createdAt: at,
          updatedAt: at,
        });
        const add = (id: string, fields: Parameters<typeof newChatMessage>[0] extends infer T ? Partial<T> : never) =>
          app.store.chat.insertMessage(
            newChatMessage({
              id,
              conversationId: 'formulas',
              status: 'complete',
              createdAt: at,
              role: 'user',
              ...fields,
            }),
          );
        await add('q1', { role: 'user', content: 'Show me some math.', createdAt: at + 1 });
        await add('a1', {
          role: 'assistant',
          parentId: 'q1',
          content: 'Let me check first.',
          createdAt: at + 2,
          toolCalls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'everything__echo', arguments: '{"message":"hi"}' },
              mcp: { server: 'everything', tool: 'echo' },
            },
          ],
        });
        await add('t1', { role: 'tool', parentId: 'a1', toolCallId: 'call_1', content: 'Echo: hi', createdAt: at + 3 });
        await add('a2', { role: 'assistant', parentId: 't1', content: answer, createdAt: at + 4 });
      }),
  });
}, 120_000);

closeAfterTests(() => ui);

describe('answers in markdown', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`typeset math, keep prices, name code languages, quote and fold tool cards, in ${colorScheme}`, async () => {
      const { page } = await ui.open('Chat', { colorScheme });
      const origin = new URL(page.url()).origin;
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
      });
      await openConversation(page, title);
      const reply = page.getByRole('article', { name: 'Assistant message' }).last();
      await reply.locator('.katex').first().waitFor();

      // Math: every formula typeset (none left as source), two of them as display blocks, with KaTeX's own fonts.
      expect(await reply.locator('.katex').count()).toBe(5);
      expect(await reply.locator('.katex-display').count()).toBe(2);
      const annotations = await reply.locator('annotation').allTextContents();
      expect(annotations).toEqual([
        'E = mc^2',
        'a\\,b',
        'x^2 + y^2 = z^2',
        '\\int_0^1 x\\,dx = \\frac{1}{2}',
        '\\sum_{n=1}^{k} n = \\frac{k(k+1)}{2}',
      ]);
      const text = (await reply.textContent()) ?? '';
      expect(text).not.toContain('$E');
      expect(text).not.toContain('\\(');
      await reply.getByText('The plans cost $5 and $10 a month.').waitFor();
      const loadedFonts = await page.evaluate(async () => {
        const { document } = globalThis as unknown as {
          document: { fonts: Iterable<{ family: string; status: string }> & { ready: Promise<unknown> } };
        };
        await document.fonts.ready;
        return [...document.fonts].filter((font) => font.family.includes('KaTeX') && font.status === 'loaded').length;
      });
      expect(loadedFonts, 'KaTeX fonts loaded from the app').toBeGreaterThan(0);
      expect(elsewhere, 'nothing fetched from elsewhere').toEqual([]);

      // A code block names its language in its header, on the copy button's row.
      const code = reply.locator('.markdown-code');
      const language = code.locator('.code-language');
      expect(await language.textContent()).toBe('ts');
      const [label, copy] = [
        await language.boundingBox(),
        await code.getByRole('button', { name: 'Copy code' }).boundingBox(),
      ];
      expect(label && copy).toBeTruthy();
      expect(label!.x + label!.width).toBeLessThan(copy!.x);
      expect(Math.abs(label!.y + label!.height / 2 - (copy!.y + copy!.height / 2))).toBeLessThan(6);
      expect(
        await code.getByRole('button', { name: 'Copy code' }).evaluate((button) => {
          const { getComputedStyle } = globalThis as unknown as {
            getComputedStyle(element: unknown): { opacity: string };
          };
          return getComputedStyle((button as unknown as { parentElement: unknown }).parentElement).opacity;
        }),
      ).toBe('1');

      // A quotation: a bar at its left, quieter text that stays readable.
      const quote = reply.locator('blockquote');
      const bar = await quote.evaluate((element) => {
        const { getComputedStyle } = globalThis as unknown as {
          getComputedStyle(element: unknown): { borderLeftWidth: string; borderLeftStyle: string; paddingLeft: string };
        };
        const style = getComputedStyle(element);
        return { width: style.borderLeftWidth, style: style.borderLeftStyle, padding: style.paddingLeft };
      });
      expect(bar).toEqual({ width: '3px', style: 'solid', padding: '12px' });
      const quoteContrast = await textContrast(quote.locator('p'));
      expect(quoteContrast.ratio, `${quoteContrast.color} on ${quoteContrast.background}`).toBeGreaterThanOrEqual(4.5);
      const body = await textContrast(reply.locator('.markdown p').first());
      expect(quoteContrast.color, 'quieter than the answer').not.toBe(body.color);

      // A finished tool card is folded, and shows that it opens.
      const card = page.getByRole('region', { name: 'Tool call everything / echo' });
      const toggle = card.locator('summary');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      const chevron = card.locator('.tool-chevron');
      expect(await chevron.isVisible()).toBe(true);
      const turn = () =>
        chevron.evaluate((element) => {
          const { getComputedStyle } = globalThis as unknown as {
            getComputedStyle(element: unknown): { transform: string };
          };
          return getComputedStyle(element).transform;
        });
      expect(await turn()).toBe('none');
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
      await card.getByLabel('Result').waitFor();
      await expect.poll(turn).not.toBe('none');

      await ui.screenshot(page, `chat-markdown-${colorScheme}`);
      await expectLooksRight(page, [reply.locator('.katex-display').first(), language, quote]);
    });
  }
});
