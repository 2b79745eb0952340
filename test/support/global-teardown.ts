export default async function globalTeardown(): Promise<void> {
  await Promise.all([globalThis.__TEST_DATABASE__?.drop(), globalThis.__TEST_REDIS__?.stop()]);
}
