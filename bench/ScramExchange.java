import io.sluice.auth.NonceSource;
import io.sluice.auth.ScramClientExchange;
import io.sluice.auth.ScramSecret;
import io.sluice.auth.ScramServerExchange;
import io.sluice.config.userlist.Secret;

import java.util.Base64;

/**
 * What the server's side of one SCRAM-SHA-256 login costs Sluice's own code, warm: the looks at
 * the user's stored secret a login makes (its kind for the auth policy, then the exchange's kind
 * and keys, all read from the Secret the auth file's loader made once), server-first-message, and
 * the check of the client's proof with the server-final-message. The client's side runs from keys
 * derived once (as a pass-through login holds them), so no PBKDF2 is in the loop, and is not timed.
 * A whole login through pgbench is paced by libpq's key derivation and wakes the pooler for each
 * message, which buries a microsecond here in its noise; this loop does not.
 *
 *   bench/scram-exchange.sh [exchanges]     (runs this against two jars, interleaved; both from
 *                                            d9cf07e on, where a login's secret is a Secret)
 *   java -cp server/target/sluice.jar bench/ScramExchange.java [exchanges]
 *
 * Prints the mean time of the timed part per exchange for each of 3 passes; the last is the warm one.
 */
public class ScramExchange {
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        byte[] salt = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
        // one Secret for every login, as the auth file's entry is (classified and parsed at load)
        Secret stored = Secret.of(ScramSecret.fromPassword("pencil", salt, 4096).toString());
        NonceSource nonces = NonceSource.secureRandom();
        ScramClientExchange first = ScramClientExchange.withPassword("pencil", nonces);
        ScramServerExchange check = ScramServerExchange.forStoredSecret("u", stored, 4096, () -> salt, nonces);
        String serverFirst = check.serverFirst(first.clientFirst());
        if (!(check.verifyClientFinal(first.clientFinal(serverFirst)) instanceof ScramServerExchange.Success keys)) {
            throw new IllegalStateException("the reference exchange failed");
        }
        for (int pass = 1; pass <= 3; pass++) {
            long nanos = 0;
            for (int i = 0; i < n; i++) {
                ScramClientExchange c = ScramClientExchange.withKeys(keys.clientKey(), keys.serverKey(), nonces);
                String clientFirst = c.clientFirst();
                long t0 = System.nanoTime();
                stored.kind();
                ScramServerExchange s = ScramServerExchange.forStoredSecret("u", stored, 4096, () -> salt, nonces);
                String sf = s.serverFirst(clientFirst);
                long t1 = System.nanoTime();
                String clientFinal = c.clientFinal(sf);
                long t2 = System.nanoTime();
                ScramServerExchange.Result r = s.verifyClientFinal(clientFinal);
                long t3 = System.nanoTime();
                if (!(r instanceof ScramServerExchange.Success)) {
                    throw new IllegalStateException("exchange " + i + " failed: " + r);
                }
                nanos += (t1 - t0) + (t3 - t2);
            }
            System.out.printf("pass %d: %.2f us an exchange (server side, %d exchanges)%n",
                    pass, nanos / 1000.0 / n, n);
        }
    }
}
