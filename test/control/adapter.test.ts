/** Loading CERTIFY_CONTROL_ADAPTER (src/control/adapter.ts): what is wrong with the setting, and what with the adapter's start, each with its own error. */
import { describe, expect, it } from 'vitest';
import { CONTROL_OPERATIONS, loadControlAdapter, type ModuleImporter } from '../../src/control/adapter.js';
import { RunAbort, SettingsError } from '../../src/errors.js';

const complete = (): Record<string, () => Promise<void>> =>
  Object.fromEntries(CONTROL_OPERATIONS.map((operation) => [operation, async () => undefined]));
const exporting =
  (value: unknown): ModuleImporter =>
  async () => ({ default: value });

describe('loadControlAdapter', () => {
  it('loads a module whose default export makes an adapter with every operation', async () => {
    const adapter = await loadControlAdapter(
      'adapter.ts',
      exporting(async () => complete()),
    );
    expect(Object.keys(adapter).sort()).toEqual([...CONTROL_OPERATIONS].sort());
  });

  it('a module that does not load is a settings error naming the setting', async () => {
    const missing: ModuleImporter = async () => {
      throw new Error('Cannot find module /nowhere/adapter.ts\nRequire stack: …');
    };
    const loading = loadControlAdapter('/nowhere/adapter.ts', missing);
    await expect(loading).rejects.toThrow(SettingsError);
    await expect(loading).rejects.toThrow(
      /^CERTIFY_CONTROL_ADAPTER \/nowhere\/adapter.ts: Cannot find module \/nowhere\/adapter.ts$/,
    );
  });

  it('a default export that is not a function is a settings error', async () => {
    await expect(loadControlAdapter('adapter.ts', exporting(complete()))).rejects.toMatchObject({
      code: 'ERR_SETTINGS',
      message: expect.stringContaining('default export must be a function'),
    });
  });

  it('an adapter that lacks an operation is a settings error naming what it lacks', async () => {
    const { revokeToken: _revoke, replay: _replay, ...partial } = complete();
    await expect(
      loadControlAdapter(
        'adapter.ts',
        exporting(() => partial),
      ),
    ).rejects.toMatchObject({ code: 'ERR_SETTINGS', message: expect.stringContaining('lacks revokeToken, replay') });
  });

  it('an adapter that fails to start ends the run (RunAbort), not the settings', async () => {
    const failing = exporting(() => {
      throw new Error('STATIC_CONTROL_FILE is not readable');
    });
    await expect(loadControlAdapter('adapter.ts', failing)).rejects.toThrow(RunAbort);
  });
});
