import { defineAgentMachine } from '../../src/index.ts';

/**
 * A respondent: `phase` is `initial` (answers alone), `discussion` (answers again after
 * hearing its neighbours), `pushback` (answers again after a scripted interlocutor pushes
 * back) or `done`. Each step answers every item of the current phase, then moves on to the
 * next phase the run has (`TO_DISCUSSION`, `TO_PUSHBACK`, `DONE`).
 */
export const respondentAgent = defineAgentMachine({
  id: 'survey-respondent',
  regions: {
    phase: {
      initial: 'initial',
      states: {
        initial: {
          tags: ['active'],
          on: { TO_DISCUSSION: 'discussion', TO_PUSHBACK: 'pushback', DONE: 'done' },
        },
        discussion: { tags: ['active'], on: { TO_PUSHBACK: 'pushback', DONE: 'done' } },
        pushback: { tags: ['active'], on: { DONE: 'done' } },
        done: {},
      },
    },
  },
  memory: {},
});
