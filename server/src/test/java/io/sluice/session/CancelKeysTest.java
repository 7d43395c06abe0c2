package io.sluice.session;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15 (predictable cancel keys): the keys clients are handed carry no sequence or pattern
 * a client could extrapolate from its own keys to another's, and a CancelRequest must name both
 * halves of a live key. The bounds are many standard deviations wide, so a good source never
 * trips them while a counter, a constant step or a stuck bit always does.
 */
class CancelKeysTest {
    private static final int N = 1000;

    /** 1000 keys through the registry's real allocation path, as logins get them. */
    private static List<CancelKeys.Key> keysFromRegistry() {
        ClientRegistry registry = new ClientRegistry();
        List<CancelKeys.Key> keys = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            ClientSession s = new ClientSession(null, false);
            keys.add(registry.issueCancelKey(s, 0));
        }
        return keys;
    }

    @Test
    void thousandKeysHaveNoRepeatsAndPositiveNonZeroPids() {
        List<CancelKeys.Key> keys = keysFromRegistry();
        Set<Integer> pids = new HashSet<>();
        Set<Long> whole = new HashSet<>();
        for (CancelKeys.Key k : keys) {
            assertThat(k.pid()).as("pid positive and non-zero like PostgreSQL's").isPositive();
            pids.add(k.pid());
            whole.add(((long) k.pid() << 32) | (k.secret() & 0xffffffffL));
        }
        // 31 random bits: a repeated pid among 1000 has odds ~2e-4, two ~3e-8 (the whole key is what is unique)
        assertThat(pids).as("pids almost never repeat").hasSizeGreaterThanOrEqualTo(N - 1);
        assertThat(whole).as("no key repeats").hasSize(N);
        // 32 random bits: a repeat among 1000 has odds ~1e-4, two repeats ~1e-8
        assertThat(keys.stream().map(CancelKeys.Key::secret).distinct().count()).isGreaterThanOrEqualTo(N - 1);
    }

    @Test
    void pidsAreNotSequentialAndNeitherHalfStepsByAConstant() {
        List<CancelKeys.Key> keys = keysFromRegistry();
        Map<Long, Integer> pidSteps = new HashMap<>();
        Map<Long, Integer> secretSteps = new HashMap<>();
        Map<Integer, Integer> secretXors = new HashMap<>();
        int closePids = 0;
        for (int i = 1; i < N; i++) {
            long pidStep = (long) keys.get(i).pid() - keys.get(i - 1).pid();
            long secretStep = (long) keys.get(i).secret() - keys.get(i - 1).secret();
            pidSteps.merge(pidStep, 1, Integer::sum);
            secretSteps.merge(secretStep, 1, Integer::sum);
            secretXors.merge(keys.get(i).secret() ^ keys.get(i - 1).secret(), 1, Integer::sum);
            if (Math.abs(pidStep) < 65536) {
                closePids++;
            }
        }
        // a counter (the old allocator) makes every step +1; random steps almost never repeat
        assertThat(maxCount(pidSteps)).as("most frequent pid step").isLessThanOrEqualTo(2);
        assertThat(maxCount(secretSteps)).as("most frequent secret step").isLessThanOrEqualTo(2);
        assertThat(maxCount(secretXors)).as("most frequent xor of neighbouring secrets").isLessThanOrEqualTo(2);
        // neighbours within 2^16 of each other: ~0.06 expected of 999 when random, 999 for a counter
        assertThat(closePids).as("neighbouring pids close together").isLessThanOrEqualTo(3);
    }

    @Test
    void everyRandomBitIsSetAboutHalfTheTime() {
        List<CancelKeys.Key> keys = keysFromRegistry();
        int[] pidOnes = new int[32];
        int[] secretOnes = new int[32];
        for (CancelKeys.Key k : keys) {
            for (int b = 0; b < 32; b++) {
                pidOnes[b] += (k.pid() >>> b) & 1;
                secretOnes[b] += (k.secret() >>> b) & 1;
            }
        }
        // binomial(1000, 1/2): mean 500, sd 15.8; 405..595 is six sd either side
        for (int b = 0; b < 31; b++) {
            assertThat(pidOnes[b]).as("pid bit " + b).isBetween(405, 595);
        }
        assertThat(pidOnes[31]).as("pid sign bit always clear").isZero();
        for (int b = 0; b < 32; b++) {
            assertThat(secretOnes[b]).as("secret bit " + b).isBetween(405, 595);
        }
        long samePidAndSecret = keys.stream().filter(k -> k.pid() == (k.secret() & 0x7fffffff)).count();
        assertThat(samePidAndSecret).as("the halves are drawn independently").isLessThanOrEqualTo(1);
    }

    @Test
    void aCancelMustNameBothHalvesOfALiveKey() {
        CancelKeys<String> keys = new CancelKeys<>();
        CancelKeys.Key a = keys.issue("a", 0);
        CancelKeys.Key b = keys.issue("b", 0);
        assertThat(keys.match(a.pid(), a.secret())).isEqualTo("a");
        assertThat(keys.match(b.pid(), b.secret())).isEqualTo("b");
        assertThat(keys.match(a.pid(), a.secret() ^ 1)).as("right pid, wrong secret").isNull();
        assertThat(keys.match(a.pid(), b.secret())).as("another client's secret").isNull();
        assertThat(keys.match(a.pid() ^ 1, a.secret())).as("wrong pid, right secret").isNull();

        keys.release(a, "b");
        assertThat(keys.match(a.pid(), a.secret())).as("only the owner releases its key").isEqualTo("a");
        keys.release(a, "a");
        assertThat(keys.match(a.pid(), a.secret())).as("a released key matches nothing").isNull();
        assertThat(keys.live()).isEqualTo(1);
    }

    /** PgBouncer 1.21+'s layout: peer id in the pid's 2nd (low byte) and 3rd bytes, TTL 3 in the secret's low bits. */
    @Test
    void peeredKeysCarryThePeerIdWherePgBouncerPutsIt() {
        CancelKeys<String> keys = new CancelKeys<>();
        for (int peer : new int[] {1, 2, 255, 256, 16383}) {
            for (int i = 0; i < 200; i++) {
                CancelKeys.Key k = keys.issue("c" + peer + "/" + i, peer);
                byte[] wire = java.nio.ByteBuffer.allocate(8).putInt(k.pid()).putInt(k.secret()).array();
                assertThat((wire[1] & 0xff) + ((wire[2] & 0xff) << 8)).as("bytes 1-2 of the key").isEqualTo(peer);
                assertThat(CancelKeys.peerOf(k.pid())).isEqualTo(peer);
                assertThat(wire[7] & CancelKeys.TTL_MASK).as("TTL bits").isEqualTo(3);
                assertThat(k.pid()).as("pid positive").isPositive();
                assertThat(keys.match(k.pid(), k.secret())).isEqualTo("c" + peer + "/" + i);
            }
        }
        assertThat(keys.live()).as("15 random pid bits do not limit live keys: the whole key is unique").isEqualTo(1000);
    }

    private static int maxCount(Map<?, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }
}
