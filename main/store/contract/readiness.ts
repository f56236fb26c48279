// Whether the database can serve, for the gateway's /readyz, in fixed words only: an error's text can carry paths
// (or, on a server database, its address), and readiness answers anyone who can reach the port.

export interface DatabaseReadiness {
  ready: boolean;
  checks: {
    database: 'reachable' | 'unreachable';
    /** `pending`: older than this build (a migration has not run); `newer`: written by a newer Switchyard. */
    migrations: MigrationState | 'unknown';
    /** PostgreSQL only: `resyncing` while an instance reloads its snapshot after losing its notifications. */
    listener?: 'listening' | 'resyncing';
  };
}

export type MigrationState = 'current' | 'pending' | 'newer';

/** Where a database's schema `version` stands against the `latest` this build migrates to. */
export function migrationState(version: number, latest: number): MigrationState {
  return version === latest ? 'current' : version < latest ? 'pending' : 'newer';
}
