// gemini-cli itself through Switchyard, configured only as its docs describe for a custom endpoint:
// GOOGLE_GEMINI_BASE_URL (the gateway's root: gemini-cli adds /v1beta), GEMINI_API_KEY (a Switchyard key) and the
// model (`-m`, a `<provider>/<model>` or an alias), with the Gemini API key as the auth type in settings.json. Two
// runs, one per path through the gateway: an openai-kind upstream named as `fake/gpt-test` (the Gemini API
// translated to chat completions and back) and a google-kind one named by the alias `gemini-2.5-flash` (the Gemini
// API passed through untranslated, its thought signature back unchanged). Each scripted upstream first asks for a shell command, then
// answers with text once the command's output came back; a real `switchyard serve` on a temporary data dir sits
// between; `gemini -p … --yolo` runs one turn non-interactively in a temporary HOME. Passes when gemini-cli's final
// answer quotes the command's output and the upstream saw that output come back.
//
//   npm install --prefix /tmp/agents/gemini @google/gemini-cli     (outside the repo: gemini-cli is no dependency)
//   node --import tsx scripts/try-agents/gemini-cli.ts              (GEMINI_CLI_BIN=… to use another gemini)

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runCli, startServer, type RunningServer } from '../../test/support/cli.js';
import { FakeGemini, geminiKey } from '../../test/support/fake-gemini.js';
import { answer, FakeOpenAI, type RecordedRequest } from '../../test/support/fake-openai.js';
import { eventStreamHeaders, type RecordingServer, type Reply } from '../../test/support/recording-server.js';

const geminiBin = process.env.GEMINI_CLI_BIN ?? '/tmp/agents/gemini/node_modules/.bin/gemini';
const marker = 'switchyard-tool-ok-5c2e';
const command = `echo ${marker}`;
const answerText = (printed: string) => `The command printed ${printed}.`;

interface ChatBody {
  messages: { role: string; content: unknown }[];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
}

/** The openai-kind upstream: first the shell call; after the tool's result, text quoting it. */
function scriptedChatTurn(request: RecordedRequest): Reply | Promise<Reply> {
  const last = (request.body as unknown as ChatBody).messages.at(-1)!;
  if (last.role === 'tool') {
    return answer(answerText(textOf(last.content).includes(marker) ? marker : 'nothing I recognise'))(request);
  }
  const call = { id: 'call_gemini_cli_1', name: 'run_shell_command', arguments: JSON.stringify({ command }) };
  return answer({ toolCalls: [call] })(request);
}

interface GeminiBody {
  contents: {
    role?: string;
    parts: { text?: string; thoughtSignature?: string; functionResponse?: { response?: unknown } }[];
  }[];
}

/** The signature the google-kind upstream puts on its function call: it must come back untouched. */
const signature = 'c2lnbmF0dXJlLTE=';

/** One :streamGenerateContent answer as Google streams it: the parts, then the finish with usage. */
function geminiStream(parts: Record<string, unknown>[]): Reply {
  const event = (payload: unknown) => `data: ${JSON.stringify(payload)}\r\n\r\n`;
  const usageMetadata = {
    promptTokenCount: 1200,
    candidatesTokenCount: 12,
    thoughtsTokenCount: 30,
    totalTokenCount: 1242,
  };
  const modelVersion = 'gemini-2.5-flash';
  return {
    headers: eventStreamHeaders,
    chunks: [
      event({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Running it.', thought: true }] }, index: 0 }],
        modelVersion,
      }),
      event({
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata,
        modelVersion,
      }),
    ],
  };
}

/** The google-kind upstream: first the shell call with a thought signature; after the function's response, text. */
function scriptedGeminiTurn(request: RecordedRequest): Reply {
  const body = request.body as unknown as GeminiBody;
  const responses = body.contents.flatMap((content) => content.parts.flatMap((part) => part.functionResponse ?? []));
  if (responses.length > 0) {
    const printed = JSON.stringify(responses.at(-1)!.response).includes(marker) ? marker : 'nothing I recognise';
    return geminiStream([{ text: answerText(printed) }]);
  }
  return geminiStream([
    { functionCall: { name: 'run_shell_command', args: { command } }, thoughtSignature: signature },
  ]);
}

interface Seen {
  method: string;
  path: string;
  status: number;
  userAgent: string;
  keyHeader: boolean;
}

/**
 * A pass-through in front of the gateway that notes what gemini-cli asks for (method, path, status, user agent,
 * whether the key came as x-goog-api-key): every endpoint it calls must be one the gateway serves.
 */
async function startWitness(target: string): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        seen.push({
          method: incoming.method ?? '',
          path: (incoming.url ?? '').replace(/key=[^&]*/, 'key=…'),
          status: answer.statusCode ?? 0,
          userAgent: String(incoming.headers['user-agent'] ?? ''),
          keyHeader: typeof incoming.headers['x-goog-api-key'] === 'string',
        });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

function run(commandLine: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(commandLine, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Setup {
  label: string;
  kind: 'openai' | 'google';
  upstream: RecordingServer;
  /** The provider's model, `<provider>/<model>`. */
  model: string;
  /** An alias to make for the model and name in gemini-cli instead (the fixed names tools send). */
  alias?: string;
  /** Whether the tool's output came back to the upstream. */
  toolResultCameBack(): boolean;
  /** Whether the thought signature of the function call came back to the upstream unchanged (native only). */
  signatureCameBack?(): boolean;
}

async function tryOne(setup: Setup, version: string): Promise<boolean> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-gemini-cli-'));
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  const workDir = path.join(root, 'work');
  for (const dir of [dataDir, path.join(home, '.gemini'), workDir]) fs.mkdirSync(dir, { recursive: true });
  const env = { SWITCHYARD_SECRET_STORE: 'file', UP_KEY: setup.kind === 'google' ? geminiKey : 'sk-upstream-fake' };
  let server: RunningServer | null = null;
  let witness: Server | null = null;
  try {
    const upstreamUrl = await setup.upstream.start();
    const baseUrl = upstreamUrl;
    const cli = (args: string[]) => runCli([...args, '--data-dir', dataDir], { env });
    const providerId = setup.model.split('/')[0]!;
    const added = await cli([
      'providers',
      'add',
      providerId,
      '--kind',
      setup.kind,
      '--base-url',
      baseUrl,
      '--api-key-env',
      'UP_KEY',
    ]);
    if (added.code !== 0) throw new Error(`providers add failed: ${added.stderr}`);
    if (setup.alias) {
      const aliased = await cli(['models', 'alias', setup.alias, setup.model]);
      if (aliased.code !== 0) throw new Error(`models alias failed: ${aliased.stderr}`);
    }
    const created = await cli(['keys', 'create', '--name', 'gemini-cli', '--json']);
    if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    server = await startServer(['--data-dir', dataDir], env);
    const watched = await startWitness(server.baseUrl.replace(/\/api\/v1$/, ''));
    witness = watched.server;

    // gemini-cli takes GOOGLE_GEMINI_BASE_URL alone as its "gateway" auth type, which -p refuses: the settings name
    // the Gemini API key as the auth type, and the base URL still applies.
    const settings = { security: { auth: { selectedType: 'gemini-api-key' } } };
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
    const geminiEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      GOOGLE_GEMINI_BASE_URL: watched.url,
      GEMINI_API_KEY: key,
    };
    const prompt = `Run the shell command "${command}" and tell me what it printed.`;
    const result = await run(geminiBin, ['-p', prompt, '-m', setup.alias ?? setup.model, '--yolo', '--skip-trust'], {
      env: geminiEnv,
      cwd: workDir,
      timeoutMs: 180_000,
    });

    const cameBack = setup.toolResultCameBack() && (setup.signatureCameBack?.() ?? true);
    const finalAnswer = result.stdout.trim().split('\n').at(-1) ?? '';
    const allServed = watched.seen.every((request) => request.status < 400);
    const passed = result.code === 0 && cameBack && allServed && finalAnswer.includes(marker);
    const calls = setup.upstream.requests.map((request) => `${request.method} ${request.url}`);
    const named = setup.alias ? `${setup.alias}, an alias of ${setup.model}` : setup.model;
    console.log(`--- ${setup.label} (model ${named}) ---`);
    for (const request of watched.seen) {
      const key = request.keyHeader ? 'x-goog-api-key' : 'no x-goog-api-key';
      console.log(`gemini-cli → ${request.method} ${request.path} → ${request.status} (${key}; ${request.userAgent})`);
    }
    console.log(`upstream requests: ${calls.join(', ')}`);
    console.log(
      `tool result (and signature) came back: ${cameBack}; exit code ${result.code}; final answer: ${finalAnswer}`,
    );
    if (!passed) console.log(`--- gemini stdout ---\n${result.stdout}\n--- gemini stderr ---\n${result.stderr}`);
    console.log(passed ? `PASS: gemini-cli ${version} completed a tool-calling turn (${setup.label}).` : 'FAIL');
    return passed;
  } finally {
    witness?.closeAllConnections();
    witness?.close();
    if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
    await server?.exited;
    await setup.upstream.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (!fs.existsSync(geminiBin)) {
    console.error(
      `No gemini at ${geminiBin}: npm install --prefix /tmp/agents/gemini @google/gemini-cli, or set GEMINI_CLI_BIN.`,
    );
    return 2;
  }
  const version = (
    await run(geminiBin, ['--version'], { env: process.env, cwd: os.tmpdir(), timeoutMs: 60_000 })
  ).stdout.trim();
  console.log(`gemini-cli ${version}`);
  console.log('settings.json: {"security": {"auth": {"selectedType": "gemini-api-key"}}}');
  console.log('environment: GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>  GEMINI_API_KEY=<a Switchyard key>');

  const openai = new FakeOpenAI({ models: ['gpt-test'], fallback: scriptedChatTurn });
  const translated = await tryOne(
    {
      label: 'translated to an openai-kind provider',
      kind: 'openai',
      upstream: openai,
      model: 'fake/gpt-test',
      toolResultCameBack: () =>
        openai
          .chatRequests()
          .some((request) =>
            (request.body as unknown as ChatBody).messages.some(
              (message) => message.role === 'tool' && textOf(message.content).includes(marker),
            ),
          ),
    },
    version,
  );

  const gemini = new FakeGemini({ models: ['gemini-2.5-flash'], fallback: scriptedGeminiTurn });
  const native = await tryOne(
    {
      label: 'native to a google-kind provider',
      kind: 'google',
      upstream: gemini,
      model: 'gem/gemini-2.5-flash',
      alias: 'gemini-2.5-flash',
      toolResultCameBack: () =>
        gemini.generateRequests().some((request) => {
          const body = request.body as unknown as GeminiBody;
          const parts = body.contents.flatMap((content) => content.parts);
          return parts.some((part) => JSON.stringify(part.functionResponse ?? '').includes(marker));
        }),
      signatureCameBack: () =>
        gemini.generateRequests().some((request) => {
          const body = request.body as unknown as GeminiBody;
          const parts = body.contents.filter((content) => content.role === 'model').flatMap((content) => content.parts);
          return parts.some((part) => part.thoughtSignature === signature);
        }),
    },
    version,
  );
  return translated && native ? 0 : 1;
}

process.exitCode = await main();
