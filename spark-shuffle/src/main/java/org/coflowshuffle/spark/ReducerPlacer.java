package org.coflowshuffle.spark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.apache.spark.ShuffleDependency;
import org.coflowshuffle.coordinator.live.ExecutorSlots;
import org.coflowshuffle.coordinator.live.LiveCoordinator;
import org.coflowshuffle.coordinator.live.ShufflePlacement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Answers the DAG scheduler's question "where should reduce partition r of this shuffle run?" with
 * the coordinator's placement, as one executor location ({@code executor_<host>_<id>}, which Spark
 * treats as process-local, so it holds when several executors share a host).
 *
 * <p>It runs inside Spark's scheduler thread, so it never throws: when the coordinator cannot place
 * the shuffle it returns null, which keeps Spark's answer, and logs why once per shuffle.
 */
final class ReducerPlacer implements BiFunction<Object, Object, Object> {

  private static final Logger LOG = LoggerFactory.getLogger(ReducerPlacer.class);

  /** Placements kept for inspection after Spark dropped their shuffle. */
  private static final int HISTORY = 4096;

  private final LiveCoordinator coordinator;
  private final Set<Integer> logged = ConcurrentHashMap.newKeySet();
  private final Map<Integer, ShufflePlacement> recent =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, ShufflePlacement> eldest) {
          return size() > HISTORY;
        }
      };

  ReducerPlacer(LiveCoordinator coordinator) {
    this.coordinator = coordinator;
  }

  /** The placement made for a shuffle, also after Spark dropped it (the last 4096 are kept). */
  Optional<ShufflePlacement> recent(int shuffleId) {
    synchronized (recent) {
      return Optional.ofNullable(recent.get(shuffleId));
    }
  }

  @Override
  public Object apply(Object dependency, Object reducer) {
    int shuffleId = -1;
    try {
      ShuffleDependency<?, ?, ?> dep = (ShuffleDependency<?, ?, ?>) dependency;
      shuffleId = dep.shuffleId();
      int numMaps = dep.rdd().getNumPartitions();
      int numReducers = dep.partitioner().numPartitions();
      ShufflePlacement placement = coordinator.place(shuffleId, numMaps, numReducers);
      if (logged.add(shuffleId)) {
        synchronized (recent) {
          recent.put(shuffleId, placement);
        }
        LOG.info(
            "coflow: shuffle {} ({} maps, {} reducers) placed by {} on executors {}",
            shuffleId,
            numMaps,
            numReducers,
            placement.scheme(),
            placement.executorOfReducer().stream().map(ExecutorSlots::executorId).toList());
      }
      ExecutorSlots e = placement.executorOf((Integer) reducer);
      String location = "executor_" + e.host() + "_" + e.executorId();
      return CollectionConverters.asScala(List.of(location)).toList();
    } catch (LiveCoordinator.PlacementUnavailable | RuntimeException e) {
      if (logged.add(shuffleId)) {
        LOG.warn(
            "coflow: shuffle {} keeps Spark's reducer placement: {}", shuffleId, e.getMessage());
      }
      return null;
    }
  }
}
