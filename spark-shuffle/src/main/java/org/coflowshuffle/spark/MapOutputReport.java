package org.coflowshuffle.spark;

import java.io.Serializable;

/**
 * What one map task wrote, sent from the executor to the driver plugin through Spark's plugin RPC.
 *
 * @param shuffleId the shuffle
 * @param mapIndex the map partition
 * @param executorId the executor holding the output
 * @param bytesPerReducer exact bytes written for each reduce partition
 */
record MapOutputReport(int shuffleId, int mapIndex, String executorId, long[] bytesPerReducer)
    implements Serializable {}
