// What the page writes from the API's answers (web/format.ts): times, progress, Markdown,
// which field a problem is shown by, citations' excerpts, a new key's lifetime and where a key
// stands with it, and the MCP configuration of a new key.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiKeyLifetimeSchema } from '../../../lib/accounts/api-keys/schemas';
import type { Job, Problem, Summary } from '../../../web/api';
import {
  claudeCodeCommand,
  clock,
  DEFAULT_KEY_LIFETIME,
  dateTime,
  excerpt,
  fieldOf,
  jobTitle,
  KEY_LIFETIMES,
  keyExpiry,
  listedWith,
  mcpEndpoint,
  mcpJsonConfig,
  newKeyBody,
  paragraphsOf,
  progressOf,
  summaryMarkdown,
} from '../../../web/format';

const job = (status: Job['status'], stage: Job['progress']['stage'], done = 0, total = 0) => ({
  status,
  progress: { stage, parts_done: done, parts_total: total },
});

const problem = (type: string, extra: Partial<Problem> = {}): Problem => ({
  type: `urn:tubesum:problem:${type}`,
  title: 'Problem',
  status: 422,
  detail: 'It went wrong.',
  request_id: 'r',
  ...extra,
});

describe('clock', () => {
  it('writes times as YouTube does', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(81.2)).toBe('1:21');
    expect(clock(3725)).toBe('1:02:05');
  });
});

describe('progressOf', () => {
  it('rises through the stages and the parts, and never past 100', () => {
    const seen = [
      job('queued', 'queued'),
      job('running', 'transcript'),
      job('running', 'transcribing'),
      job('running', 'summarizing', 0, 4),
      job('running', 'summarizing', 1, 4),
      job('running', 'summarizing', 4, 4),
      job('running', 'combining', 4, 4),
      job('done', 'done', 4, 4),
    ].map((state) => progressOf(state).percent);

    expect(seen).toEqual([0, 5, 6, 10, 30, 90, 90, 100]);
  });

  it('says that a video without captions is being transcribed', () => {
    expect(progressOf(job('running', 'transcribing')).words).toBe(
      'No captions: transcribing the audio…',
    );
  });

  it('counts the parts of the audio as they are transcribed, up to half the bar', () => {
    const seen = [0, 2, 17, 18].map((done) => progressOf(job('running', 'transcribing', done, 18)));

    expect(seen.map((progress) => progress.words)).toEqual([
      'No captions: transcribing part 1 of 18…',
      'No captions: transcribing part 3 of 18…',
      'No captions: transcribing part 18 of 18…',
      'No captions: transcribing part 18 of 18…',
    ]);
    expect(seen.map((progress) => progress.percent)).toEqual([6, 11, 48, 50]);
  });

  it('says how many parts are done', () => {
    expect(progressOf(job('running', 'summarizing', 2, 5)).words).toBe(
      'Summarizing: 2 of 5 parts done…',
    );
  });

  it('does not divide by an unknown number of parts', () => {
    expect(progressOf(job('running', 'summarizing', 0, 0)).percent).toBe(10);
  });

  it('names the combining step with the number of part summaries it combines', () => {
    expect(progressOf(job('running', 'combining', 35, 35)).words).toBe(
      'Combining 35 part summaries into one…',
    );
  });
});

describe('jobTitle', () => {
  const video = (title: string | null) => ({ video: { video_id: 'py5byOOHZM8', title } });

  it('names a job by its video’s title once known, else by the video’s id', () => {
    expect(jobTitle({ ...video('A talk'), result: null })).toBe('A talk');
    expect(jobTitle({ ...video(null), result: null })).toBe('Video ID py5byOOHZM8');
    const result = { metadata: { title: 'The summary’s title' } } as Summary;
    expect(jobTitle({ ...video(null), result })).toBe('The summary’s title');
  });
});

describe('listedWith', () => {
  const item = (id: string, day: number, status = 'running') => ({
    id,
    status,
    created_at: `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`,
  });
  const listed = [item('c', 3), item('b', 2), item('a', 1)];

  it('shows the job the page follows as the page last read it', () => {
    expect(listedWith(listed, item('b', 2, 'cancelled'))).toEqual([
      item('c', 3),
      item('b', 2, 'cancelled'),
      item('a', 1),
    ]);
  });

  it('adds a new job the list does not hold yet, in its place', () => {
    expect(listedWith(listed, item('d', 4)).map((job) => job.id)).toEqual(['d', 'c', 'b', 'a']);
    expect(listedWith([], item('d', 4)).map((job) => job.id)).toEqual(['d']);
  });

  it('leaves out a job older than every one listed (on a page not shown)', () => {
    expect(listedWith(listed.slice(0, 2), item('a', 1))).toEqual(listed.slice(0, 2));
    expect(listedWith(listed, undefined)).toEqual(listed);
  });
});

describe('summaryMarkdown', () => {
  const summary = {
    summary: 'First paragraph.\n\nSecond one.',
    word_count: 4,
    key_points: [
      {
        text: 'The point',
        start_seconds: 81.2,
        url: 'https://www.youtube.com/watch?v=py5byOOHZM8&t=81s',
      },
    ],
    metadata: { video_id: 'py5byOOHZM8', title: 'A [great] talk', channel_title: 'Someone' },
  } as unknown as Summary;

  it('links the title and every key point to its moment', () => {
    expect(summaryMarkdown(summary)).toBe(
      [
        '# [A \\[great\\] talk](https://www.youtube.com/watch?v=py5byOOHZM8)',
        '',
        'Someone · summary of 4 words',
        '',
        'First paragraph.\n\nSecond one.',
        '',
        '## Key points',
        '',
        '- [1:21](https://www.youtube.com/watch?v=py5byOOHZM8&t=81s) The point',
        '',
      ].join('\n'),
    );
  });

  it('leaves out the key points heading when there are none', () => {
    expect(summaryMarkdown({ ...summary, key_points: [] })).not.toContain('Key points');
  });

  it('lists the chapters under the summary, each a link to its start with what it says', () => {
    const chapters = [
      {
        start_seconds: 0,
        end_seconds: 150,
        title: 'Intro [part 1]',
        summary: 'Why deep learning matters.',
        url: 'https://www.youtube.com/watch?v=py5byOOHZM8&t=0s',
      },
      {
        start_seconds: 3725.4,
        end_seconds: 4000,
        title: 'Kernels',
        summary: 'A kernel slides over the image.',
        url: 'https://www.youtube.com/watch?v=py5byOOHZM8&t=3725s',
      },
    ];

    const markdown = summaryMarkdown({ ...summary, chapters });

    expect(markdown).toContain(
      [
        'Second one.',
        '',
        '## Chapters',
        '',
        '- [0:00 Intro \\[part 1\\]](https://www.youtube.com/watch?v=py5byOOHZM8&t=0s): Why deep learning matters.',
        '- [1:02:05 Kernels](https://www.youtube.com/watch?v=py5byOOHZM8&t=3725s): A kernel slides over the image.',
        '',
        '## Key points',
      ].join('\n'),
    );
  });

  it('leaves out the chapters heading when there are none', () => {
    expect(summaryMarkdown({ ...summary, chapters: [] })).not.toContain('Chapters');
  });
});

describe('fieldOf', () => {
  it('names the field a validation error names', () => {
    expect(
      fieldOf(problem('validation-error', { errors: [{ field: 'used_model', message: 'no' }] })),
    ).toBe('used_model');
  });

  it('puts problems about the video by the Video URL field', () => {
    for (const type of ['video-unavailable', 'captions-disabled', 'transcript-empty']) {
      expect(fieldOf(problem(type)), type).toBe('video_url');
    }
  });

  it('puts a length the model cannot make by the length field', () => {
    expect(fieldOf(problem('summary-length-unsupported'))).toBe('summary_length');
  });

  it('leaves quota and blocking to the action as a whole', () => {
    for (const type of ['quota-exceeded', 'youtube-blocked', 'model-throttled']) {
      expect(fieldOf(problem(type)), type).toBeUndefined();
    }
  });
});

describe('dateTime', () => {
  it('writes an ISO time in the locale, and leaves anything else as it is', () => {
    expect(dateTime('2026-11-23T15:00:00.000Z')).toMatch(/2026/);
    expect(dateTime('2026-11-23T15:00:00.000Z')).not.toContain('T15');
    expect(dateTime('soon')).toBe('soon');
  });
});

describe('paragraphsOf', () => {
  it('splits at blank lines and drops empty paragraphs', () => {
    expect(paragraphsOf('One [0:05]\n\nTwo\nstill two\n\n\n  \n\nThree')).toEqual([
      'One [0:05]',
      'Two\nstill two',
      'Three',
    ]);
  });
});

describe('excerpt', () => {
  it('keeps a short text whole', () => {
    expect(excerpt('  So, a kernel.  ', 20)).toBe('So, a kernel.');
  });

  it('cuts a long one at a word, without a dangling comma, and says so', () => {
    expect(excerpt('So, but, but, because, if you do not know', 14)).toBe('So, but, but…');
    expect(excerpt('Supercalifragilistic', 5)).toBe('Super…');
  });
});

describe('a new key’s lifetime', () => {
  it('offers 30 days, 90 days (the default), a year and never', () => {
    expect(KEY_LIFETIMES.map((lifetime) => lifetime.label)).toEqual([
      '30 days',
      '90 days',
      '1 year',
      'Never',
    ]);
    expect(KEY_LIFETIMES.find((lifetime) => lifetime.value === DEFAULT_KEY_LIFETIME)?.label).toBe(
      '90 days',
    );
  });

  it('asks for each lifetime in days the API takes, and for never by leaving them out', () => {
    const bodies = KEY_LIFETIMES.map((lifetime) => newKeyBody('laptop', lifetime.value));

    expect(bodies).toEqual([
      { name: 'laptop', expires_in_days: 30 },
      { name: 'laptop', expires_in_days: 90 },
      { name: 'laptop', expires_in_days: 365 },
      { name: 'laptop' },
    ]);
    for (const body of bodies) {
      if (body.expires_in_days !== undefined) {
        expect(apiKeyLifetimeSchema.safeParse(body.expires_in_days).success).toBe(true);
      }
    }
  });
});

describe('keyExpiry', () => {
  const at = '2026-11-23T15:00:00.000Z';

  it('says a key expires until its expires_at, and has expired from then on', () => {
    expect(keyExpiry(at, Date.parse(at) - 1)).toBe('expires');
    expect(keyExpiry(at, Date.parse(at))).toBe('expired');
    expect(keyExpiry(at, Date.parse(at) + 86_400_000)).toBe('expired');
  });

  it('says a key without expires_at never expires', () => {
    expect(keyExpiry(null, Date.now())).toBe('never');
  });
});

describe('the MCP configuration of a new key', () => {
  const key = `tsk_${'A'.repeat(43)}`;
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const manual = readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');

  it('names the endpoint beside the page, under a base path too', () => {
    expect(mcpEndpoint('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000/mcp');
    expect(mcpEndpoint('https://abc.example/prod/?x=1#top')).toBe('https://abc.example/prod/mcp');
  });

  it('gives Claude Code the command of the README and docs/mcp.md, with this endpoint and the key', () => {
    for (const page of [readme, manual]) {
      const documented = /^claude mcp add .*$/m.exec(page)?.[0] ?? 'missing';

      expect(claudeCodeCommand('https://HOST/mcp', key)).toBe(documented.replace('tsk_…', key));
    }
  });

  it('gives Cursor the mcp.json of docs/mcp.md, the key left to the environment', () => {
    const block = /Cursor \(`~\/\.cursor\/mcp\.json`[\s\S]*?```json\n([\s\S]*?)```/.exec(
      manual,
    )?.[1];
    const config = mcpJsonConfig('https://HOST/mcp');

    expect(JSON.parse(config)).toEqual(JSON.parse(block ?? 'null'));
    expect(config).not.toContain('tsk_');
  });
});
