/** Progress of a long index build, reported by phase (the CLI draws bars from it). */
export interface Progress {
  phase: 'extract' | 'informal' | 'embed' | 'ann' | 'write';
  done: number;
  total: number;
}
export type OnProgress = (p: Progress) => void;
