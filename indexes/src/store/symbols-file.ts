/**
 * `symbols.bin`: each premise's statement symbols (../symbol-sets.ts), written at
 * index time so that the first pattern search or baseline search of a process
 * costs what later ones do. Sections: `docStart` (premises + 1 offsets into
 * `docTerms`), `docTerms` (symbol ids), and the symbols as a string table
 * (`symbols*`, ./strings.ts), id i being the i-th string. Optional: an index
 * without it (built before it existed) builds the sets from premises.bin on first
 * use. Read, like every index file, only after its size and CRC-32 match the manifest.
 */
import { join } from 'node:path';
import { Container, IndexFileError, writeContainer, type Expected } from './container.js';
import { encodeStrings, stringSections, StringTable } from './strings.js';
import { SymbolSets } from '../symbol-sets.js';

export const SYMBOLS_FILE = 'symbols.bin';

export function writeSymbolsFile(dir: string, sets: SymbolSets): void {
  const symbols = Array.from({ length: sets.symbolCount }, (_, i) => sets.symbol(i));
  writeContainer(join(dir, SYMBOLS_FILE), { docStart: sets.docStart, docTerms: sets.docTerms, ...stringSections('symbols', encodeStrings(symbols)) });
}

/** The symbol sets of an index of `premises` premises, checked against the manifest's size and CRC-32 and for structure. */
export function readSymbolsFile(path: string, expected: Expected, premises: number): SymbolSets {
  const c = Container.read(path, [], expected);
  const docStart = c.u32('docStart');
  const docTerms = c.u32('docTerms');
  const table = new StringTable({ blob: c.u8('symbolsBlob'), offsets: c.u32('symbolsOffsets'), order: c.u32('symbolsOrder') });
  const bad = table.check();
  if (bad) throw new IndexFileError(path, bad);
  if (docStart.length !== premises + 1 || docStart[0] !== 0 || docStart[premises] !== docTerms.length) {
    throw new IndexFileError(path, `symbol sets for ${docStart.length - 1} premises, the index has ${premises}`);
  }
  for (let d = 0; d < premises; d++) if (docStart[d]! > docStart[d + 1]!) throw new IndexFileError(path, 'symbol set offsets out of order');
  const n = table.size;
  for (let i = 0; i < docTerms.length; i++) if (docTerms[i]! >= n) throw new IndexFileError(path, `symbol #${docTerms[i]} of ${n}`);
  return new SymbolSets(docStart, docTerms, { size: n, find: (s) => table.find(s), get: (i) => table.get(i) });
}
