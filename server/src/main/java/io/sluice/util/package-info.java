/** Time, scheduling and randomness seams. Depends on the JDK only. */
package io.sluice.util;
