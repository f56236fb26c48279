// npm run try-agents [codex|claude-code|gemini-cli …]: each agent tool, at the version pinned here, through a real
// `switchyard serve`, finishing a tool-calling turn against a scripted upstream (see each tool's script). The tools
// are installed from the npm registry into ~/.cache/switchyard-agents (outside the repo: none is a dependency of
// Switchyard) the first time, and again when the pin changes. Exits non-zero when any tool fails.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentsCache } from './harness.js';

interface Agent {
  /** The script next to this one, and the folder under the cache. */
  name: string;
  pkg: string;
  version: string;
}

/** The versions last tried: raise a pin, run, and note the result in the README. */
const agents: Agent[] = [
  { name: 'codex', pkg: '@openai/codex', version: '0.169.0' },
  { name: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.197' },
  { name: 'gemini-cli', pkg: '@google/gemini-cli', version: '0.61.0' },
];

const here = path.dirname(fileURLToPath(import.meta.url));

function installedVersion(dir: string, pkg: string): string | null {
  try {
    const manifest = fs.readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8');
    return (JSON.parse(manifest) as { version: string }).version;
  } catch {
    return null;
  }
}

function install(agent: Agent): boolean {
  const dir = path.join(agentsCache, agent.name);
  if (installedVersion(dir, agent.pkg) === agent.version) return true;
  console.log(`installing ${agent.pkg}@${agent.version} into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', dir, '--no-audit', '--no-fund', `${agent.pkg}@${agent.version}`];
  const result = spawnSync(npm, args, { stdio: 'inherit' });
  return result.status === 0 && installedVersion(dir, agent.pkg) === agent.version;
}

function main(): number {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !agents.some((agent) => agent.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown tool ${unknown.join(', ')}: choose from ${agents.map((agent) => agent.name).join(', ')}.`);
    return 2;
  }
  const chosen = asked.length > 0 ? agents.filter((agent) => asked.includes(agent.name)) : agents;
  const results: string[] = [];
  for (const agent of chosen) {
    if (!install(agent)) {
      results.push(`${agent.name} ${agent.version}: could not be installed`);
      continue;
    }
    const script = path.join(here, `${agent.name}.ts`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
    results.push(`${agent.name} ${agent.version}: ${run.status === 0 ? 'PASS' : 'FAIL'}`);
  }
  console.log(`\n${results.join('\n')}`);
  return results.every((line) => line.endsWith('PASS')) ? 0 : 1;
}

process.exitCode = main();
