// Install links read strictly (install-link.ts): the two forms, what their preview shows, and each bad link — an
// unknown path or parameter, bad base64 or JSON, an invalid entry, shell characters in the command, references to
// this machine's secrets, an oversized link — refused with its own message.

import { describe, expect, it } from 'vitest';
import { InstallLinkError, maxInstallLinkLength, parseInstallLink, previewInstallLink } from './install-link.js';

const registryUrl = 'https://registry.modelcontextprotocol.io';
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const configLink = (name: string, entry: unknown) =>
  `switchyard://mcp/install?name=${encodeURIComponent(name)}&config=${encode(entry)}`;
const everything = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2025.11.25'] };

function refusal(link: string): string {
  try {
    parseInstallLink(link);
  } catch (error) {
    expect(error).toBeInstanceOf(InstallLinkError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${link}`);
}

describe('install links', () => {
  it('a registry name, with an optional version and registry', () => {
    expect(parseInstallLink('switchyard://mcp/install?name=io.github.user/weather')).toEqual({
      kind: 'registry',
      name: 'io.github.user/weather',
    });
    expect(
      parseInstallLink(
        'switchyard://mcp/install?name=io.github.user%2Fweather&version=1.2.0&registry=https%3A%2F%2Fmcp.example.com%2F',
      ),
    ).toEqual({
      kind: 'registry',
      name: 'io.github.user/weather',
      version: '1.2.0',
      registry: 'https://mcp.example.com',
    });
  });

  it('an inline entry as base64url (or base64, as Cursor sends it) of its JSON', () => {
    expect(parseInstallLink(configLink('everything', everything))).toEqual({
      kind: 'config',
      name: 'everything',
      entry: everything,
    });
    const base64 = Buffer.from(JSON.stringify(everything)).toString('base64');
    expect(parseInstallLink(`switchyard://mcp/install?name=everything&config=${encodeURIComponent(base64)}`)).toEqual(
      parseInstallLink(configLink('everything', everything)),
    );
  });

  it('the preview: the command, the variables and which go to the secret store, a free name on a clash', () => {
    const entry = { ...everything, env: { GITHUB_TOKEN: 'ghp_secret', LOG_LEVEL: 'debug' } };
    const taken = { servers: [{ name: 'everything' }] } as never;
    expect(previewInstallLink(configLink('everything', entry), taken, registryUrl)).toEqual({
      kind: 'config',
      requestedName: 'everything',
      entryName: 'everything-2',
      clash: true,
      review: {
        name: 'everything',
        runs: 'npx -y @modelcontextprotocol/server-everything@2025.11.25',
        envNames: ['GITHUB_TOKEN', 'LOG_LEVEL'],
        warnings: [],
      },
      secrets: ['GITHUB_TOKEN'],
    });
    const other = 'switchyard://mcp/install?name=io.github.user/weather&registry=https://evil.example';
    expect(previewInstallLink(other, { servers: [] }, registryUrl)).toMatchObject({
      otherRegistry: true,
      registry: 'https://evil.example',
    });
    const same = `switchyard://mcp/install?name=io.github.user/weather&registry=${registryUrl}`;
    expect(previewInstallLink(same, { servers: [] }, registryUrl)).toMatchObject({ otherRegistry: false });
  });

  it('refuses unknown paths and parameters, and links without a name', () => {
    expect(refusal('switchyard://mcp/remove?name=x')).toBe(
      'Switchyard does not know the link "switchyard://mcp/remove"; install links start with switchyard://mcp/install?',
    );
    expect(refusal('https://example.com/mcp/install?name=x')).toMatch(/does not know the link/);
    expect(refusal('switchyard://mcp/install?name=io.github.user/weather&yes=1')).toBe(
      'The link has parameters Switchyard does not know: yes (it takes name, version, registry).',
    );
    expect(refusal(`${configLink('x', everything)}&autoAccept=true`)).toBe(
      'The link has parameters Switchyard does not know: autoAccept (it takes name, config).',
    );
    expect(refusal('switchyard://mcp/install?version=1.0.0')).toBe('The link names no server (name=…).');
    expect(refusal('switchyard://mcp/install?name=a&name=b&config=e30')).toBe('The link gives name= twice.');
    expect(refusal('switchyard://mcp/install?name=not a registry name')).toMatch(/is not a registry server name/);
    expect(refusal('switchyard://mcp/install?name=io.github.user/weather&version=latest')).toBe(
      '"latest" is not a version (e.g. 1.2.3).',
    );
    expect(refusal('switchyard://mcp/install?name=io.github.user/weather&registry=file:///etc')).toMatch(
      /must start with https:\/\//,
    );
  });

  it('refuses a config that is not base64 of a JSON object holding one valid entry', () => {
    expect(refusal('switchyard://mcp/install?name=x&config=%%%')).toBe('The link’s config is not base64url text.');
    expect(refusal('switchyard://mcp/install?name=x&config=abcde')).toBe('The link’s config is not base64url text.');
    expect(refusal(`switchyard://mcp/install?name=x&config=${Buffer.from('{"command":').toString('base64url')}`)).toBe(
      'The link’s config is not JSON.',
    );
    expect(refusal(`switchyard://mcp/install?name=x&config=${Buffer.from([0xff, 0xfe]).toString('base64url')}`)).toBe(
      'The link’s config does not decode to UTF-8 text.',
    );
    expect(refusal(configLink('x', ['npx']))).toMatch(/must be one server entry, a JSON object/);
    expect(refusal(configLink('x', { mcpServers: { x: everything } }))).toMatch(/not a whole mcpServers file/);
    expect(refusal(configLink('x', { command: 'npx', args: 'not a list' }))).toMatch(
      /^The link’s config is not a valid server entry: mcpServers.x.args: expected an array of strings/,
    );
    expect(refusal(configLink('x', { url: 'javascript:alert(1)' }))).toMatch(/not a valid server entry/);
  });

  it('refuses shell characters in the command, and references to this machine’s secrets or environment', () => {
    expect(refusal(configLink('x', { command: 'npx; rm -rf ~', args: [] }))).toBe(
      'The link’s command "npx; rm -rf ~" holds the shell character ";": a command is one program’s name. ' +
        'Switchyard refuses it — such a link tries to run more than a server.',
    );
    for (const command of ['npx | sh', 'a && b', 'echo $(id)', 'echo `id`', 'npx\nrm', 'a > /etc/passwd']) {
      expect(refusal(configLink('x', { command }))).toMatch(/holds the shell character/);
    }
    expect(refusal(configLink('x', { ...everything, env: { TOKEN: '${secret:github.GITHUB_TOKEN}' } }))).toMatch(
      /refers to a secret or environment variable of this computer/,
    );
    expect(
      refusal(configLink('x', { url: 'https://mcp.example.com', headers: { A: 'Bearer ${env:OPENAI_API_KEY}' } })),
    ).toMatch(/refers to a secret or environment variable/);
  });

  it('refuses a link longer than the limit', () => {
    const link = configLink('x', { ...everything, env: { PADDING: 'x'.repeat(maxInstallLinkLength) } });
    expect(refusal(link)).toBe(
      `The link is ${link.length} characters long; an install link has at most ${maxInstallLinkLength}.`,
    );
  });
});
