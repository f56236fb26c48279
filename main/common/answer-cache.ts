// Answers of a pure function of one or two strings, for the per-request path (joining an upstream URL, looking a
// price up), where the same few arguments come again and again and working the answer out each time shows in
// profiles. Bounded, since some arguments come from callers (model names): past `limit` answers, all are dropped
// and the cache starts over.

export class AnswerCache<Answer> {
  private readonly answers = new Map<string, Map<string | null, Answer>>();
  private size = 0;

  constructor(private readonly limit: number) {}

  /** The answer kept for these arguments, or undefined. */
  get(first: string, second: string | null = null): Answer | undefined {
    return this.answers.get(first)?.get(second);
  }

  set(first: string, second: string | null, answer: Answer): void {
    if (this.size >= this.limit) this.clear();
    let bySecond = this.answers.get(first);
    if (!bySecond) this.answers.set(first, (bySecond = new Map()));
    if (!bySecond.has(second)) this.size += 1;
    bySecond.set(second, answer);
  }

  clear(): void {
    this.answers.clear();
    this.size = 0;
  }
}
