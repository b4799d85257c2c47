package org.coflowshuffle.ratelimit;

import java.io.File;
import java.io.IOException;

/**
 * Where the bytes of a block are: a segment of a file. In Spark, the shuffle block resolver of the
 * sending executor; in tests and benchmarks, plain files.
 */
@FunctionalInterface
public interface BlockSource {

  /** A segment of a file. */
  record Segment(File file, long offset, long length) {
    public Segment {
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException("segment of " + file + ": " + offset + "+" + length);
      }
    }
  }

  /**
   * The segment holding {@code blockId}.
   *
   * @throws IOException with a message naming the block when it does not exist
   */
  Segment resolve(String blockId) throws IOException;
}
