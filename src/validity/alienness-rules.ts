/**
 * The written rules of {@link alienness} (they go into its report as they are): phrase lists
 * are matched case-insensitively on word boundaries.
 */
export const ALIENNESS_RULES = {
  words: 'words per turn: tokens of letters, digits and apostrophes',
  selfRepetition:
    "self-repetition: share of a turn's word trigrams that already occurred in the same speaker's earlier turns",
  partnerRepetition:
    "partner repetition: share of a turn's word trigrams that occurred in other speakers' earlier turns",
  aiIdentity: 'AI identity: a turn with any of the AI-identity phrases',
  refusal: 'refusal: a turn with any of the refusal phrases',
  identityConfusion:
    'identity confusion: a turn in which the speaker names itself as another speaker ("I am X", "I\'m X", "my name is X", "this is X", "X here") or starts with "X:"',
  politeness: 'over-politeness: politeness markers per 100 words',
} as const;

/** Phrases that mark a speaker talking as an AI system. */
export const AI_IDENTITY_PHRASES = [
  'as an ai',
  'as a language model',
  'as an ai language model',
  "i'm an ai",
  'i am an ai',
  'i am a language model',
  'large language model',
  'as an assistant',
  'i do not have personal',
  "i don't have personal",
] as const;

/** Phrases that mark a refusal. */
export const REFUSAL_PHRASES = [
  "i can't help with",
  'i cannot help with',
  "i can't assist",
  'i cannot assist',
  "i'm unable to",
  'i am unable to',
  "i won't be able to",
  "i'm sorry, but i can",
  'i must decline',
] as const;

/** Politeness markers counted per 100 words. */
export const POLITENESS_MARKERS = [
  'thank you',
  'thanks so much',
  'i appreciate',
  'i apologize',
  'i apologise',
  'great question',
  'absolutely',
  'i completely understand',
  'i understand your',
  'i hope this helps',
  'please let me know',
  'happy to help',
] as const;
