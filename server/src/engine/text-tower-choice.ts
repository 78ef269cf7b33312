/**
 * Which English text tower an engine gets: the one asked for (its faults and a
 * tower trained for another encoder are errors), else the shipped one when it was
 * trained for the encoder of the index's vectors (a damaged shipped tower is a
 * warning, and English then goes through the encoder alone), else none.
 */
import { existsSync } from 'node:fs';
import { loadTextTower, type TextTower } from '../../../models/src/text-tower.js';

export interface TowerChoice {
  /** A tower directory asked for. */
  textTowerDir?: string;
  /** No tower at all. */
  noTextTower?: boolean;
}

export function chooseTextTower(opts: TowerChoice, encoderId: string, shippedDir: string, warn: (message: string) => void): TextTower | undefined {
  if (opts.noTextTower) return undefined;
  if (opts.textTowerDir) {
    const tower = loadTextTower(opts.textTowerDir);
    if (tower.encoderId !== encoderId) {
      throw new Error(`text tower ${opts.textTowerDir} was trained for encoder ${tower.encoderId}, but the index's vectors are from ${encoderId}`);
    }
    return tower;
  }
  if (!existsSync(shippedDir)) return undefined;
  try {
    return loadTextTower(shippedDir, encoderId);
  } catch (e) {
    warn(`English text tower is off: ${(e as Error).message}`);
    return undefined;
  }
}
