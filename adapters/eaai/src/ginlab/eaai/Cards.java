package ginlab.eaai;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** ginlab's card names ("7H", "TD": rank then suit) and the meld rules the adapter checks. */
final class Cards {
    static final String RANKS = "A23456789TJQK";
    static final String SUITS = "CDHS";

    private Cards() {}

    /** Every card name, clubs to spades, ace to king. */
    static List<String> all() {
        List<String> names = new ArrayList<>(52);
        for (char s : SUITS.toCharArray()) {
            for (char r : RANKS.toCharArray()) {
                names.add("" + r + s);
            }
        }
        return names;
    }

    /**
     * The ginlab name of a card written {@code text} (any case, "10" for T), or null when it is
     * not a card.
     */
    static String normalize(String text) {
        String t = text.trim().toUpperCase().replace("10", "T");
        if (t.length() != 2 || RANKS.indexOf(t.charAt(0)) < 0 || SUITS.indexOf(t.charAt(1)) < 0) {
            return null;
        }
        return t;
    }

    static int rank(String card) {
        return RANKS.indexOf(card.charAt(0));
    }

    static char suit(String card) {
        return card.charAt(1);
    }

    /** Deadwood value: ace 1, face cards 10. */
    static int value(String card) {
        return Math.min(rank(card) + 1, 10);
    }

    /** A set (3 or 4 of a rank) or a run (3 or more in a row of one suit, ace low). */
    static boolean isMeld(Collection<String> meld) {
        if (meld.size() < 3 || new HashSet<>(meld).size() != meld.size()) {
            return false;
        }
        List<String> cards = new ArrayList<>(meld);
        String first = cards.get(0);
        if (cards.stream().allMatch(c -> rank(c) == rank(first))) {
            return cards.size() <= 4;
        }
        if (!cards.stream().allMatch(c -> suit(c) == suit(first))) {
            return false;
        }
        int low = cards.stream().mapToInt(Cards::rank).min().getAsInt();
        int high = cards.stream().mapToInt(Cards::rank).max().getAsInt();
        return high - low + 1 == cards.size();
    }

    /**
     * Why {@code melds} is not a legal spread of {@code hand}, or null when it is: every meld a
     * set or a run of cards in the hand, no card in two melds.
     */
    static String spreadProblem(Collection<String> hand, List<List<String>> melds) {
        Set<String> used = new HashSet<>();
        for (List<String> meld : melds) {
            if (!isMeld(meld)) {
                return meld + " is not a meld (a set of 3 or 4 of a rank, or a run of 3 or more)";
            }
            for (String c : meld) {
                if (!hand.contains(c)) {
                    return meld + " uses " + c + ", which is not in the hand " + sorted(hand);
                }
                if (!used.add(c)) {
                    return c + " is in two melds";
                }
            }
        }
        return null;
    }

    /** The deadwood of {@code hand} left outside {@code melds}. */
    static int deadwood(Collection<String> hand, List<List<String>> melds) {
        Set<String> melded = new HashSet<>();
        melds.forEach(melded::addAll);
        return hand.stream().filter(c -> !melded.contains(c)).mapToInt(Cards::value).sum();
    }

    /** {@code cards} in ginlab's order (suit, then rank). */
    static List<String> sorted(Collection<String> cards) {
        List<String> out = new ArrayList<>(cards);
        out.sort((a, b) -> SUITS.indexOf(suit(a)) * 13 + rank(a) - SUITS.indexOf(suit(b)) * 13 - rank(b));
        return out;
    }
}
