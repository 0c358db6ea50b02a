import type { CliContribution } from '../../src/public/cli.ts';

/**
 * The Sotopia world and its commands (`sotopia import --check`, `study sotopia`), handed to
 * the CLI by its entry point through worlds/index.ts: the engine never imports this folder.
 */
export const sotopiaContribution: CliContribution = {
  worlds: { sotopia: async () => (await import('./index.ts')).world },
  commands: ['sotopia', 'study'],
  responders: { load: async () => [(await import('./llm-responder.ts')).sotopiaScriptResponder] },
  async register(program, io) {
    const [{ sotopiaImportCommand }, { sotopiaTemplatesCommand }, { addStudyCommand }] = await Promise.all([
      import('./cli/import-command.ts'),
      import('./cli/templates-command.ts'),
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
    sotopia
      .command('templates')
      .description(
        "write a template pack of Sotopia's own prompt words, read from your Sotopia checkout (tag agent_vs_storyteller_v1)",
      )
      .option('--from <dir>', 'a Sotopia checkout (its Python files are read as text, never run)')
      .option('--out <dir>', 'the pack folder to write (new or empty)')
      .option(
        '--langchain <path>',
        "LangChain 0.0.x (its package folder or format_instructions.py) for the JSON replies' wrapper",
      )
      .option('--json', 'print JSON')
      .action((o) => io.setExit(sotopiaTemplatesCommand(o)));
    addStudyCommand(program, io);
  },
};
