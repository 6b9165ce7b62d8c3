package dev.effectful.core.store;

import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store added the way ARCHITECTURE.md's recipe says, touching nothing but its own files: a provider
 * with its own keys, listed in this module's test {@code META-INF/services}. The configuration knows
 * nothing of it, yet accepts its keys wherever keys are given, lets it check them, fails closed on its
 * errors, and hands its settings back to it.
 */
class ThirdStoreTest {

    /** A stub third store: {@code effectful.store=file}, one required key and one with a default. */
    public static final class FileStoreProvider implements IntentStoreProvider {
        static final String DIR = "effectful.store.file.dir";
        static final String POLL = "effectful.store.file.poll";

        record Settings(Path dir, Duration poll) implements StoreSettings {
            @Override
            public String describe() {
                return "file store " + dir + " poll=" + poll.toMillis() + "ms";
            }
        }

        @Override
        public String kind() {
            return "file";
        }

        @Override
        public List<String> keys() {
            return List.of(DIR, POLL);
        }

        @Override
        public StoreSettings configure(StoreKeys keys) {
            Duration poll = keys.duration(POLL, Duration.ofSeconds(1));
            if (keys.get(DIR).filter("/explode"::equals).isPresent()) {
                throw new IllegalStateException("a bug in the store");
            }
            return keys.get(DIR).<StoreSettings>map(d -> new Settings(Path.of(d), poll)).orElseGet(() -> {
                keys.error(DIR, "effectful.store=file needs " + DIR);
                return null;
            });
        }

        @Override
        public IntentStore open(StoreContext context, LocalIntentIndex local) {
            return local; // a stub: decides like this host alone
        }

        @Override
        public StoreView openView(StoreSettings settings) {
            throw new UnsupportedOperationException("a stub");
        }
    }

    private static EffectfulConfig.Loaded read(String args, Properties sys, Map<String, String> env) {
        return EffectfulConfig.read(args, sys, env);
    }

    @Test
    void itsKeysAreReadFromEverySourceAndItsSettingsComeBackToIt() {
        Properties sys = new Properties();
        sys.setProperty("effectful.store.file.poll", "250ms");
        EffectfulConfig.Loaded loaded = read("store=file", sys, Map.of("EFFECTFUL_STORE_FILE_DIR", "/srv/intents"));
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.warnings()).as("a store's keys are known keys, as -D and in the environment").isEmpty();
        assertThat(loaded.config().store().kind()).isEqualTo("file");
        assertThat(loaded.config().store().settings())
                .isEqualTo(new FileStoreProvider.Settings(Path.of("/srv/intents"), Duration.ofMillis(250)));
        assertThat(loaded.config().store().toString()).contains("file store /srv/intents");
        assertThat(loaded.config().storeContext().settings()).as("what the provider opens its store with")
                .isSameAs(loaded.config().store().settings());
        assertThat(loaded.given()).contains("effectful.store.file.dir", "effectful.store.file.poll");
        assertThat(EffectfulConfig.allKeys()).contains(FileStoreProvider.DIR, FileStoreProvider.POLL);
        assertThat(EffectfulConfig.KEYS).as("the configuration's own keys name no store's").doesNotContain(FileStoreProvider.DIR);
        assertThat(IntentStoreProviders.find("FILE")).get().isInstanceOf(FileStoreProvider.class);
    }

    @Test
    void itsErrorsFailTheConfigurationClosedNamingTheKeyAndWhereItCameFrom() {
        EffectfulConfig.Loaded missing = read("store=file", new Properties(), Map.of());
        assertThat(missing.valid()).isFalse();
        assertThat(missing.errors()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("effectful.store=file needs effectful.store.file.dir"));
        assertThat(missing.config().store().isLocal()).as("never half a store").isTrue();

        EffectfulConfig.Loaded badPoll = read("store=file,store.file.dir=/x,store.file.poll=often", new Properties(), Map.of());
        assertThat(badPoll.errors()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("effectful.store.file.poll", "from the agent argument"));
    }

    @Test
    void aStoreThatThrowsFailsTheConfigurationClosedInsteadOfEscaping() {
        EffectfulConfig.Loaded loaded = read("store=file,store.file.dir=/explode", new Properties(), Map.of());
        assertThat(loaded.errors()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("the file store could not read its settings", "a bug in the store"));
        assertThat(loaded.config().store().isLocal()).isTrue();
    }

    @Test
    void aMisspelledKeyOrKindNamesTheNearestOne() {
        assertThat(read("store=file,store.file.dri=/x", new Properties(), Map.of()).errors())
                .anySatisfy(p -> assertThat(p.message()).contains("store.file.dri", "store.file.dir"));
        Properties sys = new Properties();
        sys.setProperty("effectful.store.file.dri", "/x");
        assertThat(read("store=file,store.file.dir=/x", sys, Map.of()).warnings())
                .anySatisfy(w -> assertThat(w).contains("-Deffectful.store.file.dri", "effectful.store.file.dir"));
        assertThat(read("store=fil", new Properties(), Map.of()).errors()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("one of: local, file", "did you mean file"));
    }
}
