// The response cache's setting on both engines: off and per key until stored, a stored change seen by the next
// request of this process and of another on the same data, `serve`'s flags winning field by field, and a stored
// value this build cannot read taken as the default.

import { describe, expect, it } from 'vitest';
import { useStoreEngines } from '../../test/support/postgres-store.js';
import { waitFor } from '../../test/support/wait-for.js';
import { defaultResponseCacheLimits } from '../gateway/index.js';
import { ResponseCacheSetting } from './response-cache-setting.js';

const engines = useStoreEngines('switchyard-cache-setting-');

describe.each(engines)('the response cache setting on $name', ({ open, openTwo }) => {
  it('is off and per key until stored; a change reaches the next request here and on the other', async () => {
    const [here, there] = await openTwo();
    const setting = new ResponseCacheSetting(here);
    const other = new ResponseCacheSetting(there);
    expect(setting.settings()).toEqual({ ttlSeconds: 0, scope: 'key', ...defaultResponseCacheLimits });
    expect(other.view()).toEqual({
      stored: { ttlSeconds: 0, scope: 'key' },
      effective: { ttlSeconds: 0, scope: 'key' },
      overridden: { ttlSeconds: false, scope: false },
    });
    expect(await setting.save({ ttlSeconds: 300, scope: 'all' })).toMatchObject({
      effective: { ttlSeconds: 300, scope: 'all' },
    });
    expect(setting.settings()).toMatchObject({ ttlSeconds: 300, scope: 'all' });
    await waitFor(() => other.settings().ttlSeconds === 300 || undefined, { what: 'the other to see the change' });
    expect(other.settings()).toMatchObject({ ttlSeconds: 300, scope: 'all' });
  });

  it("lets serve's flags win field by field, and says which", async () => {
    const store = await open();
    const setting = new ResponseCacheSetting(store);
    await setting.save({ ttlSeconds: 120, scope: 'all' });
    setting.override({ ttlSeconds: 5, scope: undefined, maxEntries: 10 });
    expect(setting.settings()).toEqual({
      ttlSeconds: 5,
      scope: 'all',
      maxEntries: 10,
      maxBytes: defaultResponseCacheLimits.maxBytes,
    });
    expect(setting.view()).toEqual({
      stored: { ttlSeconds: 120, scope: 'all' },
      effective: { ttlSeconds: 5, scope: 'all' },
      overridden: { ttlSeconds: true, scope: false },
    });
  });

  it('refuses a TTL that is not whole seconds up to a year, storing nothing', async () => {
    const store = await open();
    const setting = new ResponseCacheSetting(store);
    for (const ttlSeconds of [-1, 1.5, 31_536_001]) {
      await expect(setting.save({ ttlSeconds, scope: 'key' })).rejects.toThrow(/whole seconds from 0/);
    }
    expect(store.getSetting('response_cache')).toBeUndefined();
    await store.setSetting('response_cache', '{"ttlSeconds":"soon","scope":"everyone"}');
    expect(setting.settings()).toMatchObject({ ttlSeconds: 0, scope: 'key' });
    await store.setSetting('response_cache', 'not json');
    expect(setting.settings()).toMatchObject({ ttlSeconds: 0, scope: 'key' });
  });
});
