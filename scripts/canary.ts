// `npm run canary [videoId ...]`, for operators: asks each InnerTube client of YOUTUBE_CLIENTS,
// one at a time, for the transcripts of a few long-lived public videos, through the code and the
// settings the service uses (YOUTUBE_PROXY_URL included), and prints a table: client, video,
// HTTP status, the player's playability status and reason, caption tracks, tracks that need a
// PO token (`exp=xpe`), caption bytes, whether visitor data was obtained and sent, words, time,
// the audio-only formats offered with a direct URL (and those only behind a signatureCipher),
// whether the first 64 KB of the smallest one download (what a transcription of a video without
// captions needs), outcome. A client's bot-check retry is a row of its own. The exit code is 1
// when no client yields a transcript. Run it after a deploy, and when summaries start
// failing: it shows which clients still work, and so what to put in YOUTUBE_CLIENTS.

import { operatorCredentialsFrom } from '../lib/aws/operator-credentials';
import { loadConfig } from '../lib/config';
import { ConfigError, HttpError } from '../lib/errors';
import type { Attempt } from '../lib/youtube/acquisition/attempt';
import { ForeignMediaError, MediaRefusedError } from '../lib/youtube/audio/media';
import { type YouTubeClient, youTubeClientFromConfig } from '../lib/youtube/client';
import { isVideoId } from '../lib/youtube/url';

/**
 * Public videos with manual English captions that have stayed up for years (as of 2026):
 * Rick Astley's "Never Gonna Give You Up" (2009), Computerphile's "CNN: Convolutional Neural
 * Networks Explained" (2016) and 3Blue1Brown's "But what is a neural network?" (2017).
 */
const DEFAULT_VIDEOS = ['dQw4w9WgXcQ', 'py5byOOHZM8', 'aircAruvnKk'];

interface Row {
  client: string;
  video: string;
  status: string;
  playability: string;
  tracks: string;
  poToken: string;
  captionBytes: string;
  visitor: string;
  words: string;
  ms: string;
  audio: string;
  audioCheck: string;
  outcome: string;
}

const HEADINGS: Row = {
  client: 'client',
  video: 'video',
  status: 'HTTP',
  playability: 'playability',
  tracks: 'tracks',
  poToken: 'PO-token tracks',
  captionBytes: 'caption bytes',
  visitor: 'visitor data',
  words: 'words',
  ms: 'ms',
  audio: 'audio formats',
  audioCheck: 'first 64 KB',
  outcome: 'outcome',
};

/** What the audio check downloads: enough to see the media server serve this client. */
const AUDIO_CHECK_BYTES = 65_536;

async function main(): Promise<number> {
  const videos = process.argv.slice(2);
  const ids = videos.length > 0 ? videos : DEFAULT_VIDEOS;
  const invalid = ids.filter((id) => !isVideoId(id));
  if (invalid.length > 0) {
    console.error(`error: not 11-character video IDs: ${invalid.join(', ')}`);
    return 2;
  }
  const config = loadConfig();
  // The deployment's proxy, from CREDENTIALS_SECRET_ARN, when the variables do not give one.
  const credentials = await operatorCredentialsFrom(config);
  console.log(
    `asking ${config.YOUTUBE_CLIENTS.map((c) => `${c.name}@${c.version}`).join(', ')} ` +
      `at ${config.YOUTUBE_BASE_URL}${credentials.youtubeProxyUrl ? ' through the proxy' : ''}`,
  );
  const rows: Row[] = [];
  for (const client of config.YOUTUBE_CLIENTS) {
    // One client at a time: the service's fallback to the next client would hide this one.
    const youtube = youTubeClientFromConfig({ ...config, YOUTUBE_CLIENTS: [client] }, credentials);
    try {
      for (const video of ids)
        rows.push(...(await probe(youtube, `${client.name}@${client.version}`, video)));
    } finally {
      await youtube.close();
    }
  }
  printTable(rows);
  const working = [
    ...new Set(rows.filter((row) => row.outcome === 'transcript').map((r) => r.client)),
  ];
  console.log(
    working.length > 0
      ? `\nclients that yield transcripts: ${working.join(', ')}`
      : '\nno client yields a transcript: see the outcomes above, and docs/youtube.md',
  );
  const audible = [
    ...new Set(rows.filter((row) => row.audioCheck.startsWith('ok')).map((r) => r.client)),
  ];
  console.log(
    audible.length > 0
      ? `clients whose audio downloads (what transcription needs): ${audible.join(', ')}`
      : 'no client’s audio downloads: videos without captions cannot be transcribed from here',
  );
  return working.length > 0 ? 0 : 1;
}

/** One row per attempt of the client (a bot check's retry is one more), the last with the outcome. */
async function probe(youtube: YouTubeClient, client: string, video: string): Promise<Row[]> {
  const attempts: Attempt[] = [];
  let outcome: string;
  try {
    await youtube.fetchVideo(video, {
      onAttempt: (attempt) => attempts.push(attempt),
      signal: AbortSignal.timeout(30_000),
    });
    outcome = 'transcript';
  } catch (error) {
    outcome = describe(error, attempts.at(-1));
  }
  if (attempts.length === 0) return [rowOf(client, video, undefined, outcome, '-')];
  const audioCheck = await checkAudio(youtube, attempts.at(-1));
  return attempts.map((attempt, index) => {
    const last = index === attempts.length - 1;
    return rowOf(
      client,
      video,
      attempt,
      last ? outcome : `${attempt.outcome}, asked again`,
      last ? audioCheck : '-',
    );
  });
}

/** Downloads the first 64 KB of the smallest audio format the attempt was offered. */
async function checkAudio(youtube: YouTubeClient, attempt: Attempt | undefined): Promise<string> {
  const offer = attempt?.audio?.offer;
  if (!offer) return '-';
  const started = Date.now();
  try {
    const bytes = await youtube.downloadAudio(offer, {
      userAgent: offer.userAgent,
      maxBytes: Number.MAX_SAFE_INTEGER,
      limitBytes: AUDIO_CHECK_BYTES,
      signal: AbortSignal.timeout(30_000),
    });
    return `ok ${bytes.byteLength} B, ${Date.now() - started} ms (itag ${offer.itag})`;
  } catch (error) {
    if (error instanceof MediaRefusedError) return `refused: HTTP ${error.status}`;
    if (error instanceof ForeignMediaError) return `refused: ${error.host} is no media host`;
    return error instanceof HttpError ? `${error.status} ${error.type}` : `error: ${String(error)}`;
  }
}

function rowOf(
  client: string,
  video: string,
  attempt: Attempt | undefined,
  outcome: string,
  audioCheck: string,
): Row {
  const known = (value: number | string | undefined) => (value === undefined ? '-' : String(value));
  const playability = attempt?.playability
    ? `${attempt.playability}${attempt.reason ? ` "${attempt.reason.slice(0, 60)}"` : ''}`
    : '-';
  const visitor = attempt
    ? `${attempt.visitorData ? 'sent' : 'none'}${attempt.retry ? ' (renewed)' : ''}`
    : '-';
  return {
    client,
    video,
    status: known(attempt?.status),
    playability,
    tracks: known(attempt?.tracks),
    poToken: known(attempt?.poTokenTracks),
    captionBytes: known(attempt?.captionBytes),
    visitor,
    words: known(attempt?.words),
    ms: known(attempt?.elapsedMs),
    audio: attempt?.audio
      ? `${attempt.audio.direct} direct${attempt.audio.ciphered ? `, ${attempt.audio.ciphered} ciphered` : ''}`
      : '-',
    audioCheck,
    outcome,
  };
}

/** What a failure says, briefly: the attempt's own outcome, then the problem it became. */
function describe(error: unknown, attempt: Attempt | undefined): string {
  if (!(error instanceof HttpError)) return `error: ${String(error)}`;
  const reason = error.extensions.block_reason;
  const problem = `${error.status} ${error.type}${reason ? ` (${String(reason)})` : ''}`;
  return attempt && attempt.outcome !== 'transcript' ? `${attempt.outcome}: ${problem}` : problem;
}

function printTable(rows: readonly Row[]): void {
  const columns = Object.keys(HEADINGS) as (keyof Row)[];
  const widths = columns.map((column) =>
    Math.max(HEADINGS[column].length, ...rows.map((row) => row[column].length)),
  );
  const line = (row: Row) =>
    columns
      .map((column, i) => row[column].padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(line(HEADINGS));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`error: ${error instanceof ConfigError ? error.message : String(error)}`);
  process.exitCode = 2;
}
