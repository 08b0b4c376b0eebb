// `npm start` as a newcomer runs it, against its floor measured in the same run: how long until
// the first GET /health answers 200 and the first registration 201, next to DynamoDB Local
// started alone; and the memory of the process group besides DynamoDB Local's Java.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { freePort, startDynamoDbLocal } from '../infra/local/dynamodb';
import { median, type Row, row } from './measure';

const RUNS = 3;

/** The Node arguments `npm start` runs the local host with (package.json's `start` script). */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  // `exec node ...`: the shell hands npm's signals straight to Node (issue 19).
  const [command, ...args] = pkg.scripts.start.replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node`);
  return args;
}

/** Processes of a process group: name and resident memory (MiB), from /proc (Linux). */
function processGroup(pgid: number): { name: string; rssMiB: number }[] {
  const members: { name: string; rssMiB: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      members.push({ name, rssMiB: rssKb / 1024 });
    } catch {
      // the process ended meanwhile
    }
  }
  return members;
}

/** Polls until `attempt` resolves true; the time from `since` when it did. */
async function until(since: number, attempt: () => Promise<boolean>, timeoutMs = 60_000) {
  while (performance.now() - since < timeoutMs) {
    if (await attempt().catch(() => false)) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('npm start did not answer in time');
}

async function oneStart(log: (line: string) => void) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // Its own process group, so that everything `npm start` runs can be measured and stopped.
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), LOCAL_DATA_DIR: 'memory' },
    stdio: 'ignore',
    detached: true,
  });
  const pgid = child.pid as number;
  try {
    const health = await until(started, async () => {
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1_000) });
      return response.status === 200;
    });
    const registration = await until(started, async () => {
      const id = randomUUID().slice(0, 8);
      const response = await fetch(`${base}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: `bench_${id}`,
          email: `bench_${id}@example.com`,
          password: `Bench-${id}-password`,
        }),
        signal: AbortSignal.timeout(30_000),
      });
      return response.status === 201;
    });
    const group = processGroup(pgid).filter((member) => member.name !== 'java');
    log(
      `npm start: /health ${Math.round(health)} ms, registration ${Math.round(registration)} ms, ` +
        group.map((member) => `${member.name} ${Math.round(member.rssMiB)} MiB`).join(', '),
    );
    return {
      health,
      registration,
      rssMiB: group.reduce((sum, member) => sum + member.rssMiB, 0),
    };
  } finally {
    process.kill(-pgid, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function localStartBenchmarks(log: (line: string) => void): Promise<Row[]> {
  const alone: number[] = [];
  const health: number[] = [];
  const registration: number[] = [];
  const rss: number[] = [];
  // Interleaved, so that load on this shared machine hits the floor and the start alike.
  for (let run = 0; run < RUNS; run++) {
    log(`local start ${run + 1}/${RUNS}: DynamoDB Local alone, then npm start`);
    const since = performance.now();
    const dynamo = await startDynamoDbLocal({ dataDir: 'memory' });
    alone.push(performance.now() - since);
    await dynamo.stop();
    const start = await oneStart(log);
    health.push(start.health);
    registration.push(start.registration);
    rss.push(start.rssMiB);
  }
  const floor = median(alone);
  return [
    row('local start', 'DynamoDB Local alone, ready', floor, 'ms'),
    row('local start', 'npm start -> first GET /health 200', median(health), 'ms', {
      below: Math.round(floor),
    }),
    row('local start', 'npm start -> first registration 201', median(registration), 'ms', {
      below: Math.round(floor + 1_000),
    }),
    row('local start', 'process group RSS besides Java', median(rss), 'MiB', { below: 150 }),
  ];
}
