package dev.effectful.core.reentry;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The command a hold message tells a person to run, complete enough to paste into a shell as it
 * stands: the absolute agent jar (when the agent runs from one) and the absolute journal directory,
 * so it works from any working directory. It names one verdict ({@code --applied yes}) rather than
 * {@code yes|no}, which a shell would read as a pipe; the message says how to give the other.
 *
 * @param jar        the agent jar as a shell word; {@code effectful-agent.jar} when not known
 * @param journalDir the journal directory as a shell word; null: the CLI's default
 * @param store      in fleet mode the shared store's kind ({@code postgres}): the verdict goes there, where
 *                   every host decides, and not into one host's journal; null for a local journal
 * @param storeEnv   in fleet mode the environment variables that reach the store (its provider's reach keys)
 * @param operatorInAnswer true: the model's answer carries the operator's command too (the verbose form,
 *                   {@code effectful.held.message=operator}); false (default): the command goes only to the log,
 *                   the console and {@code journal unresolved}
 */
public record ResolveHint(String jar, String journalDir, String store, List<String> storeEnv, boolean operatorInAnswer) {

    /**
     * What the model is told of an intent held for a person, in words it can act on and repeat to a customer:
     * no path, no command, no journal directory (a customer-facing assistant would read those out).
     */
    public static final String TELL_THE_MODEL = "a person will check whether it applied; do not retry; tell the user"
            + " it is being checked and not to ask again";

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    /** Without a known jar or directory (tests, a journal that could not be opened). */
    public static ResolveHint generic() {
        return new ResolveHint("effectful-agent.jar", null, null, List.of(), false);
    }

    /** For a writer of {@code journalDir}, running from the jar that holds this class if it is one. */
    public static ResolveHint forJournal(Path journalDir) {
        return new ResolveHint(shellWord(agentJar()), shellWord(journalDir.toAbsolutePath().normalize().toString()), null,
                List.of(), false);
    }

    /**
     * For a host of a fleet whose intents are decided in the shared store of {@code kind}, reached with
     * {@code reachKeys} (full key names; the message names them as environment variables).
     */
    public static ResolveHint forStore(String kind, List<String> reachKeys) {
        return new ResolveHint(shellWord(agentJar()), null, kind, reachKeys.stream()
                .map(k -> k.toUpperCase(Locale.ROOT).replace('.', '_')).toList(), false);
    }

    /** The same hint, with the operator's command in the model's answer too ({@code effectful.held.message=operator}). */
    public ResolveHint withOperatorInAnswer(boolean inAnswer) {
        return new ResolveHint(jar, journalDir, store, storeEnv, inAnswer);
    }

    /**
     * The sentence a hold message to the model ends with: {@link #TELL_THE_MODEL}, or, in the verbose form,
     * the operator's {@link #sentence} too.
     */
    public String forModel(String key) {
        return operatorInAnswer ? sentence(key) + "; do not retry" : TELL_THE_MODEL;
    }

    /** The command recording "applied yes" for {@code key}. */
    public String command(String key) {
        return "java -jar " + jar + " journal" + (store != null ? " --store " + store
                : journalDir == null ? "" : " --dir " + journalDir)
                + " resolve " + key + " --applied yes --note \"what you checked\"";
    }

    /** The command serving the console, where a person sees what waits for them and gives the same verdict. */
    public String consoleCommand() {
        return "java -jar " + jar + " journal" + (store != null ? " --store " + store
                : journalDir == null ? "" : " --dir " + journalDir) + " console";
    }

    /** The command approving {@code key} (an approval request's log line names it; deny takes the same words). */
    public String approveCommand(String key) {
        return "java -jar " + jar + " journal" + (store != null ? " --store " + store
                : journalDir == null ? "" : " --dir " + journalDir)
                + " approve " + key + " --note \"why\"";
    }

    /** The sentence a hold message ends with: what to run, and how to say no instead. */
    public String sentence(String key) {
        if (store != null) {
            return "once you know whether it applied, run, on any host with this host's "
                    + (storeEnv.isEmpty() ? "store settings" : String.join(", ", storeEnv)) + " in its environment: "
                    + command(key) + " (or --applied no if it did not; add --result JSON to give the value every host's"
                    + " repeat returns)";
        }
        return "once you know whether it applied, run: " + command(key)
                + " (or --applied no if it did not; add --result JSON to give the value a repeat returns)";
    }

    private static String agentJar() {
        try {
            var source = ResolveHint.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null) {
                Path p = Path.of(source.getLocation().toURI());
                String name = p.getFileName() == null ? "" : p.getFileName().toString();
                // one of the project's module jars (a test or an embedding) is not a jar to run the CLI from
                boolean moduleJar = name.startsWith("effectful-") && !name.startsWith("effectful-agent");
                if (name.endsWith(".jar") && !moduleJar) {
                    return p.toAbsolutePath().normalize().toString();
                }
            }
        } catch (Exception | LinkageError e) {
            // a security manager or an unusual loader: the generic name still tells what to run
        }
        return "effectful-agent.jar";
    }

    /** Quotes {@code s} for a POSIX shell when it holds anything beyond plain path characters. */
    static String shellWord(String s) {
        if (PLAIN.matcher(s).matches()) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
