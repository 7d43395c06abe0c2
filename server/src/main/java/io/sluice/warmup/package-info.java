/**
 * The start-up warm-up's two ends, both protocol-only: a stand-in for PostgreSQL that answers
 * every query with one row, and a blocking client that logs in, queries and logs out. The
 * runtime puts a private pooler between them before the real listeners open.
 */
package io.sluice.warmup;
