import { defineAgentMachine } from '../../src/index.ts';

/**
 * Every seat of a Sotopia run: `episode` is `running` until the seat ends the episode (a
 * character whose turn ends it, or the environment once it has judged), then `over`. The
 * transcript, end reason and scores live in JSON memory.
 */
export const sotopiaAgent = defineAgentMachine({
  id: 'sotopia-seat',
  regions: {
    episode: { initial: 'running', states: { running: { on: { END: 'over' } }, over: {} } },
  },
});
