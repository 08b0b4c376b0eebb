import { createGeneratorSync } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lib/errors';
import { MAX_VIDEO_URL_LENGTH, parseVideoId, VIDEO_URL_PATTERN } from '../../../lib/youtube/url';

const ID = 'GJLlxj_dtq8';

function refusal(input: string): ValidationError {
  try {
    parseVideoId(input);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

const ACCEPTED = [
  `https://www.youtube.com/watch?v=${ID}`,
  `https://www.youtube.com/watch?v=${ID}&t=30s`,
  `https://www.youtube.com/watch?v=${ID}&t=30`,
  `https://www.youtube.com/watch?v=${ID}&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&index=2`,
  `https://www.youtube.com/watch?feature=share&v=${ID}`,
  `https://www.youtube.com/watch?v=${ID}#t=1m`,
  `http://youtube.com/watch?v=${ID}`,
  `https://m.youtube.com/watch?v=${ID}`,
  `https://music.youtube.com/watch?v=${ID}&si=abc`,
  `https://youtu.be/${ID}`,
  `https://youtu.be/${ID}?t=30`,
  `https://www.youtube-nocookie.com/embed/${ID}`,
  `https://www.youtube.com/embed/${ID}?start=10`,
  `https://www.youtube.com/shorts/${ID}`,
  `https://youtube.com/shorts/${ID}?feature=share`,
  `https://www.youtube.com/live/${ID}`,
  `https://www.youtube.com/v/${ID}`,
  `HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`,
  `youtu.be/${ID}`,
  `www.youtube.com/watch?v=${ID}`,
  `  https://youtu.be/${ID}  `,
  ID,
];

const REFUSED = [
  ['a cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
  ['localhost', `http://localhost/watch?v=${ID}`],
  ['an IP address with a port', `http://127.0.0.1:8080/watch?v=${ID}`],
  ['an IPv6 literal', `https://[::1]/watch?v=${ID}`],
  ['a numeric host', `https://0x7f000001/watch?v=${ID}`],
  ['a file URL', 'file:///etc/passwd'],
  ['a javascript URL', 'javascript:alert(1)'],
  ['an ftp URL', `ftp://youtube.com/watch?v=${ID}`],
  ['a look-alike suffix host', `https://youtube.com.evil.tld/watch?v=${ID}`],
  ['userinfo before another host', `https://www.youtube.com@evil.tld/watch?v=${ID}`],
  ['credentials on the real host', `https://user:pass@www.youtube.com/watch?v=${ID}`],
  ['a backslash trick', `https://evil.tld\\@www.youtube.com/watch?v=${ID}`],
  ['a port', `https://www.youtube.com:8443/watch?v=${ID}`],
  ['the default port spelled out', `https://www.youtube.com:443/watch?v=${ID}`],
  ['a Cyrillic look-alike host', `https://www.yоutube.com/watch?v=${ID}`],
  ['a fullwidth host', `https://ｗｗｗ.ｙｏｕｔｕｂｅ.com/watch?v=${ID}`],
  ['a punycode host', `https://www.xn--ytube-4qf.com/watch?v=${ID}`],
  ['a percent-encoded host', `https://www.youtube.com%2eevil.tld/watch?v=${ID}`],
  ['a trailing-dot host', `https://youtube.com./watch?v=${ID}`],
  ['a YouTube URL inside another host', `https://evil.tld/https://www.youtube.com/watch?v=${ID}`],
  ['a YouTube URL in a query', `https://evil.tld/?u=youtu.be/${ID}`],
  ['a channel page', 'https://www.youtube.com/channel/UCVYamHliCI9rw1tHR1xbkfw'],
  ['a short ID', 'https://www.youtube.com/watch?v=GJLlxj_dtq'],
  ['two different IDs', `https://www.youtube.com/watch?v=${ID}&v=dQw4w9WgXcQ`],
  ['a path traversal ID', 'https://www.youtube.com/watch?v=../../etc/x'],
  ['header injection in the ID', `https://www.youtube.com/watch?v=${ID}%0d%0aHost:evil`],
  ['an embed path on youtu.be', `https://youtu.be/embed/${ID}`],
  ['an empty string', ''],
  ['a 12-character ID', `${ID}x`],
] as const;

describe('parseVideoId', () => {
  it.each(ACCEPTED)('accepts %s', (input) => {
    expect(parseVideoId(input)).toBe(ID);
  });

  it.each(REFUSED)('refuses %s', (_label, input) => {
    const error = refusal(input);
    expect(error.status).toBe(422);
    expect(error.extensions.errors).toEqual([{ field: 'video_url', message: expect.any(String) }]);
  });

  it('accepts a valid link of exactly 2048 characters', () => {
    const prefix = `https://www.youtube.com/watch?v=${ID}&pad=`;
    const input = prefix + 'a'.repeat(MAX_VIDEO_URL_LENGTH - prefix.length);

    expect(input).toHaveLength(2048);
    expect(parseVideoId(input)).toBe(ID);
  });

  it('refuses a link of 2049 characters and says why', () => {
    const prefix = `https://www.youtube.com/watch?v=${ID}&pad=`;
    const input = prefix + 'a'.repeat(MAX_VIDEO_URL_LENGTH + 1 - prefix.length);

    const error = refusal(input);

    expect(error.extensions.errors).toEqual([
      { field: 'video_url', message: 'Use a link of at most 2048 characters.' },
    ]);
  });

  it('names the accepted hosts when a link points elsewhere, in one sentence saying what to do', () => {
    const error = refusal(`https://vimeo.com/watch?v=${ID}`);

    expect(error.extensions.errors).toEqual([
      {
        field: 'video_url',
        message: 'Use a link to a YouTube video (youtube.com or youtu.be) or its 11-character ID.',
      },
    ]);
  });
});

describe('VIDEO_URL_PATTERN (the forms the OpenAPI document gives for video_url)', () => {
  const pattern = new RegExp(VIDEO_URL_PATTERN);

  it('matches only strings parseVideoId accepts: 3,000 generated from it', () => {
    const generator = createGeneratorSync({ seed: 20_261_122 });
    const schema = { type: 'string', pattern: VIDEO_URL_PATTERN, maxLength: MAX_VIDEO_URL_LENGTH };
    const refused: string[] = [];
    const forms = new Set<string>();

    for (let i = 0; i < 3_000; i++) {
      const input = generator.generate(schema) as string;
      expect(input).toMatch(pattern);
      forms.add(
        /^https?:\/\/|^/.exec(input)?.[0] +
          (/youtu\.be|nocookie|watch|embed|shorts|live|\/v\//.exec(input)?.[0] ?? 'id'),
      );
      try {
        parseVideoId(input);
      } catch {
        refused.push(input);
      }
    }

    expect(refused).toEqual([]);
    // The generator reached every form, not just bare IDs.
    expect(forms.size).toBeGreaterThanOrEqual(8);
  });

  it('matches the usual forms of a link', () => {
    const usual = ACCEPTED.filter(
      (input) =>
        input === input.trim() && input === input.replace(/HTTPS:\/\/WWW\.YOUTUBE\.COM/, ''),
    );

    expect(usual.length).toBe(ACCEPTED.length - 2);
    for (const input of usual) expect(input, input).toMatch(pattern);
  });

  it('matches none of the refused inputs', () => {
    for (const [label, input] of REFUSED) expect(input, label).not.toMatch(pattern);
  });
});
