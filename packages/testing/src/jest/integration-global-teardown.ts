/** Stops the containers the global setup started, if any. */
export default async function integrationGlobalTeardown(): Promise<void> {
  const containers = (globalThis as { __integrationContainers?: Array<{ stop(): Promise<unknown> }> })
    .__integrationContainers;
  await Promise.all((containers ?? []).map((c) => c.stop()));
}
