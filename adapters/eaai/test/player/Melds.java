import ginrummy.Card;
import java.util.ArrayList;
import java.util.List;

/** Meld arithmetic for the test players (ginlab's own, not the framework's GinRummyUtil). */
final class Melds {
    private Melds() {}

    static int value(Card c) {
        return c == null ? -1 : Math.min(c.getRank() + 1, 10);
    }

    static boolean isMeld(List<Card> cards) {
        if (cards.size() < 3) {
            return false;
        }
        boolean set = cards.size() <= 4;
        boolean run = true;
        int low = 13;
        int high = -1;
        for (Card c : cards) {
            set &= c.getRank() == cards.get(0).getRank();
            run &= c.getSuit() == cards.get(0).getSuit();
            low = Math.min(low, c.getRank());
            high = Math.max(high, c.getRank());
        }
        return set || (run && high - low + 1 == cards.size() && cards.stream().distinct().count() == cards.size());
    }

    /** Every meld within {@code hand}. */
    static List<List<Card>> all(List<Card> hand) {
        List<List<Card>> out = new ArrayList<>();
        int n = hand.size();
        for (int mask = 0; mask < (1 << n); mask++) {
            if (Integer.bitCount(mask) < 3) {
                continue;
            }
            List<Card> pick = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if ((mask & (1 << i)) != 0) {
                    pick.add(hand.get(i));
                }
            }
            if (isMeld(pick)) {
                out.add(pick);
            }
        }
        return out;
    }

    /** The arrangement of {@code hand} with the least deadwood. */
    static ArrayList<ArrayList<Card>> best(List<Card> hand) {
        List<List<Card>> melds = all(hand);
        ArrayList<ArrayList<Card>> best = new ArrayList<>();
        search(melds, 0, new ArrayList<>(), new ArrayList<>(), best, new int[] {-1});
        return best;
    }

    private static void search(List<List<Card>> melds, int from, List<Card> used,
            ArrayList<ArrayList<Card>> chosen, ArrayList<ArrayList<Card>> best, int[] bestValue) {
        int v = used.stream().mapToInt(Melds::value).sum();
        if (v > bestValue[0]) {
            bestValue[0] = v;
            best.clear();
            for (ArrayList<Card> m : chosen) {
                best.add(new ArrayList<>(m));
            }
        }
        for (int i = from; i < melds.size(); i++) {
            List<Card> m = melds.get(i);
            if (m.stream().noneMatch(used::contains)) {
                used.addAll(m);
                chosen.add(new ArrayList<>(m));
                search(melds, i + 1, used, chosen, best, bestValue);
                chosen.remove(chosen.size() - 1);
                used.removeAll(m);
            }
        }
    }

    static int deadwood(List<Card> hand) {
        int total = hand.stream().mapToInt(Melds::value).sum();
        int melded = 0;
        for (List<Card> m : best(hand)) {
            melded += m.stream().mapToInt(Melds::value).sum();
        }
        return total - melded;
    }
}
