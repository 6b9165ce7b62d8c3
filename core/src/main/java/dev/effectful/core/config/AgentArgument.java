package dev.effectful.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.effectful.core.config.EffectfulConfig.Problem;

import static dev.effectful.core.config.KeyNames.fullName;
import static dev.effectful.core.config.KeyNames.known;
import static dev.effectful.core.config.KeyNames.shortNames;
import static dev.effectful.core.config.NearestWord.nearest;

/**
 * The agent argument ({@code -javaagent:effectful-agent.jar=journal=/var/effectful,sync=intent}) split into
 * its keys and values, each malformed part or unknown key a {@link Problem}: the one source whose
 * keys are checked before any is read, since a typo there is always a mistake.
 */
final class AgentArgument {

    private AgentArgument() {
    }

    /**
     * {@code journal=DIR,sync=intent} or full key names; short names are the key without the
     * {@code effectful.} prefix. Throws on the first problem (see {@link ConfigReader#read} for all of them).
     */
    static Map<String, String> parseAgentArgs(String args) {
        List<Problem> errors = new ArrayList<>();
        Map<String, String> out = parseAgentArgs(args, errors);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(errors.get(0).message());
        }
        return out;
    }

    /** Parses the agent argument, adding a {@link Problem} for each malformed part or unknown key. */
    static Map<String, String> parseAgentArgs(String args, List<Problem> errors) {
        Map<String, String> out = new LinkedHashMap<>();
        if (args == null || args.isBlank()) {
            return out;
        }
        if (args.indexOf(';') >= 0) {
            // journal=a;sync=intent once made a directory named "a;sync=intent" and left sync at none
            errors.add(new Problem("agent argument", "malformed agent argument '" + args + "': settings are"
                    + " separated by ',' not ';' (did you mean '" + args.replace(';', ',') + "'?)"));
            return out;
        }
        for (String part : args.split(",", -1)) {
            int eq = part.indexOf('=');
            String rawKey = eq < 0 ? part.trim() : part.substring(0, eq).trim();
            if (eq <= 0 || rawKey.isEmpty()) {
                errors.add(new Problem("agent argument", "malformed agent argument '" + args + "': '" + part
                        + "' is not key=value" + (rawKey.isEmpty() ? "" : " (did you mean '"
                        + nearest(rawKey, shortNames()) + "=...'?)")));
                continue;
            }
            String key = fullName(rawKey);
            String value = part.substring(eq + 1).trim();
            if (!known(key)) {
                String bare = rawKey.startsWith("effectful.") ? rawKey.substring("effectful.".length()) : rawKey;
                String near = nearest(bare, shortNames());
                errors.add(new Problem(rawKey, "unknown key '" + rawKey + "' in the agent argument; did you mean '"
                        + near + "' (" + fullName(near) + ")?"));
            } else if (value.isEmpty()) {
                errors.add(new Problem(key, rawKey + "= has no value in the agent argument"));
            } else if (out.containsKey(key)) {
                errors.add(new Problem(key, key + " is given twice in the agent argument"));
            } else {
                out.put(key, value);
            }
        }
        return out;
    }
}
