import type { CsvDialect } from './csv-dialect.ts';

/**
 * What both ways of importing a readings CSV file share: the options they take, the progress and
 * summary they report, and the failure after part of the file was stored.
 */

// The largest batch an HTTP request may carry: fewer statements and commits per reading.
export const DEFAULT_BATCH_SIZE = 50_000;

export interface ImportProgress {
  /** Bytes of the file read so far. */
  bytes: number;
  /** Readings stored so far. */
  readings: number;
}

export interface ImportSummary {
  /** Readings stored (inserted + updated). */
  readings: number;
  inserted: number;
  updated: number;
}

/** The file, and how it is written (csv-dialect.ts: the same options as the readings route's CSV body). */
export interface ImportOptions extends CsvDialect {
  accountId: string;
  file: string;
  batchSize?: number;
  /** The IANA time zone of timestamps written without a UTC offset (refused without one). */
  timeZone?: string | undefined;
  onProgress?: (progress: ImportProgress) => void;
}

/** What was not stored at a failure, and what to do before running the file again. */
export interface FailureAdvice {
  notStored: string;
  fix: string;
}

const FILE_FAILURE: FailureAdvice = {
  notStored: 'the batch with the failing line was not stored',
  fix: 'Fix the file',
};

/** A failure after some batches were stored: those stay (each batch is atomic). */
export class PartialImportError extends Error {
  constructor(
    error: Error,
    readonly stored: ImportSummary,
    readonly advice: FailureAdvice = FILE_FAILURE,
  ) {
    super(error.message, { cause: error });
    this.name = 'PartialImportError';
  }
}
