using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>The progress line's figures: which part of the series it times, its totals, and the last second's latencies and errors.</summary>
public sealed class ProgressTrackerTests
{
    private static readonly TimeSpan S = TimeSpan.FromSeconds(1);

    [Fact]
    public void AnHourLongSoak_AfterItsWarmUp_ShowsTheMeasuredTimeOfTheWholeHour()
    {
        // The reported bug: 01:00:10 printed as mm:ss read "00:25/00:10", the warm-up's length as the total.
        var load = SeriesLoad.Create(LoadProfile.Load("soak").WithDuration(TimeSpan.FromMinutes(60)).ToSimulations(), 10 * S);
        var tracker = Started("grpc-call-third-party-threadpool", load.Duration, seriesCount: 2);
        tracker.StartScenario(0, load.WarmUpLength, TimeSpan.Zero);

        var second = tracker.Next(Progress(second: 25, duration: load.Duration));

        Assert.False(second.WarmUp);
        Assert.Equal(15 * S, second.Elapsed);
        Assert.Equal(TimeSpan.FromHours(1), second.Total);
        Assert.StartsWith("[1/2 grpc-call-third-party-threadpool] 00:00:15/01:00:00  users 10/10  ", second.ToLine(), StringComparison.Ordinal);
        Assert.Contains("run left ~01:59:55", second.ToLine(), StringComparison.Ordinal);
    }

    [Fact]
    public void TheUsers_AreTheRunningOnesOverTheTarget_SoTheDrainsCallsHaveTheirUsers()
    {
        // Load has stopped (the target is 0) and the drain waits for 4 calls, one per user still running: the line
        // used to say "users 0 … in flight 4".
        var tracker = Started("grpc-compute-iocp", 30 * S);
        var draining = new LoadProgress("s", 31, 31 * S, 30 * S, Users: 0, RequestsInFlight: 4, Requests: 90, Failures: 0) { RunningUsers = 4 };
        var ramping = new LoadProgress("s", 2, 2 * S, 30 * S, Users: 8, RequestsInFlight: 5, Requests: 9, Failures: 0) { RunningUsers = 8 };

        var atTheEnd = tracker.Next(draining).ToLine();
        var onTheRamp = tracker.Next(ramping).ToLine();

        Assert.Contains("  users 4/0  ", atTheEnd, StringComparison.Ordinal);
        Assert.Contains("  in flight 4  ", atTheEnd, StringComparison.Ordinal);
        Assert.Contains("  users 8/8  ", onTheRamp, StringComparison.Ordinal);
        Assert.Contains("  in flight 5  ", onTheRamp, StringComparison.Ordinal);
    }

    [Fact]
    public void TheOpenModel_SaysTheArrivalRate_NotUsers()
    {
        var tracker = Started("grpc-compute-iocp", 30 * S);

        var line = tracker.Next(new LoadProgress("s", 3, 3 * S, 30 * S, Users: 30, RequestsInFlight: 2, Requests: 80, Failures: 0) { IsOpenModel = true }).ToLine();

        Assert.Contains("  arrivals 30/s  ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("users", line, StringComparison.Ordinal);
    }

    [Fact]
    public void DuringTheWarmUp_TheLineSaysSo_AndTimesTheWarmUp()
    {
        var tracker = Started("soap-compute-iocp", 30 * S);
        tracker.StartScenario(0, 10 * S, TimeSpan.Zero);

        var line = tracker.Next(Progress(second: 4, duration: 30 * S)).ToLine();

        Assert.StartsWith("[1/1 soap-compute-iocp] warm-up 00:04/00:10  ", line, StringComparison.Ordinal);
    }

    [Fact]
    public void AWarmUpBurstApart_ThenTheMeasuredScenario_CountsTheSeriesSecondsOnOneTimeline()
    {
        var tracker = Started("grpc-compute-threadpool", 25 * S);
        tracker.StartScenario(0, TimeSpan.MaxValue, 20 * S);
        var warm = tracker.Next(Progress(second: 2, duration: 3 * S));
        tracker.StartScenario(3, TimeSpan.Zero, TimeSpan.Zero);

        var measured = tracker.Next(Progress(second: 1, duration: 20 * S));

        Assert.True(warm.WarmUp);
        Assert.Equal(3 * S, warm.Total);
        Assert.False(measured.WarmUp);
        Assert.Equal(4, measured.Second);
        Assert.Contains("00:01/00:20", measured.ToLine(), StringComparison.Ordinal);
        Assert.Null(warm.WarmUpEnd);
        Assert.Equal(3, measured.WarmUpEnd);
    }

    [Fact]
    public void AWarmUpSharingTheScenario_EndsWhereTheMeasuredPartStarts_BeforeAndAfterIt()
    {
        // The live page shades the warm-up up to WarmUpEnd (Live/live.js), not to the last second flagged warm-up.
        var tracker = Started("soap-compute-iocp", 30 * S);
        tracker.StartScenario(0, 10 * S, TimeSpan.Zero);

        var warm = tracker.Next(Progress(second: 9, duration: 30 * S));
        var measured = tracker.Next(Progress(second: 11, duration: 30 * S));

        Assert.Equal(10, warm.WarmUpEnd);
        Assert.Equal(10, measured.WarmUpEnd);
    }

    [Fact]
    public void TheLastSecond_GivesPercentilesOfItsSuccesses_AndItsErrors_ThenStartsAfresh()
    {
        var tracker = Started("grpc-compute-iocp", 60 * S);
        for (var ms = 1; ms <= 100; ms++)
        {
            tracker.Record(TimeSpan.FromMilliseconds(ms), success: true);
        }

        tracker.Record(TimeSpan.FromMilliseconds(5000), success: false);
        tracker.Record(TimeSpan.FromMilliseconds(5000), success: false);

        var first = tracker.Next(Progress(second: 1, duration: 60 * S, requests: 102, failures: 2));
        // The engine has counted 5 more, not yet handed over: the rate and the percentiles are of the same requests.
        var second = tracker.Next(Progress(second: 2, duration: 60 * S, requests: 107, failures: 2));

        // HdrHistogram's values: the nearest rank's, at most 0.1 % above it (ProgressTracker.SignificantDigits).
        Assert.InRange(first.P50Ms!.Value, 50, 50 * 1.001);
        Assert.InRange(first.P99Ms!.Value, 99, 99 * 1.001);
        Assert.Equal(2, first.Errors);
        Assert.Equal(102, first.RequestsPerSecond);
        Assert.Contains("102 req/s  p50 50 ms  p99 99 ms  errors 2/s (2 of 102)", first.ToLine(), StringComparison.Ordinal);
        Assert.Null(second.P50Ms);
        Assert.Equal(0, second.Errors);
        Assert.Contains(" 0 req/s  p50 –  p99 –  errors 0/s (2 of 107)", second.ToLine(), StringComparison.Ordinal);
    }

    [Fact]
    public void RequestsRecordedOnManyThreadsAtOnce_AreAllCounted_InTheSecondThatTakesThem()
    {
        // Record takes no lock: every success and every error recorded concurrently must still be counted once.
        var tracker = Started("grpc-compute-threadpool", 60 * S);
        const int Threads = 8, PerThread = 20_000;

        Parallel.For(0, Threads, new ParallelOptions { MaxDegreeOfParallelism = Threads }, t =>
        {
            for (var i = 0; i < PerThread; i++)
            {
                tracker.Record(TimeSpan.FromMilliseconds(1 + (i % 100)), success: true);
                if (i % 10 == 0)
                {
                    tracker.Record(TimeSpan.FromSeconds(5), success: false);
                }
            }
        });
        var second = tracker.Next(Progress(second: 1, duration: 60 * S));

        Assert.Equal(Threads * PerThread + (Threads * PerThread / 10), second.RequestsPerSecond);
        Assert.Equal(Threads * PerThread / 10, second.Errors);
        Assert.InRange(second.P50Ms!.Value, 50, 50 * 1.001);
        Assert.InRange(second.P99Ms!.Value, 99, 99 * 1.001);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(137)]
    [InlineData(2_500)]
    [InlineData(3_600_000)]
    public void APercentile_IsTheValueOfItsRank_WithinThePrecisionOfHdrHistogram(double ms)
    {
        // Spread over three decades below the value, so that the rank picks it out of many buckets.
        var tracker = Started("soap-compute-iocp", 60 * S);
        for (var i = 0; i < 98; i++)
        {
            tracker.Record(TimeSpan.FromMilliseconds(ms / (1 + (i % 10))), success: true);
        }

        tracker.Record(TimeSpan.FromMilliseconds(ms), success: true);
        tracker.Record(TimeSpan.FromMilliseconds(ms * 10), success: true);

        var second = tracker.Next(Progress(second: 1, duration: 60 * S));

        // Rank 99 of 100 is the value ms; rank 100 (ms × 10) must not leak into p99.
        var precision = Math.Pow(10, -ProgressTracker.SignificantDigits);
        Assert.InRange(second.P99Ms!.Value, ms * (1 - precision), ms * (1 + precision));
    }

    [Fact]
    public void ANewScenario_DropsWhatTheLastOneRecordedSinceItsLastSecond()
    {
        var tracker = Started("grpc-compute-iocp", 60 * S);
        tracker.Record(TimeSpan.FromMilliseconds(900), success: true);
        tracker.Record(TimeSpan.FromMilliseconds(900), success: false);
        tracker.StartScenario(3, TimeSpan.Zero, TimeSpan.Zero);
        tracker.Record(TimeSpan.FromMilliseconds(2), success: true);

        var second = tracker.Next(Progress(second: 1, duration: 60 * S));

        Assert.Equal(1, second.RequestsPerSecond);
        Assert.Equal(0, second.Errors);
        Assert.InRange(second.P99Ms!.Value, 2, 2 * 1.001);
    }

    [Fact]
    public void TheServersThreads_AreTheLastScraped_UntilTheNextSeries()
    {
        var tracker = Started("grpc-compute-iocp", 60 * S, seriesCount: 2);
        var before = tracker.Next(Progress(second: 1, duration: 60 * S));
        tracker.RecordServerThreads(21);
        tracker.RecordServerThreads(23);

        var scraped = tracker.Next(Progress(second: 2, duration: 60 * S));
        var kept = tracker.Next(Progress(second: 3, duration: 60 * S));
        tracker.StartSeries(1, "grpc-compute-threadpool");
        var next = tracker.Next(Progress(second: 1, duration: 60 * S));

        Assert.Null(before.ServerThreads);
        Assert.Equal(23, scraped.ServerThreads);
        Assert.Equal(23, kept.ServerThreads);
        Assert.Null(next.ServerThreads);
    }

    [Theory]
    [InlineData(75, 3600, "00:01:15")]
    [InlineData(75, 600, "01:15")]
    [InlineData(3725, 7200, "01:02:05")]
    public void Clock_ShowsHoursWhenTheTotalReachesAnHour(int seconds, int totalSeconds, string expected) =>
        Assert.Equal(expected, ProgressSecond.Clock(TimeSpan.FromSeconds(seconds), TimeSpan.FromSeconds(totalSeconds)));

    /// <summary>A tracker whose first series has started.</summary>
    private static ProgressTracker Started(string seriesId, TimeSpan seriesDuration, int seriesCount = 1)
    {
        var tracker = new ProgressTracker(seriesCount, seriesDuration);
        tracker.StartSeries(0, seriesId);
        return tracker;
    }

    private static LoadProgress Progress(int second, TimeSpan duration, long requests = 0, long failures = 0) =>
        new("s", second, TimeSpan.FromSeconds(second), duration, Users: 10, RequestsInFlight: 0, requests, failures) { RunningUsers = 10 };
}
