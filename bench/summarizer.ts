// Speed of the offline summarizer on 3,000 and 30,000 words (built from the shared fixtures).
import { createExtractiveSummarizer } from '../lib/summaries/extractive';
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
  // 10x the words: an exponent of 1 is linear growth, 2 quadratic.
  const exponent = Math.log((p50[30_000] ?? 0) / (p50[3_000] ?? 1)) / Math.log(10);
  rows.push(row('summarizer', 'growth exponent 3k->30k', exponent, '', { below: 1.5 }));
  return rows;
}
