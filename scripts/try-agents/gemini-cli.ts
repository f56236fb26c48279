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
//   npm run try-agents gemini-cli     (installs the pinned gemini-cli outside the repo; GEMINI_CLI_BIN=… to use
//                                      another gemini; TRACE_DIR=… to keep every request)

import fs from 'node:fs';
import path from 'node:path';
import { FakeGemini, geminiKey } from '../../test/support/fake-gemini.js';
import { answer, type RecordedRequest } from '../../test/support/fake-openai.js';
import { eventStreamHeaders, type Reply } from '../../test/support/recording-server.js';
import { answerToToolResult, findAgent, folder, lastLine, quotedOutput, run, startGateway } from './harness.js';
import { bothRuns, nativeRun, runHeading, translatedRun, type RunSetup } from './runs.js';

const marker = 'switchyard-tool-ok-5c2e';
const command = `echo ${marker}`;

/** The openai-kind upstream: first the shell call; after the tool's result, text quoting it. */
function scriptedChatTurn(request: RecordedRequest): Reply | Promise<Reply> {
  const answered = answerToToolResult(request, marker);
  if (answered) return answered;
  const call = { id: 'call_gemini_cli_1', name: 'run_shell_command', arguments: JSON.stringify({ command }) };
  return answer({ toolCalls: [call] })(request);
}

interface GeminiPart {
  text?: string;
  thoughtSignature?: string;
  functionResponse?: { response?: unknown };
}

interface GeminiBody {
  contents: { role?: string; parts: GeminiPart[] }[];
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
    return geminiStream([{ text: quotedOutput(JSON.stringify(responses.at(-1)!.response), marker) }]);
  }
  return geminiStream([
    { functionCall: { name: 'run_shell_command', args: { command } }, thoughtSignature: signature },
  ]);
}

interface Setup extends RunSetup {
  /** Whether the thought signature of the function call came back to the upstream unchanged (native only). */
  signatureCameBack?(): boolean;
}

async function tryOne(geminiBin: string, setup: Setup, version: string): Promise<boolean> {
  const upstreamKey = setup.kind === 'google' ? geminiKey : 'sk-upstream-fake';
  const gateway = await startGateway({ ...setup, tool: 'gemini-cli', upstreamKey });
  try {
    const home = folder(gateway, 'home');
    // gemini-cli takes GOOGLE_GEMINI_BASE_URL alone as its "gateway" auth type, which -p refuses: the settings name
    // the Gemini API key as the auth type, and the base URL still applies.
    const settings = { security: { auth: { selectedType: 'gemini-api-key' } } };
    fs.writeFileSync(path.join(folder(gateway, 'home', '.gemini'), 'settings.json'), JSON.stringify(settings, null, 2));
    const geminiEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      GOOGLE_GEMINI_BASE_URL: gateway.url,
      GEMINI_API_KEY: gateway.key,
    };
    const prompt = `Run the shell command "${command}" and tell me what it printed.`;
    const result = await run(geminiBin, ['-p', prompt, '-m', setup.alias ?? setup.model, '--yolo', '--skip-trust'], {
      env: geminiEnv,
      cwd: folder(gateway, 'work'),
      timeoutMs: 180_000,
    });

    const cameBack = setup.toolResultCameBack() && (setup.signatureCameBack?.() ?? true);
    const finalAnswer = lastLine(result.stdout);
    const allServed = gateway.seen.every((request) => request.status < 400);
    const passed = result.code === 0 && cameBack && allServed && finalAnswer.includes(marker);
    const calls = setup.upstream.requests.map((request) => `${request.method} ${request.url}`);
    console.log(runHeading(setup));
    for (const request of gateway.seen) {
      const key = typeof request.headers['x-goog-api-key'] === 'string' ? 'x-goog-api-key' : 'no x-goog-api-key';
      const agent = String(request.headers['user-agent'] ?? '');
      console.log(`gemini-cli → ${request.method} ${request.path} → ${request.status} (${key}; ${agent})`);
    }
    console.log(`upstream requests: ${calls.join(', ')}`);
    console.log(
      `tool result (and signature) came back: ${cameBack}; exit code ${result.code}; final answer: ${finalAnswer}`,
    );
    if (!passed) console.log(`--- gemini stdout ---\n${result.stdout}\n--- gemini stderr ---\n${result.stderr}`);
    console.log(passed ? `PASS: gemini-cli ${version} completed a tool-calling turn (${setup.label}).` : 'FAIL');
    return passed;
  } finally {
    await gateway.close();
  }
}

async function main(): Promise<number> {
  const agent = await findAgent({ name: 'gemini-cli', variable: 'GEMINI_CLI_BIN', bin: 'gemini' });
  if (!agent) return 2;
  const { bin: geminiBin, version } = agent;
  console.log(`gemini-cli ${version}`);
  console.log('settings.json: {"security": {"auth": {"selectedType": "gemini-api-key"}}}');
  console.log('environment: GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>  GEMINI_API_KEY=<a Switchyard key>');

  const gemini = new FakeGemini({ models: ['gemini-2.5-flash'], fallback: scriptedGeminiTurn });
  /** Whether a request the upstream received has a part (of a `role` content, when given) that `matches`. */
  const receivedPart = (matches: (part: GeminiPart) => boolean, role?: string) =>
    gemini.generateRequests().some((request) =>
      (request.body as unknown as GeminiBody).contents
        .filter((content) => role === undefined || content.role === role)
        .flatMap((content) => content.parts)
        .some(matches),
    );
  const native: Setup = {
    ...nativeRun('google', gemini, 'gem/gemini-2.5-flash', () =>
      receivedPart((part) => JSON.stringify(part.functionResponse ?? '').includes(marker)),
    ),
    signatureCameBack: () => receivedPart((part) => part.thoughtSignature === signature, 'model'),
  };
  return bothRuns((setup) => tryOne(geminiBin, setup, version), translatedRun(scriptedChatTurn, marker), native);
}

process.exitCode = await main();
