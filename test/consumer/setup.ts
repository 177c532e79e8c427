// Vitest globalSetup of the consumer project: one packed, installed project for every consumer test.
import type { TestProject } from 'vitest/node';
import { type ConsumerProject, installConsumerProject, removeConsumerProject } from './install.js';

declare module 'vitest' {
  export interface ProvidedContext {
    consumerRoot: string;
  }
}

let project: ConsumerProject | undefined;

export async function setup(context: TestProject): Promise<void> {
  project = await installConsumerProject();
  context.provide('consumerRoot', project.root);
}

export async function teardown(): Promise<void> {
  if (project && !process.env.LONGSHIP_KEEP_CONSUMER) await removeConsumerProject(project);
}
