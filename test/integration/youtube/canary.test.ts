// `npm run canary` against the fake YouTube (it cannot reach the real one here): a table of
// what each configured client answers, and an exit code that says whether any client works.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_VIDEO_IDS, type FakeYouTube, startFakeYouTube } from '../../support/fake-youtube';

let fake: FakeYouTube;
beforeAll(async () => {
  fake = await startFakeYouTube();
});
afterAll(() => fake?.close());

async function canary(videos: string[], env: Record<string, string> = {}) {
  const run = promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/canary.ts', ...videos],
    {
      env: { ...process.env, YOUTUBE_BASE_URL: fake.baseUrl, YOUTUBE_TIMEOUT_MS: '15000', ...env },
    },
  );
  try {
    const { stdout } = await run;
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout + failed.stderr };
  }
}

/** The canary table's columns before the outcome, named as the tests read them. */
const COLUMNS = [
  'client',
  'video',
  'status',
  'playability',
  'tracks',
  'poToken',
  'captionBytes',
  'visitor',
  'words',
  'ms',
  'audio',
  'audioCheck',
] as const;

/** The table's rows, as objects keyed by the heading line. */
function rows(stdout: string): Record<string, string>[] {
  const lines = stdout.split('\n');
  const heading = lines.findIndex((line) => line.startsWith('client'));
  const body = lines.slice(heading + 2).filter((line) => /^[A-Z_]+@/.test(line));
  return body.map((line) => {
    const cells = line.split(/\s{2,}/);
    // The outcome may itself hold runs of spaces: it is the rest of the line.
    const outcome = cells.slice(COLUMNS.length).join(' ');
    return { ...Object.fromEntries(COLUMNS.map((name, i) => [name, cells[i]])), outcome };
  });
}

describe('npm run canary', () => {
  it('prints a row per client and video, and exits 0 when a client yields a transcript', async () => {
    const { code, stdout } = await canary([
      FAKE_VIDEO_IDS['retired-android'],
      FAKE_VIDEO_IDS['android-po-token'],
    ]);

    expect(code).toBe(0);
    const table = rows(stdout);
    expect(table.map((row) => `${row.client?.split('@')[0]} ${row.video}`)).toEqual([
      'ANDROID retiredandr',
      'ANDROID androidxpe0',
      'IOS retiredandr',
      'IOS androidxpe0',
      'VISIONOS retiredandr',
      'VISIONOS androidxpe0',
    ]);
    expect(table[0]).toMatchObject({
      status: '400',
      outcome: expect.stringMatching(/^refused: 502/),
    });
    // The recorded normal video lists nine tracks; ANDROID's all need a PO token here.
    expect(table[1]).toMatchObject({
      status: '200',
      playability: 'OK',
      tracks: '9',
      poToken: '9',
      visitor: 'sent',
    });
    expect(table[1]?.outcome).toMatch(/^po-token: 503 youtube-blocked \(po-token-required\)/);
    expect(table[2]).toMatchObject({
      status: '200',
      tracks: '9',
      poToken: '0',
      captionBytes: expect.stringMatching(/^[1-9]\d+$/),
      visitor: 'sent',
      words: '20',
      outcome: 'transcript',
    });
    expect(stdout).toContain('clients that yield transcripts: IOS@21.26.4, VISIONOS@1.02');
  });

  it('reports, per client, the audio formats offered with direct URLs and whether the first 64 KB of the smallest download', async () => {
    fake.reset();
    const { stdout } = await canary(
      [FAKE_VIDEO_IDS['audio-refused-first'], FAKE_VIDEO_IDS['audio-cipher-only']],
      { YOUTUBE_CLIENTS: 'ANDROID,IOS' },
    );

    const table = rows(stdout);
    expect(
      table.map((row) => [row.client?.split('@')[0], row.video, row.audio, row.audioCheck]),
    ).toEqual([
      ['ANDROID', 'audio403and', '5 direct', 'refused: HTTP 403'],
      ['ANDROID', 'audiocipher', '0 direct, 5 ciphered', '-'],
      [
        'IOS',
        'audio403and',
        '5 direct',
        expect.stringMatching(/^ok 65536 B, \d+ ms \(itag 139\)$/),
      ],
      ['IOS', 'audiocipher', '0 direct, 5 ciphered', '-'],
    ]);
    expect(
      fake.media.filter((request) => request.status === 206).map((request) => request.range),
    ).toEqual([[0, 65_535]]);
    expect(stdout).toContain('clients whose audio downloads (what transcription needs): IOS@');
  });

  it('exits 1 when no client yields a transcript', async () => {
    const { code, stdout } = await canary([FAKE_VIDEO_IDS.blocked], {
      YOUTUBE_CLIENTS: 'IOS,ANDROID_VR',
    });

    expect(code).toBe(1);
    // Each client's bot check was asked again, with renewed visitor data.
    const table = rows(stdout);
    expect(table.map((row) => row.outcome)).toEqual([
      'blocked, asked again',
      'blocked: 503 youtube-blocked (bot-check)',
      'blocked, asked again',
      'blocked: 503 youtube-blocked (bot-check)',
    ]);
    expect(table.map((row) => row.visitor)).toEqual([
      'sent',
      'sent (renewed)',
      'sent',
      'sent (renewed)',
    ]);
    expect(table[0]?.playability).toMatch(/^LOGIN_REQUIRED "Sign in to confirm/);
    expect(stdout).toContain('no client yields a transcript');
  });
});
