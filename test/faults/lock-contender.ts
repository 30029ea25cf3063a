import { type DataDirLock, lockDataDir } from '../../src/db/data-dir-lock.ts';

/**
 * A process that takes the lock of a data directory when asked ({ take: dataDir }) and answers
 * "held", "in use" or the error; { release: true } releases what it holds.
 */
let lock: DataDirLock | undefined;

process.on('message', (message: { take?: string; release?: boolean }) => {
  if (message.take) {
    try {
      lock = lockDataDir(message.take, 'a contender');
      process.send!('held');
    } catch (error) {
      process.send!((error as Error).name === 'DatabaseInUseError' ? 'in use' : `error: ${(error as Error).message}`);
    }
  } else if (message.release) {
    lock?.release();
    lock = undefined;
    process.send!('released');
  }
});
process.send!('ready');
