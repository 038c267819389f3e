/**
 * The reference modules `npm run mutate` mutates, and the harness areas whose checks judge a
 * mutant of each: a mutant is certified with those checks only, so that it costs seconds,
 * not a whole run. An area is listed when one of its checks exercises the module's code.
 */
import { checksOfArea, type Area } from '../../src/catalog/checks.js';

export const MODULE_NAMES = ['calls', 'auth', 'webhooks'] as const;
export type ModuleName = (typeof MODULE_NAMES)[number];

export interface MutatedModule {
  /** Stryker `mutate` patterns, relative to the repository. */
  mutate: readonly string[];
  areas: readonly Area[];
}

export const MODULES: Readonly<Record<ModuleName, MutatedModule>> = {
  // Placing calls (input, scopes, isolation) and their lifecycle events and transcript (envelope).
  calls: { mutate: ['reference/calls/**/*.ts'], areas: ['input', 'scopes', 'isolation', 'webhook-envelope'] },
  // session-jsonwebtoken.ts serves only REFERENCE_PERSONALITY=jsonwebtoken, which a mutant run does not start.
  auth: {
    mutate: ['reference/auth/**/*.ts', '!reference/auth/session-jsonwebtoken.ts'],
    areas: [
      'auth-errors',
      'scopes',
      'tokens',
      'revocation',
      'workspace',
      'isolation',
      'session',
      'session-attacks',
      'state-model',
    ],
  },
  webhooks: {
    mutate: ['reference/webhooks/**/*.ts'],
    areas: [
      'webhook-registration',
      'webhook-envelope',
      'webhook-signature',
      'webhook-delivery',
      'webhook-retry',
      'webhook-replay',
      'state-model',
    ],
  },
};

export function isModuleName(name: string): name is ModuleName {
  return (MODULE_NAMES as readonly string[]).includes(name);
}

/**
 * The areas named by `--areas` (comma-separated), each one of `module`'s; undefined when none is
 * named. Throws, naming the module's areas, on any other.
 */
export function narrowedAreas(module: ModuleName, names: string | undefined): Area[] | undefined {
  if (names === undefined || names === '') return undefined;
  const wanted = names.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !(MODULES[module].areas as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `--areas: ${unknown.join(', ')} not among the ${module} module's areas (${MODULES[module].areas.join(', ')})`,
    );
  return wanted as Area[];
}

/**
 * The ids of the fast-tier checks that judge a mutant of `module` (the full tier's wait in real
 * time): those of its areas, or of `areas`, some of them, for files no other area's check reaches.
 */
export function checkIdsOf(module: ModuleName, areas: readonly Area[] = MODULES[module].areas): string[] {
  return areas
    .flatMap((area) => checksOfArea(area))
    .filter((check) => check.tier === 'fast')
    .map((check) => check.id);
}
