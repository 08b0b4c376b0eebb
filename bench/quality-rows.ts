// Offline summarizer quality: VT-SSum Top-3 (cross-validated on the train videos, and on the dev
// videos, when they are here) and ROUGE on the real transcript of test/fixtures, as rows.

import { type Row, row } from './measure';
import { runQualityBenchmark, VT_SSUM_MISSING, VT_SSUM_TRAIN_MISSING } from './quality';

export async function qualityBenchmarks(log: (line: string) => void): Promise<Row[]> {
  log('quality: VT-SSum Top-3 and ROUGE (bench/quality.ts)');
  const { train, dev, rouge } = await runQualityBenchmark();
  const rows: Row[] = [];
  if (train === undefined) {
    log(VT_SSUM_TRAIN_MISSING);
  } else {
    const { precision, recall, f1 } = train.crossValidated;
    const folds = `${train.folds.length}-fold`;
    rows.push(
      // Held-out folds are videos the weights were not tuned on, as the dev videos are.
      row('quality', `VT-SSum train ${folds} Top-3 F1 rankSentences mean`, f1.mean, '%', {
        atLeast: 45,
      }),
      row('quality', `VT-SSum train ${folds} Top-3 F1 rankSentences sd`, f1.sd, '%'),
      row('quality', `VT-SSum train ${folds} Top-3 F1 rankSentences min`, f1.min, '%'),
      row('quality', `VT-SSum train ${folds} Top-3 F1 rankSentences max`, f1.max, '%'),
      row('quality', `VT-SSum train ${folds} Top-3 precision rankSentences`, precision.mean, '%'),
      row('quality', `VT-SSum train ${folds} Top-3 recall rankSentences`, recall.mean, '%'),
      row('quality', 'VT-SSum train Top-3 F1 lead-3', train.baselines.lead3.macro.f1, '%'),
      row('quality', 'VT-SSum train Top-3 F1 random-3', train.baselines.random3.macro.f1, '%'),
    );
  }
  if (dev === undefined) {
    log(VT_SSUM_MISSING);
  } else {
    const { extractive, lead3, random3 } = dev.methods;
    rows.push(
      // Weights trained on the train videos only; published supervised baselines on the test
      // split: BERT fine-tuned on CNN/DM 40.9, on VT-SSum 48.9.
      row('quality', 'VT-SSum dev Top-3 F1 rankSentences', extractive.macro.f1, '%', {
        atLeast: 45,
      }),
      row('quality', 'VT-SSum dev Top-3 precision rankSentences', extractive.macro.precision, '%'),
      row('quality', 'VT-SSum dev Top-3 recall rankSentences', extractive.macro.recall, '%'),
      row('quality', 'VT-SSum dev Top-3 F1 lead-3', lead3.macro.f1, '%'),
      row('quality', 'VT-SSum dev Top-3 F1 random-3', random3.macro.f1, '%'),
    );
  }
  for (const [name, scores] of Object.entries(rouge)) {
    const label = name === 'lead' ? `lead-${scores.words}` : `extractive (${scores.words} words)`;
    rows.push(row('quality', `ROUGE-1 ${label}`, scores.rouge1, '%'));
    rows.push(row('quality', `ROUGE-2 ${label}`, scores.rouge2, '%'));
    rows.push(row('quality', `ROUGE-L ${label}`, scores.rougeL, '%'));
  }
  return rows;
}
