export default async function globalTeardown(): Promise<void> {
  await Promise.all([
    ...(globalThis.__TEST_DATABASES__ ?? []).map((db) => db.drop()),
    globalThis.__TEST_REDIS__?.stop(),
  ]);
}
