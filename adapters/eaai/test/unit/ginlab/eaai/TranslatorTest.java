package ginlab.eaai;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Unit tests of the adapter's translation, JDK only: a plain main that prints each failure and
 * "N passed, N failed", exiting 1 on any failure. Argument: the class path of the stand-in
 * framework and the test players (for the reflection tests).
 */
public final class TranslatorTest {
    private static int passed;
    private static int failed;

    /** A scripted player that records every call. */
    static final class Fake implements NamedPlayer {
        final List<String> calls = new ArrayList<>();
        final Deque<Boolean> takes = new ArrayDeque<>();
        final Deque<String> discards = new ArrayDeque<>();
        final Deque<List<List<String>>> melds = new ArrayDeque<>();
        String throwIn;

        private void rec(String call) {
            calls.add(call);
            if (throwIn != null && call.startsWith(throwIn)) {
                throw new PlayerFault(throwIn + " threw", new IllegalStateException("scripted"));
            }
        }

        public void startGame(int p, int s, List<String> cards) {
            rec("startGame " + p + " " + s + " " + cards);
        }

        public boolean willDrawFaceUpCard(String card) {
            rec("willDrawFaceUpCard " + card);
            return takes.isEmpty() ? false : takes.pop();
        }

        public void reportDraw(int p, String card) {
            rec("reportDraw " + p + " " + card);
        }

        public String getDiscard() {
            rec("getDiscard");
            return discards.pop();
        }

        public void reportDiscard(int p, String card) {
            rec("reportDiscard " + p + " " + card);
        }

        public List<List<String>> getFinalMelds() {
            rec("getFinalMelds");
            return melds.isEmpty() ? null : melds.pop();
        }

        public void reportFinalMelds(int p, List<List<String>> m) {
            rec("reportFinalMelds " + p + " " + m);
        }

        public void reportScores(int[] scores) {
            rec("reportScores " + scores[0] + " " + scores[1]);
        }

        public void reportLayoff(int p, String card, List<String> meld) {
            rec("reportLayoff " + p + " " + card + " " + meld);
        }

        public void reportFinalHand(int p, List<String> hand) {
            rec("reportFinalHand " + p + " " + hand);
        }
    }

    static final String EAAI = "{\"knock_limit\":10,\"ace_upcard_gin_only\":false,\"spade_upcard_doubles\":false,"
            + "\"gin_bonus\":25,\"undercut_bonus\":25,\"undercut_on_tie\":true,\"big_gin_bonus\":\"off\","
            + "\"box_bonus\":0,\"game_target\":100,\"game_bonus\":0,\"shutout\":\"none\","
            + "\"next_dealer\":\"alternate\",\"last_discard_action\":false,\"deal\":\"upcard_offer\","
            + "\"max_turns\":200,\"oklahoma_boxes\":false}";
    static final String STANDARD = EAAI.replace("\"gin_bonus\":25", "\"gin_bonus\":20");

    static final String HAND = "[\"3C\",\"7C\",\"TC\",\"KC\",\"8D\",\"KD\",\"AH\",\"2H\",\"4H\",\"6H\"]";

    /** A translator around one fake (reused for every game) and its log. */
    static final class Rig {
        final Fake fake = new Fake();
        final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        final Translator t;

        Rig(boolean strict) {
            t = new Translator(() -> fake, true, strict, "fake",
                    new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        }

        String send(String line) {
            return t.handle(line);
        }

        String log() {
            return logBytes.toString(StandardCharsets.UTF_8);
        }

        void start(String seat, String dealer, String cards, String rules) {
            send("{\"type\":\"game_start\",\"seat\":\"" + seat + "\",\"seed\":1,\"scores\":{\"A\":0,\"B\":0},\"rules\":"
                    + rules + "}");
            send("{\"type\":\"hand_start\",\"hand\":1,\"dealer\":\"" + dealer + "\",\"cards\":" + cards
                    + ",\"upcard\":\"AS\",\"knock_limit\":10,\"stock_size\":31,\"scores\":{\"A\":0,\"B\":0}}");
        }

        String endTurn(int id, String hand, String legal, String taken, int knockLimit) {
            return send("{\"type\":\"decide\",\"id\":" + id + ",\"decision\":\"end_turn\",\"legal\":" + legal
                    + ",\"state\":{\"seat\":\"A\",\"dealer\":\"B\",\"hand\":" + hand
                    + ",\"upcard\":\"AS\",\"pile\":[\"QC\"],\"opponent_known\":[],\"opponent_cards\":10,"
                    + "\"stock_size\":30,\"turn\":1,\"knock_limit\":" + knockLimit + ",\"taken_from_pile\":"
                    + (taken == null ? "null" : "\"" + taken + "\"") + ",\"scores\":{\"A\":0,\"B\":0}}}");
        }
    }

    static void check(String name, boolean ok, Object detail) {
        if (ok) {
            passed++;
        } else {
            failed++;
            System.out.println("FAILED " + name + ": " + detail);
        }
    }

    static void equal(String name, Object got, Object want) {
        check(name, want.equals(got), "got " + got + ", want " + want);
    }

    static String legalFor(List<String> hand, String except, List<String> knocks) {
        List<String> out = new ArrayList<>();
        for (String c : hand) {
            if (!c.equals(except)) {
                out.add("\"discard " + c + "\"");
            }
        }
        for (String c : knocks) {
            out.add("\"knock " + c + "\"");
        }
        return "[" + String.join(",", out) + "]";
    }

    static String list(List<String> cards) {
        List<String> q = new ArrayList<>();
        cards.forEach(c -> q.add("\"" + c + "\""));
        return "[" + String.join(",", q) + "]";
    }

    static final List<String> ELEVEN = List.of("3C", "7C", "TC", "KC", "8D", "KD", "AH", "2H", "4H", "6H", "9S");

    public static void main(String[] args) throws Exception {
        json();
        cardsAndMelds();
        rules();
        upcardAndOwnStockDraw();
        forcedStockDraw();
        opponentEvents();
        knockingAndForfeits();
        playerThrows();
        showdownAsDefender();
        layoffThatFitsTwoMelds();
        voidHand();
        elevenCardDeal();
        lastChance();
        if (args.length > 0) {
            reflection(args[0]);
        } else {
            check("reflection", false, "no class path given for the stand-in framework");
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    static void json() {
        Object v = Json.parse(" {\"a\":[1,-2.5,true,null,\"x\\\"y\\u0041\\n\"],\"b\":{}} ");
        Map<?, ?> m = (Map<?, ?>) v;
        equal("json numbers and words", ((List<?>) m.get("a")).subList(0, 3), List.of(1L, -2.5, true));
        equal("json empty object", m.get("b"), Map.of());
        equal("json string escapes", ((List<?>) m.get("a")).get(4), "x\"yA\n");
        equal("json null kept", ((List<?>) m.get("a")).get(3) == null, true);
        equal("json quote", Json.quote("a\"b\\c\n\u0001"), "\"a\\\"b\\\\c\\n\\u0001\"");
        boolean threw = false;
        try {
            Json.parse("{\"a\":1} x");
        } catch (IllegalArgumentException e) {
            threw = true;
        }
        check("json rejects trailing text", threw, "no error");
    }

    static void cardsAndMelds() {
        equal("normalize 10", Cards.normalize("10h"), "TH");
        equal("normalize bad", Cards.normalize("1H") == null, true);
        check("run is a meld", Cards.isMeld(List.of("AH", "2H", "3H")), "A-2-3H");
        check("Q-K-A is not", !Cards.isMeld(List.of("QH", "KH", "AH")), "Q-K-A");
        check("set of 4", Cards.isMeld(List.of("7C", "7D", "7H", "7S")), "7777");
        check("gap run", !Cards.isMeld(List.of("4H", "5H", "7H")), "4-5-7");
        check("mixed", !Cards.isMeld(List.of("4H", "5H", "6S")), "4-5H 6S");
        List<String> hand = List.of("AH", "2H", "3H", "7C", "7D", "7H", "KS");
        List<List<String>> melds = List.of(List.of("AH", "2H", "3H"), List.of("7C", "7D", "7H"));
        equal("spread ok", Cards.spreadProblem(hand, melds) == null, true);
        equal("deadwood", Cards.deadwood(hand, melds), 10);
        check("card twice", Cards.spreadProblem(hand, List.of(List.of("AH", "2H", "3H"),
                List.of("3H", "3C", "3D"))) != null, "3H twice");
        check("card not held", Cards.spreadProblem(hand, List.of(List.of("4H", "5H", "6H"))) != null, "not held");
    }

    @SuppressWarnings("unchecked")
    static void rules() {
        equal("eaai rules are the framework's",
                Translator.rulesDifferences((Map<String, Object>) Json.parse(EAAI)) == null, true);
        String d = Translator.rulesDifferences((Map<String, Object>) Json.parse(STANDARD));
        equal("a difference is named", d, "gin_bonus=20 (framework: 25)");
        Rig strict = new Rig(true);
        strict.start("A", "B", HAND, STANDARD);
        String reply = strict.send("{\"type\":\"decide\",\"id\":1,\"decision\":\"upcard\",\"legal\":[\"take\",\"pass\"],"
                + "\"state\":{\"upcard\":\"AS\"}}");
        check("--strict-rules forfeits other rules", reply.contains("\"move\":\"forfeit: --strict-rules"), reply);
        check("--strict-rules asks the player nothing", !strict.fake.calls.contains("willDrawFaceUpCard AS"),
                strict.fake.calls);
        Rig lax = new Rig(false);
        lax.start("A", "B", HAND, STANDARD);
        check("other rules: warned in the log", lax.log().contains("gin_bonus=20 (framework: 25)"), lax.log());
        lax.start("A", "B", HAND, STANDARD);
        check("warned once", lax.log().indexOf("gin_bonus=20") == lax.log().lastIndexOf("gin_bonus=20"), lax.log());
    }

    static void upcardAndOwnStockDraw() {
        Rig r = new Rig(false);
        equal("hello", r.send("{\"type\":\"hello\",\"protocol\":1,\"options\":{}}"),
                "{\"type\":\"hello\",\"protocol\":1,\"name\":\"fake\"}");
        r.start("A", "B", HAND, EAAI);
        r.fake.takes.push(false);
        equal("upcard pass", r.send("{\"type\":\"decide\",\"id\":1,\"decision\":\"upcard\",\"legal\":[\"take\",\"pass\"],"
                + "\"state\":{\"upcard\":\"AS\"}}"), "{\"type\":\"move\",\"id\":1,\"move\":\"pass\"}");
        r.send("{\"type\":\"event\",\"event\":\"upcard_passed\",\"seat\":\"A\",\"card\":\"AS\"}");
        r.send("{\"type\":\"event\",\"event\":\"upcard_passed\",\"seat\":\"B\",\"card\":\"AS\"}");
        r.send("{\"type\":\"event\",\"event\":\"drew_stock\",\"seat\":\"A\"}");
        List<String> eleven = new ArrayList<>(List.of("3C", "7C", "9C", "TC", "KC", "8D", "KD", "AH", "2H", "4H", "6H"));
        r.fake.discards.push("KD");
        String reply = r.endTurn(2, list(eleven), legalFor(eleven, null, List.of()), null, 10);
        equal("discard", reply, "{\"type\":\"move\",\"id\":2,\"move\":\"discard KD\"}");
        equal("calls in the framework's order", r.fake.calls, List.of(
                "startGame 0 0 [3C, 7C, TC, KC, 8D, KD, AH, 2H, 4H, 6H]",
                "willDrawFaceUpCard AS",
                "reportDraw 0 9C",
                "getDiscard",
                "reportDiscard 0 KD",
                "getFinalMelds"));
        r.send("{\"type\":\"event\",\"event\":\"discarded\",\"seat\":\"A\",\"card\":\"KD\"}");
        equal("own discard event is not reported twice", r.fake.calls.size(), 6);
    }

    static void forcedStockDraw() {
        Rig r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        String reply = r.send("{\"type\":\"decide\",\"id\":3,\"decision\":\"draw\",\"legal\":[\"stock\"],"
                + "\"state\":{\"pile\":[\"AS\"]}}");
        equal("forced stock draw", reply, "{\"type\":\"move\",\"id\":3,\"move\":\"stock\"}");
        check("forced stock draw asks nothing", r.fake.calls.size() == 1, r.fake.calls);
        r.fake.takes.push(true);
        reply = r.send("{\"type\":\"decide\",\"id\":4,\"decision\":\"draw\",\"legal\":[\"stock\",\"pile\"],"
                + "\"state\":{\"pile\":[\"AS\",\"QC\"]}}");
        equal("pile draw", reply, "{\"type\":\"move\",\"id\":4,\"move\":\"pile\"}");
        equal("offered the top of the pile", r.fake.calls.get(1), "willDrawFaceUpCard QC");
    }

    static void opponentEvents() {
        Rig r = new Rig(false);
        r.start("A", "A", HAND, EAAI);
        r.send("{\"type\":\"event\",\"event\":\"took_pile\",\"seat\":\"B\",\"card\":\"QC\"}");
        r.send("{\"type\":\"event\",\"event\":\"discarded\",\"seat\":\"B\",\"card\":\"5S\"}");
        r.send("{\"type\":\"event\",\"event\":\"drew_stock\",\"seat\":\"B\"}");
        r.send("{\"type\":\"event\",\"event\":\"discarded\",\"seat\":\"B\",\"card\":\"QC\"}");
        equal("opponent's turns", r.fake.calls, List.of(
                "startGame 0 1 [3C, 7C, TC, KC, 8D, KD, AH, 2H, 4H, 6H]",
                "reportDraw 1 QC", "reportDiscard 1 5S", "reportDraw 1 null", "reportDiscard 1 QC"));
    }

    static void knockingAndForfeits() {
        List<String> hand = List.of("AH", "2H", "3H", "7C", "7D", "7H", "9S", "9D", "9C", "4S", "KS");
        List<List<String>> good = List.of(List.of("AH", "2H", "3H"), List.of("7C", "7D", "7H"),
                List.of("9S", "9D", "9C"));
        String legal = legalFor(hand, null, List.of("KS", "4S"));

        Rig r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("KS");
        r.fake.melds.push(good);
        equal("knock", r.endTurn(1, list(hand), legal, null, 10), "{\"type\":\"move\",\"id\":1,\"move\":\"knock KS\"}");

        r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("KS");
        r.fake.melds.push(List.of(List.of("AH", "2H", "3H"), List.of("7C", "7D", "9S")));
        String reply = r.endTurn(1, list(hand), legal, null, 10);
        check("illegal melds forfeit", reply.contains("\"move\":\"forfeit: getFinalMelds returned an illegal spread"),
                reply);
        reply = r.endTurn(2, list(hand), legal, null, 10);
        check("the game stays forfeited", reply.contains("forfeit"), reply);
        r.send("{\"type\":\"game_end\",\"complete\":false}");
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("KS");
        equal("the next game plays", r.endTurn(1, list(hand), legal, null, 10),
                "{\"type\":\"move\",\"id\":1,\"move\":\"discard KS\"}");

        List<String> loose = List.of("AH", "2H", "3H", "7C", "7D", "7H", "9S", "8D", "QC", "4S", "KS");
        String looseLegal = legalFor(loose, null, List.of());
        List<List<String>> over = List.of(List.of("AH", "2H", "3H"), List.of("7C", "7D", "7H"));
        r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("KS");
        r.fake.melds.push(over);
        reply = r.endTurn(1, list(loose), looseLegal, null, 10);
        check("deadwood over 10 forfeits", reply.contains("forfeit: getFinalMelds knocks with"), reply);
        r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("KS");
        r.fake.melds.push(good);
        reply = r.endTurn(1, list(hand), legalFor(hand, null, List.of()), null, 0);
        equal("over another knock limit: a plain discard", reply, "{\"type\":\"move\",\"id\":1,\"move\":\"discard KS\"}");

        r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("QC");
        reply = r.endTurn(1, list(loose), legalFor(loose, "QC", List.of()), "QC", 10);
        check("discarding the card taken from the pile forfeits",
                reply.contains("forfeit: getDiscard returned QC, the card just taken"), reply);
        r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.discards.push("5C");
        reply = r.endTurn(1, list(loose), looseLegal, null, 10);
        check("a card not held forfeits", reply.contains("forfeit: getDiscard returned 5C, which is not in the hand"),
                reply);
    }

    static void playerThrows() {
        Rig r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.throwIn = "reportDraw 1";
        r.send("{\"type\":\"event\",\"event\":\"drew_stock\",\"seat\":\"B\"}");
        r.send("{\"type\":\"event\",\"event\":\"discarded\",\"seat\":\"B\",\"card\":\"5S\"}");
        check("no call after a throw", !r.fake.calls.contains("reportDiscard 1 5S"), r.fake.calls);
        String reply = r.send("{\"type\":\"decide\",\"id\":7,\"decision\":\"draw\",\"legal\":[\"stock\",\"pile\"],"
                + "\"state\":{\"pile\":[\"5S\"]}}");
        check("a throw forfeits at the next decision", reply.contains("\"id\":7,\"move\":\"forfeit: reportDraw 1 threw"),
                reply);
        check("the stack trace is logged", r.log().contains("IllegalStateException: scripted"), r.log());
    }

    static void showdownAsDefender() {
        Rig r = new Rig(false);
        r.start("B", "B", "[\"3H\",\"4H\",\"8H\",\"9H\",\"2C\",\"2D\",\"2S\",\"KC\",\"QD\",\"JS\"]", EAAI);
        r.send("{\"type\":\"event\",\"event\":\"drew_stock\",\"seat\":\"A\"}");
        r.send("{\"type\":\"event\",\"event\":\"knocked\",\"seat\":\"A\"}");
        r.fake.melds.push(List.of(List.of("2C", "2D", "2S")));
        r.fake.calls.clear();
        r.send("{\"type\":\"hand_end\",\"result\":\"knock\",\"knocker\":\"A\",\"winner\":\"A\",\"points\":20,"
                + "\"knocker_spread\":{\"melds\":[[\"5H\",\"6H\",\"7H\"],[\"AC\",\"AD\",\"AS\"],[\"TC\",\"JC\",\"QC\"]],"
                + "\"deadwood\":[\"3S\"],\"deadwood_count\":3},"
                + "\"defender_spread\":{\"melds\":[[\"2C\",\"2D\",\"2S\"]],\"deadwood\":[\"KC\",\"QD\",\"JS\"],"
                + "\"deadwood_count\":30},\"layoffs\":[\"3H\",\"4H\",\"8H\",\"9H\"],\"scores\":{\"A\":20,\"B\":0}}");
        equal("showdown calls", r.fake.calls, List.of(
                "reportDraw 0 null",
                "reportFinalMelds 0 [[5H, 6H, 7H], [AC, AD, AS], [TC, JC, QC]]",
                "getFinalMelds",
                "reportFinalMelds 1 [[2C, 2D, 2S]]",
                "reportLayoff 1 4H [5H, 6H, 7H]",
                "reportLayoff 1 3H [5H, 6H, 7H, 4H]",
                "reportLayoff 1 8H [5H, 6H, 7H, 4H, 3H]",
                "reportLayoff 1 9H [5H, 6H, 7H, 4H, 3H, 8H]",
                "reportFinalHand 0 [AC, TC, JC, QC, AD, 5H, 6H, 7H, AS, 3S]",
                "reportFinalHand 1 [2C, KC, 2D, QD, 3H, 4H, 8H, 9H, 2S, JS]",
                "reportScores 20 0").subList(1, 11));
    }

    /** 7S fits the set 7C-7D-7H too, but only on the run do 6S and 5S follow it. */
    static void layoffThatFitsTwoMelds() {
        Rig r = new Rig(false);
        r.start("A", "A", "[\"AC\",\"5C\",\"4D\",\"AH\",\"3H\",\"4H\",\"5S\",\"6S\",\"7S\",\"8S\"]", EAAI);
        r.fake.calls.clear();
        r.send("{\"type\":\"hand_end\",\"result\":\"knock\",\"knocker\":\"B\",\"winner\":\"B\",\"points\":13,"
                + "\"knocker_spread\":{\"melds\":[[\"7C\",\"7D\",\"7H\"],[\"9S\",\"TS\",\"JS\",\"QS\"]],"
                + "\"deadwood\":[\"AD\",\"2D\",\"2H\"],\"deadwood_count\":5},"
                + "\"defender_spread\":{\"melds\":[],\"deadwood\":[\"AC\",\"5C\",\"4D\",\"AH\",\"3H\",\"4H\"],"
                + "\"deadwood_count\":18},\"layoffs\":[\"5S\",\"6S\",\"7S\",\"8S\"],\"scores\":{\"A\":0,\"B\":13}}");
        List<String> layoffs = r.fake.calls.stream().filter(c -> c.startsWith("reportLayoff")).toList();
        equal("a lay-off that fits two melds goes where the rest can follow", layoffs, List.of(
                "reportLayoff 0 8S [9S, TS, JS, QS]",
                "reportLayoff 0 7S [9S, TS, JS, QS, 8S]",
                "reportLayoff 0 6S [9S, TS, JS, QS, 8S, 7S]",
                "reportLayoff 0 5S [9S, TS, JS, QS, 8S, 7S, 6S]"));
    }

    static void voidHand() {
        Rig r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        r.fake.calls.clear();
        r.send("{\"type\":\"hand_end\",\"result\":\"void\",\"void_reason\":\"stock_end\",\"winner\":null,\"points\":0,"
                + "\"scores\":{\"A\":25,\"B\":59}}");
        equal("void hand", r.fake.calls, List.of(
                "reportFinalHand 0 [3C, 7C, TC, KC, 8D, KD, AH, 2H, 4H, 6H]", "reportScores 25 59"));
    }

    static void elevenCardDeal() {
        Rig r = new Rig(false);
        r.start("A", "B", list(ELEVEN), EAAI);
        r.fake.discards.push("KD");
        String reply = r.endTurn(1, list(ELEVEN), legalFor(ELEVEN, null, List.of()), null, 10);
        equal("eleven-card deal: discard", reply, "{\"type\":\"move\",\"id\":1,\"move\":\"discard KD\"}");
        equal("eleven-card deal: the 11th card is a draw", r.fake.calls.subList(0, 3), List.of(
                "startGame 0 0 [3C, 7C, TC, KC, 8D, KD, AH, 2H, 4H, 6H]", "reportDraw 0 9S", "getDiscard"));
        r = new Rig(false);
        r.start("A", "A", HAND, EAAI);
        r.send("{\"type\":\"event\",\"event\":\"discarded\",\"seat\":\"B\",\"card\":\"5S\"}");
        equal("eleven-card deal: the opponent's first discard", r.fake.calls.subList(1, 3),
                List.of("reportDraw 1 null", "reportDiscard 1 5S"));
    }

    static void lastChance() {
        Rig r = new Rig(false);
        r.start("A", "B", HAND, EAAI);
        String reply = r.send("{\"type\":\"decide\",\"id\":9,\"decision\":\"last_chance\",\"legal\":[\"pile\",\"pass\"],"
                + "\"state\":{\"pile\":[\"5S\"]}}");
        equal("last chance passes", reply, "{\"type\":\"move\",\"id\":9,\"move\":\"pass\"}");
        equal("last chance asks nothing", r.fake.calls.size(), 1);
    }

    /** The reflection layer over the stand-in framework, whose suit order (C H S D) is not ginlab's. */
    static void reflection(String classPath) throws Exception {
        Framework f = new Framework(classPath, "FaultyPlayer");
        Object sevenHearts = f.card("7H");
        equal("card table by the framework's names", sevenHearts.toString(), "7H");
        Class<?> cardClass = sevenHearts.getClass();
        Object table = cardClass.getField("allCards").get(null);
        check("the table's own object", java.lang.reflect.Array.get(table, 13 + 6) == sevenHearts, sevenHearts);
        check("every card", Cards.all().stream().allMatch(n -> f.card(n).toString().equals(n)), "52 names");

        NamedPlayer p = f.newPlayer();
        p.startGame(0, 0, List.of("3C", "7C", "TC", "KC", "8D", "KD", "AH", "2H", "4H", "6H"));
        p.reportDraw(0, "9S");
        System.setProperty("ginlab.eaai.fault", "foreign-discard");
        try {
            String d = p.getDiscard();
            check("a Card made with new is refused", false, d);
        } catch (PlayerFault e) {
            check("a Card made with new is refused", e.getMessage().contains("not one of the framework's Card objects"),
                    e.getMessage());
        } finally {
            System.clearProperty("ginlab.eaai.fault");
        }
        String d = p.getDiscard();
        equal("a real discard (the first of the highest deadwood)", d, "TC");
        System.setProperty("ginlab.eaai.fault", "throw-on-report");
        try {
            p.reportDiscard(0, d);
            check("a throw becomes a fault", false, "no fault");
        } catch (PlayerFault e) {
            check("a throw becomes a fault", e.getCause() instanceof IllegalStateException, e);
        } finally {
            System.clearProperty("ginlab.eaai.fault");
        }
        boolean refused = false;
        try {
            new Framework(classPath, "ginrummy.Card");
        } catch (Framework.SetupError e) {
            refused = e.getMessage().contains("does not implement ginrummy.GinRummyPlayer");
        }
        check("a class that is not a player is refused", refused, "accepted");
    }
}
