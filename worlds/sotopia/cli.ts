import type { CliContribution, WorldDefinition } from '../../src/index.ts';

/**
 * The Sotopia world and its commands: `sotopia import --check` and `study sotopia`.
 * Until the coordinator moves the study and the `sotopia import` command into this folder,
 * their code still lives under src/ (allow-listed in test/architecture/import-rules.test.ts).
 */
export const sotopiaContribution: CliContribution = {
  worlds: { sotopia: async () => (await import('./index.ts')).world as unknown as WorldDefinition },
  commands: ['sotopia', 'study'],
  async register(program, io) {
    const [{ sotopiaImportCommand }, { addStudyCommand }] = await Promise.all([
      import('../../src/cli/commands/sotopia.ts'),
      import('../../src/cli/commands/study.ts'),
    ]);
    const sotopia = program.command('sotopia').description('the Sotopia profiles used by the sotopia world');
    sotopia
      .command('import')
      .description('read and validate the Sotopia files; print their counts and any bad row (file:line)')
      .option('--check', 'validate the files and print the counts')
      .option('--data <dir>', 'another copy of the Sotopia profiles (default: the shipped one)')
      .option('--json', 'print JSON')
      .action((o) => io.setExit(sotopiaImportCommand(o)));
    addStudyCommand(program, io.setExit);
  },
};
