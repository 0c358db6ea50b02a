import type { CliContribution } from '../src/public/cli.ts';
import { sotopiaContribution } from './sotopia/cli.ts';

/**
 * The built-in worlds and the commands they bring, in the order `grapevine worlds` lists
 * them. The CLI's entry point (bin/grapevine.mjs) hands these to `main`; the engine under
 * src/ never imports this folder. Each world is imported only when it is used.
 */
export const BUILTIN_CONTRIBUTIONS: readonly CliContribution[] = [
  {
    from: { url: import.meta.url, name: 'BUILTIN_CONTRIBUTIONS' },
    worlds: {
      rumor: async () => (await import('./rumor/index.ts')).world,
      'town-square': async () => (await import('./town-square/index.ts')).world,
      opinion: async () => (await import('./opinion/index.ts')).world,
      epidemic: async () => (await import('./epidemic/index.ts')).world,
      survey: async () => (await import('./survey/index.ts')).world,
    },
    validationCases: async () => (await import('./validation.ts')).builtinValidationCases(),
    answerSources: { survey: async () => (await import('./survey/answers.ts')).surveyAnswersFromLog },
    responders: {
      options: [
        {
          flags: '--synthetic <file>',
          description:
            'survey world: answer survey questions as synthetic respondents from a ground-truth file',
        },
      ],
      // the ground-truth reader is loaded only when a file is named
      load: async (options) =>
        options.synthetic ? (await import('./survey/responders.ts')).surveyResponders(options) : [],
    },
  },
  sotopiaContribution,
];
