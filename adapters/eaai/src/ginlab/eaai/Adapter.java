package ginlab.eaai;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Plays an EAAI-21 Gin Rummy player ({@code ginrummy.GinRummyPlayer}) as a ginlab bot: ginlab's
 * JSON-lines protocol on stdin/stdout, the player's calls by reflection. See
 * adapters/eaai/README.md.
 */
public final class Adapter {
    private static final String USAGE = String.join("\n",
            "usage: java -cp CLASSES ginlab.eaai.Adapter --classpath PATH --player CLASS [options]",
            "  --classpath PATH   the EAAI framework (package ginrummy, or the default package) and the player's classes:",
            "                     folders and jar files separated by '" + java.io.File.pathSeparator
                    + "', DIR/* for every jar in DIR",
            "  --player CLASS     the player's class name, e.g. SimpleGinRummyPlayer",
            "  --name NAME        the bot's name in ginlab's reports (default: the class's simple name)",
            "  --reuse-player     one player object for every game of the process, as the framework",
            "                     keeps one for a match (default: a new player for each game)",
            "  --strict-rules     forfeit every game whose rules are not the EAAI framework's",
            "                     (default: play them, with a warning in the bot's log)");

    private Adapter() {}

    public static void main(String[] args) throws IOException {
        // The protocol owns the real stdout; whatever the player prints goes to stderr (the
        // bot's log), and it cannot read the protocol's stdin.
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                StandardCharsets.UTF_8);
        PrintStream log = System.err;
        System.setOut(log);
        BufferedReader in = new BufferedReader(new InputStreamReader(
                new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(new byte[0]));

        String classPath = null;
        String className = null;
        String name = null;
        boolean reuse = false;
        boolean strict = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--classpath", "--player", "--name" -> {
                    if (i + 1 >= args.length) {
                        usage(log, a + " needs a value");
                    }
                    String v = args[++i];
                    if (a.equals("--classpath")) {
                        classPath = v;
                    } else if (a.equals("--player")) {
                        className = v;
                    } else {
                        name = v;
                    }
                }
                case "--reuse-player" -> reuse = true;
                case "--strict-rules" -> strict = true;
                case "-h", "--help" -> {
                    log.println(USAGE);
                    System.exit(0);
                }
                default -> usage(log, "unknown argument `" + a + "`");
            }
        }
        if (classPath == null || className == null) {
            usage(log, "--classpath and --player are required");
        }
        Framework framework;
        // What the player prints while it loads (its static initialiser, its constructor) is
        // also kept, to tell an error there (a data file not found) from a banner.
        ByteArrayOutputStream startup = new ByteArrayOutputStream();
        PrintStream watched = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                log.write(b);
                startup.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                log.write(b, off, len);
                startup.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8);
        System.setOut(watched);
        System.setErr(watched);
        try {
            framework = new Framework(classPath, className);
            framework.checkPlayer();
        } catch (Framework.SetupError e) {
            log.println("eaai-adapter: " + e.getMessage());
            System.exit(2);
            return;
        } finally {
            System.setOut(log);
            System.setErr(log);
        }
        if (printedAnError(startup.toString(StandardCharsets.UTF_8))) {
            log.println("eaai-adapter: warning: " + className + " printed an error while it loaded"
                    + " (above): a player that reads a data file looks for it in the working"
                    + " directory, here " + System.getProperty("user.dir") + "; a profile's `cwd`"
                    + " sets it (adapters/eaai/README.md)");
        }
        if (name == null) {
            name = className.substring(className.lastIndexOf('.') + 1);
        }
        Translator translator = new Translator(framework::newPlayer, reuse, strict, name, log);
        String line;
        while (!translator.quit() && (line = in.readLine()) != null) {
            String reply = translator.handle(line);
            if (reply != null) {
                protocol.print(reply + "\n");
                protocol.flush();
            }
        }
        // A player may have started threads of its own: they must not keep the bot alive.
        System.exit(0);
    }

    /** Whether text a player printed while loading reads as an error report. */
    static boolean printedAnError(String text) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        return lower.contains("exception") || lower.contains("error") || lower.contains("not found")
                || lower.contains("no such file") || lower.contains("cannot") || lower.contains("can't");
    }

    private static void usage(PrintStream log, String problem) {
        log.println("eaai-adapter: " + problem);
        log.println(USAGE);
        System.exit(2);
    }
}
