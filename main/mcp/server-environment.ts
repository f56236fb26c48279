// What a stdio server's process sees: the SDK's small safe default (HOME, PATH, SHELL, TERM, USER, LOGNAME and
// the Windows equivalents) rather than all of Switchyard's environment, a PATH that also holds the login
// shell's entries, and the server's own `env` on top (which may override PATH too).

import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

export function serverEnvironment(searchPath: string, env: Record<string, string>): Record<string, string> {
  const environment: Record<string, string> = { ...getDefaultEnvironment() };
  if (searchPath) environment.PATH = searchPath;
  return { ...environment, ...env };
}
