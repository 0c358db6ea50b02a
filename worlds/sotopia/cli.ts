import type { CliContribution, WorldDefinition } from '../../src/index.ts';

/**
 * The Sotopia world and its commands (`sotopia import --check`, `study sotopia`), handed to
 * the CLI by its entry point through worlds/index.ts: the engine never imports this folder.
 */
export const sotopiaContribution: CliContribution = {
  worlds: { sotopia: async () => (await import('./index.ts')).world as unknown as WorldDefinition },
  commands: ['sotopia', 'study'],
  responders: { load: async () => [(await import('./llm-responder.ts')).sotopiaScriptResponder] },
  async register(program, io) {
    const [{ sotopiaImportCommand }, { addStudyCommand }] = await Promise.all([
      import('./cli/import-command.ts'),
      import('./cli/study-command.ts'),
    ]);
    const sotopia = program.command('sotopia').description('the Sotopia profiles used by the sotopia world');
    sotopia
      .command('import')
      .description('read and validate the Sotopia files; print their counts and any bad row (file:line)')
      .option('--check', 'validate the files and print the counts')
      .option('--data <dir>', 'another copy of the Sotopia profiles (default: the shipped one)')
      .option('--json', 'print JSON')
      .action((o) => io.setExit(sotopiaImportCommand(o)));
    addStudyCommand(program, io);
  },
};
