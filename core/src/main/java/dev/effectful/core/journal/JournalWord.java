package dev.effectful.core.journal;

import java.util.Locale;

/**
 * A closed word of the journal (record type, kind, outcome, effect, probe): the lower-case word it is
 * written as, and its one-byte code on disk ({@link Codes}). Both follow from the constant itself, here,
 * for every such enum: its word is its name in lower case, its code its place in the declaration, from 1.
 * So a constant is never moved or removed, and a new one goes last: the codes are part of the journal
 * format ({@code CodesTest} pins every one written so far).
 */
public interface JournalWord {

    /** The constant's name (every enum constant has one). */
    String name();

    /** The constant's place in its enum's declaration, from 0 (every enum constant has one). */
    int ordinal();

    /** The lower-case word written in the journal and shown by the CLI; made once per constant. */
    default String word() {
        return wordOf((Enum<?>) this);
    }

    /** The one-byte code written for this constant: its place in the declaration, from 1. */
    default int code() {
        return ordinal() + 1;
    }

    /** The word of any enum constant written as its name in lower case (a verdict too, which has no code). */
    static String wordOf(Enum<?> constant) {
        return Words.WORDS.get(constant.getDeclaringClass()).words[constant.ordinal()];
    }

    /** The constant of {@code type} a word on disk stands for; null for null or for a word this reader does not know. */
    static <E extends Enum<E>> E byWord(Class<E> type, String word) {
        if (word == null) {
            return null;
        }
        Words words = Words.WORDS.get(type);
        for (int i = 0; i < words.words.length; i++) {
            if (words.words[i].equals(word)) {
                return type.cast(words.constants[i]);
            }
        }
        return null;
    }

    /** An enum's constants and their words, by ordinal: a record is written on every call, so no word is made then. */
    final class Words {
        static final ClassValue<Words> WORDS = new ClassValue<>() {
            @Override
            protected Words computeValue(Class<?> type) {
                return new Words(type.getEnumConstants());
            }
        };

        private final Object[] constants;
        private final String[] words;

        private Words(Object[] constants) {
            this.constants = constants;
            this.words = new String[constants.length];
            for (int i = 0; i < constants.length; i++) {
                words[i] = ((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT);
            }
        }
    }
}
