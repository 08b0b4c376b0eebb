// `npm run bench`: every benchmark of issues 6, 17 (jobs), 26 (transcription) and 27 (chapters), printed as a table with its target
// and written to bench/results.json. A missed target is reported, never a failure of the command.
// Run on an otherwise idle machine for figures worth comparing; these machines are shared.
// `npm run bench` loads bench/bench.env (no logs, and what the local host needs).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { startDynamoDbLocal } from '../infra/local/dynamodb';
import { bundleBenchmarks } from './bundles';
import { chapterBenchmarks } from './chapters';
import { handlerBenchmarks } from './handlers';
import { jobBenchmarks } from './jobs';
import { localStartBenchmarks } from './local-start';
import { formatTable, type Row } from './measure';
import { qualityBenchmarks } from './quality-rows';
import { summarizerBenchmarks } from './summarizer';
import { transcriptionBenchmarks } from './transcription';

const log = (line: string) => console.error(`bench: ${line}`);
const rows: Row[] = [];
const started = Date.now();

rows.push(...(await bundleBenchmarks(log)));
rows.push(...(await summarizerBenchmarks(log)));
rows.push(...(await qualityBenchmarks(log)));
rows.push(...(await chapterBenchmarks(log)));
rows.push(...(await localStartBenchmarks(log)));
log('starting DynamoDB Local');
const dynamo = await startDynamoDbLocal({ dataDir: 'memory' });
try {
  rows.push(...(await handlerBenchmarks(dynamo, log)));
  rows.push(...(await jobBenchmarks(dynamo, log)));
  rows.push(...(await transcriptionBenchmarks(dynamo, log)));
} finally {
  await dynamo.stop();
}

const rounded = rows.map((r) => ({ ...r, value: Math.round(r.value * 100) / 100 }));
const results = {
  generated_at: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
  },
  duration_s: Math.round((Date.now() - started) / 1000),
  rows: rounded,
};
writeFileSync(new URL('results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(formatTable(rounded));
const missed = rounded.filter((r) => r.met === false);
console.log(
  `\n${rounded.filter((r) => r.met).length} targets met, ${missed.length} missed${missed.length ? `: ${missed.map((r) => r.metric).join('; ')}` : ''}`,
);
console.log('written to bench/results.json');
process.exit(0);
