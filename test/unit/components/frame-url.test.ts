// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { frameUrl, MOBILE_APP_VERSION } from '../../../src/components/frame-url';

describe('the activity frame URL (CONTRACT §5)', () => {
  it('keeps src own query and adds frame_id, instance_id, platform, guild_id, channel_id, location_id, and on mobile the mobile_app_version', () => {
    const url = frameUrl(new URL('https://host.test/activities/1/?level=3&custom_id=x'), {
      frame_id: 'f',
      instance_id: 'i-1',
      platform: 'mobile',
      guild_id: '2',
      channel_id: '3',
    });
    expect(Object.fromEntries(url.searchParams)).toEqual({
      level: '3',
      custom_id: 'x',
      frame_id: 'f',
      instance_id: 'i-1',
      platform: 'mobile',
      guild_id: '2',
      channel_id: '3',
      mobile_app_version: MOBILE_APP_VERSION,
      location_id: 'gc-2-3',
    });
    expect(url.pathname).toBe('/activities/1/');
  });

  it('outside a guild: no guild_id, and the location is the channel', () => {
    const url = frameUrl(new URL('https://host.test/.proxy/activities/1/'), {
      frame_id: 'f',
      instance_id: 'i',
      platform: 'desktop',
      guild_id: null,
      channel_id: '3',
    });
    expect(url.searchParams.has('guild_id')).toBe(false);
    expect(url.searchParams.get('location_id')).toBe('c-3');
    // The desktop client adds no mobile version.
    expect(url.searchParams.has('mobile_app_version')).toBe(false);
  });
});
