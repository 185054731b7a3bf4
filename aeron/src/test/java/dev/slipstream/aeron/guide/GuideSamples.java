package dev.slipstream.aeron.guide;

import dev.slipstream.aeron.AeronInbound;
import dev.slipstream.aeron.AeronOutbound;
import dev.slipstream.aeron.InboundListener;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.HybridWaitStrategy;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;

/**
 * Every code sample of docs/guide/aeron-bridge.md, in methods a test runs; GuideSamplesTest
 * checks that each sample in the guide appears here word for word.
 */
final class GuideSamples {
    private GuideSamples() {
    }

    /** The sending process: a gateway whose last stage continues over Aeron. */
    static final class Sending {
        AeronOutbound<Quote> toEngine;
        Slipstream<Quote> gateway;

        void start(final Aeron aeron, final String channel) {
            ExclusivePublication publication = aeron.addExclusivePublication(channel, 10);
            toEngine = AeronOutbound.builder(publication, Quote.QUOTE_ENCODER).build();
            gateway = Slipstream.builder(Quote::new).name("gateway").ringSize(4096)
                    .producers(ProducerType.MULTI).waitStrategy(new HybridWaitStrategy()).build();
            gateway.handleEventsWith(toEngine.stageSpec("to-engine"));   // halts the pipeline on a failure
            gateway.start();

            gateway.publishEvent((quote, seq, price) -> {
                quote.instrument = 7;
                quote.price = price;
                quote.quantity = 100;
            }, 101L);
        }

        ShutdownResult stop() {
            ShutdownResult sent = gateway.shutdown(Duration.ofSeconds(5));   // drains into the publication
            toEngine.publication().close();
            return sent;
        }

        ShutdownResult haltWhileTheFarSideIsGone() {
            toEngine.close();            // the stage stops waiting for a publication that may never connect
            return gateway.halt();       // the result counts the events that were not sent
        }
    }

    /** The receiving process: a receiver thread into the engine's ring. */
    static final class Receiving {
        Slipstream<Quote> engine;
        AeronInbound<Quote> fromGateway;
        Thread receiver;

        void start(final Aeron aeron, final String channel, final Consumer<Quote> book, final List<String> alerts) {
            engine = Slipstream.builder(Quote::new).name("engine").ringSize(4096)
                    .producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
            engine.handleEventsWith((quote, sequence, endOfBatch) -> book.accept(quote));
            engine.start();

            fromGateway = AeronInbound.builder(aeron, channel, 10, engine.ringBuffer(), Quote.QUOTE_DECODER)
                    .listener(new InboundListener() {
                        @Override
                        public void onGap(final int sessionId, final long expected, final long received) {
                            alerts.add("session " + sessionId + ": expected " + expected + ", got " + received);
                        }
                    })
                    .build();
            receiver = new Thread(fromGateway, "from-gateway");   // not a daemon: joined when stopping, below
            receiver.start();
        }

        ShutdownResult stop() throws InterruptedException {
            fromGateway.close();         // run() returns and closes the subscription
            receiver.join();
            return engine.shutdown(Duration.ofSeconds(5));
        }
    }

    /** A dedicated media driver for production, in its own process. */
    static MediaDriver.Context productionDriver(final String aeronDir) {
        return new MediaDriver.Context()
                .aeronDirectoryName(aeronDir)                     // e.g. /dev/shm/aeron-engine (tmpfs)
                .threadingMode(ThreadingMode.DEDICATED)           // conductor, sender, receiver: a thread each
                .conductorIdleStrategy(new BackoffIdleStrategy())
                .senderIdleStrategy(new BusySpinIdleStrategy())   // pin these two to isolated cores
                .receiverIdleStrategy(new BusySpinIdleStrategy())
                .publicationTermBufferLength(16 * 1024 * 1024)    // maxMessageLength = term / 8 = 2 MiB
                .ipcTermBufferLength(16 * 1024 * 1024)
                .dirDeleteOnStart(true);
    }

    /** A client of that driver. */
    static Aeron connect(final String aeronDir) {
        return Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
    }
}
