// Offline summarizer quality: VT-SSum Top-3 (when its videos are here) and ROUGE on the real
// transcript of test/fixtures, as rows.

import { type Row, row } from './measure';
import { runQualityBenchmark, VT_SSUM_MISSING } from './quality';

export async function qualityBenchmarks(log: (line: string) => void): Promise<Row[]> {
  log('quality: VT-SSum Top-3 and ROUGE (bench/quality.ts)');
  const result = await runQualityBenchmark();
  const rows: Row[] = [];
  if (result.vtSsum === undefined) {
    log(VT_SSUM_MISSING);
  } else {
    const { extractive, lead3, random3 } = result.vtSsum.methods;
    rows.push(
      // The published supervised baseline (BERT fine-tuned on CNN/DM) is Top-3 F1 40.9.
      row('quality', 'VT-SSum Top-3 F1 rankSentences', extractive.macro.f1, '%', {
        atLeast: 40.9,
      }),
      row('quality', 'VT-SSum Top-3 precision rankSentences', extractive.macro.precision, '%'),
      row('quality', 'VT-SSum Top-3 recall rankSentences', extractive.macro.recall, '%'),
      row('quality', 'VT-SSum Top-3 F1 lead-3', lead3.macro.f1, '%'),
      row('quality', 'VT-SSum Top-3 F1 random-3', random3.macro.f1, '%'),
    );
  }
  for (const [name, scores] of Object.entries(result.rouge)) {
    const label = name === 'lead' ? `lead-${scores.words}` : `extractive (${scores.words} words)`;
    rows.push(row('quality', `ROUGE-1 ${label}`, scores.rouge1, '%'));
    rows.push(row('quality', `ROUGE-2 ${label}`, scores.rouge2, '%'));
    rows.push(row('quality', `ROUGE-L ${label}`, scores.rougeL, '%'));
  }
  return rows;
}
