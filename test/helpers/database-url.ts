/** The same server URL with another database name. */
export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * PostgreSQL itself, past the pooler when the tests run through one (DATABASE_LISTEN_URL): where
 * databases are created from the template and dropped, which a pooler's idle connections to them
 * would refuse.
 */
export function directUrl(url: string): string {
  const direct = process.env.DATABASE_LISTEN_URL;
  return direct ? databaseUrlFor(direct, new URL(url).pathname.slice(1)) : url;
}

/**
 * The service's database settings for the database at url, as the tests' environment sets them for
 * its server (DATABASE_POOLED, DATABASE_LISTEN_URL, DATABASE_REPLICA_URL: the pass through a pooler
 * and a replica): the LISTEN and replica connections name the same database. Unset ones are
 * undefined, so that they also override what a started process would inherit.
 */
export function databaseEnv(url: string): Record<string, string | undefined> {
  const name = new URL(url).pathname.slice(1);
  const { DATABASE_POOLED, DATABASE_LISTEN_URL, DATABASE_REPLICA_URL, REPLICA_MAX_LAG_MS } = process.env;
  return {
    DATABASE_URL: url,
    DATABASE_POOLED,
    DATABASE_LISTEN_URL: DATABASE_LISTEN_URL && databaseUrlFor(DATABASE_LISTEN_URL, name),
    DATABASE_REPLICA_URL: DATABASE_REPLICA_URL && databaseUrlFor(DATABASE_REPLICA_URL, name),
    REPLICA_MAX_LAG_MS,
  };
}
