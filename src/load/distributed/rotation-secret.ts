/**
 * The Secret a k6-operator rotation run reads (load/k8s/testrun-rotation.yaml): a workspace
 * made for the run through the control interface, its two tokens, and the target's URLs.
 * Written to a file only the user can read, never printed; the command prints where it is,
 * how to apply it, and the control call that removes the workspace once the run is over.
 */
import { writeFileSync } from 'node:fs';
import { ControlClient } from '../../control/client.js';
import { RunAbort } from '../../errors.js';
import { registerSecret } from '../../secrets/mask.js';
import { secretManifest } from './k8s-manifests.js';

const REQUEST_TIMEOUT_MS = 10_000;

export interface RotationSecretTarget {
  baseUrl: string;
  controlUrl: string;
  controlToken: string;
}

export interface WrittenSecret {
  path: string;
  workspaceId: string;
  /** The control call that removes what the helper made. */
  removeWith: string;
}

/** Makes the workspace and its two tokens, and writes the Secret manifest `name` to `path` (mode 0600). */
export async function writeRotationSecret(
  target: RotationSecretTarget,
  name: string,
  path: string,
): Promise<WrittenSecret> {
  const control = new ControlClient(target.controlUrl, target.controlToken, { timeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const capabilities = await control.capabilities();
    if (capabilities.environment === 'production')
      throw new RunAbort('the control interface is a production one: the rotation Secret is for staging only');
    const { workspaceId } = await control.createWorkspace();
    const [old, fresh] = [
      await control.createToken(workspaceId, 'k6 rotation: old'),
      await control.createToken(workspaceId, 'k6 rotation: new'),
    ];
    for (const secret of [old.token, fresh.token, target.controlToken]) registerSecret(secret);
    const values: Record<string, string> = {
      SVC_BASE_URL: target.baseUrl,
      SVC_CONTROL_URL: target.controlUrl,
      SVC_CONTROL_TOKEN: target.controlToken,
      LOAD_WORKSPACE_ID: workspaceId,
      LOAD_OLD_TOKEN: old.token,
      LOAD_OLD_TOKEN_ID: old.tokenId,
      LOAD_NEW_TOKEN: fresh.token,
    };
    writeFileSync(path, secretManifest(name, values), { mode: 0o600 });
    return {
      path,
      workspaceId,
      removeWith: `DELETE ${target.controlUrl.replace(/\/+$/, '')}/workspaces/${workspaceId}`,
    };
  } finally {
    await control.close();
  }
}
