import { world as epidemic } from '../../worlds/epidemic/index.ts';
import { world as rumor } from '../../worlds/rumor/index.ts';
import { world as sotopia } from '../../worlds/sotopia/index.ts';
import { world as townSquare } from '../../worlds/town-square/index.ts';
import type { WorldDefinition } from '../world/index.ts';

/** The worlds that ship with grapevine, by id. */
export const BUILTIN_WORLDS: ReadonlyMap<string, WorldDefinition> = new Map<string, WorldDefinition>([
  [rumor.id, rumor as unknown as WorldDefinition],
  [townSquare.id, townSquare as unknown as WorldDefinition],
  [sotopia.id, sotopia as unknown as WorldDefinition],
  [epidemic.id, epidemic as unknown as WorldDefinition],
]);
