/**
 * The database the test suite uses, for the global setup (which creates and migrates it) and the test workers
 * alike. Only TEST_DATABASE_URL selects it: a DATABASE_URL in the developer's shell (their own instance) is
 * never migrated, and never dropped by TEST_DB_RESET=1.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test';
