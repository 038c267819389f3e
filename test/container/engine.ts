/** What both container specs need of the engine: whether one answers, and the harness's leftovers on it. */
import { getContainerRuntimeClient } from 'testcontainers';
import { CONTAINER_LABEL } from '../../src/runner/container.js';

/** Why no engine can be used, or undefined when one answers. */
export async function engineProblem(): Promise<string | undefined> {
  try {
    await getContainerRuntimeClient();
    return undefined;
  } catch (error) {
    return `no container engine reachable (DOCKER_HOST=${process.env.DOCKER_HOST ?? 'unset'}: ${(error as Error).message.split('\n')[0]}); run \`npm run engine\` and export its DOCKER_HOST`;
  }
}

/** Every container carrying the harness's label, running or not. */
export async function harnessContainers(): Promise<string[]> {
  const client = await getContainerRuntimeClient();
  const found = await client.container.dockerode.listContainers({ all: true, filters: { label: [CONTAINER_LABEL] } });
  return found.map((info) => `${info.Id.slice(0, 12)} ${info.Image} ${info.State}`);
}
