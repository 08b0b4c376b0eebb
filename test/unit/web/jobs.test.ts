// What the page says of a job (web/jobs.ts): its progress, its title, its place in the history.
import { describe, expect, it } from 'vitest';
import type { Job, Summary } from '../../../web/api';
import { jobDetails, jobTitle, listedWith, progressOf } from '../../../web/jobs';

const job = (status: Job['status'], stage: Job['progress']['stage'], done = 0, total = 0) => ({
  status,
  progress: { stage, parts_done: done, parts_total: total },
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

describe('jobDetails', () => {
  const request = (fields: Partial<Job['request']> = {}): Job['request'] => ({
    video_url: 'https://youtu.be/dQw4w9WgXcQ',
    summary_length: 150,
    used_model: 'extractive',
    include_key_points: true,
    include_chapters: true,
    ...fields,
  });

  it('tells two summaries of one video apart by model, length and language', () => {
    const short = jobDetails({ status: 'done', request: request(), result: null });
    const german = jobDetails({
      status: 'done',
      request: request({ summary_length: 300, used_model: 'llama3.2', summary_language: 'de' }),
      result: null,
    });

    expect(short).toBe('done · extractive · 150 words');
    expect(german).toBe('done · llama3.2 · 300 words · in de');
  });

  it("names the transcript's language once known, when none was asked", () => {
    const result = { metadata: { transcript_language: 'en' } } as Summary;
    expect(jobDetails({ status: 'running', request: request(), result })).toBe(
      'in progress · extractive · 150 words · in en',
    );
  });
});
