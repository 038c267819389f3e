/** The JSON Schemas published in schemas/, each rendered from the zod schema that is its source. */
import { settingsJsonSchema } from '../config/settings.js';
import { reportJsonSchema } from '../report/model.js';
import { expectedFailuresJsonSchema } from '../expected/file.js';

const render = (schema: Record<string, unknown>): string => `${JSON.stringify(schema, null, 2)}\n`;

/** Path (from the project root) → the file's text. */
export const PUBLISHED_SCHEMAS: Record<string, () => string> = {
  'schemas/report.schema.json': () => render(reportJsonSchema()),
  'schemas/expected-failures.schema.json': () => render(expectedFailuresJsonSchema()),
  'schemas/settings.schema.json': () =>
    render({
      $id: 'https://svc-conformance.example.test/schemas/settings.schema.json',
      title: 'settings of a certification run (environment or .env)',
      ...settingsJsonSchema(),
    }),
};
