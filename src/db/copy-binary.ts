const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_TO_32 = 2 ** 32;

/** The width in bytes of each fixed-width column type written here. */
const COLUMN_BYTES = { int4: 4, int8: 8, float8: 8, timestamptz: 8 } as const;

/**
 * Rows in COPY's binary format (Transaction.copyBinary): each value in PostgreSQL's own binary
 * form, so the server parses no text and Node formats no numbers or dates. For fixed-width,
 * non-null columns: call row() and then one writer per column, in the table's column order.
 */
export class BinaryCopyRows {
  private readonly buffer: Buffer<ArrayBuffer>;
  // DataView's big-endian writes compile to a few instructions; Buffer's write methods do not.
  private readonly view: DataView;
  private at: number;
  private readonly fields: number;

  constructor(rows: number, columns: readonly (keyof typeof COLUMN_BYTES)[]) {
    this.fields = columns.length;
    const rowBytes = 2 + columns.reduce((sum, column) => sum + 4 + COLUMN_BYTES[column], 0);
    this.buffer = Buffer.allocUnsafe(SIGNATURE.length + 8 + rows * rowBytes + 2);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
    this.at = SIGNATURE.copy(this.buffer, 0);
    this.view.setInt32(this.at, 0); // flags
    this.view.setInt32(this.at + 4, 0); // header extension length
    this.at += 8;
  }

  row(): this {
    this.view.setInt16(this.at, this.fields);
    this.at += 2;
    return this;
  }

  int4(value: number): this {
    this.view.setInt32(this.at, 4);
    this.view.setInt32(this.at + 4, value);
    this.at += 8;
    return this;
  }

  /** A 64-bit integer: a number must be a safe integer; larger ones come as bigint. */
  int8(value: number | bigint): this {
    this.view.setInt32(this.at, 8);
    if (typeof value === 'bigint') this.view.setBigInt64(this.at + 4, value);
    else {
      // Two 32-bit halves: much cheaper than a BigInt per value.
      const high = Math.floor(value / TWO_TO_32);
      this.view.setInt32(this.at + 4, high);
      this.view.setUint32(this.at + 8, value - high * TWO_TO_32);
    }
    this.at += 12;
    return this;
  }

  float8(value: number): this {
    this.view.setInt32(this.at, 8);
    this.view.setFloat64(this.at + 4, value);
    this.at += 12;
    return this;
  }

  /** A time as milliseconds since 1970 UTC: timestamptz is microseconds since 2000-01-01 UTC. */
  timestamptz(epochMs: number): this {
    const micros = (epochMs - POSTGRES_EPOCH_MS) * 1000;
    if (Number.isSafeInteger(micros)) return this.int8(micros);
    return this.int8(BigInt(epochMs - POSTGRES_EPOCH_MS) * 1000n);
  }

  /** The whole data, with the end marker; nothing may be written after. */
  finish(): Buffer<ArrayBuffer> {
    this.view.setInt16(this.at, -1);
    return this.buffer.subarray(0, this.at + 2);
  }
}
