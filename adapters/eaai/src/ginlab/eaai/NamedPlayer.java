package ginlab.eaai;

import java.util.List;

/**
 * A {@code ginrummy.GinRummyPlayer} seen through card names: the same calls, with ginlab's card
 * names ("7H") in place of the framework's {@code Card} objects. {@link Framework} implements it
 * over a real player by reflection; tests implement it directly. Every method may throw {@link
 * PlayerFault} when the player throws or answers with something that is not one of the
 * framework's cards.
 */
interface NamedPlayer {
    void startGame(int playerNum, int startingPlayerNum, List<String> cards);

    boolean willDrawFaceUpCard(String card);

    /** {@code card} is null for the opponent's face-down draw. */
    void reportDraw(int playerNum, String card);

    /** The card's name; null when the player returned null. */
    String getDiscard();

    void reportDiscard(int playerNum, String card);

    /** Null when the player does not knock. */
    List<List<String>> getFinalMelds();

    void reportFinalMelds(int playerNum, List<List<String>> melds);

    void reportScores(int[] scores);

    void reportLayoff(int playerNum, String card, List<String> opponentMeld);

    void reportFinalHand(int playerNum, List<String> hand);
}
