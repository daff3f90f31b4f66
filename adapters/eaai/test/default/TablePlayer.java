import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * A player in the shape many published EAAI-21 players have: in the default package, built
 * against its own copy of the framework there (build.sh compiles it with the stand-in framework
 * moved to the default package), and reading a strategy table, {@code table.txt}, from the
 * working directory in its static initialiser; without it, it prints the exception and plays on
 * with a default. It discards its highest card (the table may say "lowest" instead), never takes
 * a card from the pile and never knocks.
 */
public class TablePlayer implements GinRummyPlayer {
    private static final boolean LOWEST = readTable();

    private static boolean readTable() {
        try {
            List<String> lines = Files.readAllLines(Paths.get("table.txt"));
            System.out.println("TablePlayer: table loaded (" + lines.size() + " lines)");
            return lines.contains("discard lowest");
        } catch (IOException e) {
            e.printStackTrace();
            return false;
        }
    }

    private final ArrayList<Card> hand = new ArrayList<>();
    private int me;

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        me = playerNum;
        hand.clear();
        hand.addAll(List.of(cards));
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        return false;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        if (playerNum == me && drawnCard != null) {
            hand.add(drawnCard);
        }
    }

    @Override
    public Card getDiscard() {
        Card chosen = hand.get(0);
        for (Card c : hand) {
            if (LOWEST ? c.getRank() < chosen.getRank() : c.getRank() > chosen.getRank()) {
                chosen = c;
            }
        }
        return chosen;
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == me) {
            hand.remove(discardedCard);
        }
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        return null;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {}

    @Override
    public void reportScores(int[] scores) {}

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {}

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {}
}
