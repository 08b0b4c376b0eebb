// `npm run bench`: every benchmark of issues 6, 17 (jobs), 26 and 34 (transcription), 27 (chapters) and 36 (collections), printed as a table with its target
// and written to bench/results.json. A missed target is reported, never a failure of the command.
// Run on an otherwise idle machine for figures worth comparing; these machines are shared.
// `npm run bench` loads bench/bench.env (no logs, and what the local host needs).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { startDynamoDbLocal } from '../infra/local/dynamodb';
import { bundleBenchmarks } from './bundles';
import { chapterBenchmarks } from './chapters';
import { collectionBenchmarks } from './collections';
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

/** The groups of rows, in the order they run; those on DynamoDB Local after the others. */
const GROUPS = {
  bundles: bundleBenchmarks,
  summarizer: summarizerBenchmarks,
  quality: qualityBenchmarks,
  chapters: chapterBenchmarks,
  'local-start': localStartBenchmarks,
} as const;
const DYNAMO_GROUPS = {
  handlers: handlerBenchmarks,
  jobs: jobBenchmarks,
  collections: collectionBenchmarks,
  transcription: transcriptionBenchmarks,
} as const;
// `npm run bench -- transcription jobs` runs only those groups (a row's figure in minutes, not
// the whole bench's); it prints them and leaves bench/results.json, the whole bench's, alone.
const names = [...Object.keys(GROUPS), ...Object.keys(DYNAMO_GROUPS)];
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !names.includes(name));
if (unknown.length > 0) {
  console.error(`bench: unknown group(s) ${unknown.join(', ')}; the groups: ${names.join(', ')}`);
  process.exit(2);
}
const wanted = (name: string) => chosen.length === 0 || chosen.includes(name);

for (const [name, run] of Object.entries(GROUPS)) {
  if (wanted(name)) rows.push(...(await run(log)));
}
const onDynamo = Object.entries(DYNAMO_GROUPS).filter(([name]) => wanted(name));
if (onDynamo.length > 0) {
  log('starting DynamoDB Local');
  const dynamo = await startDynamoDbLocal({ dataDir: 'memory' });
  try {
    for (const [, run] of onDynamo) rows.push(...(await run(dynamo, log)));
  } finally {
    await dynamo.stop();
  }
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
if (chosen.length === 0) {
  writeFileSync(new URL('results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}
console.log(formatTable(rounded));
const missed = rounded.filter((r) => r.met === false);
console.log(
  `\n${rounded.filter((r) => r.met).length} targets met, ${missed.length} missed${missed.length ? `: ${missed.map((r) => r.metric).join('; ')}` : ''}`,
);
console.log(
  chosen.length === 0
    ? 'written to bench/results.json'
    : `only ${chosen.join(', ')}: bench/results.json left as it was`,
);
process.exit(0);
