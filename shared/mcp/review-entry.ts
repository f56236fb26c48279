// What an MCP server entry will run, for a person to confirm before it starts: the exact command and arguments
// (or the URL), the names of the environment variables and headers it gets (never their values, which hold
// tokens), and what deserves a second look. Used where servers arrive from elsewhere: the MCP screen's form and
// import, and `switchyard mcp import`. Pure and runtime-neutral: main and the renderer both use it.

export interface EntryReview {
  name: string;
  /** `npx -y @scope/pkg /tmp`, each word quoted when it needs it; or the URL of a remote server. */
  runs: string;
  /** The environment variables (stdio) or headers (remote) it is given, by name. */
  envNames: string[];
  warnings: string[];
}

/** Characters a shell would treat specially; a command name should have none (we run it without a shell). */
const shellMetacharacters = /[;&|`$<>(){}[\]*?!~#\\'"\n\r]/;
/** Launchers that fetch a package and run it: the newest version on each start unless one is pinned. */
const packageRunners = new Set(['npx', 'bunx', 'pnpx', 'uvx']);
const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'fish', 'cmd', 'powershell', 'pwsh']);

export function reviewServerEntry(name: string, entry: unknown): EntryReview {
  const fields = isObject(entry) ? entry : {};
  const command = typeof fields.command === 'string' ? fields.command : undefined;
  const args = Array.isArray(fields.args) ? fields.args.filter((arg): arg is string => typeof arg === 'string') : [];
  if (command === undefined) {
    const url = typeof fields.url === 'string' ? fields.url : '(no command or url)';
    return { name, runs: url, envNames: namesOf(fields.headers), warnings: [] };
  }
  const warnings: string[] = [];
  const found = shellMetacharacters.exec(command);
  if (found) {
    warnings.push(
      `The command holds the shell character ${JSON.stringify(found[0])}: Switchyard runs it as one program ` +
        'name, without a shell. Check that it is what you expect.',
    );
  }
  const program = baseName(command);
  if (shells.has(program) && args.some((arg) => arg === '-c' || arg === '/c' || arg === '-Command')) {
    warnings.push(`It runs a command line through ${program}: read it in full before you confirm.`);
  }
  if (packageRunners.has(program)) {
    const spec = packageSpec(args);
    if (spec !== undefined && !hasVersion(spec)) {
      warnings.push(
        `${program} runs the newest published version of ${spec} each time it starts; pin one you trust ` +
          `(${spec}@1.2.3) so that an update cannot change what runs.`,
      );
    }
  }
  return { name, runs: [command, ...args].map(quoteWord).join(' '), envNames: namesOf(fields.env), warnings };
}

/** The package a runner is asked for: its first argument that is not an option (`-y`, `--yes`, `--quiet`…). */
function packageSpec(args: string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--package' || arg === '-p') return args[index + 1];
    if (arg.startsWith('--package=')) return arg.slice('--package='.length);
    if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/** `pkg@1.2.3`, `@scope/pkg@^2`, `pkg==1.0` (uvx): a version after the name; also a path or URL, which is not a name. */
function hasVersion(spec: string): boolean {
  if (/^[./~]|:\/\//.test(spec) || spec.includes('==')) return true;
  const at = spec.lastIndexOf('@');
  return at > 0 && at < spec.length - 1;
}

function baseName(command: string): string {
  const last = command.split(/[\\/]/).pop() ?? command;
  return last.replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
}

function namesOf(value: unknown): string[] {
  return isObject(value) ? Object.keys(value) : [];
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
