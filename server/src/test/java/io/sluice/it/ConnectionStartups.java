package io.sluice.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PostgreSQL's log (log_connections = on, default prefix {@code %m [%p] }) and replays
 * the order of "connection received" and "connection authorized" lines: a backend is starting
 * up between the two. Log order is the order backends wrote, so the sweep gives how many
 * startups for one database were in flight at once, without relying on timestamps.
 */
final class ConnectionStartups {
    private static final Pattern RECEIVED = Pattern.compile("\\[(\\d+)\\] LOG:  connection received");
    private static final Pattern AUTHORIZED =
            Pattern.compile("\\[(\\d+)\\] LOG:  connection authorized: user=\\S+ database=(\\S+)");

    final int backendsCreated;
    final int peakInFlight;

    private ConnectionStartups(int backendsCreated, int peakInFlight) {
        this.backendsCreated = backendsCreated;
        this.peakInFlight = peakInFlight;
    }

    static ConnectionStartups of(String logText, String database) {
        record Event(String pid, boolean start) {
        }
        List<Event> events = new ArrayList<>();
        Set<String> ours = new HashSet<>();
        for (String line : logText.split("\n")) {
            Matcher r = RECEIVED.matcher(line);
            if (r.find()) {
                events.add(new Event(r.group(1), true));
                continue;
            }
            Matcher a = AUTHORIZED.matcher(line);
            if (a.find()) {
                events.add(new Event(a.group(1), false));
                if (a.group(2).equals(database)) {
                    ours.add(a.group(1));
                }
            }
        }
        int inFlight = 0;
        int peak = 0;
        Map<String, Boolean> open = new HashMap<>();
        for (Event e : events) {
            if (!ours.contains(e.pid())) {
                continue;
            }
            if (e.start()) {
                open.put(e.pid(), true);
                inFlight++;
                peak = Math.max(peak, inFlight);
            } else if (open.remove(e.pid()) != null) {
                inFlight--;
            }
        }
        return new ConnectionStartups(ours.size(), peak);
    }
}
