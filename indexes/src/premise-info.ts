/** What an index keeps about each premise, and the one way a PremiseRecord becomes it. */
import type { PremiseRecord } from './extract/record.js';

/** What an index keeps about each premise: a PremiseRecord without its proof refs, with their count in. */
export type PremiseInfo = Omit<PremiseRecord, 'refs' | 'attrs' | 'origin'> & {
  /** How many declarations of the corpus reference this one in their proofs. */
  uses: number;
  /** `@[deprecated]` in the source (absent otherwise, and in indexes built before it was recorded). */
  deprecated?: true;
  /** Lean's module system: see PremiseRecord.unexposed (absent otherwise, and in indexes built before it was recorded). */
  unexposed?: true;
};

export function toInfo(r: PremiseRecord, uses: number): PremiseInfo {
  const info: PremiseInfo = {
    name: r.name,
    kind: r.kind,
    lang: r.lang,
    module: r.module,
    file: r.file,
    range: r.range,
    statement: r.statement,
    args: r.args,
    goal: r.goal,
    uses,
  };
  if (r.doc) info.doc = r.doc;
  if (r.informal) info.informal = r.informal;
  if (r.attrs?.includes('deprecated')) info.deprecated = true;
  if (r.unexposed) info.unexposed = true;
  return info;
}
