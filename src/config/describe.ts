/** Name, meaning and default of each field of a settings schema, for `--help`. */
import type { z } from 'zod';

export interface SettingHelp {
  name: string;
  description: string;
  default?: string;
}

export function describeFields(shape: Record<string, z.ZodType>): SettingHelp[] {
  return Object.entries(shape).map(([name, schema]) => {
    // A field's default is what it parses to when unset (after its transform, e.g. a number),
    // or, when whatever the settings configure applies it (the reference's own defaults), the
    // one its `meta` states.
    const unset = schema.safeParse(undefined);
    const parsed =
      unset.success && unset.data !== undefined
        ? typeof unset.data === 'object'
          ? JSON.stringify(unset.data)
          : String(unset.data)
        : undefined;
    const stated = schema.meta()?.default;
    const fallback = parsed ?? (stated !== undefined ? String(stated) : undefined);
    return {
      name,
      description: schema.description ?? '',
      ...(fallback !== undefined && fallback !== '{}' ? { default: fallback } : {}),
    };
  });
}
