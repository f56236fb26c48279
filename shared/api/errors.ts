// The error envelope of spec 2.9 / 7.1, and the one error type every layer throws to produce it.

export interface ErrorBody {
  error: { code: number; message: string; metadata: Record<string, unknown> };
}

/**
 * An error with an HTTP status that the gateway can put on the wire as-is.
 * Messages must never contain secrets: they reach callers and logs.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly metadata: Record<string, unknown>;
  /** Extra response headers (for example Retry-After on 429). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    metadata: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.metadata = metadata;
    this.headers = headers;
  }

  /**
   * A copy with more metadata and headers. The copy keeps this error's class and fields (an upstream error's
   * retry facts), so that adding detail on the way out loses nothing.
   */
  withDetails(metadata: Record<string, unknown>, headers: Record<string, string> = {}): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this, {
      message: this.message,
      stack: this.stack,
      metadata: { ...this.metadata, ...metadata },
      headers: { ...this.headers, ...headers },
    });
    return copy;
  }

  toBody(): ErrorBody {
    return { error: { code: this.status, message: this.message, metadata: this.metadata } };
  }
}

export const invalidKeyMessage = 'Invalid or missing API key.';
