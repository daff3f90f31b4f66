import ginrummy.Card;
import java.util.ArrayList;
import java.util.List;

/**
 * ContractPlayer with one fault, chosen by the system property ginlab.eaai.fault, for the
 * adapter's failure tests: "foreign-discard" (getDiscard returns a Card made with new),
 * "throw-on-report" (reportDiscard throws), "illegal-melds" (getFinalMelds returns a non-meld),
 * "exit" (getDiscard ends the JVM).
 */
public class FaultyPlayer extends ContractPlayer {
    private static String fault() {
        return System.getProperty("ginlab.eaai.fault", "");
    }

    @Override
    public Card getDiscard() {
        Card chosen = super.getDiscard();
        switch (fault()) {
            case "foreign-discard":
                return new Card(chosen.getRank(), chosen.getSuit());
            case "exit":
                System.exit(3);
                return chosen;
            default:
                return chosen;
        }
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (fault().equals("throw-on-report")) {
            throw new IllegalStateException("FaultyPlayer: throw-on-report");
        }
        super.reportDiscard(playerNum, discardedCard);
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        if (fault().equals("illegal-melds")) {
            ArrayList<ArrayList<Card>> melds = new ArrayList<>();
            melds.add(new ArrayList<>(List.of(Card.getCard(0), Card.getCard(14), Card.getCard(28))));
            return melds;
        }
        return super.getFinalMelds();
    }
}
