/**
 * Configuration: the key table ({@link io.sluice.config.ConfigKeys}), the loader
 * ({@link io.sluice.config.ConfigLoader}) and the immutable
 * {@link io.sluice.config.ConfigSnapshot} that the rest of Sluice reads. RELOAD builds a new
 * snapshot; a failed load never yields a half-read one. Subpackages: {@code config.ini}
 * (ini text and connection strings), {@code config.userlist} (auth_file), {@code config.hba}
 * (auth_hba_file). May depend on {@code io.sluice.util} and the JDK only (no Netty);
 * the subpackages do not depend on this package, so there is no package cycle.
 */
package io.sluice.config;
