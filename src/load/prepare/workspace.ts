/** A workspace for one scenario through the control interface: its agent and fresh tokens, and how to remove them. */
import { RunAbort } from '../../errors.js';
import type { RunContext } from '../context.js';
import { log } from '../log.js';

export interface PreparedWorkspace {
  ws: string;
  agentId: string;
  tokens: { id: string; token: string }[];
  cleanup: () => Promise<void>;
}

export async function prepareWorkspace(
  ctx: RunContext,
  label: string,
  tokens: number,
  timeScale = 1,
): Promise<PreparedWorkspace> {
  const control = ctx.control!;
  const { workspaceId, agentIds } = await control.createWorkspace({
    callProgress: 'auto',
    ...(timeScale > 1 ? { timeScale } : {}),
  });
  const made: { id: string; token: string }[] = [];
  const cleanup = async (): Promise<void> => {
    for (const t of made) await control.revokeToken(workspaceId, t.id).catch(() => undefined);
    await control
      .deleteWorkspace(workspaceId)
      .catch((error: Error) => log(`  clean-up of ${workspaceId}: ${error.message}`));
  };
  try {
    for (let i = 0; i < tokens; i++) {
      const created = await control.createToken(workspaceId, `load-${label}-${ctx.runId}-${i}`, [
        'voice:read',
        'voice:write',
      ]);
      made.push({ id: created.tokenId, token: created.token });
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  const agentId = agentIds[0];
  if (!agentId) {
    await cleanup();
    throw new RunAbort(`POST /workspaces answered without an agt_ id`);
  }
  return { ws: workspaceId, agentId, tokens: made, cleanup };
}
