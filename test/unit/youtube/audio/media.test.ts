// Which URLs the audio of a video may be fetched from: googlevideo.com's media hosts over
// https, and in tests the origin of YOUTUBE_BASE_URL; nothing else (OWASP SSRF prevention).
import { describe, expect, it } from 'vitest';
import { isMediaUrl } from '../../../../lib/youtube/audio/media';

describe('isMediaUrl', () => {
  it.each([
    'https://rr1---sn-4g5lznl7.googlevideo.com/videoplayback?itag=139',
    'https://redirector.googlevideo.com/videoplayback?id=1',
  ])('accepts %s', (url) => {
    expect(isMediaUrl(new URL(url))).toBe(true);
  });

  it.each([
    ['plain http', 'http://rr1---sn-4g5lznl7.googlevideo.com/videoplayback'],
    ['another port', 'https://rr1.googlevideo.com:8443/videoplayback'],
    ['credentials', 'https://user:pass@rr1.googlevideo.com/videoplayback'],
    ['a look-alike host', 'https://rr1.googlevideo.com.evil.example/videoplayback'],
    ['a host ending in the name', 'https://evilgooglevideo.com/videoplayback'],
    ['googlevideo.com itself', 'https://googlevideo.com/videoplayback'],
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/'],
    ['YouTube', 'https://www.youtube.com/videoplayback'],
    ['a file', 'file:///etc/passwd'],
  ])('refuses %s', (_what, url) => {
    expect(isMediaUrl(new URL(url))).toBe(false);
  });

  it('accepts the test origin exactly, and no other port or scheme of its host', () => {
    const origin = 'http://127.0.0.1:41234';

    expect(isMediaUrl(new URL(`${origin}/videoplayback?itag=139`), origin)).toBe(true);
    expect(isMediaUrl(new URL('http://127.0.0.1:41235/videoplayback'), origin)).toBe(false);
    expect(isMediaUrl(new URL('https://127.0.0.1:41234/videoplayback'), origin)).toBe(false);
  });
});
