// Codex itself through Switchyard, configured only as Codex's docs describe for a custom provider: a
// `model_providers` entry in config.toml with base_url, env_key and wire_api = "responses". A scripted
// OpenAI-kind upstream first asks for a shell command, then answers with text once the command's output came back;
// a real `switchyard serve` on a temporary data dir sits between; `codex exec` runs one turn non-interactively.
// Passes when Codex's final answer quotes the command's output and the upstream saw that output come back.
//
//   npm install --prefix /tmp/agents/codex @openai/codex     (outside the repo: Codex is no dependency)
//   node --import tsx scripts/try-agents/codex.ts            (CODEX_BIN=… to use another codex)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, startServer, type RunningServer } from '../../test/support/cli.js';
import { answer, FakeOpenAI, type RecordedRequest } from '../../test/support/fake-openai.js';

const codexBin = process.env.CODEX_BIN ?? '/tmp/agents/codex/node_modules/.bin/codex';
const marker = 'switchyard-tool-ok-7f3a';
const model = 'fake/gpt-test';

interface ChatBody {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

/** The shell command as a call of whichever shell tool Codex offered. */
function shellCall(body: ChatBody) {
  const offered = new Set((body.tools ?? []).map((tool) => tool.function.name));
  const command = `echo ${marker}`;
  if (offered.has('exec_command')) return { name: 'exec_command', arguments: JSON.stringify({ cmd: command }) };
  if (offered.has('shell_command')) return { name: 'shell_command', arguments: JSON.stringify({ command }) };
  return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
}

/** First a tool call; after the tool's result, text quoting it. */
function scriptedTurn(request: RecordedRequest) {
  const body = request.body as unknown as ChatBody;
  const last = body.messages.at(-1)!;
  if (last.role === 'tool') {
    const printed = textOf(last.content).includes(marker) ? marker : 'nothing I recognise';
    return answer(`The command printed ${printed}.`)(request);
  }
  return answer({ toolCalls: [{ id: 'call_codex_1', ...shellCall(body) }] })(request);
}

function run(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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

async function main(): Promise<number> {
  if (!fs.existsSync(codexBin)) {
    console.error(`No codex at ${codexBin}: npm install --prefix /tmp/agents/codex @openai/codex, or set CODEX_BIN.`);
    return 2;
  }
  const version = (await run(codexBin, ['--version'], { env: process.env, cwd: os.tmpdir(), timeoutMs: 30_000 }))
    .stdout;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-codex-'));
  const dataDir = path.join(root, 'data');
  const codexHome = path.join(root, 'codex-home');
  const workDir = path.join(root, 'work');
  for (const dir of [dataDir, codexHome, workDir]) fs.mkdirSync(dir);
  const upstream = new FakeOpenAI({ fallback: scriptedTurn });
  const env = { SWITCHYARD_SECRET_STORE: 'file', UP_KEY: 'sk-upstream-fake' };
  let server: RunningServer | null = null;
  try {
    const upstreamUrl = await upstream.start();
    const cli = (args: string[]) => runCli([...args, '--data-dir', dataDir], { env });
    const added = await cli([
      'providers',
      'add',
      'fake',
      '--kind',
      'openai',
      '--base-url',
      upstreamUrl,
      '--api-key-env',
      'UP_KEY',
    ]);
    if (added.code !== 0) throw new Error(`providers add failed: ${added.stderr}`);
    const created = await cli(['keys', 'create', '--name', 'codex', '--json']);
    if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    server = await startServer(['--data-dir', dataDir], env);
    const baseUrl = server.baseUrl.replace(/\/api\/v1$/, '/v1');

    const config = [
      `model = "${model}"`,
      'model_provider = "switchyard"',
      '',
      '[model_providers.switchyard]',
      'name = "Switchyard"',
      `base_url = "${baseUrl}"`,
      'env_key = "SWITCHYARD_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(codexHome, 'config.toml'), config);
    const codexEnv = { ...process.env, CODEX_HOME: codexHome, SWITCHYARD_API_KEY: key, OPENAI_API_KEY: '' };
    const prompt = `Run the shell command "echo ${marker}" and tell me what it printed.`;
    const result = await run(codexBin, ['exec', '--skip-git-repo-check', prompt], {
      env: codexEnv,
      cwd: workDir,
      timeoutMs: 180_000,
    });

    const chats = upstream.chatRequests();
    const toolResultCameBack = chats.some((request) =>
      (request.body as unknown as ChatBody).messages.some(
        (message) => message.role === 'tool' && textOf(message.content).includes(marker),
      ),
    );
    const finalAnswer = result.stdout.trim().split('\n').at(-1) ?? '';
    const passed = result.code === 0 && toolResultCameBack && finalAnswer.includes(marker);
    console.log(`Codex: ${version.trim()}`);
    console.log(`config.toml:\n${config.replace(baseUrl, 'http://127.0.0.1:<port>/v1')}`);
    console.log(`upstream chat requests: ${chats.length}; tool result came back: ${toolResultCameBack}`);
    console.log(`codex exit code: ${result.code}; final answer: ${finalAnswer}`);
    if (!passed) console.log(`--- codex stdout ---\n${result.stdout}\n--- codex stderr ---\n${result.stderr}`);
    console.log(passed ? 'PASS: Codex completed a tool-calling turn through Switchyard.' : 'FAIL');
    return passed ? 0 : 1;
  } finally {
    if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
    await server?.exited;
    await upstream.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

process.exitCode = await main();
