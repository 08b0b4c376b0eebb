// Runs a script of test/support (invoke-handlers.ts, invoke-models.ts) in a child process, as
// Lambda runs the functions it invokes: each building itself from the environment given. Reads
// back its `REPLY <name> <json>` lines and Powertools' JSON log lines (errors go to stderr).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface Reply {
  requestId: string;
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
}

/** The replies of `script` by name, and every JSON log line it printed, in order. */
export async function invokeInChild(script: string, env: NodeJS.ProcessEnv) {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', script],
    { env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'INFO', ...env } },
  );
  const replies = new Map<string, Reply>();
  const logs: Record<string, unknown>[] = [];
  for (const line of `${stdout}\n${stderr}`.split('\n')) {
    const reply = /^REPLY (\S+) (.*)$/.exec(line);
    if (reply) replies.set(reply[1] ?? '', JSON.parse(reply[2] ?? '{}') as Reply);
    else if (line.startsWith('{')) logs.push(JSON.parse(line) as Record<string, unknown>);
  }
  return { replies, logs };
}
