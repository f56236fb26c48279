// Files from disk in the chat, as a person attaches them in the browser against `switchyard serve` and the scripted
// upstream: the Attach button's file picker, a drop on the conversation and a paste into the message box; chips
// with name, size and a remove button before sending; what the model receives (a PDF as a file part, a text file
// fenced under its name, an image as an image); the sent message's file chips; and a model that cannot take a
// kind of file saying so before anything is sent. Light and dark, wide and 720 px.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { waitFor } from '../support/wait-for.js';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { type UiHarness } from './ui-harness.js';

let upstream: ScriptedUpstream;
let ui: UiHarness;

useChatUi((started) => ({ ui, upstream } = started));

const pixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const notes = '# Notes\n\nShip on Friday.\n';

const picker = (page: Page) => page.getByRole('combobox', { name: 'Model', exact: true });
const chips = (page: Page) => page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
const notice = (page: Page) => page.locator('.composer-notices .notice');
const transcript = (page: Page) => page.getByRole('log', { name: 'Messages' });

async function openChat(colorScheme: 'light' | 'dark', model: string): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await expect.poll(() => picker(page).inputValue()).toMatch(/^fake\//);
  await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
  await page.getByRole('complementary', { name: 'Conversations' }).locator('[aria-current="true"]').waitFor();
  await picker(page).fill(model.replace('fake/', ''));
  await picker(page).press('ArrowDown');
  await picker(page).press('Enter');
  await expect.poll(() => picker(page).inputValue()).toBe(model);
  return page;
}

/** Chooses files with the Attach button's file picker, as a person does. */
async function attachWithPicker(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach', exact: true }).click();
  await (await chooser).setFiles(files);
}

/** The page's own constructors (the tests compile without the DOM's types). */
interface PageGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  DragEvent: new (type: string, init: object) => unknown;
  ClipboardEvent: new (type: string, init: object) => unknown;
}
type EventTarget = { dispatchEvent(event: unknown): boolean };

/**
 * Drags a file over the conversation, checks that it says it takes it, and drops it (a DataTransfer made in the
 * page, as the browser makes one for a real drop).
 */
async function dropFile(page: Page, name: string, type: string, text: string) {
  const drag = (kind: 'dragover' | 'drop') =>
    page.locator('.conversation-view').evaluate(
      (target: EventTarget, file) => {
        const { DataTransfer, DragEvent, File } = globalThis as unknown as PageGlobals;
        const transfer = new DataTransfer();
        transfer.items.add(new File([file.text], file.name, { type: file.type }));
        target.dispatchEvent(new DragEvent(file.kind, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      },
      { name, type, text, kind },
    );
  await drag('dragover');
  const hint = page.getByText('Drop files to attach them');
  await hint.waitFor();
  const hintBox = (await hint.boundingBox())!;
  const view = (await page.locator('.conversation-view').boundingBox())!;
  expect(hintBox.x > view.x && hintBox.x + hintBox.width < view.x + view.width).toBe(true);
  await drag('drop');
  await hint.waitFor({ state: 'detached' });
}

/** Pastes an image into the message box, as a screenshot copied to the clipboard arrives. */
async function pasteImage(page: Page, base64: string) {
  await page.getByRole('textbox', { name: 'Message' }).evaluate((target: EventTarget, data) => {
    const { DataTransfer, ClipboardEvent, File } = globalThis as unknown as PageGlobals;
    const bytes = Uint8Array.from(atob(data), (character) => character.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    target.dispatchEvent(new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: transfer }));
  }, base64);
}

describe('files attached from disk', () => {
  it('come by the Attach button, a drop and a paste, show as chips, and reach the model as their parts', async () => {
    const page = await openChat('light', 'fake/scripted-pdf');
    const attach = page.getByRole('button', { name: 'Attach', exact: true });
    expect(await attach.getAttribute('title')).toBe('Attach images, PDFs and text files (or paste or drop them)');

    await attachWithPicker(page, [
      { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(notes) },
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdfBytes },
      { name: 'pixel.png', mimeType: 'image/png', buffer: pixelPng },
    ]);
    await expect
      .poll(() => chips(page).allTextContents())
      .toEqual([
        `MDnotes.md${notes.length} B×`,
        `PDFreport.pdf${pdfBytes.length} B×`,
        `pixel.png${pixelPng.length} B×`,
      ]);
    await chips(page).nth(2).getByRole('button', { name: 'Remove pixel.png' }).click();
    await expect.poll(() => chips(page).count()).toBe(2);

    await dropFile(page, 'data.json', 'application/json', '{"answer":42}');
    await pasteImage(page, pixelPng.toString('base64'));
    await expect
      .poll(() => chips(page).locator('.attachment-name').allTextContents())
      .toEqual(['notes.md', 'report.pdf', 'data.json', 'image.png']);
    expect(await chips(page).nth(3).locator('img').count()).toBe(1);

    // The chips sit inside the composer above the message box, none over another, at 1280 and at 720 px.
    for (const width of [1280, 720]) {
      await page.setViewportSize({ width, height: 860 });
      const composer = (await page.locator('form.composer').boundingBox())!;
      const boxes = await Promise.all((await chips(page).all()).map(async (chip) => (await chip.boundingBox())!));
      const textbox = (await page.getByRole('textbox', { name: 'Message' }).boundingBox())!;
      for (const [index, box] of boxes.entries()) {
        expect(box.x >= composer.x && box.x + box.width <= composer.x + composer.width + 0.5).toBe(true);
        expect(box.y + box.height <= textbox.y).toBe(true);
        for (const other of boxes.slice(index + 1)) {
          const apart =
            other.x >= box.x + box.width - 0.5 ||
            box.x >= other.x + other.width - 0.5 ||
            other.y >= box.y + box.height - 0.5 ||
            box.y >= other.y + other.height - 0.5;
          expect(apart).toBe(true);
        }
      }
      // The message box keeps most of the row: in a narrow conversation the Attach button shows its icon only.
      const row = (await page.locator('.composer-row').boundingBox())!;
      expect(textbox.width / row.width).toBeGreaterThan(width === 720 ? 0.4 : 0.6);
      await ui.screenshot(page, `chat-attachments-chips-${width}-light`);
      await expectLooksRight(page, [attach, chips(page).first()]);
    }
    await page.setViewportSize({ width: 1280, height: 860 });

    const before = upstream.chatRequests().length;
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('What do these say?');
    await message.press('Enter');
    await waitFor(() => upstream.chatRequests().length > before, { what: 'the request with the attachments' });
    const sent = upstream.chatRequests().at(-1)?.body?.messages?.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What do these say?' },
        { type: 'text', text: `Attached file notes.md:\n\n\`\`\`md\n${notes}\n\`\`\`` },
        { type: 'text', text: 'Attached file data.json:\n\n```json\n{"answer":42}\n```' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${pixelPng.toString('base64')}` } },
        {
          type: 'file',
          file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdfBytes.toString('base64')}` },
        },
      ],
    });

    // The sent message shows the question, then each file as a chip; a text file opens to its text.
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const question = transcript(page).getByRole('article', { name: 'Your message' });
    const pdfChip = question.locator('.sent-file', { hasText: 'report.pdf' });
    await pdfChip.waitFor();
    expect(await pdfChip.textContent()).toBe('PDFreport.pdf');
    expect(await question.locator('.user-text').allTextContents()).toEqual(['What do these say?']);
    const notesChip = question.getByText('notes.md', { exact: true });
    await notesChip.click();
    expect(await question.getByLabel('Text of notes.md').textContent()).toBe(notes);
    expect(await question.locator('img.user-image').count()).toBe(1);
    expect(await chips(page).count()).toBe(0);
    await ui.screenshot(page, 'chat-attachments-sent-light');
    await expectLooksRight(page, [pdfChip, notesChip]);
  });

  it('says before sending what the model cannot take, and takes text files for any model', async () => {
    const page = await openChat('dark', 'fake/scripted-1');
    expect(await page.getByRole('button', { name: 'Attach', exact: true }).getAttribute('title')).toBe(
      'Attach text files (or paste or drop them). fake/scripted-1 does not take images or PDFs.',
    );
    await attachWithPicker(page, [
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdfBytes },
      { name: 'pixel.png', mimeType: 'image/png', buffer: pixelPng },
      { name: 'main.py', mimeType: '', buffer: Buffer.from('print("hi")\n') },
      { name: 'blob.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 159, 146, 150]) },
    ]);
    await expect
      .poll(() => notice(page).textContent())
      .toBe(
        'fake/scripted-1 does not accept PDFs (report.pdf). fake/scripted-1 does not accept images (pixel.png). ' +
          'blob.bin cannot be attached: only images, PDFs and text files can.',
      );
    expect(await chips(page).locator('.attachment-name').allTextContents()).toEqual(['main.py']);
    await page.setViewportSize({ width: 720, height: 860 });
    await ui.screenshot(page, 'chat-attachments-refused-720-dark');
    await expectLooksRight(page, [notice(page), chips(page).first()]);

    // A PDF attached for a model that reads PDFs, then another model chosen: said before anything is sent.
    await picker(page).fill('scripted-pdf');
    await picker(page).press('ArrowDown');
    await picker(page).press('Enter');
    await expect.poll(() => picker(page).inputValue()).toBe('fake/scripted-pdf');
    await attachWithPicker(page, [{ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdfBytes }]);
    await expect.poll(() => chips(page).count()).toBe(2);
    await picker(page).fill('scripted-vision');
    await picker(page).press('ArrowDown');
    await picker(page).press('Enter');
    await expect.poll(() => picker(page).inputValue()).toBe('fake/scripted-vision');
    const before = upstream.chatRequests().length;
    await page.getByRole('textbox', { name: 'Message' }).fill('Read it');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect
      .poll(() => notice(page).textContent())
      .toBe('fake/scripted-vision does not accept PDFs: remove them or choose another model.');
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Read it');
    expect(upstream.chatRequests()).toHaveLength(before);

    await page.getByRole('button', { name: 'Remove report.pdf' }).click();
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await waitFor(() => upstream.chatRequests().length > before, { what: 'the request with the text file' });
    expect(upstream.chatRequests().at(-1)?.body?.messages?.at(-1)?.content).toEqual([
      { type: 'text', text: 'Read it' },
      { type: 'text', text: 'Attached file main.py:\n\n```py\nprint("hi")\n\n```' },
    ]);
    await transcript(page).getByText('main.py', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await expectLooksRight(page, [transcript(page).getByText('main.py', { exact: true })]);
  });
});
