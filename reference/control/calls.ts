import { z } from 'zod';
import { unionFaults } from '../faults.js';
import { NO_WORKSPACE, invalid, refuse, workspaceOf, type ControlHandler } from './reply.js';

// Moving a call of a call_progress=manual workspace along its lifecycle.

const progressSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('started') }),
  z.object({
    state: z.literal('completed'),
    outcome: z.string().min(1).default('answered'),
    duration_seconds: z.number().int().min(0).default(0),
  }),
  z.object({ state: z.literal('failed') }),
]);

export const progressCall: ControlHandler = (request) => {
  const workspace = workspaceOf(request);
  if (!workspace) return NO_WORKSPACE;
  const parsed = progressSchema.safeParse(request.body);
  if (!parsed.success) return invalid(parsed.error.issues);
  const body = parsed.data;
  const result = request.app.calls.progress(
    workspace,
    request.params.call ?? '',
    body.state === 'completed'
      ? { state: 'completed', outcome: body.outcome, durationSeconds: body.duration_seconds }
      : { state: body.state },
  );
  if (!result.ok) return refuse(result.status, result.code, result.message);
  // Fault progress-answered-200: the progress answers 200 with an empty object.
  if (unionFaults(request.faults, workspace.faults).has('progress-answered-200')) return { status: 200, body: {} };
  return { status: 204 };
};
