package ginlab.eaai;

/** The player threw, or answered with something the framework would not accept as a card. */
final class PlayerFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PlayerFault(String message, Throwable cause) {
        super(message, cause);
    }
}
