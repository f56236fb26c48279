// Claude Code itself through Switchyard, configured only as its docs describe for an LLM gateway: ANTHROPIC_BASE_URL
// (the gateway's root: Claude Code adds /v1/messages), ANTHROPIC_AUTH_TOKEN (a Switchyard key, sent as Bearer),
// ANTHROPIC_MODEL and ANTHROPIC_DEFAULT_HAIKU_MODEL (the small fast model of its background requests), each a
// `<provider>/<model>` or an alias. Two runs, one per path through the gateway: an openai-kind upstream named as
// `fake/gpt-test` (Anthropic Messages translated to chat completions and back) and an anthropic-kind one named by
// the alias `claude-sonnet-4-5` (passed through untranslated). Each scripted upstream first asks for a Bash command,
// then answers with text once the command's output came back; a real `switchyard serve` on a temporary data dir sits
// between, behind a pass-through that notes every request Claude Code makes (method, path and query, status, model,
// the anthropic-version and anthropic-beta headers). `claude -p … --allowedTools Bash` runs one turn
// non-interactively in a temporary HOME and CLAUDE_CONFIG_DIR. Passes when Claude Code's answer quotes the
// command's output, the upstream saw that output come back, and the gateway served every request Claude Code made.
//
//   npm run try-agents claude-code     (installs the pinned Claude Code outside the repo; CLAUDE_BIN=… to use
//                                       another claude; TRACE_DIR=… to keep every request)

import os from 'node:os';
import { anthropicKey, FakeAnthropic } from '../../test/support/fake-anthropic.js';
import { answer, type RecordedRequest } from '../../test/support/fake-openai.js';
import { eventStreamHeaders, jsonReply, type Reply } from '../../test/support/recording-server.js';
import { answerToToolResult, findAgent, folder, lastLine, quotedOutput, run, startGateway, textOf } from './harness.js';
import { bothRuns, nativeRun, runHeading, translatedRun, type RunSetup } from './runs.js';

const marker = 'switchyard-tool-ok-9d41';
const command = `echo ${marker}`;

/** The openai-kind upstream: the Bash call when Bash is offered; after the tool's result, text quoting it. */
function scriptedChatTurn(request: RecordedRequest): Reply | Promise<Reply> {
  const answered = answerToToolResult(request, marker);
  if (answered) return answered;
  const tools = (request.body as { tools?: { function: { name: string } }[] }).tools ?? [];
  const offersBash = tools.some((tool) => tool.function.name === 'Bash');
  if (!offersBash) return answer('Switchyard test')(request); // Claude Code's background requests (titles, topics)
  const call = { id: 'call_claude_code_1', name: 'Bash', arguments: JSON.stringify({ command, description: 'Echo' }) };
  return answer({ toolCalls: [call] })(request);
}

interface MessagesBody {
  messages: { role: string; content: unknown }[];
  tools?: { name: string }[];
  stream?: boolean;
  model: string;
}

/** One Messages answer as Anthropic streams it (or as one message when not streamed). */
function anthropicAnswer(body: MessagesBody, blocks: Record<string, unknown>[], stopReason: string): Reply {
  const usage = { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 800, output_tokens: 24 };
  const message = { id: 'msg_01ClaudeCodeTry', type: 'message', role: 'assistant', model: body.model };
  if (!body.stream) {
    return jsonReply(200, { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
  }
  const event = (type: string, payload: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
  const chunks = [
    event('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    event('ping', {}),
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'tool_use') {
      chunks.push(event('content_block_start', { index, content_block: { ...block, input: {} } }));
      const json = JSON.stringify(block.input);
      for (const piece of [json.slice(0, 10), json.slice(10)]) {
        chunks.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
    } else if (block.type === 'thinking') {
      chunks.push(
        event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      );
      chunks.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } }));
      chunks.push(
        event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }),
      );
    } else {
      chunks.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      chunks.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }));
    }
    chunks.push(event('content_block_stop', { index }));
  });
  chunks.push(
    event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 24 } }),
    event('message_stop', {}),
  );
  return { headers: eventStreamHeaders, chunks };
}

/**
 * The signature of the anthropic-kind upstream's thinking. Claude Code 2.1 does not send thinking blocks back in the
 * next request of a -p run, so only the SDK tests (test/protocols/anthropic) check a signature's round trip.
 */
const signature = 'EqQBCkgIBxABGAIiQClaudeCodeTrySignature==';

function toolResultsOf(body: MessagesBody): string[] {
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string; content?: unknown }[])
          .filter((block) => block.type === 'tool_result')
          .map((block) => textOf(block.content))
      : [],
  );
}

/** The anthropic-kind upstream: thinking and the Bash call; after the tool's result, text quoting it. */
function scriptedMessagesTurn(request: RecordedRequest): Reply {
  const body = request.body as unknown as MessagesBody;
  const results = toolResultsOf(body);
  if (results.length > 0) {
    // One output per line: no marker spans two.
    return anthropicAnswer(body, [{ type: 'text', text: quotedOutput(results.join('\n'), marker) }], 'end_turn');
  }
  if (!(body.tools ?? []).some((tool) => tool.name === 'Bash')) {
    return anthropicAnswer(body, [{ type: 'text', text: 'Switchyard test' }], 'end_turn');
  }
  return anthropicAnswer(
    body,
    [
      { type: 'thinking', thinking: 'I should run the command.', signature },
      { type: 'tool_use', id: 'toolu_01ClaudeCodeTry', name: 'Bash', input: { command, description: 'Echo' } },
    ],
    'tool_use',
  );
}

async function tryOne(claudeBin: string, setup: RunSetup, version: string): Promise<boolean> {
  const upstreamKey = setup.kind === 'anthropic' ? anthropicKey : 'sk-upstream-fake';
  const gateway = await startGateway({ ...setup, tool: 'claude-code', upstreamKey });
  try {
    const home = folder(gateway, 'home');
    const model = setup.alias ?? setup.model;
    const claudeEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      CLAUDE_CONFIG_DIR: folder(gateway, 'home', '.claude'),
      ANTHROPIC_BASE_URL: gateway.url,
      // ANTHROPIC_AUTH_TOKEN goes out as Bearer; KEY_VARIABLE=ANTHROPIC_API_KEY tries the x-api-key way.
      [process.env.KEY_VARIABLE ?? 'ANTHROPIC_AUTH_TOKEN']: gateway.key,
      ANTHROPIC_MODEL: model,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
      // No calls home from a test run (telemetry, error reports, update checks).
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
    const prompt = `Run the shell command "${command}" with the Bash tool and tell me what it printed.`;
    const result = await run(claudeBin, ['-p', prompt, '--allowedTools', 'Bash', '--output-format', 'text'], {
      env: claudeEnv,
      cwd: folder(gateway, 'work'),
      timeoutMs: 180_000,
    });

    const cameBack = setup.toolResultCameBack();
    // The usage log names Claude Code (its user agent) as the app of every request, and what each cost.
    const rows = await gateway.usageRows();
    const namedApp = rows.length > 0 && rows.every((row) => row.app_title?.startsWith('claude-cli/'));
    const finalAnswer = lastLine(result.stdout);
    // Claude Code's `HEAD /` is a reachability probe: any answer will do (the gateway's root is no API).
    const allServed = gateway.seen.every((request) => request.method === 'HEAD' || request.status < 400);
    const passed = result.code === 0 && cameBack && allServed && namedApp && finalAnswer.includes(marker);
    console.log(runHeading(setup));
    for (const request of gateway.seen) {
      const header = (name: string) => String(request.headers[name] ?? '-');
      const auth = request.headers.authorization ? 'Bearer' : request.headers['x-api-key'] ? 'x-api-key' : 'none';
      const headers = `anthropic-version ${header('anthropic-version')}; anthropic-beta ${header('anthropic-beta')}; ${auth}`;
      console.log(
        `claude → ${request.method} ${request.path} → ${request.status} (model ${request.model || '-'}; ${headers})`,
      );
    }
    console.log(`usage rows: ${rows.map((row) => `${row.model} (app ${row.app_title ?? '-'})`).join(', ')}`);
    console.log(
      `user agent: ${gateway.seen.find((request) => request.method === 'POST')?.headers['user-agent'] ?? '-'}`,
    );
    console.log(
      `upstream requests: ${setup.upstream.requests.map((request) => `${request.method} ${request.url}`).join(', ')}`,
    );
    console.log(`tool result came back: ${cameBack}; exit code ${result.code}; final answer: ${finalAnswer}`);
    if (!passed) console.log(`--- claude stdout ---\n${result.stdout}\n--- claude stderr ---\n${result.stderr}`);
    if (!passed) console.log(`--- switchyard stderr ---\n${gateway.server.stderr().slice(-4000)}`);
    console.log(passed ? `PASS: Claude Code ${version} completed a tool-calling turn (${setup.label}).` : 'FAIL');
    return passed;
  } finally {
    await gateway.close();
  }
}

async function main(): Promise<number> {
  const agent = await findAgent({
    name: 'claude-code',
    variable: 'CLAUDE_BIN',
    bin: 'claude',
    versionEnv: { PATH: process.env.PATH, HOME: os.tmpdir() },
  });
  if (!agent) return 2;
  const { bin: claudeBin, version } = agent;
  console.log(`Claude Code ${version}`);
  console.log(
    'environment: ANTHROPIC_BASE_URL=http://127.0.0.1:<port>  ANTHROPIC_AUTH_TOKEN=<a Switchyard key>  ' +
      'ANTHROPIC_MODEL=<provider/model or alias>  ANTHROPIC_DEFAULT_HAIKU_MODEL=<the same or another>',
  );

  const anthropic = new FakeAnthropic({ models: ['claude-sonnet-4-5'], fallback: scriptedMessagesTurn });
  const native = nativeRun('anthropic', anthropic, 'anth/claude-sonnet-4-5', () =>
    anthropic
      .messageRequests()
      .some((request) => toolResultsOf(request.body as unknown as MessagesBody).some((text) => text.includes(marker))),
  );
  return bothRuns((setup) => tryOne(claudeBin, setup, version), translatedRun(scriptedChatTurn, marker), native);
}

process.exitCode = await main();
