// Handlers and use cases never write to the console: their logs go through the Logger port, as structured
// JSON carrying the request id, pass id and claim name. Probe files linted in memory prove the rule fires.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

async function rules(path: string, code: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? 'fatal');
}

describe('no console in handlers and use cases', () => {
  it.each(['functions/provision/probe.ts', 'functions/compose/probe.ts', 'shared/loop/probe.ts'])(
    '%s may not call console',
    async (file) => {
      expect(await rules(file, "console.log('pending pods');\nexport {};\n")).toContain('no-console');
    },
  );

  it('the CLI and the emulators may (they talk to a terminal)', async () => {
    expect(await rules('local/cli/probe.ts', "console.log('plan');\nexport {};\n")).not.toContain(
      'no-console',
    );
  });
});
