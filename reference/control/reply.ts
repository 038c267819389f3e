import type { IncomingMessage } from 'node:http';
import type { App } from '../app.js';
import type { FaultSet } from '../faults.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import type { Workspace } from '../store.js';

// Shared pieces of the control interface handlers.

export interface ControlReply {
  status: number;
  body?: unknown;
}

export interface ControlRequest {
  app: App;
  params: Record<string, string>;
  body: unknown;
  /** Faults of the control path prefix. */
  faults: FaultSet;
  faultPrefix: string;
}

export type ControlHandler = (request: ControlRequest) => ControlReply | Promise<ControlReply>;

export function refuse(status: number, code: string, message: string): ControlReply {
  return { status, body: { error: { code, message } } };
}

export const NO_WORKSPACE = refuse(404, 'workspace_not_found', 'no such workspace');

export function workspaceOf(request: ControlRequest): Workspace | undefined {
  return request.app.store.workspace(request.params.ws ?? '');
}

/** The contract's validation failure, naming the first problem zod found. */
export function invalid(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): ControlReply {
  const first = issues[0];
  const where = first && first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
  return refuse(422, 'validation_failed', where + (first?.message ?? 'invalid body'));
}

export type ControlBody = { ok: true; value: unknown } | { ok: false; reply: ControlReply };

/** Control bodies are small JSON objects; an empty body reads as {} (all fields optional). */
export function readControlBody(req: IncomingMessage): Promise<ControlBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: ControlBody): void => {
      if (!done) {
        done = true;
        resolve(body);
      }
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) finish({ ok: false, reply: refuse(413, 'payload_too_large', 'body too large') });
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return finish({ ok: true, value: {} });
      try {
        finish({ ok: true, value: JSON.parse(text) as unknown });
      } catch {
        finish({ ok: false, reply: refuse(400, 'malformed_json', 'the body is not valid JSON') });
      }
    });
    req.on('error', () => finish({ ok: false, reply: refuse(400, 'malformed_json', 'the body could not be read') }));
  });
}
