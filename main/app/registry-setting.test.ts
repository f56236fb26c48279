// The MCP Registry URL setting on both engines: the official registry until stored, a stored URL seen by another
// process on the same data, a bad URL refused with a message, empty back to the official one, and a stored value
// this build cannot read taken as the default.

import { describe, expect, it } from 'vitest';
import { useStoreEngines } from '../../test/support/postgres-store.js';
import { waitFor } from '../../test/support/wait-for.js';
import { RegistrySetting } from './registry-setting.js';

const engines = useStoreEngines('switchyard-registry-setting-');

describe.each(engines)('the MCP Registry setting on $name', ({ open, openTwo }) => {
  it('is the official registry until stored; a stored URL reaches another process on the same data', async () => {
    const [here, there] = await openTwo();
    const setting = new RegistrySetting(here);
    const other = new RegistrySetting(there);
    expect(setting.url()).toBe('https://registry.modelcontextprotocol.io');
    expect(await setting.save(' https://mcp-registry.example.com/ ')).toBe('https://mcp-registry.example.com');
    await waitFor(() => (other.url() === 'https://mcp-registry.example.com' ? true : undefined), {
      what: 'the other process to see the stored URL',
    });
    expect(await setting.save('')).toBe('https://registry.modelcontextprotocol.io');
    expect(setting.url()).toBe('https://registry.modelcontextprotocol.io');
  });

  it('refuses a URL it cannot use, and reads an unreadable stored value as the default', async () => {
    const store = await open();
    const setting = new RegistrySetting(store);
    await expect(setting.save('registry.example.com')).rejects.toThrow(
      'The registry URL "registry.example.com" is not a URL; expected e.g. https://registry.modelcontextprotocol.io',
    );
    await expect(setting.save('file:///etc/passwd')).rejects.toThrow('must start with https://');
    await store.setSetting('mcp_registry_url', '{not json');
    expect(setting.url()).toBe('https://registry.modelcontextprotocol.io');
  });
});
