/**
 * Request and answer over a child process's IPC channel: the harness's helper processes
 * (receiver pool workers, the bench's servers) answer a request with a message that holds
 * one named key, or `failed` with the reason.
 */
import type { ChildProcess } from 'node:child_process';

export interface AskOptions {
  /** Names the child in errors, e.g. "receiver pool worker". */
  who: string;
  limitMs: number;
}

/** Sends `request` and resolves with the answer's `key`; rejects on an answer with `failed`, the child's exit, or `limitMs`. */
export function ask<T>(child: ChildProcess, request: object, key: string, { who, limitMs }: AskOptions): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: Record<string, unknown>): void => {
      if (message.failed !== undefined) {
        done();
        reject(new Error(`${who}: ${String(message.failed)}`));
      } else if (key in message) {
        done();
        resolve(message[key] as T);
      }
    };
    const onExit = (code: number | null): void => {
      done();
      reject(new Error(`${who} exited (code ${code}) before answering`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${who} gave no answer within ${limitMs / 1000} s`));
    }, limitMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(request);
  });
}
