// Speed of the offline summarizer on 3,000 and 30,000 words (built from the shared fixtures).
import { createExtractiveSummarizer } from '../lib/summaries/extractive/summarizer';
import { buildLongTranscript, loadSharedMetadata } from '../test/support/transcripts';
import { median, type Row, row, timeRuns } from './measure';

export async function summarizerBenchmarks(log: (line: string) => void): Promise<Row[]> {
  const summarizer = createExtractiveSummarizer();
  const metadata = loadSharedMetadata();
  const signal = new AbortController().signal;
  const rows: Row[] = [];
  const p50: Record<number, number> = {};
  for (const [words, runs, target] of [
    [3_000, 40, 20],
    [30_000, 10, 300],
  ] as const) {
    log(`extractive summarizer: ${words} words x ${runs}`);
    const transcript = buildLongTranscript(words);
    const times = await timeRuns(
      () => summarizer.summarize({ transcript, metadata, targetWords: 300, signal }),
      runs,
      3,
    );
    p50[words] = median(times);
    rows.push(
      row('summarizer', `extractive ${words} words p50`, median(times), 'ms', { below: target }),
    );
  }
  // What a request served beside an offline summary waits at worst (the local host serves side
  // by side): the longest time the event loop is held, 1 ms timer resolution, model loaded.
  log('event loop while summarising 3 hours (27,000 words) x 5');
  const threeHours = buildLongTranscript(27_000);
  const stalls: number[] = [];
  for (let run = 0; run < 5; run++) {
    let last = performance.now();
    let longest = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    await summarizer.summarize({ transcript: threeHours, metadata, targetWords: 2_000, signal });
    clearInterval(timer);
    longest = Math.max(longest, performance.now() - last);
    stalls.push(longest);
  }
  rows.push(
    row('summarizer', 'longest event-loop stall, 3-hour summary', Math.max(...stalls), 'ms', {
      below: 100,
    }),
  );
  // 10x the words: an exponent of 1 is linear growth, 2 quadratic.
  const exponent = Math.log((p50[30_000] ?? 0) / (p50[3_000] ?? 1)) / Math.log(10);
  rows.push(row('summarizer', 'growth exponent 3k->30k', exponent, '', { below: 1.5 }));
  return rows;
}
