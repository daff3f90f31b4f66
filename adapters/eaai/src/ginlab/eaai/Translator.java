package ginlab.eaai;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns ginlab's protocol messages (docs/PROTOCOL.md) into a {@code GinRummyPlayer}'s calls, in
 * the order the EAAI framework's game makes them, and the player's answers into moves. One
 * translator serves one bot process: many games, one after another. See adapters/eaai/README.md
 * for each mismatch between the two games and what is done about it.
 */
final class Translator {
    /** The EAAI framework's fixed rules as ginlab knobs (ginlab's `eaai` preset). */
    static final Map<String, Object> EAAI_RULES = new LinkedHashMap<>();

    static {
        EAAI_RULES.put("knock_limit", 10L);
        EAAI_RULES.put("ace_upcard_gin_only", false);
        EAAI_RULES.put("spade_upcard_doubles", false);
        EAAI_RULES.put("gin_bonus", 25L);
        EAAI_RULES.put("undercut_bonus", 25L);
        EAAI_RULES.put("undercut_on_tie", true);
        EAAI_RULES.put("big_gin_bonus", "off");
        EAAI_RULES.put("box_bonus", 0L);
        EAAI_RULES.put("game_target", 100L);
        EAAI_RULES.put("game_bonus", 0L);
        EAAI_RULES.put("shutout", "none");
        EAAI_RULES.put("next_dealer", "alternate");
        EAAI_RULES.put("last_discard_action", false);
        EAAI_RULES.put("deal", "upcard_offer");
        EAAI_RULES.put("oklahoma_boxes", false);
    }

    /** The framework's knock limit (GinRummyUtil.MAX_DEADWOOD). */
    static final int FRAMEWORK_KNOCK_LIMIT = 10;

    private final Supplier<NamedPlayer> newPlayer;
    private final boolean reusePlayer;
    private final boolean strictRules;
    private final String name;
    private final PrintStream log;
    private final Set<String> warned = new HashSet<>();

    private NamedPlayer player;
    private boolean quit;
    /** Seat number of the bot: 0 for A, 1 for B. */
    private int me;
    /** Why the current game is forfeited at the bot's next decision, or null. */
    private String forfeit;

    // The current hand.
    private Set<String> hand = new LinkedHashSet<>();
    private final boolean[] drew = new boolean[2];
    private boolean ownStockDraw;
    private String heldBack;
    private String lastOwnDiscard;
    private String ownKnock;

    Translator(
            Supplier<NamedPlayer> newPlayer,
            boolean reusePlayer,
            boolean strictRules,
            String name,
            PrintStream log) {
        this.newPlayer = newPlayer;
        this.reusePlayer = reusePlayer;
        this.strictRules = strictRules;
        this.name = name;
        this.log = log;
    }

    /** True once ginlab sent quit. */
    boolean quit() {
        return quit;
    }

    /** Handles one line from ginlab; returns the line to answer (without newline) or null. */
    String handle(String line) {
        if (line.isBlank()) {
            return null;
        }
        Map<String, Object> msg;
        try {
            Object parsed = Json.parse(line);
            if (!(parsed instanceof Map)) {
                note("ignored a line that is not a JSON object: " + line);
                return null;
            }
            msg = map(parsed);
        } catch (IllegalArgumentException e) {
            note("ignored a line that is not JSON (" + e.getMessage() + "): " + line);
            return null;
        }
        try {
            return dispatch(msg);
        } catch (RuntimeException e) {
            // A message this adapter cannot read: a defect here or in ginlab, not the player's.
            note("cannot handle ginlab's message " + line + ": " + trace(e));
            if ("decide".equals(msg.get("type"))) {
                return moveReply(msg.get("id"), "forfeit: the adapter could not handle this request");
            }
            return null;
        }
    }

    private String dispatch(Map<String, Object> msg) {
        switch (String.valueOf(msg.get("type"))) {
            case "hello":
                return "{\"type\":\"hello\",\"protocol\":1,\"name\":" + Json.quote(name) + "}";
            case "game_start":
                gameStart(msg);
                return null;
            case "hand_start":
                handStart(msg);
                return null;
            case "event":
                event(msg);
                return null;
            case "decide":
                return decide(msg);
            case "hand_end":
                handEnd(msg);
                return null;
            case "game_end":
                forfeit = null;
                if (!reusePlayer) {
                    player = null;
                }
                return null;
            case "quit":
                quit = true;
                return null;
            default:
                return null; // later versions may add messages: ignore them
        }
    }

    private void gameStart(Map<String, Object> msg) {
        me = seat(msg.get("seat"));
        forfeit = null;
        String differences = rulesDifferences(map(msg.get("rules")));
        if (differences != null) {
            if (warned.add(differences)) {
                note("warning: these rules are not the EAAI framework's, which its players were built"
                        + " for: " + differences + ". The player plays them as adapters/eaai/README.md"
                        + " describes" + (strictRules ? "" : "; --strict-rules forfeits such games instead"));
            }
            if (strictRules) {
                forfeit = "--strict-rules: the rules are not the EAAI framework's (" + differences + ")";
            }
        }
        if (player == null || !reusePlayer) {
            try {
                player = newPlayer.get();
            } catch (PlayerFault f) {
                player = null;
                fault(f);
            }
        }
    }

    /** The knobs that differ from the framework's, as "knob=value (framework value)", or null. */
    static String rulesDifferences(Map<String, Object> rules) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Object> knob : EAAI_RULES.entrySet()) {
            Object value = rules.get(knob.getKey());
            if (value != null && !value.equals(knob.getValue())) {
                out.add(knob.getKey() + "=" + value + " (framework: " + knob.getValue() + ")");
            }
        }
        return out.isEmpty() ? null : String.join(", ", out);
    }

    private void handStart(Map<String, Object> msg) {
        List<String> cards = strings(msg.get("cards"));
        int starting = 1 - seat(msg.get("dealer"));
        hand = new LinkedHashSet<>(cards);
        drew[0] = false;
        drew[1] = false;
        ownStockDraw = false;
        heldBack = null;
        lastOwnDiscard = null;
        ownKnock = null;
        List<String> dealt = cards;
        if (cards.size() == 11) {
            // The eleven-card deal: the framework deals 10; the 11th is reported as the bot's
            // face-down draw before its first discard.
            heldBack = cards.get(10);
            dealt = new ArrayList<>(cards.subList(0, 10));
        }
        List<String> first = dealt;
        call(() -> player.startGame(me, starting, first));
    }

    private void event(Map<String, Object> msg) {
        int who = seat(msg.get("seat"));
        String card = (String) msg.get("card");
        switch (String.valueOf(msg.get("event"))) {
            case "upcard_taken", "took_pile" -> {
                drew[who] = true;
                if (who == me) {
                    hand.add(card);
                }
                call(() -> player.reportDraw(who, card));
            }
            case "drew_stock" -> {
                drew[who] = true;
                if (who == me) {
                    ownStockDraw = true; // the card shows in the next decide's hand
                } else {
                    call(() -> player.reportDraw(who, null));
                }
            }
            case "discarded" -> {
                if (who == me) {
                    // Reported to the player at its end_turn, before getFinalMelds.
                    hand.remove(card);
                    if (!card.equals(lastOwnDiscard)) {
                        note("ginlab reports the bot's discard " + card + ", the adapter sent "
                                + lastOwnDiscard);
                    }
                } else {
                    if (!drew[who]) {
                        // The dealt 11th card of the eleven-card deal: a face-down draw.
                        call(() -> player.reportDraw(who, null));
                    }
                    call(() -> player.reportDiscard(who, card));
                }
                drew[who] = false;
            }
            case "knocked" -> {
                if (who == me && ownKnock != null) {
                    hand.remove(ownKnock);
                }
                // The opponent's knock discard is face down in ginlab: the player is not told
                // of it (the framework would report it face up).
            }
            default -> {
                // upcard_passed and passed_last_discard have no framework call; later
                // versions may add events.
            }
        }
    }

    private String decide(Map<String, Object> msg) {
        Object id = msg.get("id");
        if (forfeit == null && player == null) {
            forfeit = "no player";
        }
        if (forfeit != null) {
            return moveReply(id, "forfeit: " + forfeit);
        }
        String decision = String.valueOf(msg.get("decision"));
        List<String> legal = strings(msg.get("legal"));
        Map<String, Object> state = map(msg.get("state"));
        try {
            switch (decision) {
                case "upcard":
                    return moveReply(id, player.willDrawFaceUpCard((String) state.get("upcard")) ? "take" : "pass");
                case "draw": {
                    if (!legal.contains("pile")) {
                        // Both players passed the upcard: the framework draws face down for
                        // the starting player without asking.
                        return moveReply(id, "stock");
                    }
                    List<String> pile = strings(state.get("pile"));
                    String top = pile.get(pile.size() - 1);
                    return moveReply(id, player.willDrawFaceUpCard(top) ? "pile" : "stock");
                }
                case "last_chance":
                    // The framework ends the hand, void, when the stock is down to two cards.
                    if (warned.add("last_chance")) {
                        note("last_discard_action: the adapter passes the last discard for the player"
                                + " (in the framework the hand is void there)");
                    }
                    return moveReply(id, "pass");
                case "end_turn":
                    return endTurn(id, legal, state);
                default:
                    note("unknown decision " + decision + ": answering " + legal.get(0));
                    return moveReply(id, legal.get(0));
            }
        } catch (PlayerFault f) {
            fault(f);
            return moveReply(id, "forfeit: " + forfeit);
        }
    }

    private String endTurn(Object id, List<String> legal, Map<String, Object> state) {
        List<String> now = strings(state.get("hand"));
        if (ownStockDraw) {
            ownStockDraw = false;
            List<String> fresh = new ArrayList<>(now);
            fresh.removeAll(hand);
            if (fresh.size() == 1) {
                hand.add(fresh.get(0));
                player.reportDraw(me, fresh.get(0));
            } else {
                note("cannot tell which card the bot drew: hand " + now + ", before " + hand);
            }
        } else if (!drew[me] && heldBack != null) {
            String card = heldBack;
            heldBack = null;
            drew[me] = true;
            player.reportDraw(me, card);
        }
        if (!hand.equals(new HashSet<>(now))) {
            note("the adapter's hand " + hand + " differs from ginlab's " + now + "; using ginlab's");
            hand = new LinkedHashSet<>(now);
        }
        String taken = (String) state.get("taken_from_pile");
        int knockLimit = ((Number) state.get("knock_limit")).intValue();

        String discard = player.getDiscard();
        if (discard == null) {
            return forfeitNow(id, "getDiscard returned null");
        }
        if (!hand.contains(discard)) {
            return forfeitNow(id, "getDiscard returned " + discard + ", which is not in the hand "
                    + Cards.sorted(hand));
        }
        if (discard.equals(taken)) {
            return forfeitNow(id, "getDiscard returned " + discard
                    + ", the card just taken from the discard pile");
        }
        if (!legal.contains("discard " + discard) && !legal.contains("knock " + discard)) {
            return forfeitNow(id, "getDiscard returned " + discard + ", not a legal discard here: " + legal);
        }
        lastOwnDiscard = discard;
        player.reportDiscard(me, discard);
        List<List<String>> melds = player.getFinalMelds();
        if (melds == null) {
            return discardMove(id, legal, discard);
        }
        List<String> rest = new ArrayList<>(hand);
        rest.remove(discard);
        String problem = Cards.spreadProblem(rest, melds);
        if (problem != null) {
            return forfeitNow(id, "getFinalMelds returned an illegal spread " + melds + ": " + problem);
        }
        int deadwood = Cards.deadwood(rest, melds);
        if (deadwood > knockLimit) {
            if (knockLimit == FRAMEWORK_KNOCK_LIMIT) {
                return forfeitNow(id, "getFinalMelds knocks with " + melds + ", deadwood " + deadwood
                        + ", over the knock limit " + knockLimit);
            }
            if (warned.add("knock limit " + knockLimit)) {
                note("the player knocks with deadwood " + deadwood + " but this hand's knock limit is "
                        + knockLimit + ": played as a plain discard (such knocks are noted once per limit)");
            }
            return discardMove(id, legal, discard);
        }
        if (!legal.contains("knock " + discard)) {
            note("the player knocks with " + melds + " but ginlab does not allow knock " + discard
                    + " here: played as a plain discard");
            return discardMove(id, legal, discard);
        }
        ownKnock = discard;
        return moveReply(id, "knock " + discard);
    }

    private String discardMove(Object id, List<String> legal, String discard) {
        if (!legal.contains("discard " + discard)) {
            return forfeitNow(id, "the player does not knock, and discard " + discard + " is not legal: "
                    + legal);
        }
        return moveReply(id, "discard " + discard);
    }

    private void handEnd(Map<String, Object> msg) {
        Map<String, Object> after = map(msg.get("scores"));
        int[] scores = {((Number) after.get("A")).intValue(), ((Number) after.get("B")).intValue()};
        if ("void".equals(msg.get("result"))) {
            // ginlab shows no cards of a void hand: only the bot's own is reported.
            List<String> own = Cards.sorted(hand);
            call(() -> player.reportFinalHand(me, own));
        } else {
            showdown(msg);
        }
        call(() -> player.reportScores(scores));
    }

    /** The framework's showdown calls, from ginlab's spreads (ginlab arranges both hands). */
    private void showdown(Map<String, Object> msg) {
        int knocker = seat(msg.get("knocker"));
        int defender = 1 - knocker;
        Map<String, Object> ks = map(msg.get("knocker_spread"));
        Map<String, Object> ds = map(msg.get("defender_spread"));
        List<List<String>> knockerMelds = melds(ks.get("melds"));
        List<List<String>> defenderMelds = melds(ds.get("melds"));
        List<String> layoffs = msg.get("layoffs") == null ? List.of() : strings(msg.get("layoffs"));

        call(() -> player.reportFinalMelds(knocker, copy(knockerMelds)));
        if (defender == me) {
            // Asked as the framework asks; ginlab spreads the defender's hand itself (optimally),
            // so the answer is only checked.
            call(() -> {
                List<List<String>> own = player.getFinalMelds();
                String problem = own == null ? "it returned null" : Cards.spreadProblem(hand, own);
                if (problem != null) {
                    note("as defender, getFinalMelds returned no legal spread (" + problem
                            + "); ginlab's own arrangement is used");
                }
            });
        }
        call(() -> player.reportFinalMelds(defender, copy(defenderMelds)));

        // Lay-offs one at a time onto the knocker's melds as they grow, each reported with the
        // meld before the card. A card may fit two melds (7S on 7C-7D-7H or on 8S-9S-TS) and
        // chains need an order (8S, then 7S, 6S), so the placement is searched for.
        List<Layoff> steps = new ArrayList<>();
        if (placeLayoffs(copy(knockerMelds), new ArrayList<>(layoffs), steps)) {
            for (Layoff step : steps) {
                call(() -> player.reportLayoff(defender, step.card(), step.meldBefore()));
            }
        } else {
            note("lay-offs " + layoffs + " fit no order on " + knockerMelds + "; not reported");
        }

        List<String> knockerHand = flatten(knockerMelds, strings(ks.get("deadwood")), List.of());
        List<String> defenderHand = flatten(defenderMelds, strings(ds.get("deadwood")), layoffs);
        for (int j = 0; j < 2; j++) {
            List<String> final_ = Cards.sorted(j == knocker ? knockerHand : defenderHand);
            int num = j;
            call(() -> player.reportFinalHand(num, final_));
        }
    }

    /** One lay-off: the card and the knocker's meld before it. */
    record Layoff(String card, List<String> meldBefore) {}

    /**
     * Finds an order that lays every card of {@code left} off on {@code table} (each card onto a
     * meld it extends into a meld); appends the steps to {@code steps}.
     */
    static boolean placeLayoffs(List<List<String>> table, List<String> left, List<Layoff> steps) {
        if (left.isEmpty()) {
            return true;
        }
        for (String card : new ArrayList<>(left)) {
            for (List<String> meld : table) {
                List<String> grown = new ArrayList<>(meld);
                grown.add(card);
                if (!Cards.isMeld(grown)) {
                    continue;
                }
                steps.add(new Layoff(card, List.copyOf(meld)));
                meld.add(card);
                left.remove(card);
                if (placeLayoffs(table, left, steps)) {
                    return true;
                }
                left.add(card);
                meld.remove(meld.size() - 1);
                steps.remove(steps.size() - 1);
            }
        }
        return false;
    }

    /** Runs a player call unless the game is already forfeited; a fault forfeits the game. */
    private void call(Runnable r) {
        if (forfeit != null || player == null) {
            return;
        }
        try {
            r.run();
        } catch (PlayerFault f) {
            fault(f);
        }
    }

    private void fault(PlayerFault f) {
        forfeit = f.getMessage();
        note("the player failed (its game is forfeited at this or its next decision): " + f.getMessage()
                + (f.getCause() == null ? "" : "\n" + trace(f.getCause())));
    }

    private String forfeitNow(Object id, String reason) {
        forfeit = reason;
        note("forfeit (as the framework would): " + reason);
        return moveReply(id, "forfeit: " + reason);
    }

    private void note(String text) {
        log.println("eaai-adapter: " + text);
        log.flush();
    }

    private static String trace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString().strip();
    }

    private static String moveReply(Object id, String move) {
        return "{\"type\":\"move\",\"id\":" + id + ",\"move\":" + Json.quote(move) + "}";
    }

    private static int seat(Object seat) {
        if ("A".equals(seat)) {
            return 0;
        }
        if ("B".equals(seat)) {
            return 1;
        }
        throw new IllegalArgumentException("seat " + seat + " is not A or B");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("expected an object, got " + value);
        }
        return (Map<String, Object>) value;
    }

    private static List<String> strings(Object value) {
        if (!(value instanceof List)) {
            throw new IllegalArgumentException("expected a list, got " + value);
        }
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) value) {
            out.add((String) o);
        }
        return out;
    }

    private static List<List<String>> melds(Object value) {
        List<List<String>> out = new ArrayList<>();
        for (Object meld : (List<?>) value) {
            out.add(strings(meld));
        }
        return out;
    }

    private static List<List<String>> copy(List<List<String>> melds) {
        List<List<String>> out = new ArrayList<>();
        for (List<String> meld : melds) {
            out.add(new ArrayList<>(meld));
        }
        return out;
    }

    @SafeVarargs
    private static List<String> flatten(List<List<String>> melds, List<String>... more) {
        List<String> out = new ArrayList<>();
        melds.forEach(out::addAll);
        for (List<String> cards : more) {
            out.addAll(cards);
        }
        return out;
    }
}
