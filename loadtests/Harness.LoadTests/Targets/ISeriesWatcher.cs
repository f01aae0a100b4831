using System.Diagnostics;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Targets;

/// <summary>
/// A target provider that also watches its targets while a series runs: <c>matrix</c> samples each container's stats
/// into the timeline and injects the requested fault.
/// </summary>
internal interface ISeriesWatcher
{
    /// <summary>Runs beside one series until <paramref name="cancellationToken"/> ends it; never throws for a failed sample.</summary>
    Task WatchAsync(ServiceTarget target, SeriesWatch series, CancellationToken cancellationToken);
}

/// <summary>Where a watcher writes: the series, the run's recorder, and the run's clock (events count from the run's start).</summary>
internal sealed record SeriesWatch(string SeriesId, ISeriesSink Recorder, double OffsetSeconds, Stopwatch RunClock);

/// <summary>What a watcher may write into the run (the run's guarded recorder): a second of server values, an event.</summary>
internal interface ISeriesSink
{
    void RecordServer(string seriesId, int second, IReadOnlyDictionary<string, double> metrics);

    void RecordEvent(RunEvent runEvent);
}
