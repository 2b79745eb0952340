import { AppConfig } from '../config/app-config';

/** Where the database is, without credentials: the host and database of DATABASE_URL, or the embedded folder. */
function databaseKind(config: AppConfig): string {
  if (!config.databaseUrl) return `embedded PGlite (data in ${config.dataDir})`;
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** The one plain line that ends the start-up log: where to go, what runs, and what is off and why. */
export function startupLine(config: AppConfig): string {
  const url = config.publicUrl ?? `http://localhost:${config.port}`;
  const admin = config.adminToken ? 'on (x-admin-token)' : 'off (ADMIN_TOKEN unset)';
  return (
    `Ready: ${url} | database: ${databaseKind(config)} | admin routes: ${admin} | ` +
    `API docs: ${url}/docs | portal: ${url}/portal`
  );
}
