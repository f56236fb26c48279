// How an install link reaches the MCP screen: the Electron shell and the browser path both put the whole link in the
// app's address as one route part (a registry name's slash included), and a second instance's arguments give it up.

import { describe, expect, it } from 'vitest';
import { installLinkHash, installLinkInArgs } from '../../../shared/mcp/install-link.js';
import { parseRoute } from './route.js';

const link = 'switchyard://mcp/install?name=io.github.user/weather&config=eyJjb21tYW5kIjoibnB4In0';

describe('install link addresses', () => {
  it('reach the MCP screen as one route part, from the command line of a second instance too', () => {
    expect(parseRoute(installLinkHash(link))).toEqual({ screen: 'mcp', rest: ['link', link] });
    expect(installLinkInArgs(['/opt/Switchyard/switchyard', '--no-sandbox', link])).toBe(link);
    expect(installLinkInArgs(['/opt/Switchyard/switchyard', 'https://example.com'])).toBeUndefined();
  });
});
