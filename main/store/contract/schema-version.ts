// The schema version both engines share: migration N is the same schema on SQLite and on PostgreSQL (decision 017),
// each engine writing it in its own dialect (sqlite/migrations.ts, postgres/migrations.ts). What a version is and
// how a database of another build is met are decided here, once.

/** What every engine's migration has: 1, 2, 3… and the name both engines give that version. */
export interface MigrationStep {
  /** 1, 2, 3…: the schema version once applied. */
  version: number;
  name: string;
}

/** The database was written by a newer Switchyard; opening it here could corrupt its data. */
export class StoreVersionError extends Error {
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(`database was created by a newer Switchyard (schema ${found}); this build knows up to ${known}`);
    this.name = 'StoreVersionError';
    this.found = found;
    this.known = known;
  }
}

/** Throws StoreVersionError for a database of a newer build; else answers `current`. */
export function checkNotNewer(current: number, latest: number): number {
  if (current > latest) throw new StoreVersionError(current, latest);
  return current;
}

/**
 * Versions must rise, one migration each: a version is a schema on every engine. They are numbered when planned, so
 * a build may carry a later one before an earlier one lands; a database only ever moves forward through them.
 */
export function checkOrder(migrations: readonly MigrationStep[]): void {
  migrations.forEach((migration, index) => {
    const previous = index === 0 ? 0 : migrations[index - 1]!.version;
    if (migration.version <= previous) {
      throw new Error(`migration "${migration.name}" has version ${migration.version}, expected more than ${previous}`);
    }
  });
}

/** The version a database has once every migration ran. */
export function latestVersion(migrations: readonly MigrationStep[]): number {
  return migrations.at(-1)?.version ?? 0;
}
