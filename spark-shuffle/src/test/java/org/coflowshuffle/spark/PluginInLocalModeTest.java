package org.coflowshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * The whole chain in one JVM on Spark's local mode: the shuffle manager reports sizes through the
 * executor plugin, the woven hook asks the embedded coordinator, and the job's result is Spark's.
 */
class PluginInLocalModeTest {

  private static SparkConf conf(String scheme) {
    return new SparkConf()
        .setMaster("local[2]")
        .setAppName("plugin-local-mode")
        .set("spark.ui.enabled", "false")
        .set("spark.shuffle.manager", CoflowShuffleManager.class.getName())
        .set("spark.plugins", CoflowPlugin.NAME)
        .set(CoflowSparkConf.SCHEME.name(), scheme);
  }

  private static Map<Integer, Integer> sumByKey(JavaSparkContext sc) {
    List<Integer> ids = IntStream.range(0, 10_000).boxed().toList();
    return new TreeMap<>(
        sc.parallelize(ids, 4)
            .mapToPair(i -> new Tuple2<>(i % 7, 1))
            .reduceByKey(Integer::sum, 3)
            .collectAsMap());
  }

  private static Map<Integer, Integer> expected() {
    Map<Integer, Integer> m = new TreeMap<>();
    for (int i = 0; i < 10_000; i++) {
      m.merge(i % 7, 1, Integer::sum);
    }
    return m;
  }

  @Test
  void placesEveryReducerOfAShuffleAndKeepsTheResult() {
    try (JavaSparkContext sc = new JavaSparkContext(conf("rpc"))) {
      assertEquals(expected(), sumByKey(sc));
      ShufflePlacement p = CoflowDriverPlugin.placement(0).orElseThrow();
      assertEquals(3, p.executorOfReducer().size());
      assertEquals("driver", p.executorOf(0).executorId(), "local mode has one executor");
    }
  }

  @Test
  void aBadSettingLeavesSparksPlacementAndTheResult() {
    try (JavaSparkContext sc = new JavaSparkContext(conf("no-such-scheme"))) {
      assertEquals(expected(), sumByKey(sc));
      assertTrue(CoflowDriverPlugin.placement(0).isEmpty());
    }
  }
}
