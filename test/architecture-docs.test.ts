import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md's tables of where each rule lives stay true: every file or folder a row
 * names exists, and every name in code quotes (a function, a type, a constant) is found in one
 * of the files that row names.
 */
const ROOT = new URL('../', import.meta.url);
const doc = readFileSync(new URL('docs/ARCHITECTURE.md', ROOT), 'utf8');

/** The text of a table row's cells, trimmed. */
const cellsOf = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The rows of the tables whose second column is headed "enforced in". */
function ruleRows(): { rule: string; where: string }[] {
  const rows: { rule: string; where: string }[] = [];
  let inRuleTable = false;
  for (const line of doc.split('\n')) {
    if (!line.startsWith('|')) {
      inRuleTable = false;
      continue;
    }
    const cells = cellsOf(line);
    if (cells[1] === 'enforced in') inRuleTable = true;
    else if (inRuleTable && !/^-+$/.test(cells[0] ?? '')) rows.push({ rule: cells[0]!, where: cells[1]! });
  }
  return rows;
}

const PATH = /^(src|console|test|scripts|bench)\/[\w./-]*$/;
const NAME = /^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)?$/;

/** The text of a file, or of every file of a folder. */
function textOf(path: string): string {
  const url = new URL(path, ROOT);
  if (!statSync(url).isDirectory()) return readFileSync(url, 'utf8');
  return readdirSync(url, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(`${entry.parentPath}/${entry.name}`, 'utf8'))
    .join('\n');
}

describe('docs/ARCHITECTURE.md', () => {
  const rows = ruleRows();

  it('has its tables of rules', () => {
    expect(rows.length).toBeGreaterThan(40);
  });

  it.each(rows)('names where "$rule" lives: files that exist, holding the names quoted', ({ where }) => {
    const quoted = [...where.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const paths = quoted.filter((q) => PATH.test(q));
    expect(paths.length, 'a row names at least one file by its path from the root').toBeGreaterThan(0);
    for (const path of paths) expect(existsSync(new URL(path, ROOT)), `${path} exists`).toBe(true);
    const text = paths.map(textOf).join('\n');
    for (const name of quoted.filter((q) => !PATH.test(q) && NAME.test(q))) {
      const last = name.split('.').at(-1)!;
      expect(new RegExp(`\\b${last}\\b`).test(text), `${name} in ${paths.join(', ')}`).toBe(true);
    }
  });

  it('keeps every table row to at most 300 characters of cell text (one or two lines)', () => {
    const tooLong = doc
      .split('\n')
      .filter((line) => line.startsWith('|') && !/^[|\s-]+$/.test(line))
      .filter((line) => cellsOf(line).join('').length > 300);
    expect(tooLong).toEqual([]);
  });
});
