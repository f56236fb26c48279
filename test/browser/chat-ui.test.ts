// The product in a browser: the real `switchyard serve` with a scripted upstream and server-everything, the
// printed UI URL opened in Debian's Chromium through playwright-core. Screenshots go to test-artifacts/browser/.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startServer, type RunningServer } from '../support/cli.js';
import { prepareDataDir } from '../chat/chat-test-app.js';
import { waitFor } from '../support/wait-for.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../chat/scripted-upstream.js';
import { expectLooksRight } from './a11y.js';
import { ensureRendererBuilt } from './renderer-build.js';
import { launchChromium } from './ui-harness.js';

const artifacts = path.join(repoRoot, 'test-artifacts/browser');

let upstream: ScriptedUpstream;
let dataDir: string;
let server: RunningServer;
let uiUrl: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  ensureRendererBuilt();
  fs.mkdirSync(artifacts, { recursive: true });
  upstream = await startScriptedUpstream({ slowPieceMs: 80 });
  dataDir = await prepareDataDir(upstream);
  server = await startServer(['--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file' });
  uiUrl = await waitFor(() => /Switchyard UI: (\S+)/.exec(server.stdout())?.[1], { what: 'the UI URL line' });
  browser = await launchChromium();
}, 120_000);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await upstream?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function openUi(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1200, height: 800 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(uiUrl);
  await expect.poll(() => new URL(page.url()).search, { message: 'the token left the address bar' }).toBe('');
  await page.getByRole('combobox', { name: 'Model' }).waitFor();
  await expect.poll(() => page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('fake/scripted-1');
  return page;
}

async function startChat(page: Page, text: string): Promise<void> {
  const conversations = page.getByRole('complementary', { name: 'Conversations' });
  const selected = await conversations.locator('[aria-current="true"]').count();
  await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
  if (selected === 0) await conversations.locator('[aria-current="true"]').waitFor();
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill(text);
  await message.press('Enter');
}

function screenshot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

/** A request with headers a browser would not let us set (Host). */
function rawRequest(
  url: string,
  headers: Record<string, string>,
  body = '{}',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (data: Buffer) => (text += data.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the chat in a browser against switchyard serve', () => {
  it('prints the UI URL with a token, and the bridge refuses requests without it or from another host', async () => {
    const url = new URL(uiUrl);
    expect(url.pathname).toBe('/');
    const token = url.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect(server.stdout().split('\n')[0]).toMatch(
      /^Switchyard gateway listening at http:\/\/127\.0\.0\.1:\d+\/api\/v1$/,
    );
    const invoke = `${url.origin}/bridge/invoke/app:info`;

    const anonymous = await rawRequest(invoke, {});
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await rawRequest(invoke, { authorization: 'Bearer wrong-token' })).status).toBe(401);
    expect((await rawRequest(invoke, { cookie: `switchyard-ui-${url.port}=wrong` })).status).toBe(401);

    const rebound = await rawRequest(invoke, { authorization: `Bearer ${token}`, host: `evil.example:${url.port}` });
    expect(rebound.status).toBe(403);
    const foreignOrigin = await rawRequest(invoke, { authorization: `Bearer ${token}`, origin: 'http://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    const wrongLink = await fetch(`${url.origin}/?token=nope`, { redirect: 'manual' });
    expect([wrongLink.status, wrongLink.headers.get('set-cookie')]).toEqual([302, null]);

    const allowed = await rawRequest(invoke, { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.body)).toMatchObject({ result: { gatewayUrl: server.baseUrl } });
  });

  it('sends a message and shows the streamed markdown answer with its usage', async () => {
    const page = await openUi('light');
    await startChat(page, 'Hello there');
    const answer = page.getByRole('article', { name: 'Assistant message' }).last();
    await answer.getByText('const answer = 42;').waitFor();
    await expect.poll(() => answer.locator('strong').textContent()).toBe('scripted');
    await expect.poll(() => answer.getByLabel('Usage').textContent()).toMatch(/20 in · \d+ out/);
    await expect.poll(() => page.getByRole('button', { name: 'Hello there', exact: true }).count()).toBe(1); // the list's title
    await screenshot(page, 'chat-answer-light');
    await expectLooksRight(page, [answer, page.getByRole('button', { name: 'Send' })]);
  });

  it('asks for approval, runs the MCP tool once approved, and shows the result and the final answer', async () => {
    const page = await openUi('dark');
    await startChat(page, 'please echo kiwi');
    const card = page.getByRole('group', { name: 'Approve echo on everything' });
    await card.waitFor();
    await screenshot(page, 'tool-approval-dark');
    await expectLooksRight(page, [card.getByRole('button', { name: 'Approve once' })]);
    await card.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('The tool said: Echo: kiwi').waitFor();
    const toolCall = page.getByRole('region', { name: 'Tool call everything / echo' });
    await expect.poll(() => toolCall.getByText('done').count()).toBe(1);
    await toolCall.locator('summary').click(); // it folded once done: open it to show the result
    await expect.poll(() => toolCall.getByLabel('Result').textContent()).toBe('Echo: kiwi');
    await expect.poll(() => card.count()).toBe(0);
    await screenshot(page, 'tool-result-dark');
    await expectLooksRight(page, [toolCall.getByLabel('Result')]);
  });

  it('stops a streaming answer with the stop button', async () => {
    const page = await openUi('light');
    const abortedBefore = upstream.abortedCount();
    await startChat(page, 'a slow answer please');
    const answer = page.getByRole('article', { name: 'Assistant message' }).last();
    await answer.getByText(/word3 /).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await answer.getByText('Stopped', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await waitFor(() => upstream.abortedCount() > abortedBefore, { what: 'the upstream stream to be aborted' });
    expect(await answer.textContent()).not.toContain('word399');
    await screenshot(page, 'stopped-light');
  });
});
