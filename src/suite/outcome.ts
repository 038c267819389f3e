/** A service check's record (src/check/record.ts) travels to the collector on the vitest task's meta. */
import type { CheckMeta } from '../check/record.js';

declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
