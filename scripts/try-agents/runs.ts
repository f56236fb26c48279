// The two runs every tool gets: translated (its protocol turned into chat completions for an openai-kind upstream,
// and back) and native (passed through to a provider of its own protocol), and the heading of each run's report.

import { FakeOpenAI } from '../../test/support/fake-openai.js';
import type { RecordingServer, Step } from '../../test/support/recording-server.js';
import { chatToolResultCameBack, type GatewaySetup } from './harness.js';

/** One run of a tool: the provider its requests reach, and how to tell that its tool's output came back. */
export interface RunSetup {
  label: string;
  kind: GatewaySetup['kind'];
  upstream: RecordingServer;
  /** The provider's model, `<provider>/<model>`. */
  model: string;
  /** An alias to make for the model and name in the tool instead (the fixed names tools send). */
  alias?: string;
  /** Whether the tool's output came back to the upstream. */
  toolResultCameBack(): boolean;
}

/** The run through an openai-kind upstream: the tool's protocol translated to chat completions and back. */
export function translatedRun(scriptedTurn: Step, marker: string): RunSetup {
  const upstream = new FakeOpenAI({ models: ['gpt-test'], fallback: scriptedTurn });
  return {
    label: 'translated to an openai-kind provider',
    kind: 'openai',
    upstream,
    model: 'fake/gpt-test',
    toolResultCameBack: () => chatToolResultCameBack(upstream.chatRequests(), marker),
  };
}

/**
 * The run through a provider of the tool's own protocol (its requests passed through untranslated), the model named
 * in the tool by an alias of its own name, as the tool names it by default.
 */
export function nativeRun(
  kind: 'anthropic' | 'google',
  upstream: RecordingServer,
  model: string,
  toolResultCameBack: () => boolean,
): RunSetup {
  return {
    label: `native to ${kind === 'anthropic' ? 'an' : 'a'} ${kind}-kind provider`,
    kind,
    upstream,
    model,
    alias: model.slice(model.indexOf('/') + 1),
    toolResultCameBack,
  };
}

/** The heading of a run's report: its label and the model the tool named. */
export function runHeading(setup: RunSetup): string {
  const named = setup.alias ? `${setup.alias}, an alias of ${setup.model}` : setup.model;
  return `--- ${setup.label} (model ${named}) ---`;
}

/** A tool's two runs, translated then native: the script's exit code (0 when both passed). */
export async function bothRuns<Native extends RunSetup>(
  tryRun: (setup: RunSetup | Native) => Promise<boolean>,
  translated: RunSetup,
  native: Native,
): Promise<number> {
  const translatedPassed = await tryRun(translated);
  const nativePassed = await tryRun(native);
  return translatedPassed && nativePassed ? 0 : 1;
}
