// The requests-per-minute limit of a key shared by every instance (decision 017): the admission times of the last
// 60 s in one row per key, changed by one statement whose row lock orders racing admissions, so exactly the limit
// is admitted however requests are spread, and the window slides as the in-process limiter's does
// (main/accounts/rate-limiter.ts).

import type pg from 'pg';

const windowMs = 60_000;

// Named, so each pooled connection prepares it once.
const admit = {
  name: 'switchyard-rate-window-admit',
  text: `INSERT INTO rate_window AS w (key_id, admitted) VALUES ($1, ARRAY[$2::bigint])
         ON CONFLICT (key_id) DO UPDATE
           SET admitted = array(SELECT t FROM unnest(w.admitted) t WHERE t > $2::bigint - ${windowMs}) || $2::bigint
           WHERE cardinality(array(SELECT t FROM unnest(w.admitted) t WHERE t > $2::bigint - ${windowMs})) < $3
         RETURNING cardinality(admitted) AS admitted`,
};

const window = {
  name: 'switchyard-rate-window-times',
  text: `SELECT array(SELECT t FROM unnest(admitted) t WHERE t > $2::bigint - ${windowMs} ORDER BY t)::text AS times
         FROM rate_window WHERE key_id = $1`,
};

const foreignKeyViolation = '23503';

/** Milliseconds until one more request of the key fits under `rpm`; 0 when it was admitted (and counted). */
export async function admitRequest(pool: pg.Pool, keyId: string, rpm: number, now: number): Promise<number> {
  // A slot can free itself between the refused admission and the read of the window: then try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const admitted = await pool.query({ ...admit, values: [keyId, now, rpm] });
      if ((admitted.rowCount ?? 0) > 0) return 0;
    } catch (error) {
      // The key was deleted after it was authenticated: its request is already under way, and the next is refused.
      if ((error as { code?: unknown }).code === foreignKeyViolation) return 0;
      throw error;
    }
    const { rows } = await pool.query<{ times: string }>({ ...window, values: [keyId, now] });
    const times = parseTimes(rows[0]?.times ?? '{}');
    if (times.length >= rpm) return Math.max(1, times[times.length - rpm]! + windowMs - now);
  }
  return 1;
}

/** PostgreSQL's text form of a bigint array, `{1,2,3}`. */
function parseTimes(text: string): number[] {
  const inner = text.slice(1, -1);
  return inner === '' ? [] : inner.split(',').map(Number);
}
