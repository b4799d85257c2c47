/*
 * Copyright The coflow-shuffle Authors
 * SPDX-License-Identifier: Apache-2.0
 */
package org.coflowshuffle.cli.spark.app;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * Sorts TeraGen data: range partitioning on split points sampled from the input (as Hadoop's
 * TeraSort does), then a sort within each partition, written to {@code part-NNNNN} files.
 */
public final class TeraSort {

  private static final int SAMPLES_PER_PARTITION = 1000;

  private TeraSort() {}

  /**
   * What a sort did.
   *
   * @param records records written
   * @param lastFetchMillis when the last reducer had all of its input, sorted (wall clock): Spark
   *     sorts what a reducer fetches inside its shuffle reader, so this is after the fetch and that
   *     sort, before the writing; stock or not, it ends every reducer's read the same way
   */
  public record Result(long records, long lastFetchMillis) {}

  /** Sorts {@code in} into {@code out} with {@code reducers} partitions. */
  public static Result run(
      JavaSparkContext sc, String in, String out, int reducers, List<String> inputHosts) {
    JavaRDD<byte[]> records = input(sc, in, inputHosts);
    // Keys are uniformly random, so the first keys of each split are a fair sample, and reading
    // only those keeps the sampling job short (as Hadoop's TeraSort samples a few splits).
    int perSplit =
        Math.max(100, SAMPLES_PER_PARTITION * reducers / Math.max(1, records.getNumPartitions()));
    List<byte[]> sample =
        records
            .mapPartitions(
                it -> {
                  List<byte[]> keys = new java.util.ArrayList<>();
                  while (it.hasNext() && keys.size() < perSplit) {
                    keys.add(TeraRecords.key(it.next()));
                  }
                  return keys.iterator();
                })
            .collect();
    RangeOnKeys partitioner = RangeOnKeys.of(sample, reducers);
    JavaPairRDD<byte[], byte[]> keyed = records.mapToPair(r -> new Tuple2<>(TeraRecords.key(r), r));
    long[] done =
        keyed
            .repartitionAndSortWithinPartitions(partitioner, new TeraRecords.KeyOrder())
            .mapPartitionsWithIndex(
                (p, it) -> {
                  // Spark's shuffle reader has fetched every block and sorted the records before
                  // the iterator reaches this function.
                  long fetched = System.currentTimeMillis();
                  long n = write(new Path(out, String.format("part-%05d", p)), it);
                  // {records, fetched}: an array, since Spark's Kryo cannot serialize records
                  return List.of(new long[] {n, fetched}).iterator();
                },
                true)
            .reduce((a, b) -> new long[] {a[0] + b[0], Math.max(a[1], b[1])});
    return new Result(done[0], done[1]);
  }

  /**
   * The records of {@code in} (comma-separated files), one split per file. With {@code hosts},
   * split i is stored on host i mod n, as HDFS names the DataNodes holding a block, so that Spark
   * runs its map task there when it can; without, nothing is stored anywhere in particular.
   */
  static JavaRDD<byte[]> input(JavaSparkContext sc, String in, List<String> hosts) {
    if (hosts.isEmpty()) {
      return sc.binaryRecords(in, TeraRecords.RECORD);
    }
    String[] files = in.split(",");
    List<Tuple2<String, Seq<String>>> located = new ArrayList<>();
    for (int i = 0; i < files.length; i++) {
      Seq<String> where =
          CollectionConverters.asScala(List.of(hosts.get(i % hosts.size()))).toSeq();
      located.add(new Tuple2<>(files[i], where));
    }
    RDD<String> paths =
        sc.sc()
            .makeRDD(
                CollectionConverters.asScala(located).toSeq(),
                ClassTag$.MODULE$.apply(String.class));
    return paths.toJavaRDD().flatMap(TeraSort::records);
  }

  /** The records of one file, 100 bytes each. */
  private static Iterator<byte[]> records(String file) throws IOException {
    Path path = new Path(file);
    byte[] all;
    try (var is = path.getFileSystem(new Configuration()).open(path)) {
      all = is.readAllBytes();
    }
    List<byte[]> out = new ArrayList<>(all.length / TeraRecords.RECORD);
    for (int off = 0; off + TeraRecords.RECORD <= all.length; off += TeraRecords.RECORD) {
      out.add(Arrays.copyOfRange(all, off, off + TeraRecords.RECORD));
    }
    return out.iterator();
  }

  private static long write(Path file, Iterator<Tuple2<byte[], byte[]>> it) throws IOException {
    FileSystem fs = file.getFileSystem(new Configuration());
    long n = 0;
    try (OutputStream os = new java.io.BufferedOutputStream(fs.create(file, true), 1 << 20)) {
      while (it.hasNext()) {
        os.write(it.next()._2());
        n++;
      }
    }
    return n;
  }

  /** Range partitioner over unsigned keys, from sorted split points. */
  static final class RangeOnKeys extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final byte[][] splits;

    private RangeOnKeys(byte[][] splits) {
      this.splits = splits;
    }

    static RangeOnKeys of(List<byte[]> sample, int partitions) {
      byte[][] sorted = sample.toArray(new byte[0][]);
      Arrays.sort(sorted, new TeraRecords.KeyOrder());
      byte[][] splits = new byte[Math.max(0, partitions - 1)][];
      for (int i = 0; i < splits.length; i++) {
        splits[i] =
            sorted.length == 0
                ? evenSplit(i + 1, partitions)
                : sorted[(int) ((long) sorted.length * (i + 1) / partitions)];
      }
      return new RangeOnKeys(splits);
    }

    /** A split point by the first two key bytes alone, for an empty sample. */
    private static byte[] evenSplit(int i, int partitions) {
      int v = (int) (65536L * i / partitions);
      byte[] k = new byte[TeraRecords.KEY];
      k[0] = (byte) (v >>> 8);
      k[1] = (byte) v;
      return k;
    }

    @Override
    public int numPartitions() {
      return splits.length + 1;
    }

    @Override
    public int getPartition(Object key) {
      byte[] k = (byte[]) key;
      int lo = 0;
      int hi = splits.length;
      while (lo < hi) { // first split greater than the key
        int mid = (lo + hi) >>> 1;
        if (TeraRecords.compareKeys(splits[mid], k) <= 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }
}
