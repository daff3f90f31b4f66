import ginrummy.Card;
import ginrummy.GinRummyPlayer;
import java.util.ArrayList;
import java.util.List;

/**
 * A small EAAI-style player for the adapter's tests. It plays simply (takes a face-up card that
 * joins a meld, discards to the least deadwood, knocks as soon as it may) and checks that every
 * call it receives keeps the framework's contract: cards are the table's own objects, its hand
 * is 10 cards between turns and 11 while it discards, its own draws are shown, lay-offs fit the
 * meld they are reported on. A broken contract throws, which the adapter turns into a forfeit,
 * so a translation mistake fails ginlab check-bot. It also prints to System.out, which must not
 * reach the protocol.
 */
public class ContractPlayer implements GinRummyPlayer {
    private int me = -1;
    private final ArrayList<Card> hand = new ArrayList<>();
    private Card faceUp;
    private Card takenFaceUp;
    private Card chosenDiscard;
    private boolean opponentMelded;
    private boolean scoresReported = true;
    private int turns;

    static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("framework contract broken: " + what);
        }
    }

    static void requireTableCard(Card c, String where) {
        require(c != null && Card.getCard(c.getId()) == c, where + ": " + c + " is not a table card");
    }

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        require(playerNum == 0 || playerNum == 1, "playerNum " + playerNum);
        require(startingPlayerNum == 0 || startingPlayerNum == 1, "startingPlayerNum " + startingPlayerNum);
        require(cards.length == 10, "dealt " + cards.length + " cards");
        require(scoresReported, "startGame before reportScores ended the previous hand");
        me = playerNum;
        hand.clear();
        for (Card c : cards) {
            requireTableCard(c, "startGame");
            require(!hand.contains(c), "dealt " + c + " twice");
            hand.add(c);
        }
        faceUp = null;
        takenFaceUp = null;
        chosenDiscard = null;
        opponentMelded = false;
        scoresReported = false;
        turns = 0;
        System.out.println("ContractPlayer: dealt " + hand);
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        requireTableCard(card, "willDrawFaceUpCard");
        require(hand.size() == 10, "offered a card holding " + hand.size());
        require(!hand.contains(card), "offered " + card + " from its own hand");
        faceUp = card;
        ArrayList<Card> more = new ArrayList<>(hand);
        more.add(card);
        for (List<Card> meld : Melds.all(more)) {
            if (meld.contains(card)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        if (playerNum == me) {
            requireTableCard(drawnCard, "own reportDraw");
            require(hand.size() == 10, "drew holding " + hand.size());
            require(!hand.contains(drawnCard), "drew " + drawnCard + " already held");
            takenFaceUp = drawnCard == faceUp ? drawnCard : null;
            hand.add(drawnCard);
        } else if (drawnCard != null) {
            requireTableCard(drawnCard, "opponent's reportDraw");
            require(!hand.contains(drawnCard), "opponent drew " + drawnCard + " from this hand");
            require(faceUp == null || drawnCard == faceUp, "opponent drew " + drawnCard + ", face up " + faceUp);
        }
    }

    @Override
    public Card getDiscard() {
        require(hand.size() == 11, "asked to discard holding " + hand.size());
        Card best = null;
        int bestDeadwood = Integer.MAX_VALUE;
        for (Card c : hand) {
            if (c == takenFaceUp) {
                continue;
            }
            ArrayList<Card> rest = new ArrayList<>(hand);
            rest.remove(c);
            int d = Melds.deadwood(rest);
            if (d < bestDeadwood || (d == bestDeadwood && Melds.value(c) > Melds.value(best))) {
                best = c;
                bestDeadwood = d;
            }
        }
        chosenDiscard = best;
        return best;
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        requireTableCard(discardedCard, "reportDiscard");
        if (playerNum == me) {
            require(discardedCard == chosenDiscard, "own discard " + discardedCard + ", chose " + chosenDiscard);
            hand.remove(discardedCard);
        } else {
            require(!hand.contains(discardedCard), "opponent discarded " + discardedCard + " from this hand");
        }
        faceUp = discardedCard;
        takenFaceUp = null;
        turns++;
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        require(hand.size() == 10, "asked for melds holding " + hand.size());
        ArrayList<ArrayList<Card>> melds = Melds.best(hand);
        if (opponentMelded || Melds.deadwood(hand) <= 10) {
            return melds;
        }
        return null;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        for (ArrayList<Card> meld : melds) {
            require(Melds.isMeld(meld), "reported meld " + meld);
            for (Card c : meld) {
                requireTableCard(c, "reportFinalMelds");
            }
        }
        if (playerNum != me) {
            opponentMelded = true;
        }
    }

    @Override
    public void reportScores(int[] scores) {
        require(scores.length == 2 && scores[0] >= 0 && scores[1] >= 0, "scores");
        scoresReported = true;
        System.out.println("ContractPlayer: scores " + scores[0] + " " + scores[1] + " after " + turns + " turns");
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        requireTableCard(layoffCard, "reportLayoff");
        ArrayList<Card> grown = new ArrayList<>(opponentMeld);
        grown.add(layoffCard);
        require(Melds.isMeld(opponentMeld) && Melds.isMeld(grown),
                "lay-off " + layoffCard + " on " + opponentMeld);
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> finalHand) {
        for (Card c : finalHand) {
            requireTableCard(c, "reportFinalHand");
        }
        if (playerNum == me) {
            require(finalHand.size() == hand.size() && finalHand.containsAll(hand),
                    "final hand " + finalHand + ", held " + hand);
        }
    }
}
