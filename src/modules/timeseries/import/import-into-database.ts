import { createReadStream } from 'node:fs';
import { notifyOtherProcesses } from '../../../db/read-cache.ts';
import type { Database } from '../../../db/types.ts';
import { readingsRepository } from '../readings.repository.ts';
import { csvBatches } from './csv-batches.ts';
import { DEFAULT_BATCH_SIZE, type ImportOptions, type ImportSummary, PartialImportError } from './csv-import.ts';
import { OrderedWrites } from './ordered-writes.ts';
import { createBatchPreparer } from './prepare-batch.ts';

/**
 * Streams a CSV file of readings (header meter_sn, ts, import_kwh[, export_kwh, kvarh, power_kw,
 * kva]) into the readings of accountId's electricity meters, in batches of about batchSize lines
 * (ended where a meter's lines end, when that keeps at least half of them), each batch one
 * transaction with its rollups. The import stops at the first bad line: the batch
 * holding it is not stored, earlier batches are. A later line for the same (meter, ts) replaces
 * an earlier one, so running the same file again changes nothing.
 */
export async function importIntoDatabase(db: Database, options: ImportOptions): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!(await readingsRepository.accountExists(db, options.accountId))) {
    throw new Error(`account ${options.accountId} not found`);
  }
  const prepare = createBatchPreparer(db, options.accountId);
  const summary: ImportSummary = { readings: 0, inserted: 0, updated: 0 };
  // Small chunks: the loop yields often, so that the answers of the batch being written are taken up
  // soon and the database does not wait on the parsing of the next batch.
  const input = createReadStream(options.file, { highWaterMark: 16 * 1024 });

  // Batches are written while the next ones are read. This process caches nothing: the servers on
  // the same database drop what they keep of the meters as each batch commits.
  const writes = new OrderedWrites(db, options.accountId, notifyOtherProcesses, (counts) => {
    summary.inserted += counts.inserted;
    summary.updated += counts.updated;
    summary.readings += counts.inserted + counts.updated;
    options.onProgress?.({ bytes: input.bytesRead, readings: summary.readings });
  });

  try {
    for await (const { lines, failure } of csvBatches(input, batchSize, options)) {
      if (failure) {
        // A bad meter on an earlier line of the batch is the first error of the file.
        await prepare(lines);
        throw failure;
      }
      await writes.write(await prepare(lines));
    }
    await writes.finished();
    return summary;
  } catch (error) {
    // Let a batch being written finish, so that the summary says what is stored; its failure,
    // if it fails, comes first in the file.
    const writeFailure = await writes.firstFailure();
    const first = (writeFailure ?? error) as Error;
    throw summary.readings > 0 ? new PartialImportError(first, { ...summary }) : first;
  } finally {
    input.destroy();
  }
}
