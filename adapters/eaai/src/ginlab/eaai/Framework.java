package ginlab.eaai;

import java.io.File;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The EAAI framework and a player class, loaded by reflection from the user's class path: the
 * framework's own {@code ginrummy.Card} table (players compare cards by identity, so the adapter
 * never makes a Card) and the {@code ginrummy.GinRummyPlayer} methods.
 */
final class Framework {
    /** A class path, player class or card table the adapter cannot use: bad input. */
    static final class SetupError extends Exception {
        private static final long serialVersionUID = 1L;

        SetupError(String message) {
            super(message);
        }
    }

    private final Class<?> playerClass;
    private final Map<String, Object> cardOf = new HashMap<>();
    private final Map<Object, String> nameOf = new IdentityHashMap<>();
    private final Class<?> cardClass;
    private final Method startGame;
    private final Method willDrawFaceUpCard;
    private final Method reportDraw;
    private final Method getDiscard;
    private final Method reportDiscard;
    private final Method getFinalMelds;
    private final Method reportFinalMelds;
    private final Method reportScores;
    private final Method reportLayoff;
    private final Method reportFinalHand;

    /**
     * Loads {@code className} and the framework from {@code classPath} (entries as for java -cp).
     * The framework is the package of the {@code GinRummyPlayer} interface the player implements:
     * {@code ginrummy}, or the default package for a player published with its own copy of the
     * framework there.
     */
    Framework(String classPath, String className) throws SetupError {
        ClassLoader loader = new URLClassLoader(urls(classPath), ClassLoader.getPlatformClassLoader());
        playerClass = load(loader, className, classPath);
        Class<?> api = playerInterface(playerClass);
        if (api == null) {
            throw new SetupError(className + " does not implement ginrummy.GinRummyPlayer (or"
                    + " GinRummyPlayer in the default package, for a player with its own framework copy)");
        }
        String framework = api.getPackageName();
        cardClass = load(loader, framework.isEmpty() ? "Card" : framework + ".Card", classPath);
        if (playerClass.isInterface() || Modifier.isAbstract(playerClass.getModifiers())) {
            throw new SetupError(className + " is abstract: name a class that can be made");
        }
        readCardTable();
        Class<?> cards = Array.newInstance(cardClass, 0).getClass();
        startGame = method(api, "startGame", int.class, int.class, cards);
        willDrawFaceUpCard = method(api, "willDrawFaceUpCard", cardClass);
        reportDraw = method(api, "reportDraw", int.class, cardClass);
        getDiscard = method(api, "getDiscard");
        reportDiscard = method(api, "reportDiscard", int.class, cardClass);
        getFinalMelds = method(api, "getFinalMelds");
        reportFinalMelds = method(api, "reportFinalMelds", int.class, ArrayList.class);
        reportScores = method(api, "reportScores", int[].class);
        reportLayoff = method(api, "reportLayoff", int.class, cardClass, ArrayList.class);
        reportFinalHand = method(api, "reportFinalHand", int.class, ArrayList.class);
    }

    /** The {@code GinRummyPlayer} interface {@code c} implements, in whichever package, or null. */
    private static Class<?> playerInterface(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                if (i.getSimpleName().equals("GinRummyPlayer")
                        && (i.getPackageName().isEmpty() || i.getPackageName().equals("ginrummy"))) {
                    return i;
                }
                Class<?> inherited = playerInterface(i);
                if (inherited != null) {
                    return inherited;
                }
            }
        }
        return null;
    }

    private static URL[] urls(String classPath) throws SetupError {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            List<File> files = new ArrayList<>();
            if (entry.endsWith("*")) {
                // As java -cp: DIR/* is every jar in DIR.
                File dir = new File(entry.substring(0, entry.length() - 1));
                File[] jars = dir.listFiles((d, n) -> n.endsWith(".jar") || n.endsWith(".JAR"));
                if (jars == null) {
                    throw new SetupError("class path entry " + entry + ": " + dir + " is not a folder");
                }
                java.util.Arrays.sort(jars);
                files.addAll(List.of(jars));
            } else {
                File file = new File(entry);
                if (!file.exists()) {
                    throw new SetupError("class path entry " + entry
                            + " does not exist (a folder of classes or a jar file is expected)");
                }
                files.add(file);
            }
            for (File f : files) {
                try {
                    urls.add(f.toURI().toURL());
                } catch (MalformedURLException e) {
                    throw new SetupError("class path entry " + f + ": " + e.getMessage());
                }
            }
        }
        if (urls.isEmpty()) {
            throw new SetupError("the class path is empty");
        }
        return urls.toArray(new URL[0]);
    }

    private static Class<?> load(ClassLoader loader, String name, String classPath) throws SetupError {
        try {
            return Class.forName(name, true, loader);
        } catch (NoClassDefFoundError e) {
            throw new SetupError("class " + name + " needs " + e.getMessage()
                    + ", which is not on the class path " + classPath);
        } catch (ClassNotFoundException e) {
            throw new SetupError("class " + name + " is not on the class path " + classPath
                    + " (it must hold the EAAI framework, in package ginrummy or in the default"
                    + " package, and the player)");
        } catch (LinkageError e) {
            throw new SetupError("class " + name + " cannot be loaded: " + e);
        }
    }

    /**
     * Reads the framework's 52 cards: the static {@code Card.allCards} array, else {@code
     * Card.getCard(int)} for ids 0 to 51; each named by its own {@code toString()}.
     */
    private void readCardTable() throws SetupError {
        List<Object> cards = new ArrayList<>();
        try {
            Field all = cardClass.getField("allCards");
            Object array = all.get(null);
            for (int i = 0; i < Array.getLength(array); i++) {
                cards.add(Array.get(array, i));
            }
        } catch (NoSuchFieldException | IllegalAccessException | NullPointerException e) {
            try {
                Method byId = cardClass.getMethod("getCard", int.class);
                for (int id = 0; id < 52; id++) {
                    cards.add(byId.invoke(null, id));
                }
            } catch (ReflectiveOperationException e2) {
                throw new SetupError(cardClass.getName() + " has neither a static allCards array nor a static"
                        + " getCard(int): cannot find the framework's cards");
            }
        }
        for (Object card : cards) {
            String name = card == null ? null : Cards.normalize(card.toString());
            if (name == null || cardOf.containsKey(name)) {
                throw new SetupError("the framework's card table is not the 52 cards: "
                        + card + " (from " + cards + ")");
            }
            cardOf.put(name, card);
            nameOf.put(card, name);
        }
        if (cardOf.size() != 52) {
            throw new SetupError("the framework's card table has " + cardOf.size() + " cards, not 52");
        }
    }

    private static Method method(Class<?> api, String name, Class<?>... params) throws SetupError {
        try {
            return api.getMethod(name, params);
        } catch (NoSuchMethodException e) {
            throw new SetupError(api.getName() + " has no method " + name
                    + ": is this the EAAI-21 framework?");
        }
    }

    /** The framework's Card object for a ginlab card name. */
    Object card(String name) {
        Object card = cardOf.get(name);
        if (card == null) {
            throw new IllegalArgumentException("not a card: " + name);
        }
        return card;
    }

    /** A new player of the class, as a {@link NamedPlayer}. */
    NamedPlayer newPlayer() {
        Object instance;
        try {
            Constructor<?> make = playerClass.getDeclaredConstructor();
            make.setAccessible(true);
            instance = make.newInstance();
        } catch (InvocationTargetException e) {
            throw new PlayerFault("the constructor of " + playerClass.getName() + " threw "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new PlayerFault("cannot make a " + playerClass.getName()
                    + " (a constructor without arguments is needed): " + e, e);
        }
        return new Reflected(instance);
    }

    /** Checks at start-up that a player can be made, so that a broken class is bad input. */
    void checkPlayer() throws SetupError {
        try {
            newPlayer();
        } catch (PlayerFault f) {
            throw new SetupError(f.getMessage());
        }
    }

    private final class Reflected implements NamedPlayer {
        private final Object player;

        Reflected(Object player) {
            this.player = player;
        }

        private Object invoke(Method m, Object... args) {
            try {
                return m.invoke(player, args);
            } catch (InvocationTargetException e) {
                throw new PlayerFault(m.getName() + " threw " + e.getCause(), e.getCause());
            } catch (IllegalAccessException e) {
                throw new PlayerFault("cannot call " + m.getName() + ": " + e, e);
            }
        }

        private String name(Object card, String method) {
            if (card == null) {
                return null;
            }
            String name = nameOf.get(card);
            if (name == null) {
                throw new PlayerFault(method + " returned " + card + ", which is not one of the"
                        + " framework's Card objects (a Card made with new is not the same card)", null);
            }
            return name;
        }

        private ArrayList<Object> cards(List<String> names) {
            ArrayList<Object> out = new ArrayList<>();
            for (String n : names) {
                out.add(card(n));
            }
            return out;
        }

        private ArrayList<ArrayList<Object>> meldList(List<List<String>> melds) {
            ArrayList<ArrayList<Object>> out = new ArrayList<>();
            for (List<String> meld : melds) {
                out.add(cards(meld));
            }
            return out;
        }

        @Override
        public void startGame(int playerNum, int startingPlayerNum, List<String> names) {
            Object array = Array.newInstance(cardClass, names.size());
            for (int i = 0; i < names.size(); i++) {
                Array.set(array, i, card(names.get(i)));
            }
            invoke(startGame, playerNum, startingPlayerNum, array);
        }

        @Override
        public boolean willDrawFaceUpCard(String card) {
            return (Boolean) invoke(willDrawFaceUpCard, card(card));
        }

        @Override
        public void reportDraw(int playerNum, String card) {
            invoke(reportDraw, playerNum, card == null ? null : card(card));
        }

        @Override
        public String getDiscard() {
            return name(invoke(getDiscard), "getDiscard");
        }

        @Override
        public void reportDiscard(int playerNum, String card) {
            invoke(reportDiscard, playerNum, card(card));
        }

        @Override
        public List<List<String>> getFinalMelds() {
            Object melds = invoke(getFinalMelds);
            if (melds == null) {
                return null;
            }
            if (!(melds instanceof List)) {
                throw new PlayerFault("getFinalMelds returned " + melds + ", not a list of melds", null);
            }
            List<List<String>> out = new ArrayList<>();
            for (Object meld : (List<?>) melds) {
                if (!(meld instanceof List)) {
                    throw new PlayerFault("getFinalMelds returned a meld " + meld + " that is not a list", null);
                }
                List<String> names = new ArrayList<>();
                for (Object card : (List<?>) meld) {
                    String n = name(card, "getFinalMelds");
                    if (n == null) {
                        throw new PlayerFault("getFinalMelds returned a meld holding null", null);
                    }
                    names.add(n);
                }
                out.add(names);
            }
            return out;
        }

        @Override
        public void reportFinalMelds(int playerNum, List<List<String>> melds) {
            invoke(reportFinalMelds, playerNum, meldList(melds));
        }

        @Override
        public void reportScores(int[] scores) {
            invoke(reportScores, (Object) scores.clone());
        }

        @Override
        public void reportLayoff(int playerNum, String card, List<String> opponentMeld) {
            invoke(reportLayoff, playerNum, card(card), cards(opponentMeld));
        }

        @Override
        public void reportFinalHand(int playerNum, List<String> hand) {
            invoke(reportFinalHand, playerNum, cards(hand));
        }
    }
}
