#!/usr/bin/env node
// The harness ships as TypeScript; tsx (a runtime dependency) loads it.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exit(await main(process.argv.slice(2)));
