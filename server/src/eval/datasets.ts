/**
 * Loads evaluation sets into one shape: a query text, its style, and its gold
 * premises as groups (a group is satisfied by any one of its names: MathlibMPR
 * lists equivalent alternatives; elsewhere each group has one name).
 */
import { readFileSync } from 'node:fs';
import { extractLean } from '../../../indexes/src/extract/lean/extractor.js';
import { declState } from '../../../indexes/src/extract/lean/signature.js';

export const DATASETS = ['mathlibqr', 'mathlibmpr', 'leandojo'] as const;
export type DatasetName = (typeof DATASETS)[number];

export interface EvalQuery {
  id: string;
  style: string;
  text: string;
  gold: string[][];
  /** The theorem being proved, when known: excluded from results and from graph evidence. */
  theorem?: string;
  /** LeanDojo: the tactic the step used (its slot can be given to the engine). */
  tactic?: string;
  /** Named parts of `gold`, each also scored alone (a project's theorems: `dependency` and `workspace` premises). */
  goldParts?: Record<string, string[][]>;
}

const QR_FIELDS: Record<string, string> = {
  q1a_lean: 'lean',
  q1b_latex: 'latex',
  q1c_natural: 'natural',
  q2_slogan: 'slogan',
  q3_nickname: 'nickname',
  q4_special_case: 'special_case',
};

/** A JSON file that must hold a list. */
function readList(file: string): unknown[] {
  const rows: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(rows)) throw new Error('expected a JSON list of entries');
  return rows;
}

function loadQR(file: string): EvalQuery[] {
  const rows = readList(file) as Record<string, string>[];
  const out: EvalQuery[] = [];
  for (const r of rows) {
    for (const [field, style] of Object.entries(QR_FIELDS)) {
      const text = r[field]?.trim();
      if (text) out.push({ id: `${r.id}:${style}`, style, text, gold: [[r.full_name!]] });
    }
  }
  return out;
}

/** The main theorem of a MathlibMPR `formal_statement`, as a proof state (`hyps ⊢ goal`). */
export function mprQueryText(formal: string, mainName: string): string {
  const last = mainName.split('.').pop()!;
  const decls = extractLean(formal, 'MPR.lean', 'MPR').decls;
  const d = decls.find((x) => x.name === mainName || x.name.endsWith(`.${last}`) || x.name === last) ?? decls[decls.length - 1];
  if (!d) return formal;
  return declState(d).trim();
}

function loadMPR(file: string): EvalQuery[] {
  const rows = readList(file) as {
    id: string;
    formal_main_result: string;
    formal_statement: string;
    premise_group: { kind: string; docs: string[] }[];
  }[];
  return rows
    .filter((r) => r.premise_group?.length)
    .map((r) => ({
      id: r.id,
      style: 'statement',
      text: mprQueryText(r.formal_statement, r.formal_main_result),
      theorem: r.formal_main_result,
      gold: r.premise_group.map((g) => g.docs),
    }));
}

function loadLeanDojo(file: string): EvalQuery[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      let r: { id?: string; theorem?: string; split?: string; tactic?: string; state_before: string; premises: { full_name: string }[] };
      try {
        r = JSON.parse(l);
        if (typeof r?.state_before !== 'string' || !Array.isArray(r.premises)) throw new Error('needs state_before (a string) and premises (a list of {full_name})');
      } catch (e) {
        throw new Error(`entry ${i + 1}: ${(e as Error).message}`);
      }
      const names = [...new Set(r.premises.map((p) => p.full_name))];
      const q: EvalQuery = { id: r.id ?? String(i), style: r.split ?? 'state', text: r.state_before, gold: names.map((n) => [n]), theorem: r.theorem };
      if (r.tactic) q.tactic = r.tactic;
      return q;
    });
}

const LOADERS: Record<DatasetName, (file: string) => EvalQuery[]> = { mathlibqr: loadQR, mathlibmpr: loadMPR, leandojo: loadLeanDojo };

/** The queries of a dataset file; an error naming the file when it is not one, or has none. */
export function loadDataset(name: DatasetName, file: string): EvalQuery[] {
  let queries: EvalQuery[];
  try {
    queries = LOADERS[name](file);
  } catch (e) {
    throw new Error(`${file}: not a ${name} dataset (${(e as Error).message})`);
  }
  if (!queries.length) throw new Error(`${file}: no ${name} queries in it`);
  return queries;
}
