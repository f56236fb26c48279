// Secrets out of everything an upstream echoes back. An upstream that quotes our request in its error (a key in a
// URL, a header dump, a "did you mean" message) may spell the key plainly, JSON-escaped (`\/`, `\u0073`) or
// percent-encoded, and the JSON may be decoded before or after we look at it. So the text forms are matched
// with one pattern per secret that accepts every spelling of each character, and decoded values are walked to
// every string. Redaction always comes before any truncation; a text that a reader already cut short also loses
// a trailing piece that could be the start of a secret.

const replacement = '[redacted]';
/** Shorter secrets would match ordinary text; no provider issues keys this short. */
const minSecretLength = 8;

function hexDigitPattern(digit: string): string {
  return /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit;
}

function hexPattern(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')].map(hexDigitPattern).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Every way one character may be spelled in JSON text or a URL: itself, `\uXXXX` (also as surrogates), `%XX`. */
function characterPattern(character: string): string {
  const forms = [escapeRegExp(character)];
  const code = character.codePointAt(0)!;
  if (code <= 0xffff) forms.push(`\\\\u${hexPattern(code, 4)}`);
  else {
    const high = Math.floor((code - 0x10000) / 0x400) + 0xd800;
    const low = ((code - 0x10000) % 0x400) + 0xdc00;
    forms.push(`\\\\u${hexPattern(high, 4)}\\\\u${hexPattern(low, 4)}`);
  }
  if (character === '/' || character === '"' || character === '\\') forms.push(`\\\\${escapeRegExp(character)}`);
  for (const byte of Buffer.from(character, 'utf8')) forms.push(`%${hexPattern(byte, 2)}`);
  return `(?:${forms.join('|')})`;
}

/** The start of an escape that a cut may have left: `\`, `\u`, `\u0`…, `%`, `%7`. */
const partialEscape = '(?:\\\\(?:u[0-9a-fA-F]{0,3})?|%[0-9a-fA-F]?)';

export class SecretRedactor {
  private readonly given: readonly (string | null | undefined)[];
  /**
   * The secrets to scrub, longest first (a secret that contains another is replaced whole), and the patterns: both
   * made on first use, since a redactor is made for every upstream call but used only when something failed.
   */
  private usable: readonly string[] | undefined;
  private patterns: { anywhere: RegExp; trailingStart: RegExp } | null | undefined;

  constructor(secrets: Iterable<string | null | undefined>) {
    this.given = [...secrets];
  }

  get active(): boolean {
    return this.secrets().length > 0;
  }

  private secrets(): readonly string[] {
    if (this.usable) return this.usable;
    const usable = [
      ...new Set(this.given.filter((secret): secret is string => (secret?.length ?? 0) >= minSecretLength)),
    ];
    usable.sort((a, b) => b.length - a.length);
    return (this.usable = usable);
  }

  private compiled(): { anywhere: RegExp; trailingStart: RegExp } | null {
    if (this.patterns !== undefined) return this.patterns;
    const secrets = this.secrets();
    if (secrets.length === 0) return (this.patterns = null);
    const perSecret = secrets.map((secret) => Array.from(secret, characterPattern));
    // `c1(?:c2(?:c3…)?)?` matches any non-empty prefix; anchored at the end with an optional cut escape.
    const prefixes = perSecret.map((parts) => parts.reduceRight((inner, part) => `${part}(?:${inner})?`, ''));
    this.patterns = {
      anywhere: new RegExp(perSecret.map((parts) => parts.join('')).join('|'), 'g'),
      trailingStart: new RegExp(`(?:(?:${prefixes.join('|')})${partialEscape}?|${partialEscape})$`),
    };
    return this.patterns;
  }

  /**
   * `text` with every spelling of every secret replaced. `cut`: the text was cut short by a reader's limit, so a
   * secret may have lost its end; a trailing start of one is replaced too.
   */
  text(text: string, options: { cut?: boolean } = {}): string {
    const patterns = this.compiled();
    if (!patterns) return text;
    const redacted = text.replace(patterns.anywhere, replacement);
    return options.cut ? redacted.replace(patterns.trailingStart, replacement) : redacted;
  }

  /** A copy of a decoded JSON value with every string (keys included) redacted. Iterative: depth cannot overflow. */
  value(value: unknown): unknown {
    if (!this.active) return value;
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    const root: unknown[] = [undefined];
    const stack: Array<{ from: unknown; into: Record<string | number, unknown>; key: string | number }> = [
      { from: value, into: root as unknown as Record<number, unknown>, key: 0 },
    ];
    while (stack.length > 0) {
      const { from, into, key } = stack.pop()!;
      if (typeof from === 'string') into[key] = this.text(from);
      else if (from === null || typeof from !== 'object') into[key] = from;
      else {
        const copy = (Array.isArray(from) ? new Array<unknown>(from.length) : {}) as Record<string | number, unknown>;
        into[key] = copy;
        // Pushed last to first, so that keys are created in their own order when the entries are popped.
        const entries = Object.entries(from);
        for (let index = entries.length - 1; index >= 0; index -= 1) {
          const [name, item] = entries[index]!;
          stack.push({ from: item, into: copy, key: Array.isArray(from) ? index : this.text(name) });
        }
      }
    }
    return root[0];
  }
}

const none = new SecretRedactor([]);

/** A redactor for these secrets (null entries are skipped); the same inactive one when there are none. */
export function redactorFor(...secrets: Array<string | null | undefined>): SecretRedactor {
  return secrets.some((secret) => (secret?.length ?? 0) >= minSecretLength) ? new SecretRedactor(secrets) : none;
}
