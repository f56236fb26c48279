// `switchyard --version` / `-V`, named once: the program lists the flag in its help and answers it wherever it
// appears, and the entry answers the flag alone before loading the commands (scripts run it to check an install).

export const versionFlags = '-V, --version';
export const versionFlagDescription = 'print the version of Switchyard';

/** The arguments (after node and the script) are the version flag and nothing else. */
export function isVersionRequest(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === '--version' || args[0] === '-V');
}
