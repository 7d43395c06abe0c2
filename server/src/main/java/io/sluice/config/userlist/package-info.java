/**
 * The auth_file (userlist.txt): parsing with PgBouncer's rules and classifying secrets as
 * plain, md5 or SCRAM-SHA-256. No authentication logic lives here (that is {@code auth}).
 * Depends on the JDK only.
 */
package io.sluice.config.userlist;
