// Summary jobs and collections a crash left unfinished, found in the store and put back on the
// local queue.
import type { Config } from '../../../lib/config';
import type { LocalQueue } from '../queue';

/**
 * Resumes the summary runs a crash left unfinished. With its own DynamoDB Local (`exclusive`)
 * no other process can be working on them: they are taken over at once. With a shared DynamoDB,
 * a run whose worker may still be alive elsewhere is resumed when its lease expires (a live
 * worker renews it, and the resumed message then leaves the run to it).
 */
export async function resumeUnfinished(
  config: Config,
  queue: LocalQueue,
  exclusive: boolean,
  log: (line: string) => void,
): Promise<void> {
  try {
    const [{ createDocumentClient }, { createRecordStore }, { createCollectionStore }] =
      await Promise.all([
        import('../../../lib/aws/dynamodb'),
        import('../../../lib/summaries/store/records'),
        import('../../../lib/collections/store'),
      ]);
    const db = createDocumentClient(config);
    const records = createRecordStore(db, config.TABLE_NAME, {
      leaseMs: config.JOB_LEASE_SECONDS * 1000,
    });
    const [unfinished, collections] = await Promise.all([
      records.unfinished(),
      createCollectionStore(db, config.TABLE_NAME).unfinished(),
    ]).finally(() => db.destroy());
    if (collections.length > 0) log(`resuming ${collections.length} unfinished collection(s)`);
    const now = Date.now();
    for (const { id, requestId, lease } of collections) {
      // As a run's: taken over at once with our own database, else once the lease lapses.
      const held = lease.owner !== undefined && (lease.until ?? 0) > now;
      queue.resume(
        { collection: id, request_id: requestId },
        { force: exclusive, delayMs: held && !exclusive ? (lease.until ?? now) - now + 100 : 0 },
      );
    }
    if (unfinished.length === 0) return;
    log(`resuming ${unfinished.length} unfinished summary job(s)`);
    for (const record of unfinished) {
      const held = record.owner !== undefined && (record.leaseUntil ?? 0) > now;
      queue.resume(
        { key: record.key, request_id: record.requestId },
        {
          force: exclusive,
          delayMs: held && !exclusive ? (record.leaseUntil ?? now) - now + 100 : 0,
        },
      );
    }
  } catch (error) {
    log(`error: could not look for unfinished summary jobs: ${String(error)}`);
  }
}
