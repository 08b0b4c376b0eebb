// What a pasted link to a playlist or a channel becomes, and what is refused without a request.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../../lib/errors';
import { parseCollectionUrl } from '../../../../lib/youtube/collections/url';

const PL = 'PL8dPuuaLjXtOAKed_MxxWBNaPno5h3Zs8';
const UC = 'UCTwECeGqMZee77BjdoYtI2Q';

function refusal(input: string): HttpError {
  try {
    parseCollectionUrl(input);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(`expected ${input} to be refused`);
}

describe('parseCollectionUrl', () => {
  it.each([
    `https://www.youtube.com/playlist?list=${PL}`,
    `youtube.com/playlist?list=${PL}`,
    `https://m.youtube.com/playlist?list=${PL}&si=abc`,
    `https://music.youtube.com/playlist?list=${PL}`,
    `https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${PL}&index=3`,
    `https://youtu.be/dQw4w9WgXcQ?list=${PL}`,
    `https://www.youtube.com/embed/videoseries?list=${PL}`,
    `  ${PL}  `,
  ])('reads the playlist of %s', (input) => {
    expect(parseCollectionUrl(input)).toEqual({ kind: 'playlist', playlistId: PL });
  });

  it.each([
    'OLAK5uy_l1m0thk3g31NmIIz_vMIbWtyv7eZixlH0',
    'UUMOQuLXlFNAeDJMSmuzHU5axw',
    'RDCLAK5uy_ly6s4irLuZAcjEDwJmqcA_UtSipMyGgbQ',
  ])('accepts the playlist ID %s (albums, uploads, curated music lists)', (id) => {
    expect(parseCollectionUrl(`https://www.youtube.com/playlist?list=${id}`)).toEqual({
      kind: 'playlist',
      playlistId: id,
    });
  });

  it.each([
    [`https://www.youtube.com/channel/${UC}`, { channelId: UC }],
    [`https://www.youtube.com/channel/${UC}/videos`, { channelId: UC }],
    [UC, { channelId: UC }],
    ['https://www.youtube.com/@creativecommons', { handle: '@creativecommons' }],
    ['youtube.com/@creativecommons/videos', { handle: '@creativecommons' }],
    ['@creativecommons', { handle: '@creativecommons' }],
    ['https://www.youtube.com/@%E3%81%82%E3%81%84%E3%81%86', { handle: '@あいう' }],
    [
      'https://www.youtube.com/c/creativecommons',
      { legacy: { type: 'c', name: 'creativecommons' } },
    ],
    [
      'https://www.youtube.com/user/Kurzgesagt/featured',
      { legacy: { type: 'user', name: 'Kurzgesagt' } },
    ],
  ])('reads the channel of %s', (input, expected) => {
    expect(parseCollectionUrl(input)).toEqual({ kind: 'channel', ...expected });
  });

  it.each([
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=RDdQw4w9WgXcQ',
    'https://www.youtube.com/watch?v=MuAGGZNfUkU&list=RDMM',
    'https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RDAMVMdQw4w9WgXcQ',
    'RDGMEMQ1dJ7wXfLlqCjwV0xfSNbA',
  ])('refuses the mix %s with 422 collection-mix-unsupported', (input) => {
    expect(refusal(input)).toMatchObject({ status: 422, type: 'collection-mix-unsupported' });
  });

  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', /POST \/summarize/],
    ['https://youtu.be/dQw4w9WgXcQ', /POST \/summarize/],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', /POST \/summarize/],
    ['dQw4w9WgXcQ', /POST \/summarize/],
    ['https://www.youtube.com/playlist?list=WL', /own list/],
    ['https://www.youtube.com/playlist', /This link has no `list`/],
    [`https://www.youtube.com/playlist?list=${PL}&list=PLotherotherother00`, /two different/],
    [`https://evil.example/playlist?list=${PL}`, /youtube\.com/],
    [`https://www.youtube.com@evil.example/playlist?list=${PL}`, /youtube\.com/],
    [`https://www.youtube.com:8080/playlist?list=${PL}`, /youtube\.com/],
    [`ftp://www.youtube.com/playlist?list=${PL}`, /http or https/],
    ['https://www.youtube.com/@a', /handle/],
    ['https://www.youtube.com/channel/UCshort', /channel ID/],
    ['https://www.youtube.com/@creativecommons/videos/extra', /handle/],
    ['https://www.youtube.com/feed/trending', /neither a playlist nor a channel/],
    ['https://www.youtube.com/playlist?list=not a list', /ASCII/],
    ['', /Fill in this field/],
    [`https://www.youtube.com/playlist?list=${'P'.repeat(2050)}`, /at most 2048/],
  ])('refuses %s with 422 validation-error', (input, message) => {
    const error = refusal(input);

    expect(error).toMatchObject({ status: 422, type: 'validation-error' });
    expect(JSON.stringify(error.extensions.errors)).toMatch(message);
  });

  it('answers a long run of lookalike characters at once', () => {
    const started = performance.now();

    refusal(`https://www.youtube.com/@${'a'.repeat(2000)}`);

    expect(performance.now() - started).toBeLessThan(50);
  });
});
