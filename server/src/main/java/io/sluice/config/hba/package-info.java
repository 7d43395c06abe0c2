/**
 * auth_hba_file: PgBouncer's pg_hba.conf-like rules and first-match lookup. Depends on the
 * JDK only.
 */
package io.sluice.config.hba;
