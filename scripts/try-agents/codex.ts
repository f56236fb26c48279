// Codex itself through Switchyard, configured only as Codex's docs describe for a custom provider: a
// `model_providers` entry in config.toml with base_url, env_key and wire_api = "responses". A scripted
// OpenAI-kind upstream first asks for a shell command, then answers with text once the command's output came back;
// a real `switchyard serve` on a temporary data dir sits between; `codex exec` runs one turn non-interactively.
// Passes when Codex's final answer quotes the command's output, the upstream saw that output come back, and the
// gateway served every request Codex made.
//
//   npm run try-agents codex          (installs the pinned Codex outside the repo; CODEX_BIN=… to use another)

import fs from 'node:fs';
import path from 'node:path';
import { answer, FakeOpenAI, type RecordedRequest } from '../../test/support/fake-openai.js';
import {
  answerToToolResult,
  chatToolResultCameBack,
  findAgent,
  folder,
  lastLine,
  run,
  startGateway,
} from './harness.js';

const marker = 'switchyard-tool-ok-7f3a';
const model = 'fake/gpt-test';

/** The shell command as a call of whichever shell tool Codex offered. */
function shellCall(request: RecordedRequest) {
  const tools = (request.body as { tools?: { function: { name: string } }[] }).tools ?? [];
  const offered = new Set(tools.map((tool) => tool.function.name));
  const command = `echo ${marker}`;
  if (offered.has('exec_command')) return { name: 'exec_command', arguments: JSON.stringify({ cmd: command }) };
  if (offered.has('shell_command')) return { name: 'shell_command', arguments: JSON.stringify({ command }) };
  return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
}

/** First a tool call; after the tool's result, text quoting it. */
function scriptedTurn(request: RecordedRequest) {
  const answered = answerToToolResult(request, marker);
  if (answered) return answered;
  return answer({ toolCalls: [{ id: 'call_codex_1', ...shellCall(request) }] })(request);
}

async function main(): Promise<number> {
  const agent = await findAgent({ name: 'codex', variable: 'CODEX_BIN', bin: 'codex', versionTimeoutMs: 30_000 });
  if (!agent) return 2;
  const { bin: codexBin, version } = agent;
  const upstream = new FakeOpenAI({ fallback: scriptedTurn });
  const gateway = await startGateway({
    tool: 'codex',
    kind: 'openai',
    upstream,
    upstreamKey: 'sk-upstream-fake',
    model,
  });
  try {
    const codexHome = folder(gateway, 'codex-home');
    const baseUrl = `${gateway.url}/v1`;
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
    const codexEnv = { ...process.env, CODEX_HOME: codexHome, SWITCHYARD_API_KEY: gateway.key, OPENAI_API_KEY: '' };
    const prompt = `Run the shell command "echo ${marker}" and tell me what it printed.`;
    const result = await run(codexBin, ['exec', '--skip-git-repo-check', prompt], {
      env: codexEnv,
      cwd: folder(gateway, 'work'),
      timeoutMs: 180_000,
    });

    const chats = upstream.chatRequests();
    const cameBack = chatToolResultCameBack(chats, marker);
    const finalAnswer = lastLine(result.stdout);
    const allServed = gateway.seen.every((request) => request.status < 400);
    const passed = result.code === 0 && cameBack && allServed && finalAnswer.includes(marker);
    console.log(`Codex: ${version.trim()}`);
    console.log(`config.toml:\n${config.replace(baseUrl, 'http://127.0.0.1:<port>/v1')}`);
    for (const request of gateway.seen) console.log(`codex → ${request.method} ${request.path} → ${request.status}`);
    console.log(`upstream chat requests: ${chats.length}; tool result came back: ${cameBack}`);
    console.log(`codex exit code: ${result.code}; final answer: ${finalAnswer}`);
    if (!passed) console.log(`--- codex stdout ---\n${result.stdout}\n--- codex stderr ---\n${result.stderr}`);
    console.log(passed ? 'PASS: Codex completed a tool-calling turn through Switchyard.' : 'FAIL');
    return passed ? 0 : 1;
  } finally {
    await gateway.close();
  }
}

process.exitCode = await main();
