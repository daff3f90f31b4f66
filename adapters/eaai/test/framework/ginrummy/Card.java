package ginrummy;

import java.util.HashMap;
import java.util.Map;

/**
 * ginlab's stand-in for the EAAI framework's Card class, written for the adapter's tests: the
 * same public surface the adapter and players use (a table of 52 unique cards, looked up, never
 * made), with the framework's suit order C, H, S, D, which is not ginlab's.
 */
public class Card {
    public static final String[] rankNames = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    public static final String[] suitNames = {"C", "H", "S", "D"};
    public static final int NUM_RANKS = 13;
    public static final int NUM_SUITS = 4;
    public static final int NUM_CARDS = 52;
    public static final Card[] allCards = new Card[NUM_CARDS];
    public static final Map<String, Card> strCardMap = new HashMap<>();

    static {
        for (int s = 0; s < NUM_SUITS; s++) {
            for (int r = 0; r < NUM_RANKS; r++) {
                Card c = new Card(r, s);
                allCards[c.getId()] = c;
                strCardMap.put(c.toString(), c);
            }
        }
    }

    public final int rank;
    public final int suit;

    /** Public as in the framework; a Card made here is not one of the table's cards. */
    public Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    public static Card getCard(int id) {
        return allCards[id];
    }

    public static Card getCard(int rank, int suit) {
        return allCards[suit * NUM_RANKS + rank];
    }

    public int getRank() {
        return rank;
    }

    public int getSuit() {
        return suit;
    }

    public int getId() {
        return suit * NUM_RANKS + rank;
    }

    @Override
    public String toString() {
        return rankNames[rank] + suitNames[suit];
    }
}
