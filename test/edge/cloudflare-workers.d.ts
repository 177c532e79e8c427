// What the test Workers use of workerd's `cloudflare:workers` module: a Durable Object class whose
// public methods its stubs call over RPC.
declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: { storage: unknown; abort(reason?: string): void };
    protected readonly env: Env;
    constructor(ctx: unknown, env: Env);
  }
}
