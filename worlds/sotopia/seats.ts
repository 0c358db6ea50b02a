/**
 * Seats of a Sotopia run: 0 and 1 are the two characters; 2 is the environment, which
 * writes the episode in the omniscient modes (`script`, `playwright`; its LLM calls use
 * caller "2") and judges it at the end (its judge call uses caller "judge").
 */
export const ENV_SEAT = 2;

/** Agents in a run: two characters and the environment. */
export const SEATS = 3;

/** The caller name of the judge's LLM calls (not an agent: the prompt audit skips it). */
export const JUDGE_CALLER = 'judge';
