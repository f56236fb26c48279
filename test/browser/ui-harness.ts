// What every screen's browser test needs: the real `switchyard serve` on a temp data dir (file secret store, no
// providers of this machine), the printed UI URL, Debian's Chromium through playwright-core, pages opened on one
// screen in light or dark, screenshots in test-artifacts/browser/, and every bridge answer a page received (to
// prove a secret never came back).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { repoRoot, startServer, type RunningServer } from '../support/cli.js';
import { everythingBin } from '../../main/mcp/test-support.js';
import { expectLooksRight } from './a11y.js';
import { ensureRendererBuilt } from './renderer-build.js';
import { seedProvider } from './seed.js';

export const artifacts = path.join(repoRoot, 'test-artifacts/browser');
const chromiumPath = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';

export interface OpenedPage {
  page: Page;
  /** The body of every POST /bridge/invoke/… answer this page received, in order. */
  bridgeAnswers: string[];
}

export interface UiHarness {
  dataDir: string;
  server: RunningServer;
  uiUrl: string;
  /** The UI's access token, for calling the bridge from the test itself. */
  token: string;
  /**
   * A blank page in a new browser context, signed in to nothing (no link, no cookie), for tests of how the UI is
   * reached; its CSP violations fail the test like open()'s.
   */
  newPage(options?: { colorScheme?: 'light' | 'dark'; width?: number }): Promise<Page>;
  /** Opens the UI in a new browser context and goes to the screen with this navigation label. */
  open(screen: string, options?: { colorScheme?: 'light' | 'dark'; permissions?: string[] }): Promise<OpenedPage>;
  /** Calls the bridge as the page would (for set-up and checks). */
  invoke<T>(channel: string, request?: unknown): Promise<T>;
  screenshot(page: Page, name: string): Promise<void>;
  /** Closes the contexts opened since the last call; throws if a page broke the CSP. */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with nothing of its own on the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export async function startUi(
  options: {
    prepare?: (dataDir: string) => Promise<void> | void;
    /** More environment for serve (HOME: a temporary home for the files "Connect a tool" edits). */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<UiHarness> {
  ensureRendererBuilt();
  fs.mkdirSync(artifacts, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-ui-'));
  await options.prepare?.(dataDir);
  const server = await startServer(['--data-dir', dataDir], { SWITCHYARD_SECRET_STORE: 'file', ...options.env });
  const uiUrl = await waitFor(() => /Switchyard UI: (\S+)/.exec(server.stdout())?.[1], { what: 'the UI URL line' });
  const token = new URL(uiUrl).searchParams.get('token') ?? '';
  const origin = new URL(uiUrl).origin;
  const browser = await launchChromium();
  let contexts: BrowserContext[] = [];
  const cspViolations: string[] = [];

  const newPage = async ({
    colorScheme = 'light',
    width = 1280,
    permissions = [],
  }: { colorScheme?: 'light' | 'dark'; width?: number; permissions?: string[] } = {}): Promise<Page> => {
    const context = await browser.newContext({ colorScheme, viewport: { width, height: 860 }, acceptDownloads: true });
    contexts.push(context);
    // Under a test's 30 s: a wait that never ends fails naming what it waited for, not as a bare test timeout.
    context.setDefaultTimeout(20_000);
    if (permissions.length > 0) await context.grantPermissions(permissions, { origin });
    const page = await context.newPage();
    // The UI runs under a CSP without 'unsafe-inline' (http-bridge.ts): anything it refuses is a bug.
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return page;
  };

  return {
    dataDir,
    server,
    uiUrl,
    token,
    newPage,
    async open(screen, { colorScheme = 'light', permissions = [] } = {}) {
      const page = await newPage({ colorScheme, permissions });
      const bridgeAnswers: string[] = [];
      page.on('response', (response) => {
        if (!response.url().includes('/bridge/invoke/')) return;
        response.text().then(
          (text) => bridgeAnswers.push(text),
          () => undefined,
        );
      });
      await page.goto(uiUrl);
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await navigation.getByRole('button', { name: screen, exact: true }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      return { page, bridgeAnswers };
    },
    async invoke<T>(channel: string, request: unknown = {}): Promise<T> {
      const response = await fetch(`${origin}/bridge/invoke/${channel}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      const body = (await response.json()) as { result?: T; error?: { message: string } };
      if (!response.ok) throw new Error(`${channel}: ${response.status} ${body.error?.message ?? ''}`);
      return body.result as T;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
    },
    async closePages() {
      for (const context of contexts) await context.close();
      contexts = [];
      if (cspViolations.length > 0) throw new Error(`CSP violations: ${cspViolations.splice(0).join('\n')}`);
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A startUi `prepare` for MCP screens: the data dir's mcp_settings.json holds server-everything as `everything`. */
export function withEverythingServer(dataDir: string): void {
  fs.writeFileSync(
    path.join(dataDir, 'mcp_settings.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'] } } }),
  );
}

/**
 * The hooks of every screen's test file: after each test its pages close (a CSP violation fails the test), after
 * the last one the UI stops, then what it used (a fake upstream).
 */
export function closeAfterTests(
  ui: () => UiHarness | undefined,
  ...used: (() => { close(): Promise<unknown> } | undefined)[]
): void {
  afterEach(async () => {
    await ui()?.closePages();
  });
  afterAll(async () => {
    await ui()?.close();
    for (const resource of used) await resource()?.close();
  });
}

export interface UpstreamUiOptions {
  /**
   * The provider the upstream is seeded as before serve starts, with these prices; null: none (a test adds it).
   * Default "fake".
   */
  provider?: string | null;
  /** The provider's key, when a test looks for it (to prove it never reaches the page). */
  apiKey?: string;
  prices?: { model: string; input: number; output: number }[];
  /** More of the data folder, before serve starts. */
  prepare?(dataDir: string): Promise<void> | void;
}

/**
 * The set-up of a screen's test file that talks to an upstream: the upstream, then the UI with it as a provider,
 * started before the tests of the current file or block (`made` is handed both, and may go on before the first
 * test) and closed after them (closeAfterTests).
 */
export function useUpstreamUi<Upstream extends { baseUrl: string; close(): Promise<unknown> }>(
  startUpstream: () => Promise<Upstream>,
  made: (started: { ui: UiHarness; upstream: Upstream }) => unknown,
  { provider = 'fake', apiKey, prices, prepare }: UpstreamUiOptions = {},
): void {
  let ui: UiHarness | undefined;
  let upstream: Upstream | undefined;
  beforeAll(async () => {
    const started = await startUpstream();
    upstream = started;
    ui = await startUi({
      prepare: async (dataDir) => {
        if (provider !== null) {
          await seedProvider(
            dataDir,
            { id: provider, baseUrl: started.baseUrl, ...(apiKey ? { apiKey } : {}) },
            prices,
          );
        }
        await prepare?.(dataDir);
      },
    });
    await made({ ui, upstream: started });
  }, 120_000);
  closeAfterTests(
    () => ui,
    () => upstream,
  );
}

/** A request through the gateway as an app (`x-title`) makes it with a key's secret; answers its generation id. */
export async function requestThroughGateway(
  ui: UiHarness,
  { secret, model = 'fake/echo-1', app }: { secret: string; model?: string; app: string },
): Promise<string> {
  const response = await fetch(`${ui.server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-title': app },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream: false }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/**
 * A screen in light and in dark, as people would see it with either system setting: `ready` waits for its content
 * and names the elements a person needs; each theme must then look right (expectLooksRight: visible, laid out
 * without overlaps or clipping, no serious accessibility problem). The screenshots are for a human to look at.
 */
export async function expectBothThemesLookRight(
  harness: UiHarness,
  screen: string,
  name: string,
  ready: (page: Page) => Promise<Locator[]>,
) {
  for (const colorScheme of ['light', 'dark'] as const) {
    const { page } = await harness.open(screen, { colorScheme });
    const keyElements = await ready(page);
    await harness.screenshot(page, `${name}-${colorScheme}`);
    await expectLooksRight(page, keyElements);
  }
}

/** What the page's clipboard holds (the context needs clipboard-read). */
/** Answers the confirmation dialog named `dialog` as a person does: with its button named `button`. */
export async function confirmIn(page: Page, dialog: string, button: string): Promise<void> {
  await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: button }).click();
}

export function readClipboard(page: Page): Promise<string> {
  type WithClipboard = { navigator: { clipboard: { readText(): Promise<string> } } };
  return page.evaluate(() => (globalThis as unknown as WithClipboard).navigator.clipboard.readText());
}

/** Whether the element has the keyboard focus. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === element.ownerDocument.activeElement);
}

/** Below this width the chat folds its conversation list away (chat-screen.tsx), and lays it over when opened. */
export const narrowChatPx = 960;

/** Sets the window's width and, in a narrow window, waits for the chat's list to have folded away. */
export async function chatAtWidth(page: Page, width: number, height = 900): Promise<void> {
  await page.setViewportSize({ width, height });
  if (width < narrowChatPx) {
    await expect.poll(() => page.getByRole('complementary', { name: 'Conversations' }).isVisible()).toBe(false);
  }
}

/** The chat's conversation list, opened first when a narrow window has it folded away. */
export async function conversationList(page: Page): Promise<Locator> {
  const list = page.getByRole('complementary', { name: 'Conversations' });
  const unfold = page.getByRole('button', { name: 'Show conversations' });
  if (!(await list.isVisible()) && (await unfold.isVisible())) await unfold.click();
  await list.waitFor();
  return list;
}

/** Starts a chat as a person does ("New chat" in the list or, in a narrow window, the header) and waits for its address. */
export async function newChat(page: Page): Promise<void> {
  const hash = () => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash);
  const before = await hash();
  await page.getByRole('button', { name: 'New chat', exact: true }).first().click();
  await expect.poll(async () => /^#\/chat\/./.test(await hash()) && (await hash()) !== before).toBe(true);
}

/** Opens a conversation by its title in the chat's list, and waits for it to be the one shown. */
export async function openConversation(page: Page, title: string): Promise<void> {
  await page
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('button', { name: title, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}
