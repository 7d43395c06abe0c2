package io.sluice.backend;

import io.sluice.auth.Md5Auth;
import io.sluice.config.userlist.Secret;

/**
 * Secret a server login uses: a plain password, an md5 secret ("md5..."), or SCRAM keys taken
 * over from the client's own SCRAM exchange (pass-through; no password known). All may be null
 * (trust).
 */
public record BackendCredentials(String user, String password, byte[] scramClientKey, byte[] scramServerKey) {
    public static BackendCredentials none(String user) {
        return new BackendCredentials(user, null, null, null);
    }

    public boolean hasScramKeys() {
        return scramClientKey != null && scramServerKey != null;
    }

    public boolean isMd5Secret() {
        return password != null && Secret.isMd5(password);
    }
}
