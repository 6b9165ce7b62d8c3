package dev.effectful.it.support;

import dev.effectful.agent.e2e.EffectLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link ForkedAppTest} whose tools' effects land in an {@link EffectLedger} (one per test), which
 * counts them per verb and key and answers probes.
 */
public abstract class LedgerForkTest extends ForkedAppTest {

    /** The service the tools' effects land in. */
    protected EffectLedger ledger;

    @BeforeEach
    void startLedger() throws Exception {
        ledger = new EffectLedger();
    }

    @AfterEach
    void stopLedger() {
        ledger.close();
    }

    @Override
    protected final String ledgerUrl() {
        return ledger.url();
    }
}
